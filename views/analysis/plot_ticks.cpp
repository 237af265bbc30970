#include "analysis/plot_ticks.h"

#include "analysis/named_ticker.h"
#include "analysis/readable_ticker.h"

#include <QFontMetricsF>
#include <QResizeEvent>
#include <qcustomplot.h>

#include <cmath>
#include <memory>

namespace cb::views {

namespace {

/// Eats a plot's resize events to an empty size (see ignoreEmptyResizes).
class EmptyResizeFilter : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize && static_cast<QResizeEvent *>(event)->size().isEmpty())
            return true;
        return QObject::eventFilter(watched, event);
    }
};

bool vertical(const QCPAxis *axis)
{
    return axis->axisType() == QCPAxis::atLeft || axis->axisType() == QCPAxis::atRight;
}

/// The widest label the axis may show over its range.
double widestLabel(const QCPAxis *axis, const QFontMetricsF &metrics)
{
    double widest = 0;
    if (auto *named = dynamic_cast<const NamedTicker *>(axis->ticker().data())) {
        for (const QString &n : named->names())
            for (const QString &line : n.split(QLatin1Char('\n'))) // (a name on two lines)
                widest = std::max(widest, metrics.horizontalAdvance(line));
    } else if (auto *readable = dynamic_cast<const ReadableTicker *>(axis->ticker().data())) {
        const QCPRange r = axis->range();
        for (double v : {r.lower, r.upper, (r.lower + r.upper) / 2, r.upper * 0.99})
            widest = std::max(widest, metrics.horizontalAdvance(readable->label(v)));
    }
    return widest;
}

} // namespace

double minimumTickSpacing(const QCPAxis *axis)
{
    const QFontMetricsF metrics(axis->tickLabelFont());
    const double height = metrics.height();
    const double rotation = std::abs(axis->tickLabelRotation()) * M_PI / 180;
    if (vertical(axis)) // labels side by side vertically: their height apart
        return rotation < 0.1 ? height * 1.25 : widestLabel(axis, metrics) * std::sin(rotation) + height * 0.5;
    if (rotation > 0.1) // rotated labels overlap unless their height apart across the axis
        return height * 1.15 / std::sin(rotation);
    return widestLabel(axis, metrics) + height * 0.8;
}

QList<QCPAxis *> plotAxes(const QCustomPlot *plot)
{
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *a : rect->axes())
            if (!axes.contains(a))
                axes << a;
    for (QCPColorScale *scale : plot->findChildren<QCPColorScale *>())
        if (scale->axis() && !axes.contains(scale->axis()))
            axes << scale->axis();
    return axes;
}

bool spaceTicks(QCustomPlot *plot)
{
    bool changed = false;
    for (QCPAxis *axis : plotAxes(plot)) {
        if (!axis->visible() || !axis->tickLabels() || !axis->axisRect())
            continue;
        const QRect rect = axis->axisRect()->rect();
        const double pixels = vertical(axis) ? rect.height() : rect.width();
        if (pixels <= 4)
            continue;
        const double spacing = minimumTickSpacing(axis);
        const QCPRange range = axis->range();
        double step = 0;
        if (auto *named = dynamic_cast<NamedTicker *>(axis->ticker().data())) {
            step = spacing * range.size() / pixels;
            if (std::abs(step - named->minimumStep()) > 0.02 * std::max(step, 1e-12)) {
                named->setMinimumStep(step);
                changed = true;
            }
        } else if (auto *readable = dynamic_cast<ReadableTicker *>(axis->ticker().data())) {
            if (readable->steps() == ReadableTicker::Steps::Logarithmic) {
                if (range.lower <= 0 || range.upper <= range.lower)
                    continue;
                step = spacing * std::log10(range.upper / range.lower) / pixels;
            } else {
                step = spacing * range.size() / pixels;
            }
            if (std::abs(step - readable->minimumStep()) > 0.02 * std::max(step, 1e-12)) {
                readable->setMinimumStep(step);
                changed = true;
            }
        }
    }
    return changed;
}

void keepTicksReadable(QCustomPlot *plot)
{
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] {
        if (spaceTicks(plot))
            plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

void keepMinimumSizeKnown(QCustomPlot *plot)
{
    auto last = std::make_shared<QSize>();
    QObject::connect(plot, &QCustomPlot::afterReplot, plot, [plot, last] {
        const QSize now = static_cast<QWidget *>(plot)->minimumSizeHint();
        if (now != *last) {
            *last = now;
            plot->updateGeometry();
        }
    });
}

void ignoreEmptyResizes(QCustomPlot *plot)
{
    plot->installEventFilter(new EmptyResizeFilter(plot));
}

} // namespace cb::views
