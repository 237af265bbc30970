#include "commands/edit_node_command.h"

#include "document/document.h"

namespace cb::views {

EditNodeCommand::EditNodeCommand(Document *document, int index, Node after,
                                 std::optional<std::vector<GpuType>> gpuTypesAfter,
                                 QUndoCommand *parent)
    : QUndoCommand(parent), m_document(document), m_index(index),
      m_before(document->scenario().cluster.nodes[std::size_t(index)]), m_after(std::move(after)),
      m_typesBefore(document->scenario().cluster.gpuTypes), m_typesAfter(std::move(gpuTypesAfter))
{
    // Named by what changed, as the Edit menu shows it ("Undo Rename node-1 to gpu-a").
    const QString id = QString::fromStdString(m_before.id);
    Node sameButGpus = m_after;
    sameButGpus.gpus = m_before.gpus;
    sameButGpus.gpuType = m_before.gpuType;
    sameButGpus.labels = m_before.labels; // (the GPU labels follow the count and type)
    if (m_after.id != m_before.id && m_after.gpus == m_before.gpus &&
        m_after.gpuType == m_before.gpuType)
        setText(QObject::tr("Rename %1 to %2").arg(id, QString::fromStdString(m_after.id)));
    else if (sameButGpus == m_before && m_after.gpus == m_before.gpus)
        setText(QObject::tr("Set %1's GPU type to %2")
                    .arg(id, QString::fromStdString(m_after.gpuType)));
    else if (sameButGpus == m_before)
        setText(QObject::tr("Set %1's GPUs to %2%3")
                    .arg(id)
                    .arg(m_after.gpus)
                    .arg(m_after.gpuType != m_before.gpuType
                             ? QStringLiteral(" ") + QString::fromStdString(m_after.gpuType)
                             : QString()));
    else
        setText(QObject::tr("Edit node %1").arg(id));
}

void EditNodeCommand::redo()
{
    if (m_typesAfter)
        m_document->setGpuTypes(*m_typesAfter);
    m_document->replaceNode(m_index, m_after);
}

void EditNodeCommand::undo()
{
    m_document->replaceNode(m_index, m_before);
    if (m_typesAfter)
        m_document->setGpuTypes(m_typesBefore);
}

} // namespace cb::views
