#include "topology/topology_scene.h"

#include "document/document.h"
#include "models/quantity_format.h"
#include "topology/cluster_layout.h"
#include "topology/link_layer_item.h"
#include "topology/node_group_item.h"
#include "topology/switch_item.h"
#include "topology/topology_style.h"

#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsTextItem>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneHelpEvent>
#include <QGraphicsSceneMouseEvent>
#include <QTimer>
#include <QToolTip>

#include <map>
#include <unordered_map>

namespace cb::views {

namespace st = topology_style;

TopologyScene::TopologyScene(Document *document, QObject *parent)
    : QGraphicsScene(parent)
    , m_document(document)
{
    using P = Document::Part;
    connect(document, &Document::scenarioReplaced, this, &TopologyScene::rebuild);
    // Another document: the node selected in the last one is not selected in it.
    connect(document, &Document::documentReplaced, this, [this] { selectNode(-1); });
    auto onRow = [this](P part, int) {
        if (part != P::Jobs)
            scheduleRebuild();
    };
    connect(document, &Document::rowInserted, this, onRow);
    connect(document, &Document::rowRemoved, this, onRow);
    connect(document, &Document::rowChanged, this, onRow);
    rebuild();
}

void TopologyScene::scheduleRebuild()
{
    if (m_rebuildPending)
        return;
    m_rebuildPending = true;
    QTimer::singleShot(0, this, [this] {
        if (m_rebuildPending)
            rebuild();
    });
}

void TopologyScene::rebuild()
{
    m_rebuildPending = false;
    m_dragLine = nullptr; // clear() deletes them
    m_dragLabel = nullptr;
    clear();
    m_groups.clear();
    m_links = nullptr;
    m_cluster = m_document->scenario().cluster;
    const Cluster &c = m_cluster;
    const ClusterLayout layout(c);
    m_tierCount = layout.tierCount();
    const int tiers = std::max(1, m_tierCount);

    std::unordered_map<std::string, int> nodeIndex, switchIndex;
    for (std::size_t i = 0; i < c.nodes.size(); ++i)
        nodeIndex.emplace(c.nodes[i].id, int(i));
    for (std::size_t i = 0; i < c.switches.size(); ++i)
        switchIndex.emplace(c.switches[i].id, int(i));

    // Racks.
    m_nodeGroup.assign(c.nodes.size(), -1);
    for (const ClusterLayout::Group &g : layout.groups()) {
        std::vector<QRectF> rects;
        for (int n : g.nodes) {
            rects.push_back(layout.nodeRect(n));
            m_nodeGroup[std::size_t(n)] = int(m_groups.size());
        }
        auto *item = new NodeGroupItem(m_cluster, g.title, g.rect, g.nodes, std::move(rects));
        item->setOverlay(&m_overlay);
        addItem(item);
        if (g.nvlinkDomain >= 0) { // the domain tier: a frame around the group
            const NvlinkDomain &d = c.nvlinkDomains[std::size_t(g.nvlinkDomain)];
            auto *frame = addRect(g.rect.adjusted(-4, -4, 4, 4), QPen(st::kNvlinkDomain, 3),
                                  Qt::NoBrush);
            frame->setZValue(item->zValue() - 1);
            frame->setData(0, tr("<b>NVLink domain %1</b><br>%2 nodes, %3 per GPU and "
                                 "direction<br>traffic between its nodes does not use the links")
                                  .arg(QString::fromStdString(d.id).toHtmlEscaped())
                                  .arg(g.nodes.size())
                                  .arg(formatGbps(d.bandwidthGbps)));
        }
        m_groups.push_back(item);
    }
    // Switches.
    for (std::size_t s = 0; s < c.switches.size(); ++s) {
        const int tier = layout.switchTier(int(s));
        addItem(new SwitchItem(int(s), QString::fromStdString(c.switches[s].id),
                               layout.switchRect(int(s)), st::switchColor(tier, tiers)));
    }

    // Links, bundled: switch-switch by pair, node-switch by (rack, switch), node-node alone.
    struct Bundle
    {
        QLineF line;
        int tier = 0;
        int count = 0;
        double capacity = 0;
        double maxCapacity = 0;
        QString a, b;
        std::vector<int> links;
    };
    std::map<std::pair<int, int>, Bundle> bundles; // key: (endpoint a, endpoint b) encoded
    // A bundle's line and names are made once, by its first link.
    Bundle *current = nullptr;
    auto fresh = [&](std::pair<int, int> key) -> Bundle * {
        auto [it, inserted] = bundles.try_emplace(key);
        current = &it->second;
        return inserted ? current : nullptr;
    };
    const int groupBase = int(c.switches.size());
    for (std::size_t li = 0; li < c.links.size(); ++li) {
        const Link &link = c.links[li];
        auto na = nodeIndex.find(link.a), nb = nodeIndex.find(link.b);
        auto sa = switchIndex.find(link.a), sb = switchIndex.find(link.b);
        if (sa != switchIndex.end() && sb != switchIndex.end()) {
            int x = sa->second, y = sb->second;
            if (layout.switchTier(x) > layout.switchTier(y))
                std::swap(x, y);
            if (Bundle *b = fresh({x, y})) {
                b->line = QLineF(layout.switchCenter(x), layout.switchCenter(y));
                b->tier = layout.switchTier(x);
                b->a = QString::fromStdString(c.switches[std::size_t(x)].id);
                b->b = QString::fromStdString(c.switches[std::size_t(y)].id);
            }
        } else if ((na != nodeIndex.end()) != (nb != nodeIndex.end())) {
            const int n = na != nodeIndex.end() ? na->second : nb->second;
            auto s = na != nodeIndex.end() ? sb : sa;
            if (s == switchIndex.end())
                continue; // dangling endpoint: validation reports it
            const int g = m_nodeGroup[std::size_t(n)];
            if (Bundle *b = fresh({s->second, groupBase + g})) {
                const QRectF rack = layout.groups()[std::size_t(g)].rect;
                const QPointF sw = layout.switchCenter(s->second);
                const double x = std::clamp(sw.x(), rack.left() + 12, rack.right() - 12);
                b->line = QLineF(sw, QPointF(x, rack.top()));
                b->tier = layout.switchTier(s->second);
                b->a = QString::fromStdString(c.switches[std::size_t(s->second)].id);
                b->b = layout.groups()[std::size_t(g)].title;
            }
        } else if (na != nodeIndex.end() && nb != nodeIndex.end()) {
            if (Bundle *b = fresh({groupBase + int(c.nodes.size()) + na->second,
                                   groupBase + int(c.nodes.size()) + nb->second})) {
                b->line = QLineF(layout.nodeRect(na->second).center(),
                                 layout.nodeRect(nb->second).center());
                b->tier = tiers - 1;
                b->a = QString::fromStdString(link.a);
                b->b = QString::fromStdString(link.b);
            }
        } else {
            continue;
        }
        current->count += 1;
        current->links.push_back(int(li));
        current->capacity += link.capacityGbps;
        current->maxCapacity = std::max(current->maxCapacity, link.capacityGbps);
    }
    // Tooltips are written when asked for (16,896 bundles on a k = 32 fat-tree).
    std::vector<LinkLayerItem::Bundle> lines;
    lines.reserve(bundles.size());
    for (auto &[key, b] : bundles)
        lines.push_back({b.line, st::linkWidth(b.maxCapacity), st::linkColor(b.tier, tiers),
                         std::move(b.a), std::move(b.b), b.count, b.capacity,
                         std::move(b.links)});
    m_links = new LinkLayerItem(std::move(lines));
    addItem(m_links);
    if (m_overlay.values.size() != c.nodes.size())
        m_overlay = {};
    if (m_linkUtilisation.size() != c.links.size())
        m_linkUtilisation.clear();
    m_links->setUtilisation(m_linkUtilisation);
    m_clusterRect = layout.bounds().adjusted(-8, -8, 8, 8);
    const QRectF bounds = layout.bounds().adjusted(-40, -40, 40, 40);
    setSceneRect(bounds);
    if (m_selectedNode >= int(c.nodes.size()))
        m_selectedNode = -1;
    if (m_selectedNode >= 0)
        m_groups[std::size_t(m_nodeGroup[std::size_t(m_selectedNode)])]->setSelectedNode(
            m_selectedNode);
    emit rebuilt();
}

void TopologyScene::setNodeOverlay(NodeOverlay overlay)
{
    if (!overlay.values.empty() && overlay.values.size() != m_cluster.nodes.size())
        overlay = {};
    const int oldMarked = m_overlay.marked;
    const bool wasActive = m_overlay.active();
    m_overlay = std::move(overlay);
    if (!wasActive && !m_overlay.active())
        return;
    for (NodeGroupItem *g : m_groups)
        g->update();
    (void)oldMarked;
}

void TopologyScene::setLinkUtilisation(std::vector<double> perLink)
{
    if (!perLink.empty() && perLink.size() != m_cluster.links.size())
        perLink.clear();
    m_linkUtilisation = std::move(perLink);
    if (m_links)
        m_links->setUtilisation(m_linkUtilisation);
}

int TopologyScene::nodeAt(const QPointF &scenePos) const
{
    for (QGraphicsItem *item : items(scenePos)) {
        if (auto *group = dynamic_cast<NodeGroupItem *>(item))
            return group->nodeAt(scenePos);
    }
    return -1;
}

QString TopologyScene::nodeToolTip(int n) const
{
    const Node &node = m_cluster.nodes[std::size_t(n)];
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(QString::fromStdString(node.id).toHtmlEscaped());
    if (!node.rack.empty() || !node.partition.empty())
        lines << tr("rack %1, partition %2")
                     .arg(QString::fromStdString(node.rack.empty() ? "-" : node.rack),
                          QString::fromStdString(node.partition.empty() ? "-" : node.partition))
                     .toHtmlEscaped();
    lines << tr("%1 CPUs, %2 GiB memory").arg(formatNumber(node.cpus), formatNumber(node.memoryGiB));
    if (node.gpus > 0) {
        QString gpu = tr("%1 × %2").arg(node.gpus).arg(QString::fromStdString(node.gpuType));
        if (const GpuType *type = m_cluster.gpuType(node.gpuType))
            gpu += tr(" (%1 GiB each)").arg(formatNumber(type->memoryGiB));
        lines << gpu.toHtmlEscaped();
        const bool nvlink = node.interconnect.kind == GpuInterconnect::Kind::Nvlink;
        lines << tr("%1 inside the node, %2")
                     .arg(nvlink ? QStringLiteral("NVLink") : QStringLiteral("PCIe"),
                          formatGbps(node.interconnect.bandwidthGbps));
    } else {
        lines << tr("no GPUs");
    }
    int uplinks = 0;
    double capacity = 0;
    for (const Link &l : m_cluster.links)
        if (l.a == node.id || l.b == node.id) {
            ++uplinks;
            capacity += l.capacityGbps;
        }
    lines << tr("%n link(s), %1 in total", nullptr, uplinks).arg(formatGbps(capacity));
    return lines.join(QStringLiteral("<br>"));
}

QString TopologyScene::toolTipAt(const QPointF &scenePos) const
{
    for (QGraphicsItem *item : items(scenePos)) {
        if (auto *sw = dynamic_cast<SwitchItem *>(item)) {
            const Switch &s = m_cluster.switches[std::size_t(sw->switchIndex())];
            int ports = 0;
            double capacity = 0;
            for (const Link &l : m_cluster.links)
                if (l.a == s.id || l.b == s.id) {
                    ++ports;
                    capacity += l.capacityGbps;
                }
            return tr("<b>%1</b><br>%2 switch<br>%3 links, %4 in total")
                .arg(QString::fromStdString(s.id).toHtmlEscaped(),
                     QString::fromStdString(s.tier.empty() ? "unnamed tier" : s.tier))
                .arg(ports)
                .arg(formatGbps(capacity));
        }
        if (auto *group = dynamic_cast<NodeGroupItem *>(item)) {
            const int n = group->nodeAt(scenePos);
            if (n >= 0)
                return nodeToolTip(n);
            continue;
        }
        if (auto *links = dynamic_cast<LinkLayerItem *>(item)) {
            const int b = links->bundleAt(scenePos);
            if (b >= 0)
                return links->toolTipText(b).toHtmlEscaped().replace(QLatin1Char('\n'),
                                                                     QStringLiteral("<br>"));
            continue;
        }
        if (const QVariant domain = item->data(0); domain.isValid()) // an NVLink domain frame
            return domain.toString();
    }
    return {};
}

QRectF TopologyScene::selectNode(int nodeIndex)
{
    if (m_selectedNode >= 0 && m_selectedNode < int(m_nodeGroup.size()))
        m_groups[std::size_t(m_nodeGroup[std::size_t(m_selectedNode)])]->setSelectedNode(-1);
    m_selectedNode = nodeIndex >= 0 && nodeIndex < int(m_nodeGroup.size()) ? nodeIndex : -1;
    if (m_selectedNode < 0)
        return {};
    NodeGroupItem *group = m_groups[std::size_t(m_nodeGroup[std::size_t(m_selectedNode)])];
    group->setSelectedNode(m_selectedNode);
    return group->nodeRect(m_selectedNode);
}

void TopologyScene::helpEvent(QGraphicsSceneHelpEvent *event)
{
    const QString text = toolTipAt(event->scenePos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->screenPos(), text, event->widget());
    event->setAccepted(!text.isEmpty());
}

int TopologyScene::switchAt(const QPointF &scenePos) const
{
    for (QGraphicsItem *item : items(scenePos))
        if (auto *sw = dynamic_cast<SwitchItem *>(item))
            return sw->switchIndex();
    return -1;
}

void TopologyScene::contextMenuEvent(QGraphicsSceneContextMenuEvent *event)
{
    const int sw = switchAt(event->scenePos());
    const int node = sw >= 0 ? -1 : nodeAt(event->scenePos());
    emit contextMenuRequested(node, sw, event->screenPos());
    event->accept();
}

void TopologyScene::setDragSource(int nodeIndex)
{
    m_dragSource = nodeIndex >= 0 && nodeIndex < int(m_nodeGroup.size()) ? nodeIndex : -1;
    if (m_dragSource < 0)
        endDrag();
}

QPointF TopologyScene::nodeCentre(int nodeIndex) const
{
    const NodeGroupItem *group = m_groups[std::size_t(m_nodeGroup[std::size_t(nodeIndex)])];
    return group->mapRectToScene(group->nodeRect(nodeIndex)).center();
}

void TopologyScene::endDrag()
{
    delete m_dragLine;
    delete m_dragLabel;
    m_dragLine = nullptr;
    m_dragLabel = nullptr;
}

void TopologyScene::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    const int n = event->button() == Qt::LeftButton ? nodeAt(event->scenePos()) : -1;
    if (n >= 0 && n == m_dragSource) {
        // Accepted, so the view does not start panning: the moves drag the task. Not
        // selected yet: selecting centres the view on the node, which would move the drop
        // targets under the pointer. Released on the node itself, it was a click.
        event->accept();
        endDrag();
        const QPointF from = nodeCentre(n);
        m_dragLine = addLine(QLineF(from, event->scenePos()),
                             QPen(st::kChosenNode, 3, Qt::DashLine, Qt::RoundCap));
        m_dragLine->setZValue(10);
        return;
    }
    QGraphicsScene::mousePressEvent(event);
    if (n >= 0) {
        selectNode(n);
        emit nodeClicked(n);
    }
}

void TopologyScene::mouseMoveEvent(QGraphicsSceneMouseEvent *event)
{
    if (!m_dragLine) {
        QGraphicsScene::mouseMoveEvent(event);
        return;
    }
    event->accept();
    m_dragLine->setLine(QLineF(m_dragLine->line().p1(), event->scenePos()));
    const int target = nodeAt(event->scenePos());
    QString text;
    if (target >= 0 && target != m_dragSource)
        text = tr("Put it on %1").arg(QString::fromStdString(m_cluster.nodes[std::size_t(target)].id));
    if (text.isEmpty()) {
        delete m_dragLabel;
        m_dragLabel = nullptr;
        return;
    }
    if (!m_dragLabel) {
        m_dragLabel = addText(QString());
        m_dragLabel->setZValue(11);
        m_dragLabel->setFlag(QGraphicsItem::ItemIgnoresTransformations); // readable at any zoom
    }
    // Dark text on white: readable over any node colour.
    m_dragLabel->setHtml(QStringLiteral("<div style=\"background-color:#ffffff; color:%1;\">"
                                        "&nbsp;%2&nbsp;</div>")
                             .arg(st::kChosenNode.darker(150).name(), text.toHtmlEscaped()));
    m_dragLabel->setPos(event->scenePos() + QPointF(8, 8));
}

void TopologyScene::mouseReleaseEvent(QGraphicsSceneMouseEvent *event)
{
    if (!m_dragLine) {
        QGraphicsScene::mouseReleaseEvent(event);
        return;
    }
    event->accept();
    endDrag();
    const int target = nodeAt(event->scenePos());
    if (event->button() != Qt::LeftButton)
        return;
    if (target >= 0 && target != m_dragSource) {
        emit taskDropped(m_dragSource, target);
    } else if (target == m_dragSource) {
        selectNode(target);
        emit nodeClicked(target);
    }
}

} // namespace cb::views
