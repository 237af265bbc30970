#pragma once
// Undoable edit of one node's properties (any field, including its id: links follow a rename).

#include "model/cluster.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class EditNodeCommand : public QUndoCommand
{
public:
    EditNodeCommand(Document *document, int index, Node after, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    Node m_before;
    Node m_after;
};

} // namespace cb::views
