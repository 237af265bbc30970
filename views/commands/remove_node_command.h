#pragma once
// Undoable removal of a node and of every link that touches it; undo puts all of them back
// at their original positions.

#include "model/cluster.h"

#include <QUndoCommand>

#include <utility>
#include <vector>

namespace cb::views {

class Document;

class RemoveNodeCommand : public QUndoCommand
{
public:
    RemoveNodeCommand(Document *document, int index, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    Node m_node;
    std::vector<std::pair<int, Link>> m_links; ///< original index and link, ascending
};

} // namespace cb::views
