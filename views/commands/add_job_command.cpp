#include "commands/add_job_command.h"

#include "document/document.h"

namespace cb::views {

AddJobCommand::AddJobCommand(Document *document, Job job, int index, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_job(std::move(job))
    , m_index(index < 0 ? int(document->scenario().jobs.size()) : index)
{
    setText(QObject::tr("Add job %1").arg(QString::fromStdString(m_job.id)));
}

void AddJobCommand::redo()
{
    m_document->insertJob(m_index, m_job);
}

void AddJobCommand::undo()
{
    m_document->removeJob(m_index);
}

} // namespace cb::views
