#pragma once
// Why a job waits and what would let it run now. "Now" is a cluster with some jobs running
// on it: after a static placement every placed job, or in a simulation the jobs running at a
// given time. The job is offered alone to the policy's placer on that state; when it does not
// fit, the reasons of the decision that found no node are grouped over the nodes ("1,020
// nodes: needs 4 free GPUs, 2 of 4 free"), and the smallest changes that let it run are
// searched, each verified by placing the job again on the changed state:
//  - end (or preempt) running jobs: the fewest found, with the nodes they free and, in a
//    simulation, their remaining time;
//  - relax one constraint: the GPU type or one node-selector label of a task group, or gang
//    (which starts only some of the tasks);
//  - add n copies of an existing kind of node (the same resources, labels and links);
//  - shrink the job: fewer replicas of a group, or fewer GPUs per task.
// Minimal: no part of a change can be dropped: without any one of the ended jobs, or with
// one node fewer, or one replica or GPU more, the job does not fit (checked, not assumed).

#include "model/scenario.h"
#include "sched/policy.h"
#include "sim/run_result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cb {

/// A job holding resources now.
struct RunningJob
{
    std::string jobId;
    JobPlacement placement;
    std::optional<double> remainingSeconds; ///< in a simulation: until it finished
};

/// Every placed job of a static placement, as running (remaining time unknown).
std::vector<RunningJob> runningAfterPlacement(const Placement &placement);
/// The jobs running at time `t` of a simulated run (a segment that started at or before t
/// and ends after it), with the time left until the job finished.
std::vector<RunningJob> runningAt(const RunResult &run, double t);
/// Jobs submitted at or before `t` that have not finished and are not running at `t`.
std::vector<std::string> waitingAt(const Scenario &scenario, const RunResult &run, double t);

struct WaitFix
{
    enum class Kind { EndJobs, RelaxGpuType, RelaxSelector, RelaxGang, AddNodes, FewerReplicas,
                      FewerGpus };
    Kind kind = Kind::EndJobs;
    std::string text; ///< "end j7 (node-03, 812 s left) and j9 (node-04, 1,204 s left)"
    // EndJobs
    std::vector<std::string> endJobs;
    std::vector<std::string> freedNodes; ///< nodes where the ended jobs hold resources
    // Relax*, FewerReplicas, FewerGpus: the task group changed
    int group = -1;
    std::string label; ///< RelaxSelector: "key=value"
    // AddNodes
    std::string nodeTemplate; ///< id of the node copied
    int addNodes = 0;
    // FewerReplicas / FewerGpus: the new value
    int value = 0;
    /// RelaxGang: tasks that would start
    int startedTasks = 0;
    /// The placement the policy then makes (verified).
    JobPlacement placement;
};
/// "end-jobs", "relax-gpu-type", "relax-selector", "relax-gang", "add-nodes",
/// "fewer-replicas", "fewer-gpus".
const char *toString(WaitFix::Kind kind);

struct WaitExplanation
{
    std::string jobId;
    bool known = true;  ///< false: no such job in the scenario
    bool fits = false;  ///< it would be placed on the state now (it waits for another reason)
    std::string failedTask; ///< the task that found no node, "worker-3"
    int placedBefore = 0;   ///< tasks of the job placed before that one (then rolled back)
    int tasks = 0;          ///< tasks of the job
    std::vector<std::pair<std::string, int>> reasons; ///< filter reason, nodes (most first)
    std::vector<WaitFix> fixes;
    /// One line for a queue's status column: "waits: worker-3: 1,020 nodes: needs 4 free
    /// GPUs, 2 of 4 free; 4 nodes: needs 64 GiB, 12 of 256 GiB free".
    std::string status() const;
};

struct WaitOptions
{
    int maxNodeKinds = 3; ///< kinds of node tried for AddNodes (the most common first)
    bool fixes = true;    ///< search the changes (off: only the reasons, for a queue view)
};

/// Why `jobId` does not fit on `scenario.cluster` with `running` bound, under `policy`.
WaitExplanation explainWait(const Scenario &scenario, const Policy &policy, std::uint64_t seed,
                            const std::vector<RunningJob> &running, const std::string &jobId,
                            const WaitOptions &options = {});

/// The placement `policy` makes for `job` alone on `cluster` with `running` bound, or
/// nullopt when it does not place every task. `jobs` are the scenario's jobs (for the running
/// jobs' resources). With `gang` false a partial placement is returned too.
std::optional<JobPlacement> placeOnState(const Cluster &cluster, const std::vector<Job> &jobs,
                                         const Policy &policy, std::uint64_t seed,
                                         const std::vector<RunningJob> &running, const Job &job,
                                         bool requireAll = true);

/// `cluster` with `n` copies of node `templateNode` (ids "<template>+1", ...; the same links).
Cluster withNodeCopies(const Cluster &cluster, std::size_t templateNode, int n);

} // namespace cb
