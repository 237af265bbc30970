#pragma once
// What a simulation produces: per-job metrics, cluster totals, time series in buckets and
// the event log. run_json.h writes it as the run file the GUI and exporters read.

#include "sched/placement.h"
#include "sim/sim_options.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cb {

struct JobRun
{
    std::string id;
    double submitSeconds = 0;
    std::optional<double> firstStartSeconds; ///< first attempt
    std::optional<double> startSeconds;      ///< the attempt that finished (or the last one)
    std::optional<double> finishSeconds;     ///< empty when the job never finished
    std::optional<double> dueSeconds;
    int attempts = 0;                        ///< starts, including killed ones
    double iterationSeconds = 0;             ///< of the last attempt, as last re-solved
    std::optional<double> isolatedSeconds;   ///< alone on the empty cluster (analytic)
    double totalBytes = 0;                   ///< moved over all attempts
    double crossNodeBytes = 0;
    double energyKWh = 0;                    ///< the job's GPUs at busy draw, x PUE
    double cost = 0;                         ///< under the run's cost model
    int gpus = 0;                            ///< whole GPUs (fractions count as one)
    JobPlacement placement;                  ///< of the last attempt

    std::optional<double> queueDelaySeconds() const;
    std::optional<double> jctSeconds() const;
    std::optional<double> slowdown() const;
    std::optional<double> tardinessSeconds() const;
    bool operator==(const JobRun &) const = default;
};

struct SimLogEntry
{
    double time = 0;
    std::string kind; ///< arrival, start, finish, kill, requeue, node-down, node-up, hook
    std::string job;  ///< job id or empty
    std::string detail;
    bool operator==(const SimLogEntry &) const = default;
};

/// Time series in buckets of equal width, starting at t = 0.
struct RunSeries
{
    double bucketSeconds = 60;
    std::vector<double> gpuBusySeconds;                   ///< whole-GPU equivalents x seconds
    std::vector<std::map<int, double>> linkBytes;         ///< directed link -> bytes
    std::vector<std::map<std::pair<int, int>, double>> pairBytes; ///< node pair -> bytes
    bool operator==(const RunSeries &) const = default;
};

struct RunResult
{
    std::string scenario;
    std::string policy;
    std::uint64_t seed = 0;
    CostModel costModel = CostModel::Energy;
    std::vector<JobRun> jobs;                 ///< in scenario order
    std::vector<SimLogEntry> log;
    RunSeries series;
    std::map<std::pair<int, int>, double> pairBytes; ///< cumulative, node pair -> bytes
    std::vector<double> linkBytes;                   ///< cumulative, per directed link
    int totalGpus = 0;
    double makespanSeconds = 0;
    double energyKWh = 0;   ///< whole cluster incl. idle GPUs and node base, x PUE
    double energyCost = 0;
    double gpuHourCost = 0;
    double cost = 0;        ///< energyCost or gpuHourCost, by costModel
    double tardinessCost = 0;
    int failures = 0;
    std::int64_t events = 0;
    std::int64_t networkSolves = 0;

    double meanJctSeconds() const;
    double totalTardinessSeconds() const;
    double crossNodeBytes() const;
    double totalBytes() const;
    int finishedJobs() const;
    bool operator==(const RunResult &) const = default;
};

} // namespace cb
