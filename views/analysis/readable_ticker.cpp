#include "analysis/readable_ticker.h"

#include "models/quantity_format.h"

#include <algorithm>
#include <cmath>

namespace cb::views {

namespace {

/// The smallest 1, 2, 2.5 or 5 x 10^k at or above `v` (> 0).
double niceCeil(double v)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * magnitude >= v * (1 - 1e-9))
            return m * magnitude;
    return 10 * magnitude;
}

/// The smallest readable duration step at or above `v` seconds.
double durationCeil(double v)
{
    static const double steps[] = {1,     2,     5,     10,    15,     30,     60,    120,
                                   300,   600,   900,   1800,  3600,   7200,   10800, 21600,
                                   43200, 86400, 172800, 432000, 864000};
    if (v < 1)
        return niceCeil(v); // fractions of a second
    for (double s : steps)
        if (s >= v * (1 - 1e-9))
            return s;
    return niceCeil(v / 86400) * 86400;
}

} // namespace

ReadableTicker::ReadableTicker(Steps steps, Formatter format)
    : m_steps(steps)
    , m_format(std::move(format))
{
    if (!m_format)
        m_format = steps == Steps::Duration ? Formatter(formatDuration) : Formatter(formatNumber);
    setTickCount(6);
}

QString ReadableTicker::label(double value) const
{
    // -0 and rounding noise near zero read as 0.
    return m_format(std::abs(value) < 1e-12 ? 0.0 : value);
}

double ReadableTicker::getTickStep(const QCPRange &range)
{
    const double size = range.size();
    if (!(size > 0))
        return 1;
    switch (m_steps) {
    case Steps::Decimal:
        return niceCeil(std::max(size / std::max(1, tickCount()), m_minimumStep));
    case Steps::Count: {
        // Whole numbers only: 2.5 becomes 5 (a count of 2.5 jobs does not exist).
        const double step = niceCeil(std::max({size / std::max(1, tickCount()), m_minimumStep, 1.0}));
        return std::abs(step - std::round(step)) > 1e-9 ? 2 * step : step;
    }
    case Steps::Duration:
        return durationCeil(std::max(size / std::max(1, tickCount()), m_minimumStep));
    case Steps::Logarithmic:
        return std::max(1.0, std::ceil(m_minimumStep - 1e-9)); // whole decades
    }
    return 1;
}

int ReadableTicker::getSubTickCount(double tickStep)
{
    if (m_steps == Steps::Logarithmic)
        return 0;
    const double mantissa = tickStep / std::pow(10.0, std::floor(std::log10(tickStep)));
    return std::abs(mantissa - 2.5) < 1e-6 ? 4 : std::abs(mantissa - 2) < 1e-6 ? 3 : 4;
}

QString ReadableTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return label(tick);
}

QVector<double> ReadableTicker::createTickVector(double tickStep, const QCPRange &range)
{
    QVector<double> ticks;
    if (m_steps == Steps::Logarithmic) {
        if (range.lower <= 0 || range.upper <= 0)
            return ticks;
        const int stride = int(std::lround(tickStep));
        const int first = int(std::floor(std::log10(range.lower)));
        const int last = int(std::ceil(std::log10(range.upper)));
        for (int e = first - ((first % stride) + stride) % stride; e <= last; e += stride)
            ticks << std::pow(10.0, e);
        return ticks;
    }
    const double first = std::floor(range.lower / tickStep) * tickStep;
    for (double t = first; t <= range.upper + tickStep; t += tickStep)
        ticks << (std::abs(t) < tickStep * 1e-9 ? 0.0 : t);
    return ticks;
}

} // namespace cb::views
