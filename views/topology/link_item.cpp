#include "topology/link_item.h"

#include "models/quantity_format.h"

#include "topology/topology_style.h"

#include <QObject>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace cb::views {

LinkItem::LinkItem(const QLineF &line, double width, const QColor &color, const QString &toolTip)
    : m_line(line)
    , m_width(width)
    , m_color(color)
    , m_toolTip(toolTip)
{
    setZValue(0);
}

QString LinkItem::toolTipText() const
{
    if (m_utilisation < 0)
        return m_toolTip;
    return m_toolTip + QObject::tr("\nutilisation %1").arg(formatPercent(m_utilisation));
}

void LinkItem::setUtilisation(const std::vector<double> &perLink)
{
    double u = -1;
    if (!perLink.empty())
        for (int l : m_links)
            if (l >= 0 && l < int(perLink.size()))
                u = std::max(u, perLink[std::size_t(l)]);
    if (u == m_utilisation)
        return;
    m_utilisation = u;
    setZValue(u >= 0 ? 0.5 + std::min(u, 1.0) * 0.4 : 0); // busy links over idle ones
    update();
}

QRectF LinkItem::boundingRect() const
{
    const double m = std::max(m_width, 6.0) / 2 + 1;
    return QRectF(m_line.p1(), m_line.p2()).normalized().adjusted(-m, -m, m, m);
}

QPainterPath LinkItem::shape() const
{
    QPainterPath path(m_line.p1());
    path.lineTo(m_line.p2());
    QPainterPathStroker stroker;
    stroker.setWidth(std::max(m_width, 6.0));
    return stroker.createStroke(path);
}

void LinkItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    QColor color = m_color;
    if (m_utilisation >= 0)
        color = topology_style::utilisationColor(m_utilisation);
    QPen pen(color, m_width * lod < 1.0 ? 0.0 : m_width);
    pen.setCapStyle(Qt::FlatCap);
    painter->setPen(pen);
    if (lod < 0.5 && painter->testRenderHint(QPainter::Antialiasing)) {
        // Zoomed out (a large cluster fitted): thousands of lines a pixel or two wide, where
        // antialiasing costs most of the frame and shows nothing.
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->drawLine(m_line);
        painter->setRenderHint(QPainter::Antialiasing, true);
        return;
    }
    painter->drawLine(m_line);
}

} // namespace cb::views
