#include "commands/edit_node_command.h"

#include "document/document.h"

namespace cb::views {

EditNodeCommand::EditNodeCommand(Document *document, int index, Node after, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_index(index)
    , m_before(document->scenario().cluster.nodes[std::size_t(index)])
    , m_after(std::move(after))
{
    setText(QObject::tr("Edit node %1").arg(QString::fromStdString(m_before.id)));
}

void EditNodeCommand::redo()
{
    m_document->replaceNode(m_index, m_after);
}

void EditNodeCommand::undo()
{
    m_document->replaceNode(m_index, m_before);
}

} // namespace cb::views
