#pragma once
// The cluster dock: racks, nodes and switches as an editable tree, the selected node's or
// switch's details below, and actions (toolbar and context menu, also offered to the
// topology view) to add nodes (like the selected one) and switches, edit a switch's
// properties, and remove the selected node or switch with its links.

#include <QWidget>

class QAction;
class QLabel;
class QPoint;
class QTreeView;

namespace cb::views {

class ClusterTreeModel;
class Document;

class ClusterPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ClusterPanel(Document *document, QWidget *parent = nullptr);

    ClusterTreeModel *model() const { return m_model; }
    /// Selects and reveals a node's row.
    void selectNode(int nodeIndex);
    int selectedNode() const;
    /// Selects and reveals a switch's row.
    void selectSwitch(int switchIndex);
    int selectedSwitch() const;
    /// The menu for a node or switch (at most one >= 0), at `globalPos`; `leading` actions
    /// (the window's what-if while stepping) come first.
    void showContextMenu(int nodeIndex, int switchIndex, const QPoint &globalPos,
                         const QList<QAction *> &leading = {});

    QAction *addNodeAction() const { return m_addNode; }
    QAction *addSwitchAction() const { return m_addSwitch; }
    QAction *editSwitchAction() const { return m_editSwitch; }
    QAction *removeAction() const { return m_remove; }

public slots:
    /// Opens the switch dialog for a new switch.
    void addSwitch();
    /// Opens the switch dialog on the selected switch.
    void editSelectedSwitch();
    /// Removes the selected node or switch (and its links).
    void removeSelected();

signals:
    void nodeSelected(int nodeIndex);

private:
    void addNodeLikeSelected();
    void updateDetails();
    void updateActions();

    Document *m_document;
    ClusterTreeModel *m_model;
    QTreeView *m_tree;
    QLabel *m_details;
    QAction *m_addNode;
    QAction *m_addSwitch;
    QAction *m_editSwitch;
    QAction *m_remove;
};

} // namespace cb::views
