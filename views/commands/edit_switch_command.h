#pragma once
// Undoable edit of one switch (its id and tier). A rename carries the links along: their
// endpoints naming the old id follow, and undo renames them back.

#include "model/cluster.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class EditSwitchCommand : public QUndoCommand
{
public:
    EditSwitchCommand(Document *document, int index, Switch after,
                      QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    Switch m_before;
    Switch m_after;
};

/// Why `sw` cannot be the switch at `index` of `cluster` (index == size: a new switch),
/// or empty when it can: the scenario validator's id rules (non-empty, unique among nodes
/// and switches), plus no blanks at either end of the id.
QString switchProblem(const Cluster &cluster, const Switch &sw, int index);

} // namespace cb::views
