#include "window/job_queue_panel.h"

#include "commands/add_job_command.h"
#include "commands/duplicate_job_command.h"
#include "commands/remove_job_command.h"
#include "document/document.h"
#include "models/job_queue_model.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace cb::views {

JobQueuePanel::JobQueuePanel(Document *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new JobQueueModel(document, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto *tools = new QToolBar(this);
    tools->setIconSize(QSize(16, 16));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    connect(tools->addAction(QIcon(QStringLiteral(":/icons/add.svg")), tr("Add job")),
            &QAction::triggered, this, &JobQueuePanel::addJob);
    connect(tools->addAction(QIcon(QStringLiteral(":/icons/duplicate.svg")), tr("Duplicate")),
            &QAction::triggered, this, &JobQueuePanel::duplicateJob);
    connect(tools->addAction(QIcon(QStringLiteral(":/icons/remove.svg")), tr("Remove")),
            &QAction::triggered, this, &JobQueuePanel::removeJob);
    layout->addWidget(tools);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::EditRole);
    m_table->setObjectName(QStringLiteral("jobTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // queue order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(22);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(JobQueueModel::Name, QHeaderView::Stretch);
    m_table->setColumnWidth(JobQueueModel::Id, 110);
    m_table->setColumnWidth(JobQueueModel::Name, 180);
    m_table->setColumnWidth(JobQueueModel::Kind, 120);
    m_table->setColumnWidth(JobQueueModel::Tasks, 56);
    m_table->setColumnWidth(JobQueueModel::Gpus, 56);
    m_table->setColumnWidth(JobQueueModel::Submit, 90);
    m_table->setColumnWidth(JobQueueModel::Due, 90);
    m_table->setColumnWidth(JobQueueModel::Model, 120);
    m_table->setColumnWidth(JobQueueModel::Parameters, 100);
    layout->addWidget(m_table, 1);
}

int JobQueuePanel::currentJob() const
{
    const QModelIndex index = m_proxy->mapToSource(m_table->currentIndex());
    return index.isValid() ? index.row() : -1;
}

void JobQueuePanel::addJob()
{
    Job job;
    job.id = m_document->uniqueJobId("job");
    job.name = "new job";
    job.kind = JobKind::Single;
    TaskGroup task;
    task.role = TaskRole::Single;
    task.cpus = 4;
    task.memoryGiB = 16;
    task.gpus = m_document->scenario().cluster.totalGpus() > 0 ? 1 : 0;
    job.tasks.push_back(task);
    job.model.name = "model";
    job.model.parameterBytes = 100'000'000;
    const int row = currentJob() >= 0 ? currentJob() + 1 : -1;
    m_document->undoStack()->push(new AddJobCommand(m_document, std::move(job), row));
}

void JobQueuePanel::duplicateJob()
{
    const int row = currentJob();
    if (row >= 0)
        m_document->undoStack()->push(new DuplicateJobCommand(m_document, row));
}

void JobQueuePanel::removeJob()
{
    const int row = currentJob();
    if (row >= 0)
        m_document->undoStack()->push(new RemoveJobCommand(m_document, row));
}

} // namespace cb::views
