#include "commands/remove_job_command.h"

#include "document/document.h"

namespace cb::views {

RemoveJobCommand::RemoveJobCommand(Document *document, int index, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_index(index)
    , m_job(document->scenario().jobs[std::size_t(index)])
{
    setText(QObject::tr("Remove job %1").arg(QString::fromStdString(m_job.id)));
}

void RemoveJobCommand::redo()
{
    m_document->removeJob(m_index);
}

void RemoveJobCommand::undo()
{
    m_document->insertJob(m_index, m_job);
}

} // namespace cb::views
