#pragma once
// A rack (the nodes under one home switch) in the topology view. One item paints all its
// nodes, with level of detail: far away a solid block, closer each node as a box, close up
// each node's name and one chip per GPU. Node hit-testing is by geometry, not by items, so
// thousands of nodes cost a few hundred items.

#include "model/cluster.h"

#include <QGraphicsItem>

#include <vector>

namespace cb::views {

struct NodeOverlay;

class NodeGroupItem : public QGraphicsItem
{
public:
    /// `cluster` must outlive the item (the scene keeps its own copy).
    NodeGroupItem(const Cluster &cluster, const QString &title, const QRectF &rect,
                  std::vector<int> nodes, std::vector<QRectF> nodeRects);

    /// The node index under `scenePos`, or -1.
    int nodeAt(const QPointF &scenePos) const;
    QRectF nodeRect(int nodeIndex) const;
    bool contains(int nodeIndex) const;
    void setSelectedNode(int nodeIndex); ///< -1 clears
    /// Run colouring owned by the scene (may be inactive); null for none.
    void setOverlay(const NodeOverlay *overlay) { m_overlay = overlay; }
    const std::vector<int> &nodes() const { return m_nodes; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option,
               QWidget *widget) override;

private:
    void paintNode(QPainter *painter, int nodeIndex, const QRectF &rect, double lod,
                   bool selected) const;
    /// Fill of a node under the overlay, or invalid when the overlay says nothing.
    QColor overlayFill(int nodeIndex) const;

    const Cluster &m_cluster;
    QString m_title;
    QString m_summary;
    QRectF m_rect;
    std::vector<int> m_nodes;
    std::vector<QRectF> m_nodeRects;
    bool m_allGpu = true;
    int m_selected = -1;
    const NodeOverlay *m_overlay = nullptr;
};

} // namespace cb::views
