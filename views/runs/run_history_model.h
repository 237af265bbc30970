#pragma once
// The runs stored in a workspace as a table: id, created, scenario, policy, seed, kind and the
// key metrics. The model holds the records it was given (Workspace::runs(), without logs and
// timelines); the history panel reloads it after runs are added or deleted. Sorting and the
// scenario filter are left to a QSortFilterProxyModel: SortRole gives raw values.

#include "store/workspace.h"

#include <QAbstractTableModel>

#include <vector>

namespace cb::views {

class RunHistoryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        Id, Created, Scenario, Policy, Seed, Kind, MeanJct, Makespan, CrossNode, Energy, Cost,
        ColumnCount
    };
    /// Raw value of a cell (number or string) for sorting; RunIdRole gives the run id on
    /// every column.
    enum Role { SortRole = Qt::UserRole + 1, RunIdRole };

    explicit RunHistoryModel(QObject *parent = nullptr);

    void setRuns(std::vector<RunRecord> runs);
    const std::vector<RunRecord> &runs() const { return m_runs; }
    const RunRecord &run(int row) const { return m_runs[std::size_t(row)]; }
    /// Row of a run id, or -1.
    int rowOf(std::int64_t id) const;
    /// The distinct scenario names, sorted.
    QStringList scenarioNames() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<RunRecord> m_runs;
};

/// The metric a history column shows ("mean_jct_s", ...), or nullptr for other columns.
const char *historyMetricKey(int column);

} // namespace cb::views
