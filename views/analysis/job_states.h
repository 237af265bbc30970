#pragma once
// Where each job of a run stands, for the job queue's status column and the jobs-at-time
// list: finished (with its completion time), still running when the run ended, placed, waiting
// and why (the placer's reason), or unschedulable (no node of the cluster could hold one of its
// tasks even empty, and which resource is short). At a moment of a simulated run: the jobs
// running then (on which nodes, for how long) and those pending, as squeue lists them.
// Stochastic runs (STS and its baselines) are read through their jobs' segments: a job runs
// on the nodes and configuration of the segment at that time, its TIME counts every segment
// so far (a pause keeps progress), and a waiting job gives the scheduler's logged reason.

#include "analysis/run_session.h"
#include "model/cluster.h"
#include "model/job.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace cb::views {

struct JobState
{
    enum class Kind { Finished, RunningAtEnd, Placed, Waiting, Unschedulable };
    Kind kind = Kind::Waiting;
    QString status; ///< "finished", "running at the end", "placed", "waiting", "unschedulable"
    QString reason; ///< why it waits, or what it did ("JCT 1:02:03 on 4 nodes")
};

/// Why no node of `cluster` can ever hold a task of `job` (checked on empty nodes: GPUs of
/// the required type, CPUs, memory, node selector), e.g. "a worker needs 9 GPUs, the largest
/// node has 8"; empty when every task fits some node.
QString unschedulableReason(const cb::Job &job, const cb::Cluster &cluster);

/// The state of every job of the session's scenario after the run, by job id.
std::map<std::string, JobState> jobStates(const RunSession &session);

/// One line of the jobs-at-time list.
struct QueuedJob
{
    int job = 0;       ///< index into the session's scenario jobs
    bool running = false;
    double seconds = 0; ///< running: since its start; pending: since its submission
    QString nodes;     ///< running: its nodes as a Slurm hostlist ("node-[01-04]")
    QString configuration; ///< running a stochastic run's job: "K80 x2", else empty
    int nodeCount = 0; ///< running: how many nodes
    QString reason;    ///< pending: "Resources", or "Unschedulable: ..."
};

/// The jobs pending or running at `time` (running first, then pending, each in submit order).
/// A placement without a simulation has no time: its placed jobs run, its waiting ones pend.
std::vector<QueuedJob> jobsAt(const RunSession &session, double time);

} // namespace cb::views
