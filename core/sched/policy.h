#pragma once
// Scheduling policies: named presets of scoring plugins with weights and parameters, plus the
// order of jobs in the queue and of tasks within a job. Built-in presets reproduce the 2017
// kube-scheduler defaults, the usual baselines and DLTAP (network-aware placement that aggregates a job's PS
// and worker tasks); users derive
// new presets in JSON (see policy_json.h) without code.

#include <optional>
#include <string>
#include <vector>

namespace cb {

/// Scoring plugins. Filters (resource fit: CPU, memory, GPUs by type and fraction; node
/// selector labels) always run and have no weight.
enum class PluginKind {
    LeastAllocated,     ///< k8s LeastRequestedPriority: mean of floor(free * 10 / capacity)
    MostAllocated,      ///< k8s MostRequestedPriority (bin-packing): floor(used * 10 / capacity)
    BalancedAllocation, ///< k8s BalancedResourceAllocation: floor(10 - |cpu% - mem%| * 10)
    SelectorSpread,     ///< k8s SelectorSpreadPriority over the tasks of the same job
    Dltap,              ///< DLTAP aggregation degree, round(10 * A(n))
    TopologyDistance,   ///< 10 on nodes nearest (in hops) to the job's placed tasks
    NvlinkPacking,      ///< prefers nodes whose NVLink domains can hold the task's GPUs
    NodeAffinity,       ///< 10 on nodes carrying all preferred labels, else 0
    Random,             ///< seeded uniform integer 0..10 per node and decision
    /// Energy per training step of the job on the node's GPU type (busy watts x seconds per
    /// iteration there): round(10 x best feasible / this node); 10 for CPU-only tasks.
    EnergyEfficiency,
    /// Keeps a job's GPUs inside one NVLink domain (a multi-node domain such as a GB200 NVL72
    /// rack, else the node) when it fits, else in the fewest domains (sched/domain_packing.h).
    NvlinkDomain,
};

/// Which tasks count for the DLTAP aggregation degree. The paper does not define it exactly;
/// these are the readings we reconstruct it as.
enum class DltapVariant {
    Counterpart, ///< opposite-role tasks on n / opposite-role tasks placed so far
    Job,         ///< same-job tasks on n / same-job tasks placed so far
    Traffic,     ///< fraction of the task's per-iteration bytes that would stay on n
};

/// Slack: due date minus the job's estimated length (least slack first; no due date last).
enum class QueueOrder { Fifo, Edf, Sjf, Priority, Slack };
enum class TaskOrder {
    AsWritten,   ///< task groups in file order, replicas in order
    PsFirst,     ///< parameter servers (and chiefs) before workers
    Interleaved, ///< roles alternate in proportion: ps, worker, worker, ps, worker, ...
};
enum class TieBreak {
    Random, ///< uniform among equal totals, drawn from Rng(mix(seed, decision index))
    First,  ///< the equal node that comes first in cluster order
};

struct PluginConfig
{
    PluginKind kind = PluginKind::LeastAllocated;
    double weight = 1;
    /// LeastAllocated / MostAllocated: also average over GPUs (whole-GPU equivalents).
    bool includeGpu = false;
    DltapVariant variant = DltapVariant::Counterpart;
    /// NodeAffinity: labels a node should carry.
    std::vector<std::pair<std::string, std::string>> preferredLabels;
    bool operator==(const PluginConfig &) const = default;
};

struct Policy
{
    std::string name;
    std::string description;
    std::vector<PluginConfig> plugins; ///< in scoring (and log column) order
    QueueOrder queue = QueueOrder::Fifo;
    TaskOrder taskOrder = TaskOrder::AsWritten;
    TieBreak tieBreak = TieBreak::Random;
    /// All tasks of a job or none (a job that does not fit completely is rolled back).
    bool gang = true;
    /// Gang mode only: a job's min_available lowers what admits it (its non-worker tasks and
    /// that many workers; it runs with the workers placed). Off ("gang": "all"): every task.
    bool minAvailable = true;
    /// When a job cannot be placed, later jobs may still be tried (else the queue stops).
    bool backfill = true;

    const PluginConfig *plugin(PluginKind kind) const;
    bool operator==(const Policy &) const = default;
};

const char *toString(PluginKind kind);
const char *toString(DltapVariant variant);
const char *toString(QueueOrder order);
const char *toString(TaskOrder order);
const char *toString(TieBreak tieBreak);
std::optional<PluginKind> pluginKindFromString(const std::string &s);
std::optional<DltapVariant> dltapVariantFromString(const std::string &s);
std::optional<QueueOrder> queueOrderFromString(const std::string &s);
std::optional<TaskOrder> taskOrderFromString(const std::string &s);
std::optional<TieBreak> tieBreakFromString(const std::string &s);

/// Weight of the DLTAP plugin in the "dltap" preset: the smallest integer weight at which a
/// node holding all of a task's counterparts (DLTAP 10, SelectorSpread 0) beats an empty node
/// (DLTAP 0, SelectorSpread 10) when the other priorities are equal.
constexpr double kDltapDefaultWeight = 2;

/// Weight of the nvlink-domain plugin in the "dltap-nvl" preset: 10 x the 10 points between
/// "stays in the job's domain" and "elsewhere" exceeds the 50 points the dltap preset's
/// plugins can differ by (10 + 10 + 10 + 2 x 10), so the domain rule decides.
constexpr double kNvlinkDomainWeight = 10;

/// Names of the built-in presets, in the order they are listed to users.
const std::vector<std::string> &builtinPolicyNames();
/// A built-in preset by name: k8s-default, binpack, spread, random, dltap, topology-aware,
/// dltap-due-energy, dltap-nvl.
std::optional<Policy> builtinPolicy(const std::string &name);

} // namespace cb
