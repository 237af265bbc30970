#pragma once
// The STS authors' data-centre experiment as a scenario (Filippini et al., IEEE TCC 2024;
// their generate_data.py, "datacenter" scenario): N nodes of 8 GPUs alternating K80 and M60,
// jobs drawn from the 15 profiled templates with exponential arrivals of mean scale/N seconds,
// due = arrival + U(min, max execution time over the node GPU types), tardiness weight
// uniform in [0.02537, 0.04440] per second, a termination distribution drawn per job.
// The draws use cb::Rng, not the authors' NumPy streams: same law, different samples.

#include "io/sts_data.h"
#include "model/scenario.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

struct StsSetupParams
{
    int nodes = 10;
    int jobsPerNode = 10;          ///< the authors' job_times_nodes; plus one job at time 0
    double arrivalScale = 50000;   ///< mean inter-arrival = arrivalScale / nodes seconds
    std::vector<std::string> gpuTypes = {"K80", "M60"}; ///< node i gets gpuTypes[i % size]
    int gpusPerNode = 8;
    double minWeight = 0.0253709514333333; ///< the authors' bounds (generate_data.py)
    double maxWeight = 0.0443991650083333;
    double linkGbps = 10;          ///< node to top-of-rack switch (STS does not model it)
    std::uint64_t seed = 1;
};

/// The scenario; fails when a template lacks execution times for a node GPU type.
Result<Scenario> buildStsScenario(const StsAuthorsData &data, const StsSetupParams &params);

} // namespace cb
