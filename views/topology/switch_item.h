#pragma once
// A switch in the topology view: a rounded box in its tier's colour with its id, drawn
// without text when zoomed out too far to read it.

#include <QGraphicsItem>

namespace cb::views {

class SwitchItem : public QGraphicsItem
{
public:
    SwitchItem(int switchIndex, const QString &label, const QRectF &rect, const QColor &fill);

    int switchIndex() const { return m_switchIndex; }
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option,
               QWidget *widget) override;

private:
    int m_switchIndex;
    QString m_label;
    QRectF m_rect;
    QColor m_fill;
};

} // namespace cb::views
