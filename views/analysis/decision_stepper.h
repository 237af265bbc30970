#pragma once
// The decision stepper: the list of a run's placement decisions and, for the decision at the
// cursor, the table of nodes x plugins and the cluster state (GPUs allocated per node).
// First / back / step / last, and play / pause at a chosen speed. Moves are incremental: the
// DecisionReplay updates only what the decisions in between changed, and the models emit
// dataChanged instead of resetting, so one step stays cheap on large clusters.
//
// Two-run mode (History > Where They Part > Step Both): another run of the same scenario is
// stepped beside this one, decision k beside decision k. The list shows the other run's pick
// and tints the rows where the runs differ; "previous / next difference" jump between them;
// under the "why" line the other run's decision and the contrast of each run's pick in the
// other's scores; the topology outlines the other run's pick dashed.

#include "analysis/run_session.h"

#include <QWidget>

#include <memory>

class QLabel;
class QSlider;
class QSortFilterProxyModel;
class QTableView;
class QTimer;
class QToolButton;

namespace cb {
class DecisionAlignment;
class DecisionReplay;
}

namespace cb::views {

struct NodeOverlay;
class ClusterStateModel;
class DecisionListModel;
class DecisionTableModel;

class DecisionStepper : public QWidget
{
    Q_OBJECT

public:
    explicit DecisionStepper(QWidget *parent = nullptr);
    ~DecisionStepper() override;

    /// Shows a run (null clears); the cursor goes to the first decision.
    void setSession(std::shared_ptr<const RunSession> session);
    std::shared_ptr<const RunSession> session() const { return m_session; }
    /// Current decision (-1 when there is none).
    int cursor() const;
    int decisionCount() const;
    const DecisionReplay *replay() const { return m_replay.get(); }
    DecisionListModel *listModel() const { return m_listModel; }
    DecisionTableModel *tableModel() const { return m_tableModel; }
    ClusterStateModel *stateModel() const { return m_stateModel; }
    QTableView *tableView() const { return m_tableView; }
    bool isPlaying() const;
    /// Decisions per second while playing.
    int speed() const;
    void setSpeed(int decisionsPerSecond);

public slots:
    void seek(int decision);
    void first();
    void back();
    void step();
    void last();
    void play();
    void pause();
    void togglePlay();
    /// Contrast the pick of every decision with node `node` (a click on the topology), -1
    /// for none: the row under the "why" line then shows each plugin's weighted difference,
    /// the plugin that decided it, the filter reason if the node was ruled out, and the
    /// smallest weight change that would make the node win (sched/decision_contrast.h).
    void setContrastNode(int node);

public:
    int contrastNode() const { return m_contrastNode; }
    /// The contrast row's text as shown (plain text).
    QString contrastText() const;

    /// Two-run mode: steps `partner` (a run of the same scenario, with a decision log) beside
    /// the shown run; null leaves the mode. A new session (setSession) leaves it too.
    void setPartner(std::shared_ptr<const RunSession> partner);
    std::shared_ptr<const RunSession> partner() const { return m_partner; }
    /// The alignment of the two logs (null outside two-run mode).
    const DecisionAlignment *alignment() const { return m_alignment.get(); }
    /// The other run's decision at the cursor, as shown (plain text; empty outside the mode).
    QString partnerText() const;
    /// The other run's pick at the cursor as a node index of this run's cluster, -1 if none.
    int partnerPick() const;

public slots:
    /// Two-run mode: the cursor to the next (previous) decision where the runs differ.
    void nextDifference();
    void previousDifference();
    void clearPartner() { setPartner(nullptr); }

    /// The decision at the cursor in words (the why line's tooltip, told when asked for:
    /// narrating a decision on 16,384 nodes routes every flow of the cluster state).
    QString narration() const;

signals:
    /// The cursor moved (or a new session was shown); `decision` is -1 without decisions.
    void cursorChanged(int decision);
    /// Two-run mode started or ended.
    void partnerChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateControls();
    void updatePartner();
    void showDecidingColumn();

    std::shared_ptr<const RunSession> m_session;
    std::unique_ptr<DecisionReplay> m_replay;
    DecisionListModel *m_listModel;
    DecisionTableModel *m_tableModel;
    ClusterStateModel *m_stateModel;
    QSortFilterProxyModel *m_tableProxy;
    QTableView *m_listView;
    QTableView *m_tableView;
    QTableView *m_stateView;
    QToolButton *m_first, *m_back, *m_play, *m_step, *m_last;
    QSlider *m_speed;
    QLabel *m_speedLabel;
    QLabel *m_position;
    QLabel *m_why;
    QLabel *m_contrast;
    int m_contrastNode = -1;
    QTimer *m_timer;
    std::shared_ptr<const RunSession> m_partner;
    std::unique_ptr<DecisionAlignment> m_alignment;
    QWidget *m_partnerBar;
    QLabel *m_partnerSummary;
    QToolButton *m_previousDifference, *m_nextDifference, *m_closePartner;
    QLabel *m_partnerWhy;
};

} // namespace cb::views

namespace cb::views {
/// The topology colouring for the stepper's cursor: feasible nodes by total score relative
/// to the best and worst feasible total of the decision, filtered nodes grey, the chosen
/// node marked, allocated GPUs per node. Empty overlay without a decision.
NodeOverlay decisionOverlay(const DecisionStepper &stepper);
} // namespace cb::views
