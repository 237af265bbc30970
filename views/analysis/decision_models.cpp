#include "analysis/decision_models.h"

#include "runs/glossary.h"

#include "runs/decision_replay.h"
#include "runs/run_diff.h"
#include "models/quantity_format.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

#include <cmath>

namespace cb::views {

namespace {
const QColor kWinner{0xff, 0xe0, 0xb2};
const QColor kTied{0xff, 0xf3, 0xe0};
const QColor kFiltered{0x90, 0xa4, 0xae};
const QColor kDiffers{0xe8, 0xea, 0xf6}; // a row where the two stepped runs differ
} // namespace

QString formatScore(double value)
{
    if (value == std::floor(value) && std::abs(value) < 1e15)
        return QString::number(value, 'f', 0);
    return QString::number(value, 'f', 2);
}

// ---- DecisionListModel ---------------------------------------------------------------------

DecisionListModel::DecisionListModel(QObject *parent) : QAbstractTableModel(parent) {}

void DecisionListModel::setSession(std::shared_ptr<const RunSession> session)
{
    beginResetModel();
    m_session = std::move(session);
    m_events.clear();
    if (m_session) {
        m_events.resize(m_session->log.decisions.size());
        for (const JobEvent &e : m_session->log.events)
            if (e.afterDecision >= 0 && e.afterDecision < int(m_events.size())) {
                QString &t = m_events[std::size_t(e.afterDecision)];
                if (!t.isEmpty())
                    t += QLatin1Char('\n');
                t += QStringLiteral("%1: %2").arg(QString::fromStdString(e.jobId),
                                                   QString::fromStdString(e.what));
            }
    }
    endResetModel();
}

void DecisionListModel::setPartner(std::shared_ptr<const RunSession> partner,
                                   const DecisionAlignment *alignment)
{
    m_partner = alignment ? std::move(partner) : nullptr;
    m_alignment = m_partner ? alignment : nullptr;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString DecisionListModel::otherText(int row) const
{
    if (!m_partner)
        return {};
    const DecisionLog &other = m_partner->log;
    if (row >= int(other.decisions.size()))
        return tr("(no decision)");
    const Decision &b = other.decisions[std::size_t(row)];
    const QString node = b.pick >= 0 && b.pick < int(other.nodeNames.size())
                             ? QString::fromStdString(other.nodeNames[std::size_t(b.pick)])
                             : tr("(none)");
    const Decision &a = m_session->log.decisions[std::size_t(row)];
    if (a.jobId == b.jobId && a.role == b.role && a.group == b.group &&
        a.indexInRole == b.indexInRole)
        return node;
    return QStringLiteral("%1 %2 → %3")
        .arg(QString::fromStdString(b.jobId), QString::fromStdString(b.task()), node);
}

int DecisionListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_session ? 0 : int(m_session->log.decisions.size());
}

int DecisionListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DecisionListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Decision &d = m_session->log.decisions[std::size_t(index.row())];
    const QString &events = m_events[std::size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Number: return d.index + 1;
        case Job: return QString::fromStdString(d.jobId);
        case Task: return QString::fromStdString(d.task());
        case Node:
            return d.pick >= 0 && d.pick < int(m_session->log.nodeNames.size())
                       ? QString::fromStdString(m_session->log.nodeNames[std::size_t(d.pick)])
                       : tr("(none)");
        case Other: return otherText(index.row());
        case Total:
            if (const CandidateRow *r = d.row(d.pick); r && r->feasible())
                return formatScore(r->total);
            return QString();
        case Why:
            return events.isEmpty() ? QString::fromStdString(d.why)
                                    : QString::fromStdString(d.why) + QStringLiteral(" — ") +
                                          QString(events).replace(QLatin1Char('\n'),
                                                                  QStringLiteral("; "));
        }
    } else if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(d.why);
        if (!events.isEmpty())
            tip += QStringLiteral("\n") + events;
        return tip;
    } else if (role == Qt::BackgroundRole && m_alignment && m_alignment->differs(index.row())) {
        return QBrush(kDiffers);
    } else if (role == Qt::ForegroundRole && d.pick < 0) {
        return QBrush(QColor(0xc6, 0x28, 0x28));
    } else if (role == Qt::TextAlignmentRole && (index.column() == Number || index.column() == Total)) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant DecisionListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Number: return tr("#");
    case Job: return tr("Job");
    case Task: return tr("Task");
    case Node: return tr("Chosen node");
    case Other: return tr("Other run");
    case Total: return tr("Total");
    case Why: return tr("Why");
    }
    return {};
}

// ---- DecisionTableModel --------------------------------------------------------------------

DecisionTableModel::DecisionTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void DecisionTableModel::setSession(std::shared_ptr<const RunSession> session, int decision)
{
    // One reset straight to `decision`: going through the name-only rows first (a row per
    // node, 16,384 on a large cluster) cost a second reset and a sort of every node.
    beginResetModel();
    m_session = std::move(session);
    select(m_session && decision >= 0 && decision < int(m_session->log.decisions.size())
               ? decision
               : -1);
    endResetModel();
}

void DecisionTableModel::select(int index)
{
    m_decision = index;
    m_deciding = index >= 0 ? decidingPlugin(m_session->log, m_session->log.decisions[std::size_t(index)])
                            : -1;
    // Membership in the tie, once per decision (data() is asked per cell and while sorting).
    m_tied.assign(m_session ? m_session->log.nodeNames.size() : 0, 0);
    if (index >= 0)
        for (int n : m_session->log.decisions[std::size_t(index)].tied)
            if (n >= 0 && n < int(m_tied.size()))
                m_tied[std::size_t(n)] = 1;
}

void DecisionTableModel::setDecision(int index)
{
    if (!m_session || index < -1 || index >= int(m_session->log.decisions.size()))
        index = -1;
    if (index == m_decision)
        return;
    // Full logs keep a row per node in every decision: same row count, only data changes.
    // Top:K logs keep a different set of nodes per decision: reset.
    const int before = rowCount();
    const bool reset = before != rowsOf(index);
    if (reset)
        beginResetModel();
    select(index);
    if (reset)
        endResetModel();
    else if (rowCount() > 0)
        emit dataChanged(this->index(0, 0), this->index(rowCount() - 1, columnCount() - 1));
    if (!reset && columnCount() > 0)
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

int DecisionTableModel::decidingColumn() const
{
    return m_deciding < 0 ? -1 : kFirstPluginColumn + 2 * m_deciding + 1;
}

int DecisionTableModel::rowsOf(int decision) const
{
    if (!m_session)
        return 0;
    if (decision < 0)
        return int(m_session->log.nodeNames.size());
    const Decision &d = m_session->log.decisions[std::size_t(decision)];
    return int(d.rows.size()) + (d.omitted.nodes() > 0 ? 1 : 0);
}

int DecisionTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : rowsOf(m_decision);
}

int DecisionTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_session
               ? 0
               : kFirstPluginColumn + 2 * int(m_session->log.pluginNames.size());
}

QVariant DecisionTableModel::omittedData(const Decision &d, int col, int role) const
{
    const OmittedRows &o = d.omitted;
    switch (role) {
    case Qt::DisplayRole:
        if (col == kNodeColumn)
            return o.nodes() == 1 ? tr("+ 1 more node") : tr("+ %1 more nodes").arg(o.nodes());
        if (col == kFilterColumn) {
            QStringList parts;
            if (o.filteredNodes() > 0)
                parts << tr("%1 filtered").arg(o.filteredNodes());
            const int tied = o.tied;
            if (tied > 0)
                parts << tr("%1 tied").arg(tied);
            if (o.scored > tied)
                parts << tr("%1 scored lower").arg(o.scored - tied);
            return parts.join(QStringLiteral(", "));
        }
        if (col == kTotalColumn && o.scored > 0)
            return o.minTotal == o.maxTotal
                       ? formatScore(o.minTotal)
                       : QStringLiteral("%1 – %2").arg(formatScore(o.minTotal), formatScore(o.maxTotal));
        return {};
    case SortRole:
        return col == kNodeColumn ? QVariant(int(m_session->log.nodeNames.size()))
                                  : QVariant(-2.0);
    case PinRole:
        return 1;
    case Qt::ForegroundRole:
        return QBrush(kFiltered);
    case Qt::FontRole: {
        QFont f;
        f.setItalic(true);
        return f;
    }
    case Qt::TextAlignmentRole:
        return col == kTotalColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole:
        return QString::fromStdString(m_session->log.omittedSummary(d, std::size_t(-1)));
    }
    return {};
}

QVariant DecisionTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int r = index.row(), col = index.column();
    if (m_decision < 0) {
        if (col == kNodeColumn && role == Qt::DisplayRole)
            return QString::fromStdString(m_session->log.nodeNames[std::size_t(r)]);
        if (col == kNodeColumn && role == SortRole)
            return r;
        return {};
    }
    const Decision &d = m_session->log.decisions[std::size_t(m_decision)];
    if (r >= int(d.rows.size()))
        return omittedData(d, col, role);
    const CandidateRow *row = &d.rows[std::size_t(r)];
    const int node = row->node;
    if (col == kNodeColumn && role == Qt::DisplayRole)
        return QString::fromStdString(m_session->log.nodeNames[std::size_t(node)]);
    const bool winner = node == d.pick;
    const bool tied = node < int(m_tied.size()) && m_tied[std::size_t(node)];
    switch (role) {
    case Qt::DisplayRole:
        if (col == kFilterColumn)
            return row->feasible() ? tr("fits") : QString::fromStdString(m_session->log.reason(*row));
        if (!row->feasible())
            return QString();
        if (col == totalColumn())
            return formatScore(row->total);
        if (col >= kFirstPluginColumn) {
            const std::size_t plugin = std::size_t(col - kFirstPluginColumn) / 2;
            const bool weighted = (col - kFirstPluginColumn) % 2 == 1;
            if (plugin >= m_session->log.pluginNames.size())
                return QString();
            return formatScore(weighted ? m_session->log.weighted(d, *row, plugin)
                                        : d.rawScore(*row, plugin));
        }
        return {};
    case SortRole:
        if (col == kNodeColumn)
            return node;
        return row->feasible() ? row->total + (winner ? 1e-6 : 0.0) : -1.0;
    case PinRole:
        return winner ? -1 : 0;
    case Qt::BackgroundRole:
        if (winner)
            return QBrush(kWinner);
        if (tied)
            return QBrush(kTied);
        return {};
    case Qt::ForegroundRole:
        return row->feasible() ? QVariant() : QVariant(QBrush(kFiltered));
    case Qt::FontRole:
        if (winner) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return col >= kFirstPluginColumn || col == kTotalColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant();
    case Qt::ToolTipRole:
        if (winner)
            return tr("Chosen: %1").arg(QString::fromStdString(d.why));
        if (!row->feasible())
            return tr("Filtered out: %1").arg(QString::fromStdString(m_session->log.reason(*row)));
        return tied ? tr("Tied with the chosen node") : QVariant();
    }
    return {};
}

QVariant DecisionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool deciding = m_deciding >= 0 && section >= kFirstPluginColumn &&
                          (section - kFirstPluginColumn) / 2 == m_deciding;
    if (role == Qt::ToolTipRole && section >= kFirstPluginColumn) {
        const std::size_t plugin = std::size_t(section - kFirstPluginColumn) / 2;
        QString tip = tr("%1: raw score 0..10, then weighted (× %2)")
                          .arg(QString::fromStdString(m_session->log.pluginNames[plugin]),
                               formatScore(m_session->log.weights[plugin]));
        if (const std::string g = pluginGlossary(m_session->log.pluginNames[plugin]); !g.empty())
            tip += QLatin1Char('\n') + QString::fromStdString(g);
        if (deciding)
            tip += QLatin1Char('\n') +
                   tr("Decided this pick: the chosen node's largest lead over the runner-up");
        return tip;
    }
    if (role == Qt::FontRole && deciding) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role != Qt::DisplayRole)
        return {};
    if (section == kNodeColumn)
        return tr("Node");
    if (section == kFilterColumn)
        return tr("Filter");
    if (section == totalColumn())
        return tr("Total");
    const std::size_t plugin = std::size_t(section - kFirstPluginColumn) / 2;
    const QString name = QString::fromStdString(m_session->log.pluginNames[plugin]);
    return (section - kFirstPluginColumn) % 2 == 0
               ? (deciding ? QStringLiteral("▶ ") + name : name)
               : tr("×%1").arg(formatScore(m_session->log.weights[plugin]));
}

int decidingPlugin(const DecisionLog &log, const Decision &d)
{
    const CandidateRow *pick = d.pick >= 0 ? d.row(d.pick) : nullptr;
    if (!pick || !pick->feasible() || log.pluginNames.empty())
        return -1;
    const CandidateRow *runnerUp = nullptr;
    for (const CandidateRow &r : d.rows)
        if (r.feasible() && r.node != d.pick && (!runnerUp || r.total > runnerUp->total))
            runnerUp = &r;
    if (!runnerUp)
        return -1;
    int best = -1;
    double lead = 0;
    for (std::size_t p = 0; p < log.pluginNames.size(); ++p) {
        const double l = log.weighted(d, *pick, p) - log.weighted(d, *runnerUp, p);
        if (l > lead + 1e-12) {
            lead = l;
            best = int(p);
        }
    }
    return best;
}

// ---- ClusterStateModel ---------------------------------------------------------------------

ClusterStateModel::ClusterStateModel(QObject *parent) : QAbstractTableModel(parent) {}

void ClusterStateModel::setReplay(std::shared_ptr<const RunSession> session,
                                  const DecisionReplay *replay)
{
    beginResetModel();
    m_session = replay ? std::move(session) : nullptr;
    m_replay = replay;
    endResetModel();
}

void ClusterStateModel::replayMoved()
{
    if (!m_replay)
        return;
    for (int n : m_replay->changedNodes())
        emit dataChanged(index(n, Allocated), index(n, Tasks));
}

int ClusterStateModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_session ? 0 : int(m_session->scenario.cluster.nodes.size());
}

int ClusterStateModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClusterStateModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const cb::Node &n = m_session->scenario.cluster.nodes[std::size_t(index.row())];
    const double used = m_replay->allocatedGpus(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Node: return QString::fromStdString(n.id);
        case Allocated: return formatNumber(used);
        case Capacity: return n.gpus;
        case Use:
            return n.gpus > 0 ? QStringLiteral("%1 %").arg(used / n.gpus * 100, 0, 'f', 0)
                              : QString();
        case Tasks: return m_replay->boundTasks(index.row());
        }
    } else if (role == Qt::BackgroundRole && index.column() == Use && n.gpus > 0 && used > 0) {
        // Green to orange as the node fills.
        const double f = std::clamp(used / n.gpus, 0.0, 1.0);
        return QBrush(QColor::fromHsvF(float(0.33 - 0.25 * f), float(0.15 + 0.45 * f), 1.0f));
    } else if (role == Qt::TextAlignmentRole && index.column() != Node) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant ClusterStateModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Node: return tr("Node");
    case Allocated: return tr("GPUs used");
    case Capacity: return tr("GPUs");
    case Use: return tr("Use");
    case Tasks: return tr("Tasks");
    }
    return {};
}

} // namespace cb::views
