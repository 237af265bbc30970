#pragma once
// The Gantt chart's plottable: one rectangle per task of a job on a node (or per GPU lane
// of the node), key axis = time in hours, value axis = row (node) number. Draws only what is
// in view; hit-testing by geometry for tooltips.

#include "runs/timeline_series.h"

#include <qcustomplot.h>

#include <vector>

namespace cb::views {

class GanttPlottable : public QCPAbstractPlottable
{
    Q_OBJECT

public:
    GanttPlottable(QCPAxis *keyAxis, QCPAxis *valueAxis);

    /// `rowOfNode[n]` is the row of node n (-1: not shown); `gpusOfNode[n]` its GPU count.
    void setBars(std::vector<GanttBar> bars, std::vector<int> rowOfNode,
                 std::vector<int> gpusOfNode, std::vector<QColor> jobColors);
    /// Index into the bars at a pixel position, or -1.
    int barAt(const QPointF &pixel) const;
    const std::vector<GanttBar> &bars() const { return m_bars; }

    double selectTest(const QPointF &pos, bool onlySelectable,
                      QVariant *details = nullptr) const override;
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange &inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override;

private:
    /// The bar's rectangles in plot coordinates (hours, rows): one per GPU lane, or one.
    void laneRects(const GanttBar &bar, std::vector<QRectF> &out) const;

    std::vector<GanttBar> m_bars;
    std::vector<int> m_rowOfNode;
    std::vector<int> m_gpusOfNode;
    std::vector<QColor> m_jobColors;
};

/// A distinct, readable colour per job index (golden-angle hues).
QColor jobColor(int job);

} // namespace cb::views
