#include "window/job_queue_panel.h"

#include "commands/add_job_command.h"
#include "commands/duplicate_job_command.h"
#include "commands/remove_job_command.h"
#include "document/document.h"
#include "models/job_queue_model.h"
#include "window/job_dialog.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

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
    QAction *add = tools->addAction(QIcon(QStringLiteral(":/icons/add.svg")), tr("Add job…"));
    add->setObjectName(QStringLiteral("addJobAction"));
    add->setToolTip(tr("A new job: kind, tasks, GPUs, model, training length, times, export"));
    connect(add, &QAction::triggered, this, &JobQueuePanel::addJob);
    QAction *edit = tools->addAction(tr("Edit…"));
    edit->setObjectName(QStringLiteral("editJobAction"));
    edit->setToolTip(tr("Every field of the selected job (or double-click it)"));
    connect(edit, &QAction::triggered, this, [this] { editJob(currentJob()); });
    connect(tools->addAction(QIcon(QStringLiteral(":/icons/duplicate.svg")), tr("Duplicate")),
            &QAction::triggered, this, &JobQueuePanel::duplicateJob);
    connect(tools->addAction(QIcon(QStringLiteral(":/icons/remove.svg")), tr("Remove")),
            &QAction::triggered, this, &JobQueuePanel::removeJob);
    layout->addWidget(tools);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(JobQueueModel::SortRole);
    m_table->setObjectName(QStringLiteral("jobTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // queue order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    // Double-click opens the job editor; F2 edits the cell in place.
    m_table->setEditTriggers(QAbstractItemView::EditKeyPressed);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        editJob(m_proxy->mapToSource(index).row());
    });
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(22);
    // Where each job stands, and why it waits, right beside its name: in a laptop-sized dock
    // the columns after the name scroll out of view, and a stretched last column got what
    // was left (a few characters). The last column on screen takes the spare width.
    QHeaderView *header = m_table->horizontalHeader();
    header->moveSection(header->visualIndex(JobQueueModel::Status), 2);
    header->moveSection(header->visualIndex(JobQueueModel::Reason), 3);
    header->setStretchLastSection(true);
    header->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setColumnWidth(JobQueueModel::Kind, 120);
    m_table->setColumnWidth(JobQueueModel::Tasks, 56);
    m_table->setColumnWidth(JobQueueModel::Gpus, 56);
    m_table->setColumnWidth(JobQueueModel::Submit, 90);
    m_table->setColumnWidth(JobQueueModel::Due, 90);
    m_table->setColumnWidth(JobQueueModel::Model, 120);
    m_table->setColumnWidth(JobQueueModel::Parameters, 100);
    layout->addWidget(m_table, 1);
    // Measured on the first rows only, so that a 100,000-job trace opens as fast.
    header->setResizeContentsPrecision(200);
    connect(header, &QHeaderView::sectionResized, this, [this](int column) {
        if (!m_fitting)
            m_userSized.insert(column);
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &JobQueuePanel::fitColumns);
    // (a job added or renamed by hand: its id was elided, "my-be...")
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &JobQueuePanel::fitColumns);
    connect(
        m_model, &QAbstractItemModel::dataChanged, this,
        [this](const QModelIndex &from, const QModelIndex &to) {
            if ((from.column() <= JobQueueModel::Reason && to.column() >= JobQueueModel::Status) ||
                from.column() <= JobQueueModel::Name)
                fitColumns();
        });
    fitColumns();
}

void JobQueuePanel::fitColumns()
{
    struct Fit
    {
        int column, least, most;
    };
    static constexpr Fit kFits[] = {{JobQueueModel::Id, 60, 180},
                                    {JobQueueModel::Name, 90, 300},
                                    {JobQueueModel::Status, 60, 160},
                                    {JobQueueModel::Reason, 120, 420}};
    m_fitting = true;
    for (const Fit &f : kFits) {
        if (m_userSized.contains(f.column))
            continue;
        m_table->resizeColumnToContents(f.column); // the cells and the header
        m_table->setColumnWidth(f.column,
                                std::clamp(m_table->columnWidth(f.column), f.least, f.most));
    }
    m_fitting = false;
}

int JobQueuePanel::currentJob() const
{
    const QModelIndex index = m_proxy->mapToSource(m_table->currentIndex());
    return index.isValid() ? index.row() : -1;
}

void JobQueuePanel::addJob()
{
    const int row = currentJob() >= 0 ? currentJob() + 1 : -1;
    JobDialog dialog(m_document, -1, row, this);
    if (dialog.exec() == QDialog::Accepted) {
        const int added = row >= 0 ? row : int(m_document->scenario().jobs.size()) - 1;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(added, 0));
        m_table->setCurrentIndex(index);
        // In view: a job added below the visible rows looked as if nothing was added.
        m_table->scrollTo(index, QAbstractItemView::EnsureVisible);
    }
}

void JobQueuePanel::editJob(int row)
{
    if (row < 0 || row >= int(m_document->scenario().jobs.size()))
        return;
    JobDialog dialog(m_document, row, -1, this);
    dialog.exec();
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
