#include "analysis/sts_session.h"

namespace cb::views {

cb::Result<RunSession> computeStsSession(const cb::Scenario &scenario, const std::string &method,
                                         std::uint64_t seed, const std::atomic<bool> *cancel)
{
    const std::string policy = cb::stochasticPolicyName(method);
    if (policy.empty())
        return cb::Result<RunSession>::failure(
            "method", "unknown STS method \"" + method +
                          "\" (expected STS, STS-net, FIFO, EDF, PS, G, RG or LS)");
    return computeRunSession(scenario, policy, seed, true, cancel);
}

} // namespace cb::views
