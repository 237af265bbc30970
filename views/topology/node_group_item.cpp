#include "topology/node_group_item.h"

#include "topology/topology_scene.h"
#include "topology/topology_style.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace cb::views {

namespace st = topology_style;

NodeGroupItem::NodeGroupItem(const Cluster &cluster, const QString &title, const QRectF &rect,
                             std::vector<int> nodes, std::vector<QRectF> nodeRects)
    : m_cluster(cluster)
    , m_title(title)
    , m_rect(rect)
    , m_nodes(std::move(nodes))
    , m_nodeRects(std::move(nodeRects))
{
    int gpus = 0;
    for (int n : m_nodes) {
        gpus += cluster.nodes[std::size_t(n)].gpus;
        m_allGpu = m_allGpu && cluster.nodes[std::size_t(n)].gpus > 0;
    }
    if (gpus > 0)
        m_summary = gpus == 1 ? QObject::tr("1 GPU") : QObject::tr("%1 GPUs").arg(gpus);
    else
        m_summary = m_nodes.size() == 1 ? QObject::tr("1 node")
                                        : QObject::tr("%1 nodes").arg(m_nodes.size());
    setZValue(1);
    setFlag(ItemUsesExtendedStyleOption);
}

int NodeGroupItem::nodeAt(const QPointF &scenePos) const
{
    const QPointF p = mapFromScene(scenePos);
    for (std::size_t k = 0; k < m_nodes.size(); ++k)
        if (m_nodeRects[k].contains(p))
            return m_nodes[k];
    return -1;
}

QRectF NodeGroupItem::nodeRect(int nodeIndex) const
{
    for (std::size_t k = 0; k < m_nodes.size(); ++k)
        if (m_nodes[k] == nodeIndex)
            return m_nodeRects[k];
    return {};
}

bool NodeGroupItem::contains(int nodeIndex) const
{
    return std::find(m_nodes.begin(), m_nodes.end(), nodeIndex) != m_nodes.end();
}

void NodeGroupItem::setSelectedNode(int nodeIndex)
{
    if (nodeIndex == m_selected)
        return;
    m_selected = nodeIndex;
    update();
}

QRectF NodeGroupItem::boundingRect() const
{
    return m_rect.adjusted(-2, -2, 2, 2);
}

void NodeGroupItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setPen(QPen(st::kGroupBorder, 0));
    painter->setBrush(st::kGroupFill);
    if (lod < 0.25) {
        // Aggregated: the rack as one block, tinted like its nodes.
        painter->setBrush(m_allGpu ? st::kGpuNodeBorder.lighter(150) : st::kCpuNodeBorder);
        painter->drawRect(m_rect);
        if (m_overlay && m_overlay->active()) {
            // A run is shown: every node still gets its own colour, as a plain cell.
            painter->setPen(Qt::NoPen);
            for (std::size_t k = 0; k < m_nodes.size(); ++k) {
                const QColor fill = overlayFill(m_nodes[k]);
                if (fill.isValid()) {
                    painter->setBrush(fill);
                    painter->drawRect(m_nodeRects[k]);
                }
            }
            if (m_overlay->otherMarked >= 0 && contains(m_overlay->otherMarked)) {
                painter->setPen(QPen(st::kOtherChosenNode, 0));
                painter->setBrush(st::kOtherChosenNode);
                painter->drawRect(nodeRect(m_overlay->otherMarked).adjusted(-6, -6, 6, 6));
            }
            if (m_overlay->marked >= 0 && contains(m_overlay->marked)) {
                painter->setPen(QPen(st::kChosenNode, 0));
                painter->setBrush(st::kChosenNode);
                painter->drawRect(nodeRect(m_overlay->marked).adjusted(-6, -6, 6, 6));
            }
        }
        if (m_selected >= 0) {
            painter->setPen(QPen(st::kSelection, 0));
            painter->setBrush(st::kSelection);
            painter->drawRect(nodeRect(m_selected));
        }
        return;
    }
    painter->drawRoundedRect(m_rect, 6, 6);
    if (lod >= 0.4) {
        QFont font = painter->font();
        font.setPixelSize(11);
        font.setBold(true);
        painter->setFont(font);
        painter->setPen(st::kGroupText);
        const QRectF header(m_rect.left() + 6, m_rect.top() + 3, m_rect.width() - 12,
                            18);
        // Rack name on the left, its GPU count on the right when both fit.
        const QFontMetricsF bold(font);
        const double titleWidth = bold.horizontalAdvance(m_title);
        painter->drawText(header, Qt::AlignLeft | Qt::AlignVCenter,
                          bold.elidedText(m_title, Qt::ElideRight, header.width()));
        font.setBold(false);
        const QFontMetricsF normal(font);
        if (titleWidth + 8 + normal.horizontalAdvance(m_summary) <= header.width()) {
            painter->setFont(font);
            painter->setPen(st::kGroupText.lighter(140));
            painter->drawText(header, Qt::AlignRight | Qt::AlignVCenter, m_summary);
        }
    }
    const QRectF exposed = option->exposedRect;
    for (std::size_t k = 0; k < m_nodes.size(); ++k) {
        if (!exposed.isEmpty() && !exposed.intersects(m_nodeRects[k]))
            continue;
        paintNode(painter, m_nodes[k], m_nodeRects[k], lod, m_nodes[k] == m_selected);
    }
}

QColor NodeGroupItem::overlayFill(int nodeIndex) const
{
    if (!m_overlay || !m_overlay->active() || nodeIndex >= int(m_overlay->values.size()))
        return {};
    const float v = m_overlay->values[std::size_t(nodeIndex)];
    if (std::isnan(v))
        return {};
    if (v == NodeOverlay::kNoRow)
        return st::kNoRowNode;
    return v < 0 ? st::kFilteredNode : st::scoreColor(v);
}

void NodeGroupItem::paintNode(QPainter *painter, int nodeIndex, const QRectF &rect,
                              double lod, bool selected) const
{
    const Node &node = m_cluster.nodes[std::size_t(nodeIndex)];
    const bool gpu = node.gpus > 0;
    const QColor fill = overlayFill(nodeIndex);
    const bool marked = m_overlay && m_overlay->marked == nodeIndex;
    painter->setBrush(fill.isValid() ? fill : gpu ? st::kGpuNodeFill : st::kCpuNodeFill);
    painter->setPen(marked     ? QPen(st::kChosenNode, 4)
                    : selected ? QPen(st::kSelection, 3)
                               : QPen(gpu ? st::kGpuNodeBorder : st::kCpuNodeBorder, 0));
    const bool otherMarked = m_overlay && m_overlay->otherMarked == nodeIndex;
    if (otherMarked) { // outside the node, so that both picks show when they are one node
        QPen dashed(st::kOtherChosenNode, 3, Qt::DashLine);
        dashed.setCosmetic(lod < 0.6);
        painter->save();
        painter->setPen(dashed);
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(rect.adjusted(-5, -5, 5, 5));
        painter->restore();
    }
    if (lod < 0.6) {
        painter->drawRect(rect);
        return;
    }
    painter->drawRoundedRect(rect, 4, 4);
    QFont font = painter->font();
    font.setPixelSize(10);
    font.setBold(false);
    painter->setFont(font);
    if (fill.isValid() && fill.lightnessF() < 0.5)
        painter->setPen(Qt::white);
    else
        painter->setPen(st::kGroupText);
    const QRectF textRect(rect.left() + 4, rect.top() + 2, rect.width() - 8, 14);
    painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetricsF(font).elidedText(QString::fromStdString(node.id),
                                                     Qt::ElideMiddle, textRect.width()));
    // One chip per GPU (two rows of eight at most), else a count.
    const double chip = 5, gap = 2;
    const double top = rect.bottom() - 2 * chip - gap - 4;
    if (node.gpus > 0 && node.gpus <= 16) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(st::kGpuChip);
        const double busy = m_overlay && nodeIndex < int(m_overlay->gpusUsed.size())
                                ? double(m_overlay->gpusUsed[std::size_t(nodeIndex)])
                                : 0.0;
        for (int g = 0; g < node.gpus; ++g) {
            painter->setBrush(g < std::ceil(busy - 1e-9) ? st::kBusyGpuChip : st::kGpuChip);
            const int row = g / 8, col = g % 8;
            painter->drawRect(QRectF(rect.left() + 5 + col * (chip + gap),
                                     top + row * (chip + gap), chip, chip));
        }
    } else {
        const QRectF info(rect.left() + 4, top - 2, rect.width() - 8, 2 * chip + gap + 2);
        painter->setPen(st::kGroupText);
        painter->drawText(info, Qt::AlignLeft | Qt::AlignVCenter,
                          node.gpus > 0 ? QStringLiteral("%1 GPU").arg(node.gpus)
                                        : QStringLiteral("%1 CPU").arg(node.cpus));
    }
}

} // namespace cb::views
