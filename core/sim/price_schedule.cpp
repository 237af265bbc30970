#include "sim/price_schedule.h"

#include <algorithm>
#include <cmath>

namespace cb {

namespace {
constexpr double kDay = 86400.0;
}

PriceSchedule::PriceSchedule(const Settings &settings)
    : m_flat(settings.energyPricePerKWh), m_periods(settings.priceSchedule)
{
    std::stable_sort(m_periods.begin(), m_periods.end(),
                     [](const PricePeriod &a, const PricePeriod &b) {
                         return a.fromHour < b.fromHour;
                     });
    if (!m_periods.empty())
        m_daily = partialDay(kDay);
}

double PriceSchedule::priceAt(double t) const
{
    if (m_periods.empty())
        return m_flat;
    const double hour = std::fmod(std::max(0.0, t), kDay) / 3600.0;
    // Before the first period of the day the last period (from the day before) applies.
    double price = m_periods.back().pricePerKWh;
    for (const PricePeriod &p : m_periods)
        if (p.fromHour <= hour)
            price = p.pricePerKWh;
    return price;
}

double PriceSchedule::partialDay(double s) const
{
    double sum = 0;
    double from = 0;
    double price = m_periods.back().pricePerKWh; // wraps from the previous day
    for (const PricePeriod &p : m_periods) {
        const double start = std::clamp(p.fromHour * 3600.0, 0.0, kDay);
        if (start >= s)
            break;
        sum += price * (start - from);
        from = start;
        price = p.pricePerKWh;
    }
    return sum + price * (s - from);
}

double PriceSchedule::cumulative(double t) const
{
    const double days = std::floor(t / kDay);
    return days * m_daily + partialDay(t - days * kDay);
}

double PriceSchedule::integral(double t0, double t1) const
{
    if (t1 <= t0)
        return 0;
    if (m_periods.empty())
        return m_flat * (t1 - t0);
    return cumulative(t1) - cumulative(t0);
}

} // namespace cb
