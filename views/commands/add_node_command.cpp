#include "commands/add_node_command.h"

#include "document/document.h"

namespace cb::views {

AddNodeCommand::AddNodeCommand(Document *document, Node node, std::vector<Link> links,
                               QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_node(std::move(node))
    , m_links(std::move(links))
    , m_nodeIndex(int(document->scenario().cluster.nodes.size()))
    , m_firstLink(int(document->scenario().cluster.links.size()))
{
    setText(QObject::tr("Add node %1").arg(QString::fromStdString(m_node.id)));
}

void AddNodeCommand::redo()
{
    m_document->insertNode(m_nodeIndex, m_node);
    for (std::size_t i = 0; i < m_links.size(); ++i)
        m_document->insertLink(m_firstLink + int(i), m_links[i]);
}

void AddNodeCommand::undo()
{
    for (std::size_t i = m_links.size(); i-- > 0;)
        m_document->removeLink(m_firstLink + int(i));
    m_document->removeNode(m_nodeIndex);
}

} // namespace cb::views
