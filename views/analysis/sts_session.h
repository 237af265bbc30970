#pragma once
// STS runs in the window: STS and its baselines (core/stochastic) run on the open scenario
// for one seed, as `clusterbench experiment sts --scenario FILE --first-seed S` runs them,
// with the decision log the STS stepper shows. The authors' data folder (tests/data/sts)
// gives the cloud prices; without it the scenario's own GPU list prices are charged.

#include "analysis/run_session.h"
#include "stochastic/sts_decision_log.h"
#include "stochastic/sts_simulator.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cb::views {

struct StsRun
{
    std::string method;          ///< STS, STS-net, FIFO, EDF, PS, G, RG or LS
    cb::StsRunResult result;     ///< costs per job and in total
    cb::StsDecisionLog log;      ///< every scheduling event
    std::string pricesFrom;      ///< where the prices came from (a file, or the scenario)
};

/// The run panel's policy names for STS methods: "sts/" + method.
inline constexpr const char *kStsPolicyPrefix = "sts/";
/// The STS method a policy name asks for ("sts/G" -> "G"), or empty for other policies.
std::string stsMethodOfPolicy(const std::string &policy);
/// Every method as a run panel policy name, STS first.
std::vector<std::string> stsPolicyNames();
/// tests/data/sts of the source tree (where `experiment sts` finds the authors' files).
QString defaultStsDataDir();

/// Runs `method` on `scenario` with `seed`. No Qt event loop, no shared state (a worker
/// thread may call it); a set `cancel` before or after the run fails it with "cancelled".
/// The session's label is "STS seed 1"; placement and placement log stay empty.
cb::Result<RunSession> computeStsSession(const cb::Scenario &scenario, const std::string &method,
                                         std::uint64_t seed, const QString &dataDir,
                                         const std::atomic<bool> *cancel = nullptr);

} // namespace cb::views
