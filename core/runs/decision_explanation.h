#pragma once
// A decision told in words, for teaching and for the on-call operator: which nodes were ruled
// out and why, which plugin decided and by how much, what the choice does to the job's
// cross-node traffic, and the smallest weight change that would have changed it. Built from
// the decision log alone (plus the scenario for the traffic model): no re-run, no network.

#include "model/scenario.h"
#include "net/topology.h"
#include "sched/decision_contrast.h"
#include "sched/decision_log.h"

#include <string>

namespace cb {

/// The job's traffic per iteration (sched/traffic.h) around one decision.
struct DecisionTraffic
{
    double crossBefore = 0; ///< cross-node bytes of the job's tasks placed before it
    double crossAfter = 0;  ///< ... with this task on the pick
    double intraAfter = 0;  ///< intra-node bytes with the pick
    bool hasOther = false;
    double crossIfOther = 0; ///< ... with this task on the contrast node instead
    double intraIfOther = 0;
};

/// The traffic of the decision's job with its tasks placed up to `decision` (the pick), and
/// with this task on node `other` instead when other >= 0 and is not the pick. A static
/// placement's log: the job's decisions are consecutive.
DecisionTraffic decisionTraffic(const Scenario &scenario, const Topology &topology,
                                const DecisionLog &log, int decision, int other = -1);

/// One paragraph: "Decision 4 places worker-1 of job resnet (parameter server). 1 of 3
/// nodes was ruled out: ... node-a won with a total of 37 against 28 on node-b; dltap
/// decided it (+20) ... The job's cross-node traffic goes from 0 B to 12.0 MB per iteration
/// ...". `decision` is the log index; the number shown is decision + 1 (as the steppers).
/// `versus` (a node index, not the pick) is the node it is contrasted with, and the weight
/// change named is one that makes that node win (diff contrasts with the other run's pick);
/// by default the next best and the smallest weight change that moves the pick.
std::string narrateDecision(const Scenario &scenario, const Topology &topology,
                            const DecisionLog &log, int decision, int versus = -1);

/// "12.0 MB", "640 kB", "0 B" (decimal units, one decimal).
std::string bytesText(double bytes);

} // namespace cb
