#include "topology/link_layer_item.h"

#include "models/quantity_format.h"

#include "topology/line_raster.h"
#include "topology/topology_style.h"

#include <QObject>
#include <QPaintEngine>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cb::views {

namespace {

double hitMargin(double width)
{
    return std::max(width, 6.0) / 2;
}

/// Squared distance from `p` to the segment `l`.
double squaredDistance(const QPointF &p, const QLineF &l)
{
    const QPointF d = l.p2() - l.p1();
    const double len2 = QPointF::dotProduct(d, d);
    double t = len2 > 0 ? QPointF::dotProduct(p - l.p1(), d) / len2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    const QPointF q = l.p1() + t * d - p;
    return QPointF::dotProduct(q, q);
}

} // namespace

LinkLayerItem::LinkLayerItem(std::vector<Bundle> bundles)
    : m_bundles(std::move(bundles))
    , m_utilisation(m_bundles.size(), -1.0)
{
    setZValue(0);
    setFlag(QGraphicsItem::ItemUsesExtendedStyleOption); // paint gets the exposed rectangle
    // Drawn once per zoom and colouring: stepping recolours nodes over the links, and the
    // cached pixels take no time to draw again.
    setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    m_bounds.reserve(m_bundles.size());
    m_drawColor.reserve(m_bundles.size());
    for (const Bundle &b : m_bundles) {
        const double m = hitMargin(b.width) + 1;
        m_bounds.push_back(QRectF(b.line.p1(), b.line.p2()).normalized().adjusted(-m, -m, m, m));
        m_boundingRect |= m_bounds.back();
        m_drawColor.push_back(b.color.rgba());
    }
    m_order.resize(m_bundles.size());
    std::iota(m_order.begin(), m_order.end(), 0);
}

QString LinkLayerItem::toolTipText(int i) const
{
    const double u = m_utilisation[std::size_t(i)];
    const Bundle &b = m_bundles[std::size_t(i)];
    const QString tip = b.count == 1
                            ? QObject::tr("%1 ↔ %2\n%3 per direction")
                                  .arg(b.a, b.b, formatGbps(b.capacityGbps))
                            : QObject::tr("%1 ↔ %2\n%3 links, %4 per direction in total")
                                  .arg(b.a, b.b)
                                  .arg(b.count)
                                  .arg(formatGbps(b.capacityGbps));
    if (u < 0)
        return tip;
    return tip + QObject::tr("\nutilisation %1").arg(formatPercent(u));
}

void LinkLayerItem::setUtilisation(const std::vector<double> &perLink)
{
    bool changed = false;
    for (std::size_t i = 0; i < m_bundles.size(); ++i) {
        double u = -1;
        if (!perLink.empty())
            for (int l : m_bundles[i].links)
                if (l >= 0 && l < int(perLink.size()))
                    u = std::max(u, perLink[std::size_t(l)]);
        if (u == m_utilisation[i])
            continue;
        m_utilisation[i] = u;
        m_drawColor[i] =
            (u >= 0 ? topology_style::utilisationColor(u) : m_bundles[i].color).rgba();
        changed = true;
    }
    if (!changed)
        return;
    sortDrawOrder();
    update();
}

void LinkLayerItem::sortDrawOrder()
{
    // As separate items stacked by z (idle 0, busy 0.5 + 0.4 x utilisation), ties in
    // creation order.
    auto z = [this](int i) {
        const double u = m_utilisation[std::size_t(i)];
        return u >= 0 ? 0.5 + std::min(u, 1.0) * 0.4 : 0.0;
    };
    std::iota(m_order.begin(), m_order.end(), 0);
    std::stable_sort(m_order.begin(), m_order.end(),
                     [&](int a, int b) { return z(a) < z(b); });
}

int LinkLayerItem::bundleAt(const QPointF &scenePos) const
{
    for (auto it = m_order.rbegin(); it != m_order.rend(); ++it) {
        const std::size_t i = std::size_t(*it);
        if (!m_bounds[i].contains(scenePos))
            continue;
        const double m = hitMargin(m_bundles[i].width);
        if (squaredDistance(scenePos, m_bundles[i].line) <= m * m)
            return *it;
    }
    return -1;
}

QRectF LinkLayerItem::boundingRect() const
{
    return m_boundingRect;
}

void LinkLayerItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QRectF exposed = option->exposedRect;
    const QTransform toDevice = painter->worldTransform();
    // Zoomed out (a large cluster fitted): thousands of opaque lines a pixel or two wide.
    // On a raster device they are written straight into an image of the exposed rectangle
    // (line_raster.h), a fraction of what the raster engine's stroking costs; elsewhere
    // (a PDF, a scaled screen) the painter draws them, without antialiasing, which costs
    // most of the frame and shows nothing at that size.
    const QPaintDevice *device = painter->device();
    const bool direct = lod < 0.5 && toDevice.type() <= QTransform::TxScale && device &&
                        device->devicePixelRatio() == 1 && painter->paintEngine() &&
                        painter->paintEngine()->type() == QPaintEngine::Raster;
    QImage canvas;
    QPoint origin;
    if (direct) {
        const QRect area = toDevice.mapRect(exposed).toAlignedRect().intersected(
            QRect(0, 0, device->width(), device->height()));
        if (area.isEmpty())
            return;
        // A byte a pixel while the colours fit a table (index 0 transparent); a colouring
        // with more colours than that (utilisation shades) takes four bytes.
        canvas = QImage(area.size(), QImage::Format_Indexed8);
        canvas.setColorTable({qRgba(0, 0, 0, 0)});
        canvas.fill(0);
        origin = area.topLeft();
    }
    const bool dropAntialiasing =
        !direct && lod < 0.5 && painter->testRenderHint(QPainter::Antialiasing);
    if (dropAntialiasing)
        painter->setRenderHint(QPainter::Antialiasing, false);
    QRgb color = 0;
    double width = -1;
    auto flush = [&] {
        if (m_batch.empty())
            return;
        if (direct) {
            for (QLineF &l : m_batch)
                l = toDevice.map(l).translated(-origin);
            // A cosmetic line is one pixel; a wider one as wide as the painter would make it.
            const double pixels = width > 0 ? width * lod : 0.0;
            if (!drawOpaqueLines(canvas, m_batch.data(), int(m_batch.size()), color, pixels)) {
                // The table is full: on to four bytes a pixel, keeping what is drawn.
                canvas = canvas.convertToFormat(QImage::Format_ARGB32_Premultiplied);
                drawOpaqueLines(canvas, m_batch.data(), int(m_batch.size()), color, pixels);
            }
        } else {
            QPen pen(QColor::fromRgba(color), width);
            pen.setCapStyle(Qt::FlatCap);
            painter->setPen(pen);
            painter->drawLines(m_batch.data(), int(m_batch.size()));
        }
        m_batch.clear();
    };
    for (int i : m_order) {
        const std::size_t b = std::size_t(i);
        if (!m_bounds[b].intersects(exposed))
            continue;
        const double w = m_bundles[b].width * lod < 1.0 ? 0.0 : m_bundles[b].width;
        if (m_drawColor[b] != color || w != width) {
            flush();
            color = m_drawColor[b];
            width = w;
        }
        m_batch.push_back(m_bundles[b].line);
    }
    flush();
    if (direct) {
        painter->save();
        painter->setWorldTransform(QTransform());
        painter->drawImage(origin, canvas);
        painter->restore();
    }
    if (dropAntialiasing)
        painter->setRenderHint(QPainter::Antialiasing, true);
}

} // namespace cb::views
