#pragma once
// Undoable edit of one job (any field).

#include "model/job.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class EditJobCommand : public QUndoCommand
{
public:
    EditJobCommand(Document *document, int index, Job after, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    Job m_before;
    Job m_after;
};

} // namespace cb::views
