#include "commands/replace_scenario_command.h"

#include "document/document.h"

namespace cb::views {

ReplaceScenarioCommand::ReplaceScenarioCommand(Document *document, Scenario replacement,
                                               const QString &text, QUndoCommand *parent)
    : QUndoCommand(text, parent)
    , m_document(document)
    , m_other(std::move(replacement))
{
}

void ReplaceScenarioCommand::redo()
{
    Scenario current = m_document->scenario();
    m_document->replaceContent(std::move(m_other));
    m_other = std::move(current);
}

void ReplaceScenarioCommand::undo()
{
    redo(); // swapping back is the same operation
}

} // namespace cb::views
