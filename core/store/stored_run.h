#pragma once
// What the commands store for one run and how a stored run is read back without
// recomputing it. Layout of a run in the workspace (RunRecord):
//   decisionLog  DecisionLog::toJson() of the placement of the scenario's queue on the empty
//                cluster (null when it would be too large, see kMaxStoredLogRows)
//   timeline     {"format": "clusterbench-stored-run", "version": 1,
//                 "placement": PlacementJson (io/export/placement_json.h),
//                 "traffic": TrafficReport::toJson of that placement (per iteration),
//                 "run": run file (sim/run_json.h) when simulated, else null}
//   metrics      the headline numbers (placementMetrics / simulationMetrics)

#include "model/scenario.h"
#include "net/topology.h"
#include "sched/decision_log.h"
#include "sched/placement.h"
#include "sched/traffic.h"
#include "sim/run_result.h"
#include "store/workspace.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace cb {

/// A log with more candidate rows (decisions x nodes) than this is not stored (a 1,024-node
/// cluster with 200 tasks already makes ~20 MB of JSON).
inline constexpr std::size_t kMaxStoredLogRows = 200000;

/// A stored run, decoded: what the GUI's history reopens.
struct StoredRunDetail
{
    RunRecord record;
    Scenario scenario;
    Placement placement;
    std::optional<DecisionLog> log;     ///< absent when it was not stored
    std::optional<RunResult> result;    ///< when the run was simulated
};

/// placed_jobs, placed_tasks, waiting_jobs, cross_node_bytes, total_bytes, intra_node_bytes,
/// max_link_bytes, max_link_seconds, mean_hops (bytes per iteration).
std::map<std::string, double> placementMetrics(const Placement &placement,
                                               const TrafficReport &traffic);
/// Every number of runSummaryJson (makespan_s, mean_jct_s, energy_kwh, cost, ...).
std::map<std::string, double> simulationMetrics(const RunResult &run);

/// The timeline column described above; `result` null for a placement-only run.
nlohmann::json storedTimeline(const Scenario &scenario, const Topology &topology,
                              const Placement &placement, const TrafficReport &traffic,
                              const RunResult *result);
/// The decision log as stored (null when larger than kMaxStoredLogRows).
nlohmann::json storedDecisionLog(const DecisionLog &log);

/// Decodes a run's scenario, placement, log and result. Problems name the run and the
/// JSON pointer inside its stored data.
Result<StoredRunDetail> decodeStoredRun(const RunRecord &record, const std::string &scenarioText);
/// Reads run `id` from the workspace and decodes it.
Result<StoredRunDetail> readStoredRun(const Workspace &workspace, std::int64_t id);

} // namespace cb
