#pragma once
// Every link of the topology view in one item. A link, or a bundle of parallel links, is a
// line whose width grows with capacity, never thinner than one device pixel so zoomed-out
// fabrics stay visible. One item rather than one per bundle: a 16,384-node fat-tree has
// about 32,000 bundles, and QGraphicsView's per-item cost (state, transform, clip) made a
// fitted repaint take a second. The layer culls by the exposed rectangle and draws runs of
// bundles that share a pen with one drawLines call, in the order separate items would have
// been painted (idle links first, busy ones over them by utilisation). Hit-testing is by
// geometry (bundleAt), as for the nodes of a rack. Zoomed out on a raster device the layer
// writes its lines into the pixels of an image itself (line_raster.h): a fitted 16,384-node
// fabric in 7.5 ms where the painter's stroking took 40.

#include <QColor>
#include <QGraphicsItem>
#include <QLineF>
#include <QString>

#include <vector>

namespace cb::views {

class LinkLayerItem : public QGraphicsItem
{
public:
    struct Bundle
    {
        QLineF line;
        double width = 1;  ///< scene units (from the largest member's capacity)
        QColor color;      ///< the tier colour, used when not coloured by utilisation
        QString a, b;      ///< the endpoints' names (a switch, a rack or a node)
        int count = 1;     ///< links in the bundle
        double capacityGbps = 0; ///< their capacity per direction, summed
        std::vector<int> links; ///< cluster link indices drawn by this line
    };

    explicit LinkLayerItem(std::vector<Bundle> bundles);

    int bundleCount() const { return int(m_bundles.size()); }
    const Bundle &bundle(int i) const { return m_bundles[std::size_t(i)]; }
    /// The topmost bundle whose line passes within its hit margin (half its width, at least
    /// 3 scene units) of `scenePos`, or -1.
    int bundleAt(const QPointF &scenePos) const;
    /// A bundle's tooltip, with its utilisation when coloured by one.
    QString toolTipText(int i) const;
    /// Colours each line by the busiest of its links (fractions per cluster link; empty: back
    /// to the tier colours). Repaints only when a colour changed.
    void setUtilisation(const std::vector<double> &perLink);
    /// -1 when not coloured by utilisation.
    double utilisation(int i) const { return m_utilisation[std::size_t(i)]; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option,
               QWidget *widget) override;

private:
    void sortDrawOrder();

    std::vector<Bundle> m_bundles;
    std::vector<QRectF> m_bounds;      ///< per bundle, with its stroke margin
    std::vector<double> m_utilisation; ///< per bundle, -1: none
    std::vector<QRgb> m_drawColor;     ///< per bundle: tier or utilisation colour
    std::vector<int> m_order;          ///< bundles in painting order, bottom first
    QRectF m_boundingRect;
    std::vector<QLineF> m_batch;       ///< paint's scratch: one run of lines sharing a pen
};

} // namespace cb::views
