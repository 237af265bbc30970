#include "stochastic/sts_scheduler.h"

#include <algorithm>
#include <tuple>

namespace cb {

double stsConfigRate(const PriceCatalogue &prices, const StsConfig &c)
{
    return prices.ratePerHour(c.gpuType, c.gpus) * c.fraction;
}

std::vector<std::size_t> rankConfigurations(const StsJob &job, double done, double now,
                                            const PriceCatalogue &prices)
{
    std::vector<std::tuple<int, double, std::size_t>> keyed;
    for (std::size_t i = 0; i < job.times.size(); ++i) {
        const StsConfigTime &t = job.times[i];
        const double remaining = t.remainingSeconds(done, job.maxEpochs);
        if (now + remaining <= job.dueSeconds)
            keyed.emplace_back(0, stsConfigRate(prices, t.config) * remaining / 3600, i);
        else
            keyed.emplace_back(1, remaining, i);
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<std::size_t> out;
    out.reserve(keyed.size());
    for (const auto &k : keyed)
        out.push_back(std::get<2>(k));
    return out;
}

} // namespace cb
