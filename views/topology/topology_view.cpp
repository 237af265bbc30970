#include "topology/topology_view.h"

#include "topology/topology_scene.h"
#include "topology/topology_style.h"

#include <QFontMetrics>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace cb::views {

namespace {
constexpr double kMinZoom = 0.002;
constexpr double kMaxZoom = 6.0;
}

TopologyView::TopologyView(TopologyScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
    , m_scene(scene)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState);
    setCacheMode(QGraphicsView::CacheBackground);
    setFrameShape(QFrame::NoFrame);
    connect(scene, &TopologyScene::rebuilt, this, [this] {
        if (m_autoFit)
            fitAll();
    });
}

double TopologyView::zoom() const
{
    return transform().m11();
}

void TopologyView::setOverlayText(const QString &text)
{
    m_overlay = text;
    viewport()->update();
}

void TopologyView::fitAll()
{
    m_autoFit = true;
    const QRectF rect = m_scene->sceneRect();
    if (rect.isEmpty())
        return;
    fitInView(rect, Qt::KeepAspectRatio);
    // Never magnify a tiny cluster beyond comfortable reading size.
    if (zoom() > 2.0)
        setTransform(QTransform::fromScale(2.0, 2.0));
    centerOn(rect.center());
}

void TopologyView::zoomBy(double factor)
{
    m_autoFit = false;
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    const double f = target / zoom();
    scale(f, f);
}

void TopologyView::setZoom(double zoom)
{
    m_autoFit = false;
    const double z = std::clamp(zoom, kMinZoom, kMaxZoom);
    const QPointF center = mapToScene(viewport()->rect().center());
    setTransform(QTransform::fromScale(z, z));
    centerOn(center);
}

void TopologyView::zoomIn()
{
    zoomBy(1.25);
}

void TopologyView::zoomOut()
{
    zoomBy(0.8);
}

void TopologyView::centerOnNode(int nodeIndex)
{
    const QRectF rect = m_scene->selectNode(nodeIndex);
    if (rect.isEmpty())
        return;
    if (zoom() < 0.8) {
        m_autoFit = false;
        setTransform(QTransform::fromScale(1.0, 1.0));
    }
    centerOn(rect.center());
}

void TopologyView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(1.2, steps));
    event->accept();
}

void TopologyView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    if (m_autoFit)
        fitAll();
}

void TopologyView::showEvent(QShowEvent *event)
{
    QGraphicsView::showEvent(event);
    if (m_autoFit)
        fitAll();
}

void TopologyView::mousePressEvent(QMouseEvent *event)
{
    m_autoFit = false; // a pan or a click: keep what the user looks at
    QGraphicsView::mousePressEvent(event);
}

void TopologyView::drawBackground(QPainter *painter, const QRectF &rect)
{
    painter->fillRect(rect, QColor(0xfd, 0xfd, 0xfe));
}

void TopologyView::drawForeground(QPainter *painter, const QRectF &)
{
    if (m_overlay.isEmpty())
        return;
    painter->save();
    painter->resetTransform();
    QFont font = painter->font();
    font.setPixelSize(12);
    font.setBold(false);
    painter->setFont(font);
    const QFontMetrics fm(font);
    const QStringList lines = m_overlay.split(QLatin1Char('\n'));
    int width = 0;
    for (const QString &line : lines)
        width = std::max(width, fm.horizontalAdvance(line));
    const int lineHeight = fm.height();
    const QRect box(10, viewport()->height() - 10 - lineHeight * int(lines.size()) - 12,
                    width + 20, lineHeight * int(lines.size()) + 12);
    painter->setPen(QPen(topology_style::kGroupBorder, 1));
    painter->setBrush(QColor(255, 255, 255, 225));
    painter->drawRoundedRect(box, 6, 6);
    painter->setPen(topology_style::kGroupText);
    for (int i = 0; i < int(lines.size()); ++i)
        painter->drawText(box.left() + 10, box.top() + 6 + fm.ascent() + i * lineHeight,
                          lines[i]);
    painter->restore();
}

} // namespace cb::views
