#pragma once
// The traffic and iteration-time model of one placed job. Placement accounting
// (sched/traffic.h), the simulator and the stochastic schedulers' runs all use it, so the
// bytes a placement report counts are the bytes the simulator moves over the links.
//
// Flows per iteration, from the communication model's plans (net/comm_model.h):
//   - all-reduce jobs: the ranks are the GPUs of the computing tasks (a task with g GPUs is g
//     ranks on its node; a CPU task one), grouped by node in the order the nodes first appear;
//     the scenario's algorithm (Settings::allreduce: ring, tree, hierarchical) over them, one
//     channel per rail where every node of the job has several uplinks (NICs);
//   - parameter-server jobs: every worker task all-reduces over its own GPUs when it has
//     several, pushes parameter_bytes / P to each of the P servers, then pulls as much back;
//   - single jobs and evaluators exchange nothing.
// A transfer inside a node is capped at the node's interconnect bandwidth and pays its
// latency per step; one between two nodes of one multi-node NVLink domain (Cluster::
// nvlinkDomains) runs over the domain, before the scale-out fabric: no route, the domain's
// latency per step, and the domain's per-GPU bandwidth shared by the plan's channels between
// that pair of nodes in that phase (a ring over r rails sends r channels of 1/r each; over
// NVLink they leave by the same GPU links, so together they get one GPU's bandwidth); one
// between other nodes follows Topology::route (rail k leaves by the node's
// k-th uplink, otherwise a deterministic ECMP hash of (job id, flow number)), pays the route's
// link latencies per step and is capped at the smallest per-flow limit on the route.
//
// Iteration time: compute (the slowest worker: its GPU type's time, slowed by the model's
// co-location factor for every further GPU of the job on one node), plus the straggler wait
// of synchronous workers, plus the communication that compute does not hide:
//   t = compute + straggle + max(comm - overlap x compute, exposed x comm).

#include "model/cluster.h"
#include "model/job.h"
#include "model/placement.h"
#include "model/step_time_table.h"
#include "net/comm_model.h"
#include "net/topology.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cb {

struct SimFlow
{
    int src = 0, dst = 0;      ///< node indices
    double bytes = 0;          ///< per iteration, of one copy
    int copies = 1;            ///< identical transfers inside one node (src == dst only)
    int phase = 0;             ///< phases of an iteration run one after another
    int steps = 1;             ///< latency steps
    std::vector<int> route;    ///< directed links; empty when src == dst
    double latencySeconds = 0; ///< per step: the route's link latencies, or the node's
    double capGbps = 0;        ///< inside a node: the interconnect; else the route's flow cap
    /// Index into Cluster::nvlinkDomains when src != dst run over one multi-node NVLink
    /// domain (then the route is empty: no link carries it), else -1.
    int nvlinkDomain = -1;
    /// Whether the flow leaves every NVLink domain of its ends: it crosses the scale-out
    /// fabric (src != dst and not over a multi-node domain).
    bool crossesDomains() const { return src != dst && nvlinkDomain < 0; }
    double totalBytes() const { return bytes * copies; }
};

/// Node id -> node index, for fast lookups.
std::unordered_map<std::string, int> nodeIndexMap(const Cluster &cluster);

/// `nodeDomain`: Cluster::nvlinkDomainOfNodes(), or nullptr to compute it here.
std::vector<SimFlow> jobFlows(const Job &job, const JobPlacement &placement,
                              const Cluster &cluster, const Topology &topology,
                              const std::unordered_map<std::string, int> &nodeIndex,
                              AllReduceAlgorithm algorithm = AllReduceAlgorithm::Ring,
                              const std::vector<int> *nodeDomain = nullptr);

/// Seconds of one iteration's communication, flow i running at rates[i] Gbit/s: per phase the
/// largest steps x latency plus the largest bytes / rate, phases added. `crossNodeOnly`
/// ignores transfers inside nodes.
double commSeconds(const std::vector<SimFlow> &flows, const std::vector<double> &ratesGbps,
                   bool crossNodeOnly = false);

/// Seconds per iteration of one worker on a node's GPU type: the model's measured time for
/// that type, else the reference time divided by the type's relative speed.
double workerComputeSeconds(const ModelProfile &model, const Cluster &cluster,
                            const std::string &gpuType);

/// The slowest worker's compute seconds per iteration (PS tasks and evaluators do not count;
/// a job without workers uses the reference time), x (1 + colocationSlowdown x (g - 1)) where
/// g is the most GPUs of the job's computing tasks on one node.
double jobComputeSeconds(const Job &job, const JobPlacement &placement, const Cluster &cluster,
                         const std::unordered_map<std::string, int> &nodeIndex);

/// GPUs per node of the job's computing tasks (workers, chief, single; not PS or evaluator),
/// nodes in the order their first such task appears (the ring order).
std::vector<int> workerGpusPerNode(const Job &job, const JobPlacement &placement);

/// Synchronising ranks of a job: its computing GPUs (a CPU task counts one) for all-reduce and
/// parameter-server jobs, 1 otherwise.
int synchronisingRanks(const Job &job, const JobPlacement &placement);

/// E[max of n independent standard normals] (0 for n <= 1; n = 2: 1/sqrt(pi)).
double expectedMaxOfNormals(int n);

/// Straggler wait per iteration: computeCv x compute x E[max of n N(0, 1)], n the
/// synchronising ranks.
double stragglerSeconds(const ModelProfile &model, double compute, int ranks);

/// The measured step time of the job on this placement when `models` has a table for the
/// job's model name (model/step_time_table.h for the rule), else nullopt.
std::optional<StepTimeEstimate>
measuredStepTime(const Job &job, const JobPlacement &placement,
                 const std::map<std::string, StepTimeTable> &models);

/// Compute plus the communication it does not hide:
/// compute + max(comm - o x compute, exposed x comm), o and exposed clamped to [0, 1].
/// o = 0 runs them one after the other; o = 1 and exposed = 0 gives max(compute, comm).
double iterationSeconds(double compute, double comm, double overlap, double exposed = 0);

/// The overlap of a model: its own, else the scenario's default.
double modelOverlap(const ModelProfile &model, double defaultOverlap);

} // namespace cb
