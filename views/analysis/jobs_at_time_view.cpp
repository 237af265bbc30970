#include "analysis/jobs_at_time_view.h"

#include "models/quantity_format.h"

#include <QHeaderView>
#include <algorithm>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace cb::views {

JobsAtTimeModel::JobsAtTimeModel(QObject *parent) : QAbstractTableModel(parent) {}

void JobsAtTimeModel::setSession(std::shared_ptr<const RunSession> session)
{
    m_session = std::move(session);
    m_time = 0;
    refresh();
}

void JobsAtTimeModel::setTime(double seconds)
{
    if (seconds == m_time)
        return;
    m_time = seconds;
    refresh();
}

void JobsAtTimeModel::refresh()
{
    beginResetModel();
    m_rows = m_session ? jobsAt(*m_session, m_time) : std::vector<QueuedJob>{};
    endResetModel();
}

int JobsAtTimeModel::runningCount() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(),
                             [](const QueuedJob &q) { return q.running; }));
}

int JobsAtTimeModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int JobsAtTimeModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobsAtTimeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QueuedJob &q = m_rows[std::size_t(index.row())];
    const Job &job = m_session->scenario.jobs[std::size_t(q.job)];
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignVCenter | (index.column() == Time || index.column() == Nodes
                                                           ? Qt::AlignRight
                                                           : Qt::AlignLeft));
    if (role == Qt::ToolTipRole && index.column() == NodeListOrReason)
        return !q.running ? q.reason
               : q.configuration.isEmpty()
                   ? q.nodes
                   : tr("%1 on %2").arg(q.configuration, q.nodes);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case JobId: return QString::fromStdString(job.id);
    case Name: return QString::fromStdString(job.name);
    case State: return q.running ? QStringLiteral("R") : QStringLiteral("PD");
    case Time: return formatDuration(q.seconds);
    case Nodes: return q.running ? QVariant(q.nodeCount) : QVariant(QString());
    case NodeListOrReason:
        if (!q.running)
            return QStringLiteral("(%1)").arg(q.reason);
        return q.configuration.isEmpty() ? q.nodes
                                         : QStringLiteral("%1 (%2)").arg(q.nodes, q.configuration);
    default: return {};
    }
}

QVariant JobsAtTimeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case JobId: return tr("JOBID");
    case Name: return tr("NAME");
    case State: return tr("ST");
    case Time: return tr("TIME");
    case Nodes: return tr("NODES");
    case NodeListOrReason: return tr("NODELIST(REASON)");
    default: return {};
    }
}

JobsAtTimeView::JobsAtTimeView(QWidget *parent)
    : QWidget(parent)
    , m_model(new JobsAtTimeModel(this))
    , m_table(new QTableView(this))
    , m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("jobsAtTime"));
    m_table->setObjectName(QStringLiteral("jobsAtTimeTable"));
    m_table->setModel(m_model);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_summary->setObjectName(QStringLiteral("jobsAtTimeSummary"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    updateSummary();
}

QString JobsAtTimeView::summaryText() const
{
    return m_summary->text();
}

void JobsAtTimeView::setSession(std::shared_ptr<const RunSession> session)
{
    m_model->setSession(std::move(session));
    updateSummary();
}

void JobsAtTimeView::setTime(double seconds)
{
    m_model->setTime(seconds);
    updateSummary();
}

void JobsAtTimeView::updateSummary()
{
    const int running = m_model->runningCount();
    const int pending = m_model->rowCount() - running;
    if (m_model->rowCount() == 0 && running == 0) {
        m_summary->setText(tr("No run shown, or no job queued at this time"));
        return;
    }
    m_summary->setText(tr("At %1 (the timeline's scrubber): %2 running, %3 pending")
                           .arg(formatDuration(m_model->time()))
                           .arg(running)
                           .arg(pending));
}

} // namespace cb::views
