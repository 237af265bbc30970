#pragma once
// Semantic checks of a scenario, beyond what its JSON structure says. Each problem carries the
// JSON pointer of the offending value in the scenario file layout.

#include "model/scenario.h"
#include "util/result.h"

namespace cb {

/// Unique ids, links between existing endpoints, a connected network, positive finite
/// capacities, known GPU types, jobs whose roles match their kind and whose every task fits
/// some node when the cluster is empty, distributions that sum to 1, sane settings.
Problems validateScenario(const Scenario &scenario);

/// Whether a task of `group` could run on `node` if the node were empty (ignores load).
/// When it cannot, `why` (if given) gets the first reason.
bool taskFitsEmptyNode(const TaskGroup &group, const Node &node, std::string *why = nullptr);

} // namespace cb
