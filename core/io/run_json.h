#pragma once
// The run file: a simulation's results as deterministic JSON (stable key and row order,
// integers written as integers), read by the GUI and the exporters.
//
//   {"format": "clusterbench-run", "version": 1, "scenario", "policy", "seed",
//    "summary": {makespan_s, mean_jct_s, cross_node_bytes, total_bytes, energy_kwh, cost,
//                cost_model (energy, gpu-hours, catalogue), energy_cost, gpu_hour_cost,
//                tardiness_s, tardiness_cost, total_cost (cost + tardiness_cost), violations,
//                reconfigurations, multi_node_placements, ...},
//    "total_gpus",
//    "jobs": [{id, submit_s, start_s, finish_s, queue_delay_s, jct_s, isolated_s, slowdown,
//              tardiness_s, attempts, iteration_s, total_bytes, cross_node_bytes,
//              energy_kwh, cost, gpus, tasks: ["worker-0@node", ...],
//              placement: {start_s, pending_tasks, tasks: [{role, index, group, node, gpus}]},
//              reconfigurations, violated,
//              segments: [{start_s, end_s, config?: {gpu_type, gpus, fraction}, iterations,
//                          placement?}]}],
//              (a segment's placement is written only when it differs from the job's)
//    "series": {bucket_s, gpu_utilisation: [...], gpu_busy_s: [...], cost?: [...] (catalogue),
//               links: [{link, capacity_gbps, bytes, utilisation: [...]}], (links that carried bytes)
//               link_buckets, link_bytes: [{bucket, link, bytes}],
//               pair_buckets, node_pairs: [{bucket, from, to, bytes}]},
//    "node_pairs": [{from, to, bytes}],                                 (cumulative)
//    "events": [{t, kind, job, detail}]}    kind: arrival, start, reconfigure, preempt, finish,
//                                            kill, requeue, node-down, node-up, hook
// Times are seconds; unfinished jobs have null finish, JCT, slowdown and tardiness.

#include "model/cluster.h"
#include "net/topology.h"
#include "sim/run_result.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cb {

/// File: the run file above. Stored: what a workspace keeps of a run (store/stored_run.h), the
/// same file with its series as columns of numbers and without what is derived from them:
///   "series": {layout: "columns", bucket_s, gpu_busy_s, cost?,
///              link_totals: {link: [directed link number], bytes},
///              link_bytes: {count: [entries per bucket], link, bytes},
///              node_pairs: {count, from: [node number], to, bytes}},
///   "node_pairs": {from, to, bytes}
/// (numbers in the cluster's link and node order). runFromJson reads both to the same run.
enum class RunJsonLayout { File, Stored };

/// The headline figures (the CLI's --json output).
nlohmann::ordered_json runSummaryJson(const RunResult &run);
nlohmann::ordered_json runToJson(const RunResult &run, const Cluster &cluster,
                                 const Topology &topology,
                                 RunJsonLayout layout = RunJsonLayout::File);
/// Reads a run file (or a workspace run's timeline) back: runFromJson(runToJson(r)) == r for
/// the cluster the run was made on. Node and link names are resolved against `cluster`;
/// every problem carries its JSON pointer.
Result<RunResult> runFromJson(const nlohmann::json &j, const Cluster &cluster);
/// Writes the run file atomically.
Status saveRunFile(const std::string &path, const RunResult &run, const Cluster &cluster,
                   const Topology &topology);

} // namespace cb
