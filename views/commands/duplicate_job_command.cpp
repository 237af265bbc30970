#include "commands/duplicate_job_command.h"

#include "document/document.h"

namespace cb::views {

DuplicateJobCommand::DuplicateJobCommand(Document *document, int index, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_index(index)
    , m_copy(document->scenario().jobs[std::size_t(index)])
{
    const std::string original = m_copy.id;
    m_copy.id = document->uniqueJobId(original);
    // (a display name of its own too: the queue showed two jobs of one name)
    if (!m_copy.name.empty())
        m_copy.name += " (copy)";
    setText(QObject::tr("Duplicate job %1").arg(QString::fromStdString(original)));
}

void DuplicateJobCommand::redo()
{
    m_document->insertJob(m_index + 1, m_copy);
}

void DuplicateJobCommand::undo()
{
    m_document->removeJob(m_index + 1);
}

} // namespace cb::views
