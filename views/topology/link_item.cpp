#include "topology/link_item.h"

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
    QPen pen(m_color, m_width * lod < 1.0 ? 0.0 : m_width);
    pen.setCapStyle(Qt::FlatCap);
    painter->setPen(pen);
    painter->drawLine(m_line);
}

} // namespace cb::views
