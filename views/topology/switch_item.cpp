#include "topology/switch_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace cb::views {

SwitchItem::SwitchItem(int switchIndex, const QString &label, const QRectF &rect,
                       const QColor &fill)
    : m_switchIndex(switchIndex)
    , m_label(label)
    , m_rect(rect)
    , m_fill(fill)
{
    setZValue(2);
}

QRectF SwitchItem::boundingRect() const
{
    return m_rect.adjusted(-1, -1, 1, 1);
}

void SwitchItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setPen(QPen(m_fill.darker(130), 0));
    painter->setBrush(m_fill);
    if (lod < 0.15) {
        painter->drawRect(m_rect);
        return;
    }
    painter->drawRoundedRect(m_rect, 5, 5);
    if (lod < 0.45)
        return;
    QFont font = painter->font();
    font.setPixelSize(11);
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(Qt::white);
    const QRectF text = m_rect.adjusted(5, 0, -5, 0);
    painter->drawText(text, Qt::AlignCenter,
                      QFontMetricsF(font).elidedText(m_label, Qt::ElideMiddle, text.width()));
}

} // namespace cb::views
