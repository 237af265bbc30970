#pragma once
// Undoable duplication of a job: the copy gets a fresh id ("<id>-2", ...) and is inserted
// right after the original.

#include "model/job.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class DuplicateJobCommand : public QUndoCommand
{
public:
    DuplicateJobCommand(Document *document, int index, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;
    const Job &copy() const { return m_copy; }

private:
    Document *m_document;
    int m_index;
    Job m_copy;
};

} // namespace cb::views
