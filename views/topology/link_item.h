#pragma once
// A link, or a bundle of parallel links, drawn as a line whose width grows with capacity.
// Never thinner than one device pixel, so zoomed-out fabrics stay visible.

#include <QColor>
#include <QGraphicsItem>
#include <QLineF>

namespace cb::views {

class LinkItem : public QGraphicsItem
{
public:
    LinkItem(const QLineF &line, double width, const QColor &color, const QString &toolTip);

    QString toolTipText() const { return m_toolTip; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option,
               QWidget *widget) override;

private:
    QLineF m_line;
    double m_width;
    QColor m_color;
    QString m_toolTip;
};

} // namespace cb::views
