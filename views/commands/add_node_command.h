#pragma once
// Undoable addition of a node at the end of the node list, together with the links that
// attach it to the network (so the cluster stays connected).

#include "model/cluster.h"

#include <QUndoCommand>

#include <vector>

namespace cb::views {

class Document;

class AddNodeCommand : public QUndoCommand
{
public:
    AddNodeCommand(Document *document, Node node, std::vector<Link> links,
                   QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    Node m_node;
    std::vector<Link> m_links;
    int m_nodeIndex;
    int m_firstLink;
};

} // namespace cb::views
