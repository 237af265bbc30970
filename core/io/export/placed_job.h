#pragma once
// A placement joined with the scenario it came from: every task of a placed job with its role,
// rank, node and resources, checked once so that each exporter can rely on it.

#include "model/scenario.h"
#include "model/placement.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace cb {

struct PlacedTask
{
    TaskRole role = TaskRole::Worker;
    int group = 0;       ///< index into Job::tasks
    int indexInRole = 0; ///< ps-0, ps-1, worker-0, ...
    int rank = 0;        ///< position in the job's task order (group, then replica)
    std::string node;
    std::vector<int> gpuIndices;
    double cpus = 1;
    double memoryGiB = 1;
    int gpus = 0;
    double gpuFraction = 1.0;
    std::string gpuType; ///< the node's GPU type when the task uses GPUs, else empty

    /// "ps-0", "worker-3": the task's name inside its job.
    std::string taskName() const;
};

struct PlacedJob
{
    const Job *job = nullptr;
    /// Tasks in job task order: by group, then by index within the role.
    std::vector<PlacedTask> tasks;

    /// Distinct nodes in order of first use.
    std::vector<std::string> nodes() const;
    /// Distinct roles in TaskRole order (ps, worker, chief, evaluator, single).
    std::vector<TaskRole> roles() const;
    std::vector<const PlacedTask *> tasksOfRole(TaskRole role) const;
    /// The gang's minimum for a gang scheduler (Volcano's minAvailable, Kubeflow's
    /// schedulingPolicy.minAvailable): every placed task, or with the job's min_available its
    /// non-worker tasks and that many of its placed workers.
    int gangMinAvailable() const;
};

/// Joins placement and scenario. Every placed job must exist in the scenario, be placed once,
/// and have exactly its tasks (right group, role and index; each once) on existing nodes; a
/// job with min_available may lack workers down to that many (it was admitted without them).
/// Problems carry a JSON-pointer-like location into the placement ("/jobs/2/tasks/1/node").
Result<std::vector<PlacedJob>> resolvePlacement(const Scenario &scenario,
                                                const Placement &placement);

/// Where the placement's jobs, all running at once (as applying an export's files starts
/// them), ask a node for more than it has: CPUs, memory or GPUs (a slice of a GPU counts as
/// its share), or give one GPU index to two tasks (slices of one GPU up to the whole). One
/// problem per node and resource, at the task that goes over ("/jobs/2/tasks/1/node" or
/// ".../gpus"); tasks resolvePlacement would refuse are skipped.
Problems nodeOverloads(const Scenario &scenario, const Placement &placement);

/// Exporters whose targets count whole GPUs (nvidia.com/gpu, Slurm gres) round a task's
/// shared slice of a GPU up to one GPU. This names every such job once, with its tasks and
/// slices: "k8s-pods: 2 jobs ask for a fraction of a GPU, which nvidia.com/gpu cannot
/// express; each of these tasks requests 1 whole GPU: a (worker-0, worker-1: 0.5 GPU), b
/// (single-0: 0.25 GPU)". Empty when no task asks for a fraction.
std::string fractionalGpuWarning(const std::vector<PlacedJob> &jobs, const std::string &format,
                                 const std::string &resource);

/// One warning for the jobs (ids, in their order) that share it: `job "a" ONE` for one job,
/// `N jobs MANY: "a", "b", ...` for several, the first 20 named and the rest counted ("and
/// 280 more"), so that a trace of a thousand jobs without a command says so once.
std::string jobsWarning(const std::vector<std::string> &ids, const std::string &one,
                        const std::string &many);

/// `format`: a warning for the jobs whose command has a shell operator (&&, |, >, ...) as a
/// word of its own: no shell runs a job's command, so the program would get it as an
/// argument. Empty when there is none.
std::string shellOperatorWarning(const std::vector<const Job *> &jobs, const std::string &format);

/// "a, b, ... and 280 more": the first 20 of `items`, the rest counted.
std::string namedList(const std::vector<std::string> &items);

/// `format`: a warning for the all-reduce jobs whose command starts torchrun (or python -m
/// torch.distributed.run) with a --nnodes other than the job's tasks or a --nproc_per_node
/// other than a task's GPUs: the flags win over the PET_* settings the export writes, so the
/// rendezvous would wait for nodes that never come or start processes without a GPU. Empty
/// when there is none.
std::string torchrunWarning(const std::vector<PlacedJob> &jobs, const std::string &format);

/// Per-job warnings of one kind gathered over an export and said once at its end: a kind met
/// once keeps its own sentence, a kind met several times becomes one sentence and a list of
/// what is particular to each (the first 20 named, the rest counted), in the order added.
class SharedWarnings
{
public:
    /// `many` is the kind's sentence for several: "{n}" stands for their number and "{list}"
    /// for the list (without it the list follows a colon). `one` is the whole warning when
    /// this is the only one of the kind; `item` names it in the list.
    void add(const std::string &many, std::string one, std::string item);
    /// The warnings, one per kind, in the order each kind was first added.
    std::vector<std::string> said() const;

private:
    struct Kind
    {
        std::string many;
        std::string one;
        std::vector<std::string> items;
    };
    std::vector<Kind> m_kinds;
};

} // namespace cb
