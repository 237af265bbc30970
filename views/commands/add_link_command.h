#pragma once
// Undoable addition of a link at the end of the link list.

#include "model/cluster.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class AddLinkCommand : public QUndoCommand
{
public:
    AddLinkCommand(Document *document, Link link, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    Link m_link;
    int m_index;
};

} // namespace cb::views
