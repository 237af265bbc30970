#pragma once
// An axis ticker whose labels never crowd each other: it keeps the tick step at or above a
// minimum that plot_ticks.h (spaceTicks) derives from the pixels the axis has and the size
// of its labels, and writes labels in the window's formats (quantity_format.h). Three kinds
// of steps: decimal (1, 2, 2.5, 5 x 10^k), whole counts (1, 2, 5, 10, ...), durations (seconds
// to days, labelled h:mm:ss) and decades on a logarithmic axis.

#include <qcustomplot.h>

#include <QString>

#include <functional>

namespace cb::views {

class ReadableTicker : public QCPAxisTicker
{
public:
    enum class Steps { Decimal, Count, Duration, Logarithmic };
    using Formatter = std::function<QString(double)>;

    /// Labels come from `format` (default: formatNumber, or formatDuration for durations).
    explicit ReadableTicker(Steps steps = Steps::Decimal, Formatter format = {});

    Steps steps() const { return m_steps; }
    /// The smallest step allowed, in axis coordinates (decades on a logarithmic axis).
    void setMinimumStep(double step) { m_minimumStep = step; }
    double minimumStep() const { return m_minimumStep; }
    /// The label of a tick at `value`.
    QString label(double value) const;

protected:
    double getTickStep(const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;

private:
    Steps m_steps;
    Formatter m_format;
    double m_minimumStep = 0;
};

} // namespace cb::views
