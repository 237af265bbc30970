#pragma once
// The run history (a dock): the workspace's runs as a sortable table, filtered by scenario.
// Show reopens a stored run from its stored placement, decision log and timeline (nothing is
// recomputed); Compare hands the selected runs to the comparison view; Delete removes runs
// after a confirmation; Where They Part aligns two runs decision by decision.

#include "analysis/run_session.h"
#include "runs/run_comparison.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace cb::views {

class RunHistoryModel;

class HistoryPanel : public QWidget
{
    Q_OBJECT

public:
    explicit HistoryPanel(QWidget *parent = nullptr);

    void setWorkspacePath(const QString &path);
    QString workspacePath() const { return m_workspacePath; }
    RunHistoryModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }

    /// Shows only runs of this scenario name (empty: all). The open scenario's name is
    /// offered even before it has runs: the list is then empty and says how many runs other
    /// scenarios have.
    void setScenarioFilter(const QString &name);
    /// Run ids of the selected rows, in table order.
    std::vector<std::int64_t> selectedRuns() const;
    void selectRuns(const std::vector<std::int64_t> &ids);

    /// Reopens a run (no recomputation) and emits sessionRequested; false with the problem
    /// in the status line when it cannot be read.
    bool showRun(std::int64_t id);
    /// Reads the runs (with timelines) and emits compareRequested.
    bool compareRuns(const std::vector<std::int64_t> &ids);
    /// Aligns two runs of one scenario and opens "Where they part" (RunDiffDialog); false
    /// with the problem in the status line when they cannot be read or are of different
    /// scenarios.
    bool diffRuns(std::int64_t a, std::int64_t b);
    /// Deletes runs; asks first unless `confirm` is false.
    bool deleteRuns(const std::vector<std::int64_t> &ids, bool confirm = true);
    QString statusText() const;
    void setStatusText(const QString &text);

public slots:
    /// Reads the runs again (after a run was stored), keeping the selection.
    void reload();
    /// Reloads and selects the run.
    void runStored(qint64 id);

signals:
    void sessionRequested(std::shared_ptr<const cb::views::RunSession> session);
    void compareRequested(std::vector<cb::views::ComparedRun> runs);
    /// After a run was shown from "Where they part": step it to decision `decision`.
    void seekRequested(int decision);
    /// "Step both" in "Where they part": show run `a` with run `b` beside it, at `decision`.
    void pairRequested(std::shared_ptr<const cb::views::RunSession> a,
                       std::shared_ptr<const cb::views::RunSession> b, int decision);

private:
    void updateButtons();
    /// The line under the table: how many runs are listed, of how many, and where.
    void updateStatus();

    QString m_workspacePath;
    RunHistoryModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QComboBox *m_scenario;
    QPushButton *m_show;
    QPushButton *m_compare;
    QPushButton *m_diff;
    QPushButton *m_delete;
    QLabel *m_status;
    QString m_openScenario; ///< the last name given to setScenarioFilter
    bool m_listed = false;  ///< the workspace was read (else m_status says why not)
};

} // namespace cb::views
