#pragma once
// Undoable addition of a switch at the end of the switch list, together with the links that
// attach it to the network (its downlinks to nodes or uplinks to other switches).

#include "model/cluster.h"

#include <QUndoCommand>

#include <vector>

namespace cb::views {

class Document;

class AddSwitchCommand : public QUndoCommand
{
public:
    AddSwitchCommand(Document *document, Switch sw, std::vector<Link> links = {},
                     QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    Switch m_switch;
    std::vector<Link> m_links;
    int m_switchIndex;
    int m_firstLink;
};

} // namespace cb::views
