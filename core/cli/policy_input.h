#pragma once
// What the commands that run one policy on one scenario (place, simulate) read from their
// command line: SCENARIO, --policy, --policy-file and --seed.

#include "cli/command.h"
#include "model/scenario.h"
#include "sched/policy.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cb::cli {

struct PolicyInput
{
    Scenario scenario;
    Policy policy;
    std::uint64_t seed = 0; ///< --seed, else the scenario's settings.seed
};

/// Loads the scenario and resolves the policy; on bad input prints every problem to io.err
/// (prefixed with "clusterbench COMMAND") and returns nullopt.
std::optional<PolicyInput> readPolicyInput(const Args &args, Io &io, const std::string &command);

} // namespace cb::cli
