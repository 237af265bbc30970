#pragma once
// The run file: a simulation's results as deterministic JSON (stable key and row order,
// integers written as integers), read by the GUI and the exporters.
//
//   {"format": "clusterbench-run", "version": 1, "scenario", "policy", "seed",
//    "summary": {makespan_s, mean_jct_s, cross_node_bytes, total_bytes, energy_kwh, cost,
//                cost_model, energy_cost, gpu_hour_cost, tardiness_s, tardiness_cost, ...},
//    "jobs": [{id, submit_s, start_s, finish_s, queue_delay_s, jct_s, isolated_s, slowdown,
//              tardiness_s, attempts, iteration_s, total_bytes, cross_node_bytes,
//              energy_kwh, cost, gpus, tasks: ["worker-0@node", ...]}],
//    "series": {bucket_s, gpu_utilisation: [...],
//               links: [{link, capacity_gbps, utilisation: [...]}],   (links that carried bytes)
//               node_pairs: [{bucket, from, to, bytes}]},
//    "node_pairs": [{from, to, bytes}],                                 (cumulative)
//    "events": [{t, kind, job, detail}]}
// Times are seconds; unfinished jobs have null finish, JCT, slowdown and tardiness.

#include "model/cluster.h"
#include "net/topology.h"
#include "sim/run_result.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cb {

/// The headline figures (the CLI's --json output).
nlohmann::ordered_json runSummaryJson(const RunResult &run);
nlohmann::ordered_json runToJson(const RunResult &run, const Cluster &cluster,
                                 const Topology &topology);
/// Writes the run file atomically.
Status saveRunFile(const std::string &path, const RunResult &run, const Cluster &cluster,
                   const Topology &topology);

} // namespace cb
