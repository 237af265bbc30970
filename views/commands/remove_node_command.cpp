#include "commands/remove_node_command.h"

#include "document/document.h"

namespace cb::views {

RemoveNodeCommand::RemoveNodeCommand(Document *document, int index, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_index(index)
    , m_node(document->scenario().cluster.nodes[std::size_t(index)])
{
    setText(QObject::tr("Remove node %1").arg(QString::fromStdString(m_node.id)));
}

void RemoveNodeCommand::redo()
{
    m_links.clear();
    const std::vector<int> attached = m_document->linksOf(m_node.id);
    for (int i : attached)
        m_links.emplace_back(i, m_document->scenario().cluster.links[std::size_t(i)]);
    for (std::size_t k = attached.size(); k-- > 0;)
        m_document->removeLink(attached[k]);
    m_document->removeNode(m_index);
}

void RemoveNodeCommand::undo()
{
    m_document->insertNode(m_index, m_node);
    for (const auto &[i, link] : m_links)
        m_document->insertLink(i, link);
}

} // namespace cb::views
