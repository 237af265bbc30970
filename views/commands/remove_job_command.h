#pragma once
// Undoable removal of one job from the queue.

#include "model/job.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class RemoveJobCommand : public QUndoCommand
{
public:
    RemoveJobCommand(Document *document, int index, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    Job m_job;
};

} // namespace cb::views
