#include "analysis/gantt_plottable.h"

#include <cmath>

namespace cb::views {

namespace {
constexpr double kBand = 0.42; ///< half the height of a node's band, in rows
}

QColor jobColor(int job)
{
    const double hue = std::fmod(0.07 + job * 0.618033988749895, 1.0);
    return QColor::fromHsvF(float(hue), 0.55f, 0.88f);
}

GanttPlottable::GanttPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setSelectable(QCP::stNone);
}

void GanttPlottable::setBars(std::vector<GanttBar> bars, std::vector<int> rowOfNode,
                             std::vector<int> gpusOfNode, std::vector<QColor> jobColors)
{
    m_bars = std::move(bars);
    m_rowOfNode = std::move(rowOfNode);
    m_gpusOfNode = std::move(gpusOfNode);
    m_jobColors = std::move(jobColors);
}

void GanttPlottable::laneRects(const GanttBar &bar, std::vector<QRectF> &out) const
{
    out.clear();
    const int row = m_rowOfNode[std::size_t(bar.node)];
    if (row < 0)
        return;
    const double x0 = bar.start, x1 = bar.end;
    const int gpus = m_gpusOfNode[std::size_t(bar.node)];
    if (bar.gpus.empty() || gpus <= 0) {
        out.emplace_back(QPointF(x0, row - kBand), QPointF(x1, row + kBand));
        return;
    }
    const double lane = 2 * kBand / gpus;
    for (int g : bar.gpus) {
        const double top = row - kBand + g * lane;
        out.emplace_back(QPointF(x0, top), QPointF(x1, top + lane));
    }
}

int GanttPlottable::barAt(const QPointF &pixel) const
{
    if (!mKeyAxis || !mValueAxis)
        return -1;
    const double key = mKeyAxis->pixelToCoord(pixel.x());
    const double value = mValueAxis->pixelToCoord(pixel.y());
    std::vector<QRectF> rects;
    // Later bars are drawn on top: search from the end.
    for (int i = int(m_bars.size()) - 1; i >= 0; --i) {
        laneRects(m_bars[std::size_t(i)], rects);
        for (const QRectF &r : rects)
            if (key >= r.left() && key <= r.right() && value >= r.top() && value <= r.bottom())
                return i;
    }
    return -1;
}

double GanttPlottable::selectTest(const QPointF &pos, bool onlySelectable, QVariant *) const
{
    if (onlySelectable && !selectable())
        return -1;
    return barAt(pos) >= 0 ? 0 : -1;
}

QCPRange GanttPlottable::getKeyRange(bool &foundRange, QCP::SignDomain) const
{
    QCPRange r;
    foundRange = false;
    for (const GanttBar &b : m_bars) {
        if (!foundRange) {
            r = QCPRange(b.start, b.end);
            foundRange = true;
        } else {
            r.expand(QCPRange(b.start, b.end));
        }
    }
    return r;
}

QCPRange GanttPlottable::getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const
{
    int rows = 0;
    for (int r : m_rowOfNode)
        rows = std::max(rows, r + 1);
    foundRange = rows > 0;
    return QCPRange(-0.5, rows - 0.5);
}

void GanttPlottable::draw(QCPPainter *painter)
{
    if (!mKeyAxis || !mValueAxis)
        return;
    const QCPRange keys = mKeyAxis->range();
    const QCPRange values = mValueAxis->range();
    const double rowPixels = std::abs(mValueAxis->coordToPixel(1) - mValueAxis->coordToPixel(0));
    const bool outline = rowPixels >= 6;
    std::vector<QRectF> rects;
    painter->setPen(Qt::NoPen);
    for (const GanttBar &bar : m_bars) {
        if (bar.end < keys.lower || bar.start > keys.upper)
            continue;
        const int row = m_rowOfNode[std::size_t(bar.node)];
        if (row < values.lower - 1 || row > values.upper + 1)
            continue;
        laneRects(bar, rects);
        QColor fill = m_jobColors.empty() ? QColor(Qt::gray)
                                          : m_jobColors[std::size_t(bar.job) % m_jobColors.size()];
        if (bar.gpus.empty())
            fill.setAlpha(110); // CPU tasks (parameter servers) under the GPU lanes
        painter->setBrush(fill);
        painter->setPen(outline ? QPen(fill.darker(150), 0) : QPen(Qt::NoPen));
        for (const QRectF &r : rects) {
            QRectF px(QPointF(mKeyAxis->coordToPixel(r.left()), mValueAxis->coordToPixel(r.top())),
                      QPointF(mKeyAxis->coordToPixel(r.right()),
                              mValueAxis->coordToPixel(r.bottom())));
            px = px.normalized();
            if (px.width() < 1)
                px.setWidth(1);
            if (px.height() < 1)
                px.setHeight(1);
            painter->drawRect(px);
        }
    }
}

void GanttPlottable::drawLegendIcon(QCPPainter *painter, const QRectF &rect) const
{
    painter->setBrush(jobColor(0));
    painter->setPen(Qt::NoPen);
    painter->drawRect(rect.adjusted(2, 4, -2, -4));
}

} // namespace cb::views
