#include "commands/edit_link_command.h"

#include "document/document.h"

namespace cb::views {

EditLinkCommand::EditLinkCommand(Document *document, int index, Link after, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_index(index)
    , m_before(document->scenario().cluster.links[std::size_t(index)])
    , m_after(std::move(after))
{
    setText(QObject::tr("Edit link %1 - %2")
                .arg(QString::fromStdString(m_after.a), QString::fromStdString(m_after.b)));
}

void EditLinkCommand::redo()
{
    m_document->replaceLink(m_index, m_after);
}

void EditLinkCommand::undo()
{
    m_document->replaceLink(m_index, m_before);
}

} // namespace cb::views
