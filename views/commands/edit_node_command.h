#pragma once
// Undoable edit of one node's properties (any field, including its id: links follow a rename),
// with the cluster's GPU types when the edit names a type the cluster did not have.

#include "model/cluster.h"

#include <QUndoCommand>

#include <optional>
#include <vector>

namespace cb::views {

class Document;

class EditNodeCommand : public QUndoCommand
{
public:
    EditNodeCommand(Document *document, int index, Node after,
                    std::optional<std::vector<GpuType>> gpuTypesAfter = std::nullopt,
                    QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    Node m_before;
    Node m_after;
    std::vector<GpuType> m_typesBefore;
    std::optional<std::vector<GpuType>> m_typesAfter;
};

} // namespace cb::views
