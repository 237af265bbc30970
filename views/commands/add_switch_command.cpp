#include "commands/add_switch_command.h"

#include "document/document.h"

namespace cb::views {

AddSwitchCommand::AddSwitchCommand(Document *document, Switch sw, std::vector<Link> links,
                                   QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_switch(std::move(sw))
    , m_links(std::move(links))
    , m_switchIndex(int(document->scenario().cluster.switches.size()))
    , m_firstLink(int(document->scenario().cluster.links.size()))
{
    setText(QObject::tr("Add switch %1").arg(QString::fromStdString(m_switch.id)));
}

void AddSwitchCommand::redo()
{
    m_document->insertSwitch(m_switchIndex, m_switch);
    for (std::size_t i = 0; i < m_links.size(); ++i)
        m_document->insertLink(m_firstLink + int(i), m_links[i]);
}

void AddSwitchCommand::undo()
{
    for (std::size_t i = m_links.size(); i-- > 0;)
        m_document->removeLink(m_firstLink + int(i));
    m_document->removeSwitch(m_switchIndex);
}

} // namespace cb::views
