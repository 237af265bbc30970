#pragma once
// What a simulation produces: per-job metrics, cluster totals, time series in buckets and
// the event log. run_json.h writes it as the run file the GUI and exporters read.

#include "model/placement.h"
#include "model/scenario.h"
#include "sim/sim_options.h"
#include "stochastic/sts_configuration.h"
#include "util/result.h"
#include "util/sparse_sums.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cb {

/// One stretch of a job on one configuration: from a start (or a reconfiguration) to the
/// next reconfiguration, pause, kill or the job's end. A placement policy's job has one per
/// attempt; a stochastic scheduler's job one per configuration it ran on.
struct JobSegment
{
    double startSeconds = 0;
    std::optional<double> endSeconds; ///< empty: still running when the run ended
    /// The STS configuration it ran on (stochastic runs; sim/stochastic_jobs.h gives the job's
    /// shape on it), empty for a placement policy's job.
    std::optional<StsConfig> config;
    double iterations = 0; ///< iterations done in the segment
    JobPlacement placement;
    bool operator==(const JobSegment &) const = default;
};

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
    /// Alone on the empty cluster (analytic), at the fastest GPU type it may take: slowdown,
    /// JCT over this, is 1 for a job that ran as fast as it can.
    std::optional<double> isolatedSeconds;
    double totalBytes = 0;                   ///< moved over all attempts
    double crossNodeBytes = 0;
    /// Cross-node bytes that left their multi-node NVLink domain (= crossNodeBytes on
    /// clusters without such domains).
    double crossDomainBytes = 0;
    double energyKWh = 0;                    ///< the job's GPUs at busy draw, x PUE
    double cost = 0;                         ///< under the run's cost model
    /// Whole GPUs (fractions count as one) the job asks for; a stochastic run's job, those of
    /// the configuration of its last attempt.
    int gpus = 0;
    JobPlacement placement;                  ///< of the last attempt
    int reconfigurations = 0;                ///< configuration changes while running
    bool violated = false;                   ///< finished after its due date (by > 1 us)
    std::vector<JobSegment> segments;        ///< in time order

    /// The segment running at `seconds` (of two that meet there, the one that starts), or
    /// null when the job was not running then.
    const JobSegment *segmentAt(double seconds) const;
    std::optional<double> queueDelaySeconds() const;
    std::optional<double> jctSeconds() const;
    std::optional<double> slowdown() const;
    std::optional<double> tardinessSeconds() const;
    bool operator==(const JobRun &) const = default;
};

/// What happened in a run, typed (the run file writes the names toString gives).
enum class RunEventKind {
    Arrival,         ///< a job was submitted
    Start,           ///< a job started running (again, after a pause or a kill)
    Reconfiguration, ///< a running job moved to another configuration or placement
    Preemption,      ///< a running job was paused by its scheduler, progress kept
    Completion,      ///< a job finished
    Kill,            ///< a job was stopped by a failure, progress lost, requeued
    Requeue,         ///< a job was stopped and requeued with its progress kept
    NodeDown,
    NodeUp,
    Hook,            ///< a planned call (Simulator::scheduleAt)
};
/// "arrival", "start", "reconfigure", "preempt", "finish", "kill", "requeue", "node-down",
/// "node-up", "hook".
const char *toString(RunEventKind kind);
/// The kind a name gives, or nothing.
std::optional<RunEventKind> runEventKindFromString(const std::string &name);

struct SimLogEntry
{
    double time = 0;
    RunEventKind kind = RunEventKind::Arrival;
    std::string job;  ///< job id or empty
    std::string detail;
    bool operator==(const SimLogEntry &) const = default;
};

/// Time series in buckets of equal width, starting at t = 0.
struct RunSeries
{
    double bucketSeconds = 60;
    std::vector<double> gpuBusySeconds;                   ///< whole-GPU equivalents x seconds
    std::vector<SparseSums<int>> linkBytes;                   ///< directed link -> bytes
    std::vector<SparseSums<std::pair<int, int>>> pairBytes;   ///< node pair -> bytes
    /// Cost accrued per bucket, kept for the catalogue cost model (a rate per GPUs busy on
    /// a node, which the views cannot derive from the jobs); empty otherwise.
    std::vector<double> cost;
    /// GPU-seconds free but unusable by the waiting jobs per bucket (RunResult::
    /// strandedGpuSeconds); empty while there were none.
    std::vector<double> strandedGpuSeconds;
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
    double cost = 0;        ///< energyCost, gpuHourCost or the catalogue's, by costModel
    double tardinessCost = 0;
    int reconfigurations = 0;
    /// Starts of a job on more than one node (a stochastic run: decisions that split a job).
    int multiNodePlacements = 0;
    int failures = 0;
    std::int64_t events = 0;
    std::int64_t networkSolves = 0;
    /// Fragmentation: whole GPUs free while jobs waited, on nodes with at least as many free
    /// GPUs of the right type as the smallest GPU task of a waiting job asks for (a task could
    /// use them, its gang could not be admitted), integrated over time. Placement policies.
    double strandedGpuSeconds = 0;

    double meanJctSeconds() const;
    double totalTardinessSeconds() const;
    double crossNodeBytes() const;
    double crossDomainBytes() const;
    double totalBytes() const;
    int finishedJobs() const;
    /// cost + tardinessCost
    double totalCost() const { return cost + tardinessCost; }
    /// Jobs that finished after their due date.
    int violations() const;
    bool operator==(const RunResult &) const = default;
};

/// How long job `run` ran from its first start to its finish, when that is past the job's
/// time limit (a deployed job is ended at its limit; the simulation lets it finish).
std::optional<double> ranPastTimeLimit(const Job &job, const JobRun &run);

/// Jobs of `scenario` whose simulated run, from first start to finish, went past their
/// time_limit_s (ranPastTimeLimit): the simulation lets them finish, but a deployed job is
/// ended at its limit (Slurm's --time, Kubernetes' activeDeadlineSeconds), so an exported
/// job would not run to the end. Problems at /jobs/i/time_limit_s.
Problems timeLimitOverruns(const Scenario &scenario, const RunResult &run);

} // namespace cb
