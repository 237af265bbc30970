#pragma once
// User-defined policy presets in JSON, from Scenario::policies or a --policy-file:
//   {"name": "my", "base": "k8s-default", "description": "...",
//    "plugins": {"dltap": {"weight": 3, "variant": "traffic"}, "selector-spread": {"weight": 0}},
//    "queue": "edf", "task_order": "interleaved", "tie_break": "first",
//    "gang": true, "backfill": true}
// "base" names a built-in or an earlier user preset; plugins listed override or extend it
// (weight 0 removes one). "gang": true or "min-available" (all-or-nothing admission, a job's
// min_available lowering what admits it), "all" (every task, min_available ignored), false
// or "off" (tasks placed one by one). Every mistake is reported with its JSON pointer.

#include "model/scenario.h"
#include "sched/policy.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cb {

/// Reads one preset at `pointer`; `known` are presets it may name as "base".
Result<Policy> policyFromJson(const nlohmann::json &value, const std::string &pointer,
                              const std::vector<Policy> &known = {});

/// The user presets of a scenario (in order, each may build on earlier ones).
Result<std::vector<Policy>> scenarioPolicies(const Scenario &scenario);

/// Reads a policy file: one preset object, or an array of them, or {"policies": [...]}.
Result<std::vector<Policy>> loadPolicyFile(const std::string &path);
/// The presets of a policy file as written, each with its JSON pointer in the file (for a
/// scenario's "policies" to carry them).
using PolicyItems = std::vector<std::pair<nlohmann::json, std::string>>;
Result<PolicyItems> policyFileItems(const std::string &path);
/// The presets of a policy file's items, each may build on earlier ones (loadPolicyFile is
/// policyFileItems and this); with `path`, problems are prefixed with it as userPresets does.
Result<std::vector<Policy>> policiesFromItems(const PolicyItems &items,
                                              const std::string &path = {});

/// User presets of a scenario followed by those of `policyFile` (if not empty); problems
/// name the scenario pointer or are prefixed with the policy file's path.
Result<std::vector<Policy>> userPresets(const Scenario &scenario, const std::string &policyFile);

/// A preset by name: user presets first (later ones win), then built-ins.
Result<Policy> resolvePolicy(const std::string &name, const std::vector<Policy> &userPresets);

/// The preset as JSON (every field explicit), for logs and --json output.
nlohmann::ordered_json policyToJson(const Policy &policy);

} // namespace cb
