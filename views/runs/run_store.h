#pragma once
// The run panel's requests and how their sessions go into and come back out of the
// workspace, in the layout the terminal commands use (store/stored_run.h), so runs made in
// the window and on the terminal sit side by side in the history.

#include "analysis/run_session.h"
#include "sim/sim_options.h"
#include "store/workspace.h"
#include "util/result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cb::views {

/// One run to make: a preset, weight overrides for its plugins, a seed, place or simulate.
struct PanelRequest
{
    std::string policy;                    ///< built-in or scenario preset
    std::map<std::string, double> weights; ///< plugin name -> weight (0 removes the plugin)
    std::uint64_t seed = 1;
    bool simulate = true;
    bool decisionLog = true;               ///< false: metrics only, no decision log
    CostModel costModel = CostModel::Energy; ///< placement policies' simulated runs
    std::vector<cb::TaskPin> pins;         ///< what if: tasks placed by hand (placement policies)
};

/// The request that makes `session` again (its base preset, weights, seed, simulated or not,
/// pins), to be changed for a what-if.
PanelRequest requestForSession(const RunSession &session);

/// The preset name the request runs under: the base name, or with overrides
/// "dltap{dltap=3,selector-spread=0}" (plugins in name order, weights without trailing zeros).
std::string requestPolicyName(const PanelRequest &request);

/// The scenario the request runs on: `scenario` itself, or with weight overrides a copy with
/// one more user preset {"name": requestPolicyName, "base": policy, "plugins": {...}}.
Scenario scenarioForRequest(const Scenario &scenario, const PanelRequest &request);

/// Parses seeds: "1", "1,2,5", "1-4", "1-3,10" (ascending, duplicates removed). Problems say
/// which item is wrong.
Result<std::vector<std::uint64_t>> parseSeedList(const std::string &text);

/// The workspace record of a Run of the request (the run service's record, with the
/// request's base preset and weights); `original` is the scenario as the user has it
/// (without the derived preset), which is what is stored.
RunRecord recordForRun(const cb::Run &run, const Scenario &original, const PanelRequest &request);
/// The same for a session (its parts copied back into a Run).
RunRecord recordForSession(const RunSession &session, const PanelRequest &request);
/// Stores `original` (if new) and `record`; returns the run id.
Result<std::int64_t> saveRecord(Workspace &workspace, const Scenario &original, RunRecord record);

/// Stores `original` (if new) and the session's record; returns the run id.
Result<std::int64_t> saveSession(Workspace &workspace, const Scenario &original,
                                 const RunSession &session, const PanelRequest &request);

/// Reopens stored run `id` as a session without recomputing: scenario, placement and
/// decision log (and the simulation result when it was simulated; the scheduling events of
/// a stochastic run) come from the workspace.
Result<std::shared_ptr<const RunSession>> loadStoredSession(const Workspace &workspace,
                                                            std::int64_t id);

} // namespace cb::views
