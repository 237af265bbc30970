#pragma once
// Energy price over simulated time: flat, or time-of-day periods repeating every 24 h
// (Settings::priceSchedule). Integrates exactly across period and day boundaries.

#include "model/scenario.h"

#include <vector>

namespace cb {

class PriceSchedule
{
public:
    explicit PriceSchedule(const Settings &settings);

    /// Price per kWh at simulated second t (t = 0 is midnight of day 0).
    double priceAt(double t) const;
    /// Integral of the price over [t0, t1] in (price per kWh) x seconds.
    double integral(double t0, double t1) const;
    /// Cost of drawing `watts` (already including PUE) over [t0, t1].
    double cost(double watts, double t0, double t1) const
    {
        return watts / 3.6e6 * integral(t0, t1);
    }

private:
    /// Integral from 0 to t.
    double cumulative(double t) const;
    /// Integral from the start of a day to `secondsIntoDay`.
    double partialDay(double secondsIntoDay) const;

    double m_flat = 0;
    std::vector<PricePeriod> m_periods; ///< sorted by fromHour; empty = flat
    double m_daily = 0;
};

} // namespace cb
