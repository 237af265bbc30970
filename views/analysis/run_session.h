#pragma once
// One computed or reopened run as the analysis views see it: the parts of a Run of the run
// service (core/runs/run_service.h) moved in, with the scenario it ran on. Placement runs
// carry the static placement with its decision log and, when simulated, the simulation;
// stochastic runs (STS and its baselines) their simulation, their scheduling events (`sts`)
// and as placement each job's first configuration (jobs shaped as in `placedScenario`).
// The run panel and history produce sessions and hand them to MainWindow::showRun; the
// stepper, heatmaps and timelines only read them, so a session is shared as
// std::shared_ptr<const RunSession>.

#include "model/scenario.h"
#include "runs/run_service.h"
#include "sched/decision_log.h"
#include "model/placement.h"
#include "sim/run_result.h"
#include "util/result.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cb::views {

struct StsRun; // analysis/sts_session.h

struct RunSession
{
    QString label;                        ///< "dltap seed 1"
    cb::Scenario scenario;
    std::string policy;                   ///< preset name, or a stochastic policy name
    std::uint64_t seed = 0;
    cb::SchedulerFamily family = cb::SchedulerFamily::Placement;
    cb::Placement placement;              ///< see above
    cb::DecisionLog log;                  ///< the placement decisions
    std::optional<cb::RunResult> result;  ///< the simulation, when simulated
    std::map<std::string, double> metrics;
    /// Stochastic runs: the scheduling events and where the prices came from.
    std::shared_ptr<const StsRun> sts;
    /// Stochastic runs: the scenario with each job shaped as it first ran (what `placement`
    /// refers to); empty for placement runs, whose placement refers to `scenario`.
    std::optional<cb::Scenario> placedScenario;
    /// How the run was asked for, so that it can be made again with a change (what if): the
    /// preset before weight overrides (empty: `policy` itself), the overrides, the pinned
    /// tasks, and the workspace id (0 when not stored).
    std::string basePolicy;
    std::map<std::string, double> weights;
    std::vector<cb::TaskPin> pins;
    std::int64_t id = 0;
    const cb::Scenario &scenarioOfPlacement() const
    {
        return placedScenario ? *placedScenario : scenario;
    }
};

/// The session of a Run made on (or stored with) `scenario`; the run's parts are moved in.
/// The run's parameters give the base preset and weights (as the window stores them) and
/// the pins.
RunSession sessionFromRun(cb::Run run, cb::Scenario scenario);

/// Runs `policy` (a preset: the scenario's own first, then the built-ins; or a stochastic
/// policy name) through the run service. No Qt event loop, no shared state: a worker thread
/// may call it. `cancel` is polled during the run; a cancelled run fails with "cancelled".
/// Without `decisionLog` the session's log stays empty (metrics only).
cb::Result<RunSession> computeRunSession(const cb::Scenario &scenario, const std::string &policy,
                                         std::uint64_t seed, bool simulate,
                                         const std::atomic<bool> *cancel = nullptr,
                                         bool decisionLog = true);

/// The run service's request for the same arguments (the run panel stores the Run before
/// it becomes a session).
cb::RunRequest runRequestFor(const std::string &policy, std::uint64_t seed, bool simulate,
                             const std::atomic<bool> *cancel, bool decisionLog);

/// "dltap seed 1" (with " (simulated)" when it has a result); stochastic methods by name.
QString defaultRunLabel(const std::string &policy, std::uint64_t seed, bool simulated);
/// What a run's running cost (RunResult::cost) is priced at, by its cost model: "energy",
/// "GPU-hours" or "catalogue prices" (STS's, which is not the energy the cluster drew).
QString runningCostBasis(const cb::RunResult &run);

/// The tooltip policy lists give a stochastic policy: what it does, or, when `unavailable`
/// (the scenario's stochasticUnavailableReason) is not empty, why it cannot run.
QString stochasticPolicyToolTip(const std::string &policy, const QString &unavailable);

} // namespace cb::views
