#include "stochastic/survival_function.h"

#include <algorithm>

namespace cb {

double SurvivalFunction::value(double w) const
{
    if (w <= m_done)
        return 1.0;
    for (const Cell &c : m_cells)
        if (w <= c.to)
            return c.value;
    return 0.0;
}

double SurvivalFunction::integral(double a, double b) const
{
    a = std::max(a, m_done);
    b = std::min(b, m_max);
    if (!(b > a))
        return 0.0;
    double sum = 0;
    for (const Cell &c : m_cells) {
        if (c.to <= a)
            continue;
        if (c.from >= b)
            break;
        const double lo = std::max(a, c.from), hi = std::min(b, c.to);
        if (hi > lo)
            sum += (hi - lo) * c.value;
    }
    return sum;
}

} // namespace cb
