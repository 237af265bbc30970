#include "analysis/named_ticker.h"

#include <algorithm>
#include <cmath>

namespace cb::views {

NamedTicker::NamedTicker(QStringList names)
    : m_names(std::move(names))
{
}

int NamedTicker::stride() const
{
    return std::max(1, int(std::ceil(m_minimumStep - 1e-9)));
}

double NamedTicker::getTickStep(const QCPRange &)
{
    return stride();
}

int NamedTicker::getSubTickCount(double)
{
    return 0;
}

QString NamedTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    const int i = int(std::lround(tick));
    return i >= 0 && i < m_names.size() ? m_names[i] : QString();
}

QVector<double> NamedTicker::createTickVector(double tickStep, const QCPRange &range)
{
    QVector<double> ticks;
    const int first = std::max(0, int(std::ceil(range.lower)));
    const int last = std::min(int(m_names.size()) - 1, int(std::floor(range.upper)));
    // Never more than kMaxTicks: before spaceTicks has seen the axis (a new ticker, the first
    // layout) the step is 1, and 65,536 link names measured one by one took 1.5 s.
    const int k = std::max({1, int(std::lround(tickStep)),
                            (last - first + kMaxTicks) / kMaxTicks});
    for (int i = (first + k - 1) / k * k; i <= last; i += k)
        ticks << double(i);
    return ticks;
}

} // namespace cb::views
