#pragma once
// The outcome of scheduling: for every task of every placed job, the node (and GPUs) it runs
// on. This is what the traffic accounting, the simulator and the exporters consume.

#include "model/job.h"

#include <string>
#include <vector>

namespace cb {

/// One placed task. Tasks of a job are numbered per role in TaskGroup order
/// (ps-0, ps-1, worker-0, ...), which is how exporters name pods and ranks.
struct TaskAssignment
{
    TaskRole role = TaskRole::Worker;
    int group = 0;        ///< index into Job::tasks
    int indexInRole = 0;  ///< 0-based rank among the job's tasks of this role
    std::string node;     ///< Node::id
    std::vector<int> gpuIndices; ///< GPU slots on the node (empty for CPU tasks)
    bool operator==(const TaskAssignment &) const = default;
};

struct JobPlacement
{
    std::string jobId;
    std::vector<TaskAssignment> tasks; ///< in task order (group, then replica)
    double startSeconds = 0;           ///< when it was bound (0 for a static placement)
    /// Tasks that found no node (only without gang mode; the job is then also waiting).
    int pendingTasks = 0;
    bool operator==(const JobPlacement &) const = default;

    /// Whether its tasks run on more than one node.
    bool spansNodes() const
    {
        for (const TaskAssignment &t : tasks)
            if (t.node != tasks.front().node)
                return true;
        return false;
    }

    /// Placed tasks of role worker (fewer than the job's after a min-available admission).
    int workerCount() const
    {
        int n = 0;
        for (const TaskAssignment &t : tasks)
            n += t.role == TaskRole::Worker;
        return n;
    }
};

struct Placement
{
    std::vector<JobPlacement> jobs;     ///< placed jobs, in the order they were placed
    std::vector<std::string> waiting;   ///< ids of jobs that could not be placed
    bool operator==(const Placement &) const = default;

    const JobPlacement *job(const std::string &id) const
    {
        for (const JobPlacement &j : jobs)
            if (j.jobId == id)
                return &j;
        return nullptr;
    }
};

} // namespace cb
