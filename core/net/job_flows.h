#pragma once
// The traffic model: the flows of one placed job per training iteration. Placement accounting
// (sched/traffic.h), the simulator and the stochastic schedulers' runs all use it, so the
// bytes a placement report counts are the bytes the simulator moves over the links:
// parameter-server jobs send parameter_bytes / P each way between every worker and every PS;
// ring all-reduce workers send 2 (W - 1) / W * parameter_bytes to the next rank; a flow
// between two nodes follows Topology::route with a deterministic ECMP hash of (job id, flow
// number). Also the job's per-iteration compute time: the slowest worker governs.

#include "model/cluster.h"
#include "model/job.h"
#include "model/step_time_table.h"
#include "net/topology.h"
#include "model/placement.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cb {

struct SimFlow
{
    int src = 0, dst = 0;       ///< node indices
    double bytes = 0;           ///< per iteration
    std::vector<int> route;     ///< directed links; empty when src == dst
    double latencySeconds = 0;  ///< sum of the route's link latencies
    double capGbps = 0;         ///< co-located pairs: the node's internal bandwidth; else inf
};

/// Node id -> node index, for fast lookups.
std::unordered_map<std::string, int> nodeIndexMap(const Cluster &cluster);

std::vector<SimFlow> jobFlows(const Job &job, const JobPlacement &placement,
                              const Cluster &cluster, const Topology &topology,
                              const std::unordered_map<std::string, int> &nodeIndex);

/// Seconds per iteration of one worker on a node's GPU type: the model's measured time for
/// that type, else the reference time divided by the type's relative speed.
double workerComputeSeconds(const ModelProfile &model, const Cluster &cluster,
                            const std::string &gpuType);

/// The slowest worker's compute seconds per iteration (PS tasks and evaluators do not count;
/// a job without workers uses the reference time).
double jobComputeSeconds(const Job &job, const JobPlacement &placement, const Cluster &cluster,
                         const std::unordered_map<std::string, int> &nodeIndex);

/// GPUs per node of the job's computing tasks (workers, chief, single; not PS or evaluator),
/// nodes in the order their first such task appears (the ring order).
std::vector<int> workerGpusPerNode(const Job &job, const JobPlacement &placement);

/// The measured step time of the job on this placement when `models` has a table for the
/// job's model name (model/step_time_table.h for the rule), else nullopt.
std::optional<StepTimeEstimate>
measuredStepTime(const Job &job, const JobPlacement &placement,
                 const std::map<std::string, StepTimeTable> &models);

/// Seconds per iteration from compute and communication with overlap factor o in [0, 1]:
/// max(compute, comm) * o + (compute + comm) * (1 - o). o = 0 runs them one after the other,
/// o = 1 hides the shorter one completely.
double iterationSeconds(double compute, double comm, double overlap);

} // namespace cb
