#pragma once
// A link, or a bundle of parallel links, drawn as a line whose width grows with capacity.
// Never thinner than one device pixel, so zoomed-out fabrics stay visible.

#include <QColor>
#include <QGraphicsItem>
#include <QLineF>

#include <vector>

namespace cb::views {

class LinkItem : public QGraphicsItem
{
public:
    LinkItem(const QLineF &line, double width, const QColor &color, const QString &toolTip);

    QString toolTipText() const;
    /// Cluster link indices drawn by this item (a bundle of parallel links).
    void setLinks(std::vector<int> links) { m_links = std::move(links); }
    const std::vector<int> &links() const { return m_links; }
    /// Colours the line by the busiest of its links (fractions per cluster link; empty:
    /// back to the tier colour).
    void setUtilisation(const std::vector<double> &perLink);
    /// -1 when not coloured by utilisation.
    double utilisation() const { return m_utilisation; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option,
               QWidget *widget) override;

private:
    QLineF m_line;
    double m_width;
    QColor m_color;
    QString m_toolTip;
    std::vector<int> m_links;
    double m_utilisation = -1;
};

} // namespace cb::views
