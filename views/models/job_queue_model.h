#pragma once
// The job queue as a table over Document::scenario().jobs. Edits in the table become
// EditJobCommands on the document's undo stack; the model follows the document's row signals.
// The Status and Reason columns say where each job stands in the shown run (finished,
// waiting and why), or, without a run, whether the cluster can hold it at all.

#include "analysis/job_states.h"

#include <QAbstractTableModel>

#include <map>
#include <string>

namespace cb::views {

class Document;

class JobQueueModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        Id, Name, Kind, Tasks, Gpus, Submit, Due, Model, Parameters, Status, Reason, ColumnCount
    };
    /// Raw values for sorting (seconds, bytes, counts); the edit role is what the cell shows.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit JobQueueModel(Document *document, QObject *parent = nullptr);

    /// The states of the shown run's jobs by id (analysis/job_states.h); empty: no run.
    void setRunStates(std::map<std::string, JobState> states);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    /// Pushes an EditJobCommand; refuses (returns false) invalid values such as a duplicate id.
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

private:
    Document *m_document;
    std::map<std::string, JobState> m_states;
};

} // namespace cb::views
