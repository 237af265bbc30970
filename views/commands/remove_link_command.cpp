#include "commands/remove_link_command.h"

#include "document/document.h"

namespace cb::views {

RemoveLinkCommand::RemoveLinkCommand(Document *document, int index, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_index(index)
    , m_link(document->scenario().cluster.links[std::size_t(index)])
{
    setText(QObject::tr("Remove link %1 - %2")
                .arg(QString::fromStdString(m_link.a), QString::fromStdString(m_link.b)));
}

void RemoveLinkCommand::redo()
{
    m_document->removeLink(m_index);
}

void RemoveLinkCommand::undo()
{
    m_document->insertLink(m_index, m_link);
}

} // namespace cb::views
