#pragma once
// The job queue as a table over Document::scenario().jobs. Edits in the table become
// EditJobCommands on the document's undo stack; the model follows the document's row signals.

#include <QAbstractTableModel>

namespace cb::views {

class Document;

class JobQueueModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Id, Name, Kind, Tasks, Gpus, Submit, Due, Model, Parameters, ColumnCount };

    explicit JobQueueModel(Document *document, QObject *parent = nullptr);

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
};

} // namespace cb::views
