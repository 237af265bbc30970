#pragma once
// One computed or reopened run as the analysis views see it: the scenario it ran on, the
// policy and seed, the static placement with its decision log and, when simulated, the
// simulation result. The run panel and history produce sessions (computeRunSession, or
// from a stored run) and hand them to MainWindow::showRun; the decision stepper, heatmaps
// and timelines only read them, so a session is shared as std::shared_ptr<const RunSession>.

#include "model/scenario.h"
#include "sched/decision_log.h"
#include "sched/placement.h"
#include "sim/run_result.h"
#include "util/result.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace cb::views {

struct StsRun; // analysis/sts_session.h

struct RunSession
{
    QString label;                        ///< "dltap seed 1"
    cb::Scenario scenario;
    std::string policy;                   ///< preset name (built-in or the scenario's own)
    std::uint64_t seed = 0;
    cb::Placement placement;              ///< from placeScenario (core/sched/placer.h)
    cb::DecisionLog log;                  ///< the placement decisions
    std::optional<cb::RunResult> result;  ///< from simulate (core/sim), when simulated
    /// An STS run (core/stochastic) instead of a placement: its costs and decision log.
    std::shared_ptr<const StsRun> sts;
};

/// Resolves `policy` (the scenario's own presets first, then the built-ins), computes the
/// placement with its decision log and, with `simulate`, runs the simulator. Needs no Qt
/// event loop and touches no shared state, so it may run on a worker thread. `cancel` is
/// polled between stages and during the simulation; a cancelled run fails with the message
/// "cancelled". Problems name the policy ("policy: unknown preset ...") or the stage.
/// Without `decisionLog` the session's log stays empty (metrics only: the placement is the
/// same, and a large cluster is not scored into a log of every node for every task).
cb::Result<RunSession> computeRunSession(const cb::Scenario &scenario, const std::string &policy,
                                         std::uint64_t seed, bool simulate,
                                         const std::atomic<bool> *cancel = nullptr,
                                         bool decisionLog = true);

/// "dltap seed 1" (with " (simulated)" when it has a result).
QString defaultRunLabel(const std::string &policy, std::uint64_t seed, bool simulated);

} // namespace cb::views
