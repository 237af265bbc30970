#include "commands/edit_job_command.h"

#include "document/document.h"

namespace cb::views {

EditJobCommand::EditJobCommand(Document *document, int index, Job after, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_document(document)
    , m_index(index)
    , m_before(document->scenario().jobs[std::size_t(index)])
    , m_after(std::move(after))
{
    setText(QObject::tr("Edit job %1").arg(QString::fromStdString(m_before.id)));
}

void EditJobCommand::redo()
{
    m_document->replaceJob(m_index, m_after);
}

void EditJobCommand::undo()
{
    m_document->replaceJob(m_index, m_before);
}

} // namespace cb::views
