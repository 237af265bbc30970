#pragma once
// Undoable insertion of a job into the queue (at `index`, or at the end when index < 0).

#include "model/job.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class AddJobCommand : public QUndoCommand
{
public:
    AddJobCommand(Document *document, Job job, int index = -1, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    Job m_job;
    int m_index;
};

} // namespace cb::views
