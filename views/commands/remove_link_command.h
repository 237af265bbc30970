#pragma once
// Undoable removal of one link; undo restores it at its original position.

#include "model/cluster.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class RemoveLinkCommand : public QUndoCommand
{
public:
    RemoveLinkCommand(Document *document, int index, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    Link m_link;
};

} // namespace cb::views
