#pragma once
// Checks shared by the view tests: are a plot's charts tall enough to read, and do the tick
// labels of its axes stay apart (measured against the font, not against the ticker's own
// spacing rule)?

#include <QFontMetricsF>
#include <QStringList>
#include <qcustomplot.h>

#include <cmath>

namespace cb::testing {

/// A chart's inner height below which it is not readable (a few ticks and a curve).
constexpr int kReadableChartHeight = 80;

/// Problems of `plot` ("name: axis left of rect 2: ticks 9 px apart, labels 15 px high"),
/// empty when every visible axis keeps its tick labels apart: vertical axes by the font
/// height, horizontal axes by the widest of two neighbouring labels (rotated labels by the
/// font height across the axis).
inline QStringList tickProblems(const QCustomPlot *plot, const QString &name)
{
    QStringList problems;
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *a : rect->axes())
            axes << a;
    for (QCPColorScale *scale : plot->findChildren<QCPColorScale *>())
        if (!axes.contains(scale->axis()))
            axes << scale->axis();
    for (QCPAxis *axis : axes) {
        if (!axis->visible() || !axis->tickLabels())
            continue;
        const QFontMetricsF metrics(axis->tickLabelFont());
        const bool vertical = axis->orientation() == Qt::Vertical;
        const double rotation = std::abs(axis->tickLabelRotation()) * M_PI / 180;
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (int i = 1; i < ticks.size(); ++i) {
            const double lo = axis->range().lower, hi = axis->range().upper;
            if (ticks[i - 1] < lo || ticks[i] > hi)
                continue; // outside the range: not drawn
            const double apart = std::abs(axis->coordToPixel(ticks[i]) -
                                          axis->coordToPixel(ticks[i - 1]));
            double needed = 0;
            if (vertical || rotation > 0.1)
                needed = metrics.height() * (rotation > 0.1 && !vertical ? 1 / std::sin(rotation) : 1);
            else
                needed = (metrics.horizontalAdvance(labels.value(i - 1)) +
                          metrics.horizontalAdvance(labels.value(i))) / 2;
            if (apart + 0.5 < needed) {
                problems << QStringLiteral("%1: axis %2 (\"%3\"): ticks \"%4\" and \"%5\" %6 px "
                                           "apart, labels need %7 px")
                                .arg(name)
                                .arg(int(axis->axisType()))
                                .arg(axis->label(), labels.value(i - 1), labels.value(i))
                                .arg(apart, 0, 'f', 1)
                                .arg(needed, 0, 'f', 1);
                break;
            }
        }
    }
    return problems;
}

/// Axis rects of `plot` shorter than kReadableChartHeight, as "name: rect 1 is 25 px high".
inline QStringList shortCharts(const QCustomPlot *plot, const QString &name)
{
    QStringList problems;
    const QList<QCPAxisRect *> rects = plot->axisRects();
    for (int i = 0; i < rects.size(); ++i)
        if (rects[i]->visible() && rects[i]->height() < kReadableChartHeight &&
            !rects[i]->inherits("QCPColorScaleAxisRectPrivate"))
            problems << QStringLiteral("%1: chart %2 is %3 px high").arg(name).arg(i).arg(
                rects[i]->height());
    return problems;
}

} // namespace cb::testing
