#pragma once
// The STS paper's experiment (Filippini et al., IEEE TCC 2024, data-centre scenario): N nodes
// x 8 GPUs alternating K80 and M60, 10 jobs per node from the 15 profiled templates, built by
// buildStsScenario (io/sts_setup.h) for each seed; every method runs the same jobs with the
// same sampled stop points; the report gives per method the mean and standard deviation over
// seeds of total, energy and tardiness cost and due-date violations, and STS's reduction of
// the mean total cost against each baseline.

#include "io/sts_data.h"
#include "model/scenario.h"
#include "stochastic/price_catalogue.h"
#include "stochastic/sharing_slices.h"
#include "stochastic/sts_job.h"
#include "stochastic/sts_scheduler.h"
#include "stochastic/sts_simulator.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cb {

struct StsExperimentParams
{
    int nodes = 10;
    int seeds = 10;
    std::uint64_t firstSeed = 1;
    int jobsPerNode = 10;
    bool sharing = false;          ///< 1/4 and 1/2 GPU slices (fractions.csv)
    int randomIterations = 1000;   ///< RG and LS iterations per event
    /// Methods to run; STS first. Known: STS, FIFO, EDF, PS, G, RG, LS.
    std::vector<std::string> methods = {"STS", "FIFO", "EDF", "PS", "G", "RG", "LS"};
};

struct StsStat
{
    double mean = 0;
    double std = 0; ///< sample standard deviation (0 for one seed)
};

struct StsMethodSummary
{
    std::string name;
    StsStat totalCost, energyCost, tardinessCost, violations;
    std::vector<double> totalPerSeed;
};

struct StsExperimentReport
{
    StsExperimentParams params;
    int jobsPerSeed = 0;
    std::vector<StsMethodSummary> methods;
    /// STS's reduction of the mean total cost against each other method: 1 - STS / method.
    std::vector<std::pair<std::string, double>> stsReduction;
    /// With sharing: STS's mean energy cost without slices, and the saving 1 - with / without.
    std::optional<double> stsEnergyWithoutSharing;
    std::optional<double> sharingSaving;

    nlohmann::json toJson() const;
    std::string toText() const;
};

/// The known method names, in report order.
const std::vector<std::string> &stsMethodNames();
/// A scheduler by name (null for an unknown name).
std::unique_ptr<StsScheduler> makeStsScheduler(const std::string &name, int randomIterations);

/// The jobs of an STS scenario: execution times, termination distribution, template memory
/// (from `data`, matched by the template id that starts the job name), sharing slices with a
/// per-job slowdown, and a true stop point, all drawn from streams of `seed`.
Result<std::vector<StsJob>> stsJobsFromScenario(const Scenario &s, const StsAuthorsData &data,
                                                const SharingSlices *slices, std::uint64_t seed);
/// The GPU pool of a scenario's cluster.
GpuPool stsPoolFromScenario(const Scenario &s);

/// Runs the experiment. `prices` charges GPU time (the authors' GPU-cost_server.csv).
Result<StsExperimentReport> runStsExperiment(const StsAuthorsData &data,
                                             const PriceCatalogue &prices,
                                             const SharingSlices &slices,
                                             const StsExperimentParams &params);

} // namespace cb
