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
#include "stochastic/sts_policy.h"
#include "stochastic/sts_job.h"
#include "stochastic/sts_scheduler.h"
#include "sim/run_result.h"
#include "util/result.h"
#include "util/stats.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
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
    /// Slice memory: false = the authors' fractions.csv as written (a K80 / M60 "GPU" of
    /// 24 / 16 GB, a whole board); true = fraction x the GPU catalogue's memory per GPU
    /// (12 / 8 GB: the half board a cloud sells and prices as one GPU).
    bool sliceMemoryPerGpu = false;
    /// Configurations that fit no single node may be split over nodes (STS: best fit,
    /// STS-net: one rack, fewest nodes); off in the paper's setup.
    bool multiNode = false;
    /// Run on this scenario instead of the authors' generated setup (seeds then vary only
    /// the sampled stop points); empty: build the setup per seed.
    std::string scenarioFile;
    /// STS's saturation guard (sts_policy.h), which the authors' code does not have.
    bool saturationGuard = true;
    /// How STS ranks the GPU types' plans (sts_policy.h): ours, or as the authors' code does.
    StsRanking ranking = StsRanking::ExpectedCost;
    int randomIterations = 1000;   ///< RG and LS iterations per event
    /// Methods to run; STS first. Known: STS, STS-net, FIFO, EDF, PS, G, RG, LS.
    std::vector<std::string> methods = {"STS", "FIFO", "EDF", "PS", "G", "RG", "LS"};
    /// Called after every simulated run with (runs done, runs in all); may be empty.
    std::function<void(int, int)> progress;
};

using StsStat = MeanStd;

struct StsMethodSummary
{
    std::string name;
    StsStat totalCost, energyCost, tardinessCost, violations, crossNodeBytes;
    StsStat multiNodePlacements;
    std::vector<double> totalPerSeed;
    std::vector<double> energyPerSeed;
};

struct StsExperimentReport
{
    StsExperimentParams params;
    int jobsPerSeed = 0;
    std::vector<StsMethodSummary> methods;
    /// STS's reduction of the mean total cost against each other method: 1 - STS / method.
    std::vector<std::pair<std::string, double>> stsReduction;
    /// With sharing: STS without slices on the same jobs and seeds (energy, total cost,
    /// violations, per-seed energy), and the saving 1 - with / without (mean energy cost).
    std::optional<double> stsEnergyWithoutSharing;
    std::optional<double> sharingSaving;
    std::optional<StsMethodSummary> stsWithoutSharing;
    /// Per seed: 1 - energy with slices / energy without.
    std::vector<double> sharingSavingPerSeed;
    /// STS-net's change of each metric against STS (when both ran): 1 - STS-net / STS.
    std::optional<double> netCrossNodeReduction, netTotalCostReduction;

    nlohmann::json toJson() const;
    /// The report as text; its table laid out for `width` columns.
    std::string toText(std::size_t width = 80) const;
};

/// The known method names, in report order.
const std::vector<std::string> &stsMethodNames();
/// A scheduler by name (null for an unknown name); `saturationGuard` for STS and STS-net.
std::unique_ptr<StsScheduler> makeStsScheduler(const std::string &name, int randomIterations,
                                               bool saturationGuard = true,
                                               StsRanking ranking = StsRanking::ExpectedCost);

/// The jobs of an STS scenario: execution times, termination distribution, template memory
/// (from `data`, matched by the template id that starts the job name), sharing slices with a
/// per-job slowdown, and a true stop point, all drawn from streams of `seed`. Slice memory
/// comes from the slices as given, or with `perGpuMemory` from fraction x the memory per GPU
/// of the scenario's GPU type. A job without STS data (e.g. a parameter-server job of the
/// DLTAP testbed) gets a fixed-size table: its own GPU count on each GPU type of the cluster,
/// taking iterations x its compute seconds per iteration there; max epochs 100 (percent of
/// its iterations), runs to the end, no due date unless the job has one.
Result<std::vector<StsJob>> stsJobsFromScenario(const Scenario &s, const StsAuthorsData &data,
                                                const SharingSlices *slices, std::uint64_t seed,
                                                bool perGpuMemory = false);
/// The GPU pool of a scenario's cluster (racks and node uplink capacities included).
GpuPool stsPoolFromScenario(const Scenario &s);
/// The jobs that no configuration of theirs fits on `pool` when it is empty (as its split
/// allows), named with their smallest configuration, and the largest node of each GPU type:
/// "3 jobs fit no node ...". Empty when every job fits somewhere.
std::string unplaceableJobsText(const std::vector<StsJob> &jobs, const GpuPool &pool);
/// The slices of `slices` re-sized to fraction x memory per GPU of the scenario's types.
SharingSlices perGpuSlices(const SharingSlices &slices, const Scenario &s);

/// The prices of an STS run and where they come from (for reports and the window).
struct StsPrices
{
    PriceCatalogue catalogue;
    std::string from; ///< a data file ("GPU-cost_server.csv, built in (...)") or the scenario
};

/// The prices `experiment sts --prices cloud` charges: the authors' GPU-cost_server.csv
/// (every count 1..8) when `data` has it, else its GPU-cost.csv rows; when `scenario` has a
/// GPU type these do not price, the scenario's own list prices instead
/// (PriceCatalogue::cloudFromScenario).
StsPrices stsCloudPrices(const StsAuthorsData &data, const Scenario &scenario);

/// One method on one scenario and seed, as `experiment sts --scenario` runs it for the
/// first seed (no sharing slices): jobs from stsJobsFromScenario, the scenario's GPU pool
/// (split over nodes with `multiNode`: best fit), the decision log into `log` if given.
/// Fails on an unknown method name or a job that fits no node.
Result<RunResult> runStsOnScenario(const Scenario &scenario, const StsAuthorsData &data,
                                   const PriceCatalogue &prices, const std::string &method,
                                   std::uint64_t seed, StsDecisionLog *log = nullptr,
                                   bool multiNode = false, bool saturationGuard = true,
                                   int randomIterations = 1000);

/// Runs the experiment. `prices` charges GPU time (the authors' GPU-cost_server.csv).
Result<StsExperimentReport> runStsExperiment(const StsAuthorsData &data,
                                             const PriceCatalogue &prices,
                                             const SharingSlices &slices,
                                             const StsExperimentParams &params);

} // namespace cb
