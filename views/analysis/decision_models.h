#pragma once
// Item models of the decision stepper, all over one RunSession (null: empty models):
//  - DecisionListModel: one row per decision (job, task, chosen node, total, why) with the
//    job events logged after it; beside another run (the stepper's two-run mode) also that
//    run's decision at the same index, the rows where the runs differ tinted;
//  - DecisionTableModel: for the current decision one row per node, columns filter (why a
//    node was filtered out), raw and weighted score per plugin, total; the winner row is
//    bold on a highlight, tied nodes tinted. Changing the decision keeps the row and column
//    counts and only emits dataChanged;
//  - ClusterStateModel: allocated GPUs and bound tasks per node at the stepper cursor (read
//    from a DecisionReplay); a move emits dataChanged for the nodes that changed.

#include "analysis/run_session.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace cb {
class DecisionAlignment;
class DecisionReplay;
}

namespace cb::views {


class DecisionListModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    /// Other: the other run's decision at the same index (empty without another run).
    enum Column { Number, Job, Task, Node, Other, Total, Why, ColumnCount };
    explicit DecisionListModel(QObject *parent = nullptr);

    void setSession(std::shared_ptr<const RunSession> session);
    /// The run stepped beside this one and the alignment of the two logs (both null: none).
    /// The alignment must outlive the model's use of it (the stepper owns both).
    void setPartner(std::shared_ptr<const RunSession> partner, const DecisionAlignment *alignment);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString otherText(int row) const;

    std::shared_ptr<const RunSession> m_session;
    std::vector<QString> m_events; ///< per decision: the job events logged after it
    std::shared_ptr<const RunSession> m_partner;
    const DecisionAlignment *m_alignment = nullptr;
};

class DecisionTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    /// Column layout: Node, Total, Filter, then per plugin Raw and Weighted (total first, so
    /// that it stays in view however many plugins the policy has).
    static constexpr int kNodeColumn = 0;
    static constexpr int kTotalColumn = 1;
    static constexpr int kFilterColumn = 2;
    static constexpr int kFirstPluginColumn = 3;
    /// Role for sorting: the row's total (double; -1 for a filtered node), the chosen node a
    /// hair above the nodes tied with it so that it leads the sorted table.
    static constexpr int SortRole = Qt::UserRole + 1;
    /// Where a row stays whichever way the table is sorted: -1 first (the chosen node), 1 last
    /// (the summary of the nodes the log did not keep), 0 sorted by SortRole.
    static constexpr int PinRole = Qt::UserRole + 2;

    explicit DecisionTableModel(QObject *parent = nullptr);

    /// A new run, showing its decision `decision` (-1: none) in the same reset.
    void setSession(std::shared_ptr<const RunSession> session, int decision = -1);
    /// Shows decision `index` (-1: none, a row per node with its name only): one row per
    /// row the log kept, in cluster order, then one "+ N more nodes" row when the log's detail
    /// dropped some (filtered and lower-scored counts, the range of their totals). Emits
    /// dataChanged when the row count stays (Full logs), else resets.
    void setDecision(int index);
    int decision() const { return m_decision; }
    int totalColumn() const { return kTotalColumn; }
    /// The plugin that decided the current pick (decidingPlugin), -1 when none did.
    int decidingPluginIndex() const { return m_deciding; }
    /// Its weighted-score column, -1 when none; its header is bold and marked ▶.
    int decidingColumn() const;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void select(int index); ///< m_decision and what follows from it, no signals
    int rowsOf(int decision) const;
    QVariant omittedData(const cb::Decision &d, int col, int role) const;

    std::shared_ptr<const RunSession> m_session;
    int m_decision = -1;
    int m_deciding = -1;
    std::vector<char> m_tied; ///< per node: among the nodes tied for the best total
};

class ClusterStateModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Node, Allocated, Capacity, Use, Tasks, ColumnCount };
    explicit ClusterStateModel(QObject *parent = nullptr);

    /// `replay` must outlive the model or be replaced before it goes (null clears).
    void setReplay(std::shared_ptr<const RunSession> session, const DecisionReplay *replay);
    /// Call after the replay moved: emits dataChanged for the nodes it changed.
    void replayMoved();
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const RunSession> m_session;
    const DecisionReplay *m_replay = nullptr;
};

/// Text of a score: integers without decimals, else two decimals.
QString formatScore(double value);

/// The plugin whose weighted score puts the chosen node furthest ahead of the runner-up (the
/// best other feasible node with a row), or -1: no pick, no runner-up, or no plugin favours
/// the pick (it won a tie).
int decidingPlugin(const cb::DecisionLog &log, const cb::Decision &d);

} // namespace cb::views
