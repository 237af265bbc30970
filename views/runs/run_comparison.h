#pragma once
// What the comparison view compares: the key metrics of a few runs against a baseline run,
// with absolute and relative deltas, and each run's job completion times for the CDF.
// ComparisonModel shows the delta table (rows: metrics; columns: per run its value, the
// delta against the baseline and the delta in percent; the baseline only its value).

#include "store/workspace.h"

#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb::views {

/// One compared metric: its key in RunRecord::metrics, a title and how to print values.
struct ComparedMetric
{
    const char *key;
    const char *title;
    enum class Unit { Bytes, Seconds, KWh, Money, Count } unit;
};

/// Cross-node traffic, mean JCT, makespan, energy, cost, tardiness, tardiness cost, total
/// cost, due-date violations and stranded GPU-hours, in that order.
const std::vector<ComparedMetric> &comparedMetrics();

struct ComparedRun
{
    std::int64_t id = 0;
    QString label;                        ///< "#12 dltap seed 1", "(placed)" when not simulated
    std::string kind;                     ///< "simulate", "place", ...
    std::string costModel;                ///< energy, gpu-hours, catalogue (simulated runs)
    std::map<std::string, double> metrics;
    std::vector<double> jctSeconds;       ///< finished jobs' completion times, ascending
    QString currency;                     ///< of its costs (the scenario's); empty: unknown
    std::string scenarioDigest;           ///< the scenario version it ran on; empty: unknown
};

/// Runs of more than one version of a scenario (an edit or an import between them), each
/// version once with its runs' labels and job counts ("#19 dltap seed 1: 10 jobs"); empty when
/// all ran on one version (or a version is unknown).
QStringList scenarioVersionsCompared(const std::vector<ComparedRun> &runs);

/// A stored run as compared: label, metrics and the JCTs of the finished jobs, read from the
/// stored timeline (a run file's "jobs"; none for placement-only runs).
ComparedRun comparedRun(const RunRecord &record);

struct MetricDelta
{
    double baseline = 0;
    double value = 0;
    double absolute = 0;            ///< value - baseline
    std::optional<double> percent;  ///< 100 * absolute / baseline; empty when baseline is 0
};

/// The delta of `key` between `run` and `baseline`; empty when either lacks the metric.
std::optional<MetricDelta> metricDelta(const ComparedRun &baseline, const ComparedRun &run,
                                       const std::string &key);

/// Points of the empirical CDF of sorted values: (x_i, (i + 1) / n), as a staircase.
std::vector<std::pair<double, double>> empiricalCdf(std::vector<double> values);

/// A value with its unit, for tables and axis labels ("1.23 TB", "2:03:04", "449.2 kWh").
QString formatMetricValue(ComparedMetric::Unit unit, double value, const QString &currency = {});

class ComparisonModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum { ValueRole = Qt::UserRole + 1 }; ///< raw double (value, delta or percent)

    explicit ComparisonModel(QObject *parent = nullptr);

    void setRuns(std::vector<ComparedRun> runs, int baseline = 0);
    void setBaseline(int run);
    int baseline() const { return m_baseline; }
    const std::vector<ComparedRun> &runs() const { return m_runs; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Column of run r's value; its delta and percent follow, except for the baseline's,
    /// which has its value only.
    int valueColumn(int run) const;

private:
    /// The run and the part (0 value, 1 delta, 2 percent) of a column after the first.
    std::pair<int, int> locate(int column) const;

    std::vector<ComparedRun> m_runs;
    int m_baseline = 0;
};

} // namespace cb::views
