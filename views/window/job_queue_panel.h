#pragma once
// The job queue dock: the queue as a sortable table (F2 edits a cell in place, a double-click
// opens the job editor) with add, edit, duplicate and remove buttons; every change is an
// undo command. The id, name, status and reason columns fit what they hold (after a run:
// each job's status and why) until the user sizes one.

#include <QSet>
#include <QWidget>

class QSortFilterProxyModel;
class QTableView;

namespace cb::views {

class Document;
class JobQueueModel;

class JobQueuePanel : public QWidget
{
    Q_OBJECT

public:
    explicit JobQueuePanel(Document *document, QWidget *parent = nullptr);
    JobQueueModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    /// Opens the job editor for a new job after the selected one (Edit > Add Job too).
    void addJob();

private:
    int currentJob() const;
    void editJob(int row);
    void duplicateJob();
    void removeJob();
    /// Id, name, status and reason as wide as what they hold (within limits), unless the
    /// user sized that column.
    void fitColumns();

    Document *m_document;
    JobQueueModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QSet<int> m_userSized; ///< columns the user resized by hand
    bool m_fitting = false;
};

} // namespace cb::views
