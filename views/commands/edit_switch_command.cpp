#include "commands/edit_switch_command.h"

#include "document/document.h"
#include "model/validation.h"

#include <cctype>

namespace cb::views {

EditSwitchCommand::EditSwitchCommand(Document *document, int index, Switch after,
                                     QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_index(index)
    , m_before(document->scenario().cluster.switches[std::size_t(index)])
    , m_after(std::move(after))
{
    if (m_before.id != m_after.id)
        setText(QObject::tr("Rename switch %1 to %2")
                    .arg(QString::fromStdString(m_before.id),
                         QString::fromStdString(m_after.id)));
    else
        setText(QObject::tr("Edit switch %1").arg(QString::fromStdString(m_before.id)));
}

void EditSwitchCommand::redo()
{
    m_document->replaceSwitch(m_index, m_after);
}

void EditSwitchCommand::undo()
{
    m_document->replaceSwitch(m_index, m_before);
}

QString switchProblem(const Cluster &cluster, const Switch &sw, int index)
{
    if (!sw.id.empty() && (std::isspace(static_cast<unsigned char>(sw.id.front())) ||
                           std::isspace(static_cast<unsigned char>(sw.id.back()))))
        return QObject::tr("the id \"%1\" starts or ends with a blank")
            .arg(QString::fromStdString(sw.id));
    // The validator's rules on the nodes and switches only (ids are all this edit changes).
    Scenario probe;
    probe.cluster.gpuTypes = cluster.gpuTypes;
    probe.cluster.nodes = cluster.nodes;
    probe.cluster.switches = cluster.switches;
    std::size_t at = probe.cluster.switches.size();
    if (index >= 0 && index < int(at))
        probe.cluster.switches[std::size_t(at = std::size_t(index))] = sw;
    else
        probe.cluster.switches.push_back(sw);
    const std::string pointer = "/cluster/switches/" + std::to_string(at) + "/id";
    const Problems problems = validateScenario(probe);
    for (const Problem &p : problems)
        if (p.where == pointer)
            return QString::fromStdString(p.message);
    // A clash with a switch further down the list is reported there: name that one.
    const std::string clash = "duplicate id \"" + sw.id + "\"";
    for (const Problem &p : problems)
        if (p.where.rfind("/cluster/switches/", 0) == 0 && p.message.rfind(clash, 0) == 0)
            return QObject::tr("duplicate id \"%1\" (also used at %2)")
                .arg(QString::fromStdString(sw.id),
                     QString::fromStdString(p.where.substr(0, p.where.size() - 3)));
    return {};
}

} // namespace cb::views
