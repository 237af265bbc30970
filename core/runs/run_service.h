#pragma once
// The one run pipeline every front end uses (the terminal commands, the window, sweeps and
// the store): a run request (scenario, policy, parameters, seed, simulate or not, log detail)
// gives one Run, whatever the scheduler.
//
// Two families of policy:
//  - placement policies (presets: built-in, the scenario's own or a policy file): the placer
//    decides task by task; the Run holds the placement of the queue on the empty cluster with
//    its decision log and, when simulated, the simulation (core/sim) with that policy;
//  - stochastic policies (STS and the authors' baselines, sts/stochastic): a job-level
//    scheduler picks each job's configuration over time inside the simulator (they always
//    simulate); the Run holds its decision log (every scheduling event with each job's
//    candidate plans), the simulation, and as its placement each job's first configuration.
// Both give the same timeline, traffic and metrics, so every view, exporter and the store
// serve both.

#include "model/scenario.h"
#include "sched/decision_log.h"
#include "sched/policy.h"
#include "sched/traffic.h"
#include "sim/run_result.h"
#include "sim/sim_options.h"
#include "stochastic/sts_decision_log.h"
#include "store/stored_run.h"
#include "store/workspace.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb {

enum class SchedulerFamily { Placement, Stochastic };

/// The stochastic policy names, STS first: sts, sts-net, sts-fifo, sts-edf, sts-ps, sts-g,
/// sts-rg, sts-ls (the authors' STS, the network-aware STS-net and their baselines).
const std::vector<std::string> &stochasticPolicyNames();
/// The method of a stochastic policy name as the STS code names it ("sts-fifo" -> "FIFO");
/// empty for any other name.
std::string stochasticMethod(const std::string &policy);
/// The policy name of a method ("FIFO" -> "sts-fifo"); empty for an unknown method.
std::string stochasticPolicyName(const std::string &method);
/// Why the stochastic schedulers cannot run `scenario`, or empty when they can: they plan
/// every job against its due date, so every job needs one, and a configuration table (STS
/// execution times, or a compute time per iteration to derive one).
std::string stochasticUnavailableReason(const Scenario &scenario);

/// The same reason, and in a few words for a list entry ("needs due dates"); both empty when
/// they can run it.
struct StochasticUnavailable
{
    std::string need;
    std::string why;
};
StochasticUnavailable stochasticUnavailable(const Scenario &scenario);

struct RunRequest
{
    std::string policy;        ///< a preset name, or a stochastic policy name
    std::string policyFile;    ///< more presets (JSON), or empty
    /// A placement policy already resolved (a sweep point's preset with its parameters):
    /// used instead of resolving `policy`, which then only names it.
    std::optional<Policy> resolvedPolicy;
    std::uint64_t seed = 1;
    bool simulate = true;      ///< stochastic policies always simulate
    bool decisionLog = true;   ///< off: metrics only (no log of every node for every task)
    LogDetail logDetail;
    // Simulation options.
    std::vector<NodeFailure> failures;
    /// Placement policies, what if: tasks pinned to nodes by hand (stored with the run).
    std::vector<TaskPin> pins;
    /// Placement policies: energy, GPU-hours, or the catalogue stochastic runs pay (the STS
    /// authors' prices per GPU type and busy GPUs), so both compare on one cost.
    /// Stochastic policies always pay the catalogue.
    CostModel costModel = CostModel::Energy;
    bool powerDownIdleNodes = false;
    // Stochastic options.
    bool multiNode = false;    ///< split configurations that fit no node (on for sts-net)
    bool saturationGuard = true;
    int randomIterations = 1000;
    bool sharing = false;      ///< GPU-sharing slices (the authors' fractions.csv)
    /// Called with the finished fraction; return false to cancel (the run then fails with
    /// "cancelled").
    std::function<bool(double done)> progress;
};

struct Run
{
    std::string kind = "simulate"; ///< place, simulate (a sweep stores "sweep")
    std::string policy;
    SchedulerFamily family = SchedulerFamily::Placement;
    std::uint64_t seed = 0;
    std::string programVersion;
    std::string scenarioName;
    std::string scenarioDigest;    ///< SHA-256 of the canonical scenario text
    /// What the run was asked (policy as JSON, cost model, failures, STS options, ...).
    nlohmann::json parameters = nlohmann::json::object();
    /// Placement policies: the queue placed on the empty cluster. Stochastic: each job's first
    /// configuration (the jobs of `placedScenario`).
    Placement placement;
    /// The scenario `placement` refers to: the run's scenario, or for stochastic runs the
    /// same with each job shaped as it first ran (sim/stochastic_jobs.h).
    Scenario placedScenario;
    DecisionLog decisions;         ///< placement decisions (empty for stochastic runs)
    StsDecisionLog stsLog;         ///< stochastic runs: every scheduling event
    TrafficReport traffic;         ///< per iteration of `placement`
    std::optional<RunResult> result; ///< the simulation
    std::map<std::string, double> metrics;
    std::string pricesFrom;        ///< catalogue runs: where the prices came from

    /// "dltap seed 1", with " (simulated)" when simulated; STS methods by their names.
    std::string label() const;
};

/// Runs `request` on `scenario`. Needs no event loop and touches no shared state: worker
/// threads may run several at once. Problems name the policy ("policy: ...") or the stage.
Result<Run> executeRun(const Scenario &scenario, const RunRequest &request);

/// The metrics of a run: the placement's per-iteration figures (placementMetrics); when
/// simulated, the simulation's figures are added (cross_node_bytes, total_bytes: whole run)
/// and the placement's per-iteration traffic figures are named iteration_cross_node_bytes,
/// iteration_total_bytes, iteration_intra_node_bytes, iteration_max_link_bytes and
/// iteration_max_link_seconds.
std::map<std::string, double> runMetrics(const Run &run);
/// Whether `metrics` are a simulated run's (its per-iteration figures named iteration_*).
bool simulatedMetrics(const std::map<std::string, double> &metrics);
/// A placement's metrics with its per-iteration traffic figures named as a simulated run
/// names them (iteration_cross_node_bytes, ...), to be set beside a simulated run's; a
/// simulated run's are returned as they are.
std::map<std::string, double> perIterationNamed(std::map<std::string, double> metrics);

/// The workspace record of a run (its kind, policy, parameters, metrics, decision log and
/// timeline; the scenario digest is filled in by the store).
RunRecord runRecord(const Run &run, const Scenario &scenario);
/// A stored run back, exactly as it was made (fromRecord(runRecord(r)) holds the same
/// placement, logs and result). Problems name the run and the JSON pointer.
Result<Run> runFromRecord(const RunRecord &record, const Scenario &scenario);
/// Reads run `id` from the workspace, with its scenario.
Result<std::pair<Run, Scenario>> readRun(const Workspace &workspace, std::int64_t id);
/// A stored run of either family as diff reads it: the record, the scenario, the
/// placement, the placement decision log (absent for a stochastic run, whose log is of
/// scheduling events) and the simulation.
Result<StoredRunDetail> readRunDetail(const Workspace &workspace, std::int64_t id);

/// The scenario and placement to export from a simulated run: every job that runs at
/// `atSeconds` (every job as it first runs when empty; a stochastic job at its first
/// configuration) shaped as it runs then; the others are listed as waiting. (For a stochastic
/// run, oneTaskPerNode() then gives one task per node with that node's GPUs.)
std::pair<Scenario, Placement> stochasticScheduleAt(const Scenario &scenario,
                                                    const RunResult &result,
                                                    std::optional<double> atSeconds = {});

/// For a schedule of every job as it first runs (stochasticScheduleAt with no moment): when
/// its jobs, applied at once, would ask a node for more than it has, says so: "the jobs are
/// exported as each first runs, from A s to B s; applied at once they do not fit (the first
/// problem; N more such problems)". Empty when they fit.
std::string firstRunsOverloadNote(const Scenario &shaped, const Placement &placement);
/// The export warning of firstRunsOverloadNote for `format`, the same in the terminal and the
/// window: a Kubernetes format's pods bound to a full node fail, so each job is to be applied
/// at its start or `oneMoment` exported ("export one moment with --at SECONDS"); Slurm holds
/// a script until its nodes have room, so the jobs run, not necessarily in the simulated
/// order. Empty when they fit.
std::string firstRunsOverloadWarning(const std::string &format, const Scenario &shaped,
                                     const Placement &placement, const std::string &oneMoment);

/// For an export of a stochastic run: one note per job the run reconfigured, "ID: the run
/// reconfigures it (K80 x1 from 0:00:00, then K80 x8 from 5:41:34); a file deploys one
/// configuration for the whole job: ...". Empty for a run without reconfigurations.
std::vector<std::string> reconfigurationNotes(const RunResult &result);

/// Per-iteration traffic of the configurations a stochastic run has running at `atSeconds`
/// (what its "decision" heatmap shows at the scrubber); empty before the first start.
TrafficReport stochasticTrafficAt(const Scenario &scenario, const RunResult &result,
                                  double atSeconds);

/// The same jobs with one task per node holding all of the job's GPUs there (how a
/// data-parallel job is deployed: one pod or Slurm task per node, its GPUs as local ranks),
/// for the exporters. Jobs whose tasks already differ in shape are left as they are.
void oneTaskPerNode(Scenario &scenario, Placement &placement);

} // namespace cb
