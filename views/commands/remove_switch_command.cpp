#include "commands/remove_switch_command.h"

#include "document/document.h"

namespace cb::views {

RemoveSwitchCommand::RemoveSwitchCommand(Document *document, int index, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_index(index)
    , m_switch(document->scenario().cluster.switches[std::size_t(index)])
{
    const int links = int(document->linksOf(m_switch.id).size());
    setText(QObject::tr("Remove switch %1 and %n link(s)", nullptr, links)
                .arg(QString::fromStdString(m_switch.id)));
}

void RemoveSwitchCommand::redo()
{
    m_links.clear();
    const std::vector<int> attached = m_document->linksOf(m_switch.id);
    for (int i : attached)
        m_links.emplace_back(i, m_document->scenario().cluster.links[std::size_t(i)]);
    // Highest index first, so the lower indices stay valid.
    for (std::size_t k = attached.size(); k-- > 0;)
        m_document->removeLink(attached[k]);
    m_document->removeSwitch(m_index);
}

void RemoveSwitchCommand::undo()
{
    m_document->insertSwitch(m_index, m_switch);
    // Ascending original indices: each lands where it was, the ones above shift back up.
    for (const auto &[i, link] : m_links)
        m_document->insertLink(i, link);
}

} // namespace cb::views
