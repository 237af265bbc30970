#include "runs/run_comparison.h"

#include "runs/glossary.h"
#include "runs/run_service.h"

#include "models/quantity_format.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace cb::views {

const std::vector<ComparedMetric> &comparedMetrics()
{
    using U = ComparedMetric::Unit;
    static const std::vector<ComparedMetric> metrics = {
        {"cross_node_bytes", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Cross-node traffic"), U::Bytes},
        {"mean_jct_s", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Mean JCT"), U::Seconds},
        {"makespan_s", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Makespan"), U::Seconds},
        {"energy_kwh", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Energy"), U::KWh},
        {"cost", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Cost"), U::Money},
        {"tardiness_s", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Tardiness"), U::Seconds},
        // What STS minimises, and what every run can be compared on: resource cost plus the
        // tardiness cost of late jobs, and how many jobs missed their due date.
        {"tardiness_cost", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Tardiness cost"), U::Money},
        {"total_cost", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Total cost"), U::Money},
        {"violations", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Due-date violations"), U::Count},
        // What all-or-nothing admission left idle (simulated runs only).
        {"stranded_gpu_h", QT_TRANSLATE_NOOP("cb::views::ComparisonModel", "Stranded GPU-hours"), U::Count},
    };
    return metrics;
}

ComparedRun comparedRun(const RunRecord &record)
{
    ComparedRun run;
    run.id = record.id;
    // (named as the steppers name it: a stochastic method by its own name, "STS")
    const std::string method = stochasticMethod(record.policy);
    run.label = QStringLiteral("#%1 %2 seed %3")
                    .arg(record.id)
                    .arg(QString::fromStdString(method.empty() ? record.policy : method))
                    .arg(record.seed);
    run.kind = record.kind;
    if (record.kind == "place")
        run.label += QStringLiteral(" (placed)");
    run.metrics = record.metrics;
    run.scenarioDigest = record.scenarioDigest;
    if (record.parameters.is_object() && record.parameters.contains("cost") &&
        record.parameters["cost"].is_string())
        run.costModel = record.parameters["cost"].get<std::string>();
    // The stored timeline is a run file, possibly wrapped as {"run": {...}}.
    const nlohmann::json *doc = &record.timeline;
    if (doc->is_object() && doc->contains("run") && (*doc)["run"].is_object())
        doc = &(*doc)["run"];
    if (doc->is_object() && doc->contains("jobs") && (*doc)["jobs"].is_array())
        for (const auto &job : (*doc)["jobs"])
            if (job.is_object() && job.contains("jct_s") && job["jct_s"].is_number())
                run.jctSeconds.push_back(job["jct_s"].get<double>());
    std::sort(run.jctSeconds.begin(), run.jctSeconds.end());
    return run;
}

QStringList scenarioVersionsCompared(const std::vector<ComparedRun> &runs)
{
    std::vector<std::string> digests; // in order of first run
    for (const ComparedRun &r : runs) {
        if (r.scenarioDigest.empty())
            return {};
        if (std::find(digests.begin(), digests.end(), r.scenarioDigest) == digests.end())
            digests.push_back(r.scenarioDigest);
    }
    if (digests.size() < 2)
        return {};
    QStringList versions;
    for (const std::string &d : digests) {
        QStringList labels;
        QString jobs;
        for (const ComparedRun &r : runs)
            if (r.scenarioDigest == d) {
                labels << r.label;
                if (const auto it = r.metrics.find("jobs"); it != r.metrics.end() && jobs.isEmpty())
                    jobs = QObject::tr("%n job(s)", nullptr, int(it->second));
            }
        versions << (jobs.isEmpty()
                         ? labels.join(QStringLiteral(", "))
                         : QStringLiteral("%1: %2").arg(labels.join(QStringLiteral(", ")), jobs));
    }
    return versions;
}

std::optional<MetricDelta> metricDelta(const ComparedRun &baseline, const ComparedRun &run,
                                       const std::string &key)
{
    const auto b = baseline.metrics.find(key);
    const auto v = run.metrics.find(key);
    if (b == baseline.metrics.end() || v == run.metrics.end())
        return std::nullopt;
    MetricDelta d;
    d.baseline = b->second;
    d.value = v->second;
    d.absolute = d.value - d.baseline;
    if (d.baseline != 0)
        d.percent = 100.0 * d.absolute / d.baseline;
    return d;
}

std::vector<std::pair<double, double>> empiricalCdf(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    std::vector<std::pair<double, double>> points;
    const double n = double(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        points.emplace_back(values[i], double(i + 1) / n);
    return points;
}

QString formatMetricValue(ComparedMetric::Unit unit, double value, const QString &currency)
{
    const QString sign = value < 0 ? QStringLiteral("−") : QString();
    const double a = std::abs(value);
    switch (unit) {
    case ComparedMetric::Unit::Bytes: return sign + formatByteAmount(a);
    case ComparedMetric::Unit::Seconds: return sign + formatDuration(a);
    case ComparedMetric::Unit::KWh: return sign + formatEnergy(a);
    case ComparedMetric::Unit::Money:
        return sign + formatMoney(a, currency.isEmpty() ? QStringLiteral("USD") : currency);
    case ComparedMetric::Unit::Count: return sign + formatNumber(a);
    }
    return {};
}

ComparisonModel::ComparisonModel(QObject *parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setRuns(std::vector<ComparedRun> runs, int baseline)
{
    // Beside a simulated run, a placement's traffic (per iteration) is not set against the
    // whole run's: it goes under the per-iteration names a simulated run gives it.
    if (std::any_of(runs.begin(), runs.end(),
                    [](const ComparedRun &r) { return simulatedMetrics(r.metrics); }))
        for (ComparedRun &r : runs)
            r.metrics = perIterationNamed(std::move(r.metrics));
    beginResetModel();
    m_runs = std::move(runs);
    m_baseline = m_runs.empty() ? 0 : std::clamp(baseline, 0, int(m_runs.size()) - 1);
    endResetModel();
}

void ComparisonModel::setBaseline(int run)
{
    if (m_runs.empty() || run < 0 || run >= int(m_runs.size()) || run == m_baseline)
        return;
    // The columns move: the new baseline has its value only, the old one gets deltas.
    beginResetModel();
    m_baseline = run;
    endResetModel();
}

int ComparisonModel::valueColumn(int run) const
{
    int column = 1;
    for (int r = 0; r < run; ++r)
        column += r == m_baseline ? 1 : 3;
    return column;
}

std::pair<int, int> ComparisonModel::locate(int column) const
{
    for (int r = 0; r < int(m_runs.size()); ++r) {
        const int start = valueColumn(r), width = r == m_baseline ? 1 : 3;
        if (column < start + width)
            return {r, column - start};
    }
    return {-1, 0};
}

int ComparisonModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_runs.empty() ? 0 : int(comparedMetrics().size());
}

int ComparisonModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    // The metric, then three columns a run, but one for the baseline.
    return m_runs.empty() ? 1 : 3 * int(m_runs.size()) - 1;
}

QVariant ComparisonModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ComparedMetric &metric = comparedMetrics()[std::size_t(index.row())];
    if (index.column() == 0) {
        if (role == Qt::DisplayRole)
            return tr(metric.title);
        if (role == Qt::ToolTipRole) {
            const std::string g = metricGlossary(metric.key);
            return g.empty() ? QString::fromLatin1(metric.key)
                             : QString::fromStdString(g) + QStringLiteral(" (") +
                                   QString::fromLatin1(metric.key) + QLatin1Char(')');
        }
        return {};
    }
    const auto [run, part] = locate(index.column()); // part: 0 value, 1 delta, 2 percent
    if (run < 0)
        return {};
    const auto d = metricDelta(m_runs[std::size_t(m_baseline)], m_runs[std::size_t(run)],
                               metric.key);
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (!d) {
        if (role == Qt::DisplayRole)
            return QStringLiteral("—");
        if (role == Qt::ToolTipRole)
            return tr("Not recorded for this run (placement-only runs have no simulated times)");
        return {};
    }
    const double raw = part == 0 ? d->value : part == 1 ? d->absolute : d->percent.value_or(0);
    if (role == ValueRole)
        return part == 2 && !d->percent ? QVariant() : QVariant(raw);
    if (role == Qt::FontRole && run == m_baseline && part == 0) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ForegroundRole && part > 0 && run != m_baseline && d->absolute != 0)
        // Every compared metric is better when smaller.
        return QBrush(d->absolute < 0 ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xb3, 0x26, 0x1e));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (part == 0)
        return role == Qt::ToolTipRole ? QString::number(d->value, 'g', 15)
                                       : formatMetricValue(metric.unit, d->value,
                                                           m_runs[std::size_t(run)].currency);
    if (part == 1) {
        if (role == Qt::ToolTipRole)
            return QString::number(d->absolute, 'g', 15);
        const QString magnitude = formatMetricValue(metric.unit, std::abs(d->absolute),
                                                    m_runs[std::size_t(run)].currency);
        return d->absolute > 0 ? QStringLiteral("+") + magnitude
               : d->absolute < 0 ? QStringLiteral("−") + magnitude
                                 : magnitude;
    }
    if (!d->percent)
        return QStringLiteral("n/a");
    if (role == Qt::ToolTipRole)
        return QString::number(*d->percent, 'g', 15);
    const double p = *d->percent;
    return (p > 0 ? QStringLiteral("+") : p < 0 ? QStringLiteral("−") : QString()) +
           formatPercent(std::abs(p) / 100);
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == 0)
        return tr("Metric");
    const auto [run, part] = locate(section);
    if (run < 0)
        return {};
    switch (part) {
    case 0: {
        // Two lines, "#4 k8s-default" over "seed 1 (baseline)": the table is half as wide, and
        // fits a laptop's dock with three runs.
        QString label = m_runs[std::size_t(run)].label;
        if (const qsizetype seed = label.indexOf(QLatin1String(" seed ")); seed > 0)
            label[seed] = QLatin1Char('\n');
        return label + (run == m_baseline ? tr(" (baseline)") : QString());
    }
    case 1: return tr("Δ");
    default: return tr("Δ %");
    }
}

} // namespace cb::views
