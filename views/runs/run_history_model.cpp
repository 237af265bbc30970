#include "runs/run_history_model.h"

#include "models/quantity_format.h"

#include <QLocale>

#include <algorithm>
#include <set>

namespace cb::views {

const char *historyMetricKey(int column)
{
    switch (column) {
    case RunHistoryModel::MeanJct: return "mean_jct_s";
    case RunHistoryModel::Makespan: return "makespan_s";
    case RunHistoryModel::CrossNode: return "cross_node_bytes";
    case RunHistoryModel::Energy: return "energy_kwh";
    case RunHistoryModel::Cost: return "cost";
    default: return nullptr;
    }
}

RunHistoryModel::RunHistoryModel(QObject *parent) : QAbstractTableModel(parent) {}

void RunHistoryModel::setRuns(std::vector<RunRecord> runs)
{
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

int RunHistoryModel::rowOf(std::int64_t id) const
{
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].id == id)
            return int(i);
    return -1;
}

QStringList RunHistoryModel::scenarioNames() const
{
    std::set<std::string> names;
    for (const RunRecord &r : m_runs)
        names.insert(r.scenarioName);
    QStringList out;
    for (const std::string &n : names)
        out << QString::fromStdString(n);
    return out;
}

int RunHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int RunHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QString formatMetric(int column, double v)
{
    switch (column) {
    case RunHistoryModel::MeanJct:
    case RunHistoryModel::Makespan: return formatDuration(v);
    case RunHistoryModel::CrossNode: return formatBytes(std::int64_t(v));
    case RunHistoryModel::Energy: return formatEnergy(v);
    case RunHistoryModel::Cost: return formatMoney(v, {});
    default: return formatNumber(v);
    }
}

} // namespace

QVariant RunHistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RunRecord &r = m_runs[std::size_t(index.row())];
    if (role == RunIdRole)
        return qint64(r.id);
    const int c = index.column();
    if (const char *key = historyMetricKey(c)) {
        const auto it = r.metrics.find(key);
        if (role == SortRole)
            return it == r.metrics.end() ? QVariant() : QVariant(it->second);
        if (role == Qt::DisplayRole) {
            if (it == r.metrics.end())
                return QStringLiteral("—");
            // A placement's traffic is per training iteration, a simulation's for the run.
            return c == CrossNode && r.kind == "place"
                       ? tr("%1 / iter").arg(formatMetric(c, it->second))
                       : formatMetric(c, it->second);
        }
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::ToolTipRole && it != r.metrics.end())
            return QStringLiteral("%1 = %2").arg(QLatin1String(key)).arg(it->second, 0, 'g', 12);
        return {};
    }
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole &&
        role != Qt::TextAlignmentRole)
        return {};
    if (role == Qt::TextAlignmentRole)
        return c == Id || c == Seed ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    switch (c) {
    case Id: return qint64(r.id);
    case Created: {
        if (role == Qt::DisplayRole) { // "2026-11-30T11:42:12Z" -> "2026-11-30 11:42"
            QString t = QString::fromStdString(r.created).left(16);
            return t.replace(QLatin1Char('T'), QLatin1Char(' '));
        }
        return QString::fromStdString(r.created);
    }
    case Scenario:
        if (role == Qt::ToolTipRole)
            return QStringLiteral("%1\n%2").arg(QString::fromStdString(r.scenarioName),
                                                QString::fromStdString(r.scenarioDigest));
        return QString::fromStdString(r.scenarioName);
    case Policy:
        if (role == Qt::ToolTipRole && !r.parameters.empty())
            return QString::fromStdString(r.parameters.dump(1));
        return QString::fromStdString(r.policy);
    case Seed: return quint64(r.seed);
    case Kind:
        return r.status == "complete" ? QString::fromStdString(r.kind)
                                      : QStringLiteral("%1 (%2)").arg(
                                            QString::fromStdString(r.kind),
                                            QString::fromStdString(r.status));
    default: return {};
    }
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const names[ColumnCount] = {
        QT_TR_NOOP("Run"),      QT_TR_NOOP("Created"),  QT_TR_NOOP("Scenario"),
        QT_TR_NOOP("Policy"),   QT_TR_NOOP("Seed"),     QT_TR_NOOP("Kind"),
        QT_TR_NOOP("Mean JCT"), QT_TR_NOOP("Makespan"), QT_TR_NOOP("Cross-node"),
        QT_TR_NOOP("Energy"),   QT_TR_NOOP("Cost")};
    return tr(names[section]);
}

} // namespace cb::views
