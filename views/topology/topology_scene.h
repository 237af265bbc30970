#pragma once
// The graphics scene of the cluster network. It mirrors a Document: any change to nodes,
// switches or links schedules one rebuild (coalesced), a replaced scenario rebuilds at once.
// Tooltips and node clicks are resolved by geometry (see NodeGroupItem).

#include "model/cluster.h"

#include <QGraphicsScene>

#include <vector>

namespace cb::views {

class Document;
class NodeGroupItem;

class TopologyScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit TopologyScene(Document *document, QObject *parent = nullptr);

    /// Rebuilds all items from the document now.
    void rebuild();
    /// Tooltip text for whatever lies at `scenePos` (node, switch or link), or empty.
    QString toolTipAt(const QPointF &scenePos) const;
    /// Node index at `scenePos`, or -1.
    int nodeAt(const QPointF &scenePos) const;
    /// Highlights a node (-1 clears); returns its scene rectangle (empty if none).
    QRectF selectNode(int nodeIndex);
    int selectedNode() const { return m_selectedNode; }
    int groupItemCount() const { return int(m_groups.size()); }
    int tierCount() const { return m_tierCount; }

signals:
    void nodeClicked(int nodeIndex);
    void rebuilt();

protected:
    void helpEvent(QGraphicsSceneHelpEvent *event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;

private:
    void scheduleRebuild();
    QString nodeToolTip(int nodeIndex) const;

    Document *m_document;
    Cluster m_cluster; ///< the snapshot the items draw
    std::vector<NodeGroupItem *> m_groups;
    std::vector<int> m_nodeGroup;
    int m_selectedNode = -1;
    int m_tierCount = 0;
    bool m_rebuildPending = false;
};

} // namespace cb::views
