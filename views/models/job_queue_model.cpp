#include "models/job_queue_model.h"

#include "commands/edit_job_command.h"
#include "document/document.h"
#include "model/model_catalog.h"
#include "models/quantity_format.h"

#include <QBrush>
#include <QUndoStack>

#include <cmath>

namespace cb::views {

JobQueueModel::JobQueueModel(Document *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    using P = Document::Part;
    connect(document, &Document::scenarioAboutToBeReplaced, this,
            &JobQueueModel::beginResetModel);
    connect(document, &Document::scenarioReplaced, this, &JobQueueModel::endResetModel);
    connect(document, &Document::rowAboutToBeInserted, this, [this](P part, int row) {
        if (part == P::Jobs)
            beginInsertRows({}, row, row);
    });
    connect(document, &Document::rowInserted, this, [this](P part, int) {
        if (part == P::Jobs)
            endInsertRows();
    });
    connect(document, &Document::rowAboutToBeRemoved, this, [this](P part, int row) {
        if (part == P::Jobs)
            beginRemoveRows({}, row, row);
    });
    connect(document, &Document::rowRemoved, this, [this](P part, int) {
        if (part == P::Jobs)
            endRemoveRows();
    });
    connect(document, &Document::rowChanged, this, [this](P part, int row) {
        if (part == P::Jobs)
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    });
}

void JobQueueModel::setRunStates(std::map<std::string, JobState> states)
{
    m_states = std::move(states);
    if (rowCount() > 0)
        emit dataChanged(index(0, Status), index(rowCount() - 1, Reason));
}

int JobQueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_document->scenario().jobs.size());
}

int JobQueueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QString taskSummary(const Job &job)
{
    QStringList parts;
    for (const TaskGroup &g : job.tasks) {
        QString text = QStringLiteral("%1 × %2: %3 CPU, %4 GiB")
                           .arg(g.replicas)
                           .arg(QLatin1String(toString(g.role)), formatNumber(g.cpus),
                                formatNumber(g.memoryGiB));
        if (g.gpus > 0) {
            text += QStringLiteral(", %1 GPU").arg(g.gpus);
            if (g.gpuFraction < 1)
                text += QStringLiteral(" (%1 share)").arg(formatNumber(g.gpuFraction));
            if (!g.gpuType.empty())
                text += QStringLiteral(" %1").arg(QString::fromStdString(g.gpuType));
        }
        parts << text;
    }
    return parts.join(QLatin1Char('\n'));
}

QString kindName(JobKind kind)
{
    switch (kind) {
    case JobKind::ParameterServer: return QObject::tr("parameter server");
    case JobKind::AllReduce: return QObject::tr("all-reduce");
    case JobKind::Single: return QObject::tr("single");
    }
    return {};
}

} // namespace

QVariant JobQueueModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Job &job = m_document->scenario().jobs[std::size_t(index.row())];
    const int column = index.column();
    if (role == Qt::TextAlignmentRole) {
        const bool numeric = column == Tasks || column == Gpus || column == Submit ||
                             column == Due || column == Parameters;
        return QVariant::fromValue(Qt::AlignVCenter |
                                   (numeric ? Qt::AlignRight : Qt::AlignLeft));
    }
    if (column == Status || column == Reason) {
        JobState state;
        if (const auto it = m_states.find(job.id); it != m_states.end())
            state = it->second;
        else if (const QString why = unschedulableReason(job, m_document->scenario().cluster);
                 !why.isEmpty())
            state = {JobState::Kind::Unschedulable, tr("unschedulable"), why};
        else
            state = {JobState::Kind::Waiting, QString(), QString()};
        if (role == Qt::ForegroundRole && column == Status)
            return state.kind == JobState::Kind::Unschedulable ? QBrush(QColor(0xb3, 0x26, 0x1e))
                   : state.kind == JobState::Kind::Waiting && !state.status.isEmpty()
                       ? QBrush(QColor(0x8a, 0x53, 0x00))
                       : QVariant();
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
            return column == Status ? state.status : state.reason;
        return {};
    }
    if (role == Qt::ToolTipRole) {
        return QStringLiteral("%1 (%2)\n%3")
            .arg(QString::fromStdString(job.id), kindName(job.kind), taskSummary(job));
    }
    if (role == SortRole) {
        switch (column) {
        case Tasks: return job.taskCount();
        case Gpus: return job.gpuCount();
        case Submit: return job.submitSeconds;
        case Due: return job.dueSeconds ? QVariant(*job.dueSeconds) : QVariant();
        case Parameters: return qint64(job.model.parameterBytes);
        default: return data(index, Qt::DisplayRole);
        }
    }
    const bool edit = role == Qt::EditRole;
    if (role != Qt::DisplayRole && !edit)
        return {};
    switch (column) {
    case Id: return QString::fromStdString(job.id);
    case Name: return QString::fromStdString(job.name);
    case Kind: return edit ? QVariant(QLatin1String(toString(job.kind))) : kindName(job.kind);
    case Tasks: return job.taskCount();
    case Gpus: return job.gpuCount();
    // Times are edited as they are shown (h:mm:ss); plain seconds are accepted too.
    case Submit: return formatDuration(job.submitSeconds);
    case Due:
        if (!job.dueSeconds)
            return edit ? QVariant(QString()) : QVariant(QStringLiteral("—"));
        return formatDuration(*job.dueSeconds);
    case Model: return QString::fromStdString(job.model.name);
    case Parameters:
        return edit ? QVariant(qint64(job.model.parameterBytes))
                    : formatBytes(job.model.parameterBytes);
    default: return {};
    }
}

QVariant JobQueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id: return tr("Id");
    case Name: return tr("Name");
    case Kind: return tr("Kind");
    case Tasks: return tr("Tasks");
    case Gpus: return tr("GPUs");
    case Submit: return tr("Submit");
    case Due: return tr("Due");
    case Model: return tr("Model");
    case Parameters: return tr("Model size");
    case Status: return tr("Status");
    case Reason: return tr("Reason");
    default: return {};
    }
}

Qt::ItemFlags JobQueueModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (!index.isValid())
        return f;
    const int c = index.column();
    if (c == Id || c == Name || c == Submit || c == Due || c == Model || c == Parameters)
        f |= Qt::ItemIsEditable;
    return f;
}

bool JobQueueModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const int row = index.row();
    Job job = m_document->scenario().jobs[std::size_t(row)];
    bool ok = true;
    switch (index.column()) {
    case Id: {
        const std::string id = value.toString().trimmed().toStdString();
        if (id.empty() || (id != job.id && m_document->scenario().job(id)))
            return false;
        job.id = id;
        break;
    }
    case Name: job.name = value.toString().toStdString(); break;
    case Submit: {
        const auto s = parseDuration(value.toString());
        if (!s)
            return false;
        job.submitSeconds = *s;
        break;
    }
    case Due: {
        if (value.toString().trimmed().isEmpty()) {
            job.dueSeconds.reset();
            break;
        }
        const auto s = parseDuration(value.toString());
        if (!s)
            return false;
        job.dueSeconds = *s;
        break;
    }
    case Model: {
        job.model.name = value.toString().trimmed().toStdString();
        // A catalogue model brings its size and step time (as in the job editor).
        if (const TrainingModel *m = findTrainingModel(job.model.name)) {
            job.model.parameterBytes = m->parameterBytes();
            job.model.computeSecondsPerIteration = m->computeSecondsPerIteration;
        }
        break;
    }
    case Parameters: {
        const qint64 bytes = value.toLongLong(&ok);
        if (!ok || bytes < 0)
            return false;
        job.model.parameterBytes = bytes;
        break;
    }
    default: return false;
    }
    if (job == m_document->scenario().jobs[std::size_t(row)])
        return true;
    m_document->undoStack()->push(new EditJobCommand(m_document, row, std::move(job)));
    return true;
}

} // namespace cb::views
