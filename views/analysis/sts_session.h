#pragma once
// STS runs in the window: STS and its baselines (the run service's stochastic policies) run
// on the open scenario for one seed, with the decision log the STS stepper shows. Prices are
// the STS authors' (built into the program), or the scenario's own GPU list prices for GPU
// types they do not price.

#include "analysis/run_session.h"
#include "stochastic/sts_decision_log.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cb::views {

struct StsRun
{
    std::string method;          ///< STS, STS-net, FIFO, EDF, PS, G, RG or LS
    cb::StsDecisionLog log;      ///< every scheduling event
    std::string pricesFrom;      ///< where the prices came from (a file, or the scenario)
};

/// Runs `method` (STS, FIFO, ...) on `scenario` with `seed`, as computeRunSession does for
/// its stochastic policy name. The session's label is "STS seed 1".
cb::Result<RunSession> computeStsSession(const cb::Scenario &scenario, const std::string &method,
                                         std::uint64_t seed,
                                         const std::atomic<bool> *cancel = nullptr);

} // namespace cb::views
