#pragma once
// Hourly cost of running `gpus` GPUs of a type on one node, as STS charges it: either a cloud
// price list per GPU type and count (the authors' GPU-cost.csv / GPU-cost_server.csv) or an
// energy price (power draw in watts x price per kWh x PUE, GPU-cost_server_4-2.csv style).

#include "util/result.h"

#include <map>
#include <string>
#include <vector>

namespace cb {

struct Scenario;

class PriceCatalogue
{
public:
    /// Hourly cost of `gpus` busy GPUs of `gpuType` on one node. Counts missing from the table
    /// are priced per GPU from the nearest listed count below (or above); 0 for unknown types.
    double ratePerHour(const std::string &gpuType, int gpus) const;
    /// Adds or replaces one entry.
    void set(const std::string &gpuType, int gpus, double perHour);
    bool has(const std::string &gpuType) const { return m_rates.count(gpuType) > 0; }
    bool empty() const { return m_rates.empty(); }
    /// Every entry: type -> (count -> hourly cost).
    const std::map<std::string, std::map<int, double>> &entries() const { return m_rates; }

    /// Per GPU, from the scenario's GPU types: pricePerHour x count.
    static PriceCatalogue cloudFromScenario(const Scenario &s);
    /// Per GPU, from the scenario's GPU types: busyWatts x count x energy price x PUE / 1000.
    static PriceCatalogue energyFromScenario(const Scenario &s);

private:
    std::map<std::string, std::map<int, double>> m_rates;
};

} // namespace cb
