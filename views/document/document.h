#pragma once
// The open scenario: owns the core Scenario, its file path and the undo stack. Views read the
// scenario through scenario(); every change goes through an undo command, which calls the
// mutators below, and each mutator announces itself with the row signals so item models can
// update incrementally.

#include "model/scenario.h"
#include "util/result.h"

#include <QObject>
#include <QString>

class QUndoStack;

namespace cb::views {

class Document : public QObject
{
    Q_OBJECT

public:
    /// The row collections of a scenario that item models mirror.
    enum class Part { Nodes, Switches, Links, Jobs };

    explicit Document(QObject *parent = nullptr);
    ~Document() override;

    const Scenario &scenario() const { return m_scenario; }
    QString filePath() const { return m_filePath; }
    /// File name without folder, or "Untitled" for a scenario never saved.
    QString displayName() const;
    bool isModified() const;
    QUndoStack *undoStack() const { return m_undoStack; }

    /// Replaces the scenario (clears the undo history). Used for New and by tests.
    void setScenario(Scenario scenario, const QString &filePath = {});
    /// Loads a scenario file. On failure the open scenario, path and history stay unchanged
    /// and the problems (with JSON pointers) are returned.
    Status load(const QString &path);
    /// Saves atomically to `path` (or the current path when empty) and marks the stack clean.
    /// A scenario still named "Untitled" (a new one) takes the file's name ("handmade" for
    /// handmade.json), which its runs and export folder then carry.
    Status save(const QString &path = {});
    /// Replaces the whole content but keeps file path and undo history: the mutator of
    /// ReplaceScenarioCommand (generated clusters, imported jobs). Emits the replace signals.
    void replaceContent(Scenario scenario);

    // Mutators for undo commands. Indices must be valid; each emits the row signals.
    void insertNode(int index, Node node);
    Node removeNode(int index);
    /// Replaces a node; when its id changes, link endpoints naming the old id follow.
    void replaceNode(int index, Node node);
    /// Replaces the cluster's GPU types (no row signal: views read them through the nodes
    /// naming them, which an EditNodeCommand replaces after this).
    void setGpuTypes(std::vector<GpuType> types);
    void insertSwitch(int index, Switch sw);
    Switch removeSwitch(int index);
    /// Replaces a switch; when its id changes, link endpoints naming the old id follow.
    void replaceSwitch(int index, Switch sw);
    void insertLink(int index, Link link);
    Link removeLink(int index);
    void replaceLink(int index, Link link);
    void insertJob(int index, Job job);
    Job removeJob(int index);
    void replaceJob(int index, Job job);

    /// Indices of links with an endpoint `id`, ascending.
    std::vector<int> linksOf(const std::string &id) const;
    /// An id not used by any node, switch (for ids of nodes) or job (for job ids), made from
    /// `base` by counting up its trailing number ("node-31" -> "node-32"), or by appending
    /// "-2", "-3", ... (model/node_labels.h, nextFreeId).
    std::string uniqueNodeId(const std::string &base) const;
    std::string uniqueJobId(const std::string &base) const;

signals:
    void scenarioAboutToBeReplaced();
    void scenarioReplaced();
    /// After scenarioReplaced when another document took this one's place (setScenario: an
    /// open, a new scenario, a generated or imported cluster), not for an undoable edit.
    void documentReplaced();
    void rowAboutToBeInserted(cb::views::Document::Part part, int index);
    void rowInserted(cb::views::Document::Part part, int index);
    void rowAboutToBeRemoved(cb::views::Document::Part part, int index);
    void rowRemoved(cb::views::Document::Part part, int index);
    void rowChanged(cb::views::Document::Part part, int index);
    void filePathChanged(const QString &path);
    /// The scenario's name changed (a new scenario saved under a file name).
    void scenarioRenamed();
    void modifiedChanged(bool modified);

private:
    /// Link endpoints naming `oldId` now name `newId` (each changed link is announced).
    void renameLinkEndpoints(const std::string &oldId, const std::string &newId);
    /// The insert and remove every part shares, between its row signals.
    template<typename T>
    void insertRow(Part part, std::vector<T> &rows, int index, T value);
    template<typename T>
    T removeRow(Part part, std::vector<T> &rows, int index);

    Scenario m_scenario;
    QString m_filePath;
    QUndoStack *m_undoStack;
};

} // namespace cb::views
