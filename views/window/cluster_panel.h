#pragma once
// The cluster dock: racks, nodes and switches as an editable tree, the selected node's
// details below, and buttons to add (like the selected node) or remove nodes.

#include <QWidget>

class QLabel;
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

signals:
    void nodeSelected(int nodeIndex);

private:
    void addNodeLikeSelected();
    void removeSelectedNode();
    void updateDetails();

    Document *m_document;
    ClusterTreeModel *m_model;
    QTreeView *m_tree;
    QLabel *m_details;
};

} // namespace cb::views
