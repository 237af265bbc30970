#pragma once
// Sweeps: the grid (policy x parameter values x seed), one run per point, and the files that
// carry a sweep to a cluster and back.
//
// Grid order: policies as listed, then parameter values (the first --param varies slowest),
// then seeds S .. S+N-1; a point's index is its position (0-based). Parameters are policy
// fields, applied as a user preset on top of the policy:
//   weight.PLUGIN=w         the plugin's weight (0 removes it)
//   PLUGIN.FIELD=v          another plugin field (dltap.variant=traffic)
//   queue, task_order, tie_break, gang, backfill   (policy_json.h)
// Values that read as JSON (numbers, true, false) are used as such, others as strings.
//
// The grid manifest (grid.json) written by --emit:
//   {"format": "clusterbench-sweep-grid", "version": 1, "sweep": ID, "simulate": bool,
//    "points": [{"index", "policy", "seed", "params": {key: value}}], "scenario": {...}}
// A result file (one per point, by `sweep-point`):
//   {"format": "clusterbench-sweep-result", "version": 1, "sweep": ID, "index": i,
//    "scenario": {...}, "run": {"kind", "policy", "seed", "parameters", "program_version",
//                               "metrics", "decision_log", "timeline"}}

#include "model/scenario.h"
#include "sched/policy.h"
#include "store/workspace.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cb {

struct SweepParam
{
    std::string key;
    std::vector<std::string> values;
};

struct GridPoint
{
    int index = 0;
    std::string policy;
    std::uint64_t seed = 0;
    std::vector<std::pair<std::string, std::string>> params; ///< in --param order
};

/// Parses "key=v1,v2" (a problem names the option text).
Result<SweepParam> parseSweepParam(const std::string &text);
std::vector<GridPoint> expandGrid(const std::vector<std::string> &policies,
                                  const std::vector<SweepParam> &params, std::uint64_t firstSeed,
                                  int seeds);
/// The grid with every parameter applying to its point's policy: a parameter of a plugin the
/// policy does not have (weight.dltap beside k8s-default) is left out of that policy's points,
/// so a baseline swept beside the policy that has the plugin stays the baseline and runs
/// once per seed (its points that would repeat are left out); indices renumbered. Policies
/// that do not resolve are kept as they are (pointPolicy names them). `leftOut`, when given,
/// gets each (parameter, policy) pair left out, once.
std::vector<GridPoint>
applicableGrid(const std::vector<GridPoint> &points, const std::vector<Policy> &userPresets,
               std::vector<std::pair<std::string, std::string>> *leftOut = nullptr);
/// The point's policy: the preset with the parameters applied. Problems name the command
/// line (--policy, --param) or, when `where` is given (a point of a grid file: "/points/3"),
/// the point's fields ("/points/3/policy", "/points/3/params/weight.dltap").
Result<Policy> pointPolicy(const GridPoint &point, const std::vector<Policy> &userPresets,
                           const std::string &where = {});
/// {"key": value, ...} with values as they are applied (numbers and booleans typed).
nlohmann::json pointParams(const GridPoint &point);

/// Runs one point (placement, traffic and, with `simulate`, the simulation) and returns the
/// run to store. Metrics: as runMetrics gives them (per iteration; when simulated the
/// simulation's figures, and the per-iteration traffic named iteration_*).
/// The run has kind "sweep" and parameters with the sweep id, grid index and params. Uses
/// its own Topology, so points may run on several threads at once.
Result<RunRecord> runGridPoint(const Scenario &scenario, const std::vector<Policy> &userPresets,
                               const GridPoint &point, bool simulate, const std::string &sweepId);

/// Runs every point on `threads` threads; results are in point order whatever the count.
/// `progress(done, total)` is called from the calling thread only. `finished(index, result)`,
/// when set, is called from the calling thread for each point in grid order, as soon as it
/// and every point before it have finished, so runs are stored as the sweep goes (in grid
/// order); returning false stops the sweep: points not yet started are not run and their
/// results say so.
std::vector<Result<RunRecord>>
runGrid(const Scenario &scenario, const std::vector<Policy> &userPresets,
        const std::vector<GridPoint> &points, bool simulate, const std::string &sweepId,
        int threads, const std::function<void(int, int)> &progress = {},
        const std::function<bool(int, const Result<RunRecord> &)> &finished = {});

/// A content id for a sweep: the first 12 hex digits of SHA-256 over the scenario and grid.
std::string sweepContentId(const Scenario &scenario, const std::vector<GridPoint> &points,
                           bool simulate);

nlohmann::ordered_json gridManifest(const Scenario &scenario, const std::vector<GridPoint> &points,
                                    bool simulate, const std::string &sweepId);
struct GridManifest
{
    std::string sweepId;
    bool simulate = false;
    Scenario scenario;
    std::vector<GridPoint> points;
};
Result<GridManifest> readGridManifest(const nlohmann::json &doc);

/// The result file of one grid point: the sweep id, the point's index, the grid's size
/// (`points`, so that `merge` can tell which points are still missing), the scenario and the
/// run.
nlohmann::ordered_json sweepResultJson(const Scenario &scenario, const RunRecord &run,
                                       const std::string &sweepId, int index, int points);
struct SweepResult
{
    std::string sweepId;
    int index = 0;
    int points = 0; ///< the grid's size; 0 in files written before it was recorded
    Scenario scenario;
    RunRecord run;
};
Result<SweepResult> readSweepResult(const nlohmann::json &doc);

} // namespace cb
