#include "analysis/sts_decision_models.h"

#include "analysis/sts_session.h"
#include "models/quantity_format.h"

#include <QColor>
#include <QFont>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cb::views {

namespace {

QVariant alignment(bool numeric)
{
    return QVariant::fromValue(Qt::AlignVCenter | (numeric ? Qt::AlignRight : Qt::AlignLeft));
}

QString epochs(double e)
{
    return QString::number(e, 'f', 2).remove(QRegularExpression(QStringLiteral("\\.?0+$")));
}

const StsEventRecord *eventOf(const StsRun *run, int event)
{
    if (!run || event < 0 || event >= int(run->log.events().size()))
        return nullptr;
    return &run->log.events()[std::size_t(event)];
}

} // namespace

QString formatStsCost(double cost, int decimals)
{
    return QString::number(cost, 'f', decimals);
}

QString formatStsPhases(const std::vector<StsPhaseRecord> &phases)
{
    QStringList parts;
    bool named = false; // ("epochs" said once, on the first range)
    for (const StsPhaseRecord &ph : phases) {
        const QString config = QString::fromStdString(ph.config);
        const QString from = epochs(ph.fromEpoch), to = epochs(ph.toEpoch);
        if (from == to) { // (a phase too short to show as a range: "124.98–124.98" read as none)
            parts << QObject::tr("%1 under 0.01 epochs at %2").arg(config, from);
            continue;
        }
        parts << QStringLiteral("%1 %2%3–%4")
                     .arg(config, named ? QString() : QObject::tr("epochs "), from, to);
        named = true;
    }
    return parts.join(QStringLiteral(", "));
}

// ---------------------------------------------------------------------------------------

StsEventListModel::StsEventListModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void StsEventListModel::setRun(std::shared_ptr<const StsRun> run)
{
    beginResetModel();
    m_run = std::move(run);
    endResetModel();
}

int StsEventListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_run ? 0 : int(m_run->log.events().size());
}

int StsEventListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StsEventListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const StsEventRecord &e = m_run->log.events()[std::size_t(index.row())];
    const int placed = int(std::count_if(e.jobs.begin(), e.jobs.end(),
                                         [](const StsJobDecision &d) { return !d.chosen.empty(); }));
    if (role == Qt::TextAlignmentRole)
        return alignment(index.column() != Trigger);
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case Number: return index.row() + 1;
        case Time: return e.time;
        case Trigger: return QString::fromStdString(e.trigger);
        case Jobs: return int(e.jobs.size());
        case Placed: return placed;
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Time)
        return tr("%1 s after the start").arg(e.time, 0, 'f', 3);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Number: return index.row() + 1;
    case Time: return formatDuration(e.time);
    case Trigger: return QString::fromStdString(e.trigger);
    case Jobs: return int(e.jobs.size());
    case Placed: return placed;
    default: return {};
    }
}

QVariant StsEventListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Number: return tr("#");
    case Time: return tr("Time");
    case Trigger: return tr("Trigger");
    case Jobs: return tr("Jobs");
    case Placed: return tr("Running");
    default: return {};
    }
}

// ---------------------------------------------------------------------------------------

StsJobListModel::StsJobListModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void StsJobListModel::setEvent(std::shared_ptr<const StsRun> run, int event)
{
    beginResetModel();
    m_run = std::move(run);
    m_event = eventOf(m_run.get(), event);
    endResetModel();
}

int StsJobListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_event ? 0 : int(m_event->jobs.size());
}

int StsJobListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StsJobListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const StsJobDecision &d = m_event->jobs[std::size_t(index.row())];
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return alignment(column == Order || column == Pressure || column == DoneEpochs ||
                         column == Phase);
    if (role == Qt::ForegroundRole && d.chosen.empty())
        return QColor(0x9a, 0x3b, 0x12); // waits
    if (role == Qt::UserRole) {
        switch (column) {
        case Order: return index.row() + 1;
        case Job: return QString::fromStdString(d.job);
        case Pressure: return d.pressure;
        case DoneEpochs: return d.doneEpochs;
        case Chosen: return QString::fromStdString(d.chosen);
        case Node: return QString::fromStdString(d.node);
        case Phase: return d.phaseSeconds;
        case Reason: return QString::fromStdString(d.reason);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && column == Pressure)
        return pressureToolTip();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case Order: return index.row() + 1;
    case Job: return QString::fromStdString(d.job);
    case Pressure: // -4.5e-13 (on time to the rounding) reads 0, not -0
        return formatNumber(std::round(std::abs(d.pressure) < 0.5 ? 0.0 : d.pressure));
    case DoneEpochs: return epochs(d.doneEpochs);
    case Chosen:
        if (d.chosen.empty())
            return tr("waits");
        return d.sharedGpu >= 0 ? tr("%1 (GPU %2 shared)")
                                      .arg(QString::fromStdString(d.chosen))
                                      .arg(d.sharedGpu)
                                : QString::fromStdString(d.chosen);
    case Node: return QString::fromStdString(d.node);
    case Phase:
        if (d.chosen.empty())
            return QString();
        return d.phaseSeconds > 0 ? formatDuration(d.phaseSeconds) : tr("to the end");
    case Reason: return QString::fromStdString(d.reason);
    default: return {};
    }
}

QString StsJobListModel::pressureToolTip()
{
    return tr("Pressure, in seconds: when the job would finish if it ran from now on its "
              "fastest configuration, minus its due date. Above 0 it is late even so; the "
              "higher, the sooner STS takes it");
}

QVariant StsJobListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // (the header explains the column too: a student asked what the negative numbers were)
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Pressure)
        return pressureToolTip();
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Order: return tr("#");
    case Job: return tr("Job");
    case Pressure: return tr("Pressure");
    case DoneEpochs: return tr("Epochs done");
    case Chosen: return tr("Chosen");
    case Node: return tr("Node");
    case Phase: return tr("Phase");
    case Reason: return tr("Why");
    default: return {};
    }
}

// ---------------------------------------------------------------------------------------

StsCandidateModel::StsCandidateModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void StsCandidateModel::setJob(std::shared_ptr<const StsRun> run, int event, int job)
{
    beginResetModel();
    m_run = std::move(run);
    m_decision = nullptr;
    m_order.clear();
    m_chosen = -1;
    m_decimals = 2;
    if (const StsEventRecord *e = eventOf(m_run.get(), event);
        e && job >= 0 && job < int(e->jobs.size()))
        m_decision = &e->jobs[std::size_t(job)];
    if (m_decision) {
        const auto &c = m_decision->candidates;
        m_order.resize(c.size());
        std::iota(m_order.begin(), m_order.end(), 0);
        std::stable_sort(m_order.begin(), m_order.end(), [&c](int a, int b) {
            return c[std::size_t(a)].expectedCost < c[std::size_t(b)].expectedCost;
        });
        // Costs read to the cent, unless two candidates would then read alike: then to four
        // decimals, so that the order of the table shows in its numbers.
        for (std::size_t r = 1; r < m_order.size(); ++r) {
            const double a = c[std::size_t(m_order[r - 1])].expectedCost,
                         b = c[std::size_t(m_order[r])].expectedCost;
            if (a != b && formatStsCost(a, 2) == formatStsCost(b, 2))
                m_decimals = 4;
        }
        if (!m_decision->chosen.empty())
            for (std::size_t r = 0; r < m_order.size(); ++r)
                if (c[std::size_t(m_order[r])].enacted == m_decision->chosen) {
                    m_chosen = int(r);
                    break;
                }
    }
    endResetModel();
}

int StsCandidateModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_order.size());
}

int StsCandidateModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StsCandidateModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const StsCandidateRecord &c =
        m_decision->candidates[std::size_t(m_order[std::size_t(index.row())])];
    const int column = index.column();
    const bool chosen = index.row() == m_chosen;
    switch (role) {
    case Qt::TextAlignmentRole:
        return alignment(column == Expected || column == Energy || column == Tardiness);
    case Qt::FontRole:
        if (chosen) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::BackgroundRole:
        return chosen ? QVariant(QColor(0xd7, 0xf0, 0xd2)) : QVariant();
    case Qt::UserRole:
        switch (column) {
        case GpuType: return QString::fromStdString(c.gpuType);
        case Kind: return QString::fromStdString(c.kind);
        case Expected: return c.expectedCost;
        case Energy: return c.expectedEnergyCost;
        case Tardiness: return c.expectedTardinessCost;
        case Phases: return int(c.phases.size());
        case Enacted: return c.enactedSeconds;
        default: return {};
        }
    case Qt::ToolTipRole:
        if (chosen)
            return tr("Enacted: %1 for %2 (%3)")
                .arg(QString::fromStdString(c.enacted), formatDuration(c.enactedSeconds),
                     QString::fromStdString(m_decision->reason));
        if (column == Kind)
            return tr("loose: the smallest configuration meets the due date; optimised: "
                      "phases that just meet it; tardy: even the fastest misses it at the "
                      "most epochs (its tardiness cost is expected over when the job stops, "
                      "so it can be small)");
        if (column == Energy)
            return tr("The expected cost of running the phases at the configurations' prices "
                      "(the STS paper's energy cost), over when the job stops");
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (column) {
        case GpuType: return QString::fromStdString(c.gpuType);
        case Kind: return QString::fromStdString(c.kind);
        case Expected: return formatStsCost(c.expectedCost, m_decimals);
        case Energy: return formatStsCost(c.expectedEnergyCost, m_decimals);
        case Tardiness: // (a tardy plan's expected tardiness below a cent is not none)
            return QString::fromStdString(formatAmount(c.expectedTardinessCost, m_decimals));
        case Phases: return formatStsPhases(c.phases);
        case Enacted:
            return c.enactedSeconds > 0 ? QStringLiteral("%1 for %2")
                                              .arg(QString::fromStdString(c.enacted),
                                                   formatDuration(c.enactedSeconds))
                                        : QString::fromStdString(c.enacted);
        default: return {};
        }
    default: return {};
    }
}

QVariant StsCandidateModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case GpuType: return tr("GPU type");
    case Kind: return tr("Kind");
    case Expected: return tr("Expected cost");
    case Energy:
        return tr("Running");
    case Tardiness: return tr("Tardiness");
    case Phases: return tr("Phases");
    case Enacted: return tr("Enacted");
    default: return {};
    }
}

} // namespace cb::views
