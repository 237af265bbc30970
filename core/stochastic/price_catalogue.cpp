#include "stochastic/price_catalogue.h"

#include "model/scenario.h"
#include "util/text.h"

#include <algorithm>

namespace cb {


double PriceCatalogue::ratePerHour(const std::string &gpuType, int gpus) const
{
    auto it = m_rates.find(gpuType);
    if (it == m_rates.end() || it->second.empty() || gpus <= 0)
        return 0.0;
    const auto &byCount = it->second;
    if (auto e = byCount.find(gpus); e != byCount.end())
        return e->second;
    auto above = byCount.upper_bound(gpus);
    const auto &ref = above == byCount.begin() ? *above : *std::prev(above);
    return ref.second / ref.first * gpus;
}

void PriceCatalogue::set(const std::string &gpuType, int gpus, double perHour)
{
    m_rates[gpuType][gpus] = perHour;
}

PriceCatalogue PriceCatalogue::cloudFromScenario(const Scenario &s)
{
    PriceCatalogue c;
    for (const GpuType &g : s.cluster.gpuTypes)
        c.set(g.name, 1, g.pricePerHour);
    return c;
}

PriceCatalogue PriceCatalogue::energyFromScenario(const Scenario &s)
{
    PriceCatalogue c;
    for (const GpuType &g : s.cluster.gpuTypes)
        c.set(g.name, 1, g.busyWatts / 1000.0 * s.settings.energyPricePerKWh * s.settings.pue);
    return c;
}

} // namespace cb
