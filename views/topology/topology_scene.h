#pragma once
// The graphics scene of the cluster network. It mirrors a Document: any change to nodes,
// switches or links schedules one rebuild (coalesced), a replaced scenario rebuilds at once.
// Tooltips and node clicks are resolved by geometry (see NodeGroupItem).

#include "model/cluster.h"

#include <QGraphicsScene>

class QGraphicsLineItem;
class QGraphicsTextItem;

#include <vector>

namespace cb::views {

class Document;
class LinkLayerItem;
class NodeGroupItem;

/// What a run paints over the nodes: a value per node (NaN: nothing, < 0: filtered out,
/// 0..1: relative score) and one marked node (the chosen one).
struct NodeOverlay
{
    static constexpr float kFiltered = -1.0f; ///< value of a filtered-out node
    static constexpr float kNoRow = -2.0f;    ///< value of a node the decision log dropped
    /// Per node: 0..1 score colour, kFiltered, kNoRow, or NaN (drawn as without overlay).
    std::vector<float> values;
    int marked = -1;
    /// The other run's pick when two runs are stepped together (outlined dashed), -1: none.
    int otherMarked = -1;
    /// GPUs allocated per node (drawn as busy chips); empty for none.
    std::vector<float> gpusUsed;
    bool active() const { return !values.empty(); }
};

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
    /// Switch index at `scenePos`, or -1.
    int switchAt(const QPointF &scenePos) const;
    /// Highlights a node (-1 clears); returns its scene rectangle (empty if none).
    QRectF selectNode(int nodeIndex);
    int selectedNode() const { return m_selectedNode; }
    /// The cluster as drawn, with room for the frames around a node: what a fit shows. The
    /// scene rectangle has a wider margin, to pan into.
    QRectF clusterRect() const { return m_clusterRect; }
    int groupItemCount() const { return int(m_groups.size()); }
    int tierCount() const { return m_tierCount; }

    /// Colours nodes by `overlay` (empty values clear it); repaints only the racks.
    void setNodeOverlay(NodeOverlay overlay);
    const NodeOverlay &nodeOverlay() const { return m_overlay; }
    /// Colours links by utilisation: one fraction per cluster link (the busier direction),
    /// empty clears. A bundle of parallel links shows its busiest member.
    void setLinkUtilisation(std::vector<double> perLink);
    const std::vector<double> &linkUtilisation() const { return m_linkUtilisation; }
    /// The item that draws every link (null before the first rebuild).
    const LinkLayerItem *linkLayer() const { return m_links; }

    /// What if I put it here: while stepping, the chosen node of the decision at the cursor
    /// (-1: none). A left press on it drags its task (a line follows the pointer, instead of
    /// panning the view); releasing over another node emits taskDropped.
    void setDragSource(int nodeIndex);
    int dragSource() const { return m_dragSource; }
    bool isDragging() const { return m_dragLine != nullptr; }

signals:
    void nodeClicked(int nodeIndex);
    /// A right click (or the menu key) on a node, a switch (indices, else -1) or nothing.
    void contextMenuRequested(int nodeIndex, int switchIndex, const QPoint &screenPos);
    void rebuilt();
    /// The task on `fromNode` (the drag source) was dropped on `toNode`.
    void taskDropped(int fromNode, int toNode);

protected:
    void helpEvent(QGraphicsSceneHelpEvent *event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent *event) override;

private:
    void scheduleRebuild();
    QPointF nodeCentre(int nodeIndex) const;
    void endDrag();
    QString nodeToolTip(int nodeIndex) const;

    Document *m_document;
    Cluster m_cluster; ///< the snapshot the items draw
    std::vector<NodeGroupItem *> m_groups;
    LinkLayerItem *m_links = nullptr; ///< every link, one item
    NodeOverlay m_overlay;
    std::vector<double> m_linkUtilisation;
    std::vector<int> m_nodeGroup;
    int m_selectedNode = -1;
    QRectF m_clusterRect;
    int m_dragSource = -1;
    QGraphicsLineItem *m_dragLine = nullptr; ///< while dragging a task
    QGraphicsTextItem *m_dragLabel = nullptr;
    int m_tierCount = 0;
    bool m_rebuildPending = false;
};

} // namespace cb::views
