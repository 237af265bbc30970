#pragma once
// Undoable replacement of the whole scenario content (file path and history stay): a
// generated cluster replacing the open one, or a trace's jobs added to the queue.

#include "model/scenario.h"

#include <QUndoCommand>

namespace cb::views {

class Document;

class ReplaceScenarioCommand : public QUndoCommand
{
public:
    ReplaceScenarioCommand(Document *document, Scenario replacement, const QString &text,
                           QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    Scenario m_other; ///< the content not currently in the document
};

} // namespace cb::views
