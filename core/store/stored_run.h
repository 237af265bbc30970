#pragma once
// What the commands store for one run and how a stored run is read back without
// recomputing it. Layout of a run in the workspace (RunRecord):
//   decisionLog  DecisionLog::toJson() of the placement of the scenario's queue on the empty
//                cluster (null when it would be too large, see kMaxStoredLogRows)
//   timeline     {"format": "clusterbench-stored-run", "version": 2,
//                 "placement": PlacementJson (io/export/placement_json.h),
//                 "traffic": TrafficReport::toJson of that placement (per iteration),
//                 "run": run file (io/run_json.h) in its Stored layout when simulated
//                        (series as columns of numbers; version 1 held the File layout,
//                        which still reads), else null}
//   metrics      the headline numbers (placementMetrics / simulationMetrics)

#include "model/scenario.h"
#include "net/topology.h"
#include "sched/decision_log.h"
#include "model/placement.h"
#include "sched/traffic.h"
#include "sim/run_result.h"
#include "store/workspace.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace cb {

/// A log with more candidate rows than this is not stored. Rows take ~30 bytes of JSON
/// (version 2 layout), so this bounds a stored log near 60 MB; the default detail (top:32
/// above 256 nodes) keeps ~33 rows per decision, so about 60,000 decisions fit at any
/// cluster size. Only an explicit full log of a large cluster can exceed it.
inline constexpr std::size_t kMaxStoredLogRows = 2000000;

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
/// Every number of runSummaryJson (makespan_s, mean_jct_s, energy_kwh, cost, ...) and
/// stranded_gpu_h (0 where no GPU was stranded).
std::map<std::string, double> simulationMetrics(const RunResult &run);

/// The unit of a stored metric, read from the end of its name (_bytes, _s or _seconds, _kwh,
/// _gpu_h, cost or _cost; any other is a count or a ratio), so that every view of the
/// metrics (show, diff, the window's comparison) prints each in its unit.
enum class MetricUnit { Bytes, Seconds, KWh, GpuHours, Money, Plain };
MetricUnit metricUnit(std::string_view name);

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
