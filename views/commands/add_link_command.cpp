#include "commands/add_link_command.h"

#include "document/document.h"

namespace cb::views {

AddLinkCommand::AddLinkCommand(Document *document, Link link, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_link(std::move(link))
    , m_index(int(document->scenario().cluster.links.size()))
{
    setText(QObject::tr("Add link %1 - %2")
                .arg(QString::fromStdString(m_link.a), QString::fromStdString(m_link.b)));
}

void AddLinkCommand::redo()
{
    m_document->insertLink(m_index, m_link);
}

void AddLinkCommand::undo()
{
    m_document->removeLink(m_index);
}

} // namespace cb::views
