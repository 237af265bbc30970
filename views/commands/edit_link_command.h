#pragma once
// Undoable change of a link: its endpoints, capacity or latency.

#include "model/cluster.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class EditLinkCommand : public QUndoCommand
{
public:
    EditLinkCommand(Document *document, int index, Link after, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    int m_index;
    Link m_before;
    Link m_after;
};

} // namespace cb::views
