#pragma once
// Undoable removal of a switch and of every link that touches it; undo puts all of them back
// at their original positions, so the scenario is exactly the one before.

#include "model/cluster.h"

#include <QUndoCommand>

#include <utility>
#include <vector>

namespace cb::views {

class Document;

class RemoveSwitchCommand : public QUndoCommand
{
public:
    RemoveSwitchCommand(Document *document, int index, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    Switch m_switch;
    std::vector<std::pair<int, Link>> m_links; ///< original index and link, ascending
};

} // namespace cb::views
