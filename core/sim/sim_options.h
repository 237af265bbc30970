#pragma once
// What a simulation run is asked to do: the policy, the seed, injected node failures, the
// cost model and an optional progress callback.

#include "sched/policy.h"
#include "sched/task_pin.h"
#include "stochastic/gpu_pool.h"
#include "stochastic/price_catalogue.h"
#include "stochastic/sts_decision_log.h"
#include "stochastic/sts_job.h"
#include "stochastic/sts_scheduler.h"
#include "util/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cb {

/// A node goes down at `atSeconds`: jobs with a task on it are killed (their progress is
/// lost) and requeued; the node takes no work until repaired (never, without a repair time).
struct NodeFailure
{
    std::string node;
    double atSeconds = 0;
    std::optional<double> repairAfterSeconds;
    bool operator==(const NodeFailure &) const = default;
};

/// Parses "NODE@T" or "NODE@T+R" (down at T seconds, back R seconds later).
Result<NodeFailure> parseNodeFailure(const std::string &text);
/// Parses a comma-separated list of failures.
Result<std::vector<NodeFailure>> parseNodeFailures(const std::string &text);

enum class CostModel {
    Energy,    ///< energy drawn x price (flat or time-of-day) x PUE
    GpuHours,  ///< GpuType::pricePerHour per allocated GPU-hour (cloud list price)
    Catalogue, ///< a price catalogue per GPU type and GPUs busy on the node (STS's cost)
};
/// "energy", "gpu-hours", "catalogue".
const char *toString(CostModel model);
std::optional<CostModel> costModelFromString(const std::string &name);

/// A job-level stochastic scheduler (STS or one of its baselines) runs the jobs instead of
/// the policy's placer: at every arrival, completion and planned reconfiguration it chooses
/// each job's configuration (GPU type, count, fraction) and where it runs; the simulator
/// enacts it (starts, reconfigurations and pauses with progress kept), runs each job to its
/// sampled stop point and charges `prices` (cost model Catalogue).
struct StochasticRun
{
    std::shared_ptr<StsScheduler> scheduler;
    std::vector<StsJob> jobs;  ///< one per scenario job, in scenario order
    GpuPool pool;              ///< the cluster's GPUs (its split mode for multi-node)
    PriceCatalogue prices;
    StsDecisionLog *log = nullptr; ///< every scheduling event, when set
};

struct SimOptions
{
    Policy policy;
    std::uint64_t seed = 1;
    std::vector<NodeFailure> failures;
    CostModel costModel = CostModel::Energy;
    /// Nodes that run no task draw nothing (powered down; wake-up time and energy are not
    /// modelled). Off: every node that is up draws its base and idle GPU watts all the time.
    bool powerDownIdleNodes = false;
    /// Keep the per-event log (arrivals, starts, completions, failures) in the result.
    bool keepEventLog = true;
    /// Keep node x node traffic per time bucket (the cumulative matrix is always kept).
    bool pairBuckets = true;
    /// Time series start with buckets of this width; when more than maxBuckets are needed,
    /// neighbours merge and the width doubles (integrals stay exact).
    double initialBucketSeconds = 60;
    int maxBuckets = 256;
    /// Called now and then with the finished fraction of jobs; return false to cancel.
    std::function<bool(double done)> progress;
    /// Set: a stochastic scheduler decides instead of `policy` (which then only names it).
    std::shared_ptr<const StochasticRun> stochastic;
    /// The prices of CostModel::Catalogue for a placement policy's run (a stochastic run
    /// brings its own): rate per GPU type and GPUs busy on the node, shared by the jobs on
    /// the node in proportion to their GPUs, as STS charges.
    std::shared_ptr<const PriceCatalogue> catalogue;
    /// Reference mode for tests and benchmarks: every task is scored (no gang fast path),
    /// every waiting job is offered at every pass (no skipped re-offers, sim/reoffer_index.h)
    /// and the whole network is re-solved at every change. The results are the same, slower.
    bool exhaustive = false;
    /// What if: tasks pinned to nodes by hand (sched/task_pin.h), checked by the caller.
    std::vector<TaskPin> pins;
};

} // namespace cb
