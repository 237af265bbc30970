#pragma once
// Why this node and not that one: the contrast of a decision's pick with any other node
// (per plugin, raw and weighted, and which plugin carried the difference), and the smallest
// change of one plugin's weight that would have changed the pick, computed exactly from the
// logged scores.
//
// A decision's total on node n is T_n = sum_p w_p r_np (r: raw scores 0..10). Changing the
// weight of plugin q by delta moves every total by delta r_nq, so node n catches up with the
// pick k at delta = (T_k - T_n) / (r_nq - r_kq): raising w_q helps the nodes with a higher
// raw score than the pick, lowering it the nodes with a lower one. The threshold of q is the
// nearest such crossing over all feasible nodes (in each direction; a weight stays >= 0). At
// the threshold itself the two totals tie and the policy's tie-break decides; beyond it the
// other node wins. Only the decision itself is considered: the state before it (the earlier
// picks) stays as it was, which is what Placer::overrideWeightFrom replays.
//
// Exact when the decision kept a row for every feasible node (LogDetail full); with top:K
// the thresholds consider only the kept rows (Contrast::complete says so).

#include "sched/decision_log.h"
#include "util/result.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cb {

/// One plugin's part in the difference between the pick and another node.
struct PluginDifference
{
    std::size_t plugin = 0;
    std::string name;
    double weight = 0;
    double rawPick = 0, rawOther = 0;
    double weightedPick() const { return weight * rawPick; }
    double weightedOther() const { return weight * rawOther; }
    /// > 0: in the pick's favour.
    double weightedDifference() const { return weight * (rawPick - rawOther); }
};

/// The weight of one plugin at which the pick changes.
struct WeightFlip
{
    std::size_t plugin = 0;
    std::string name;
    double weight = 0;    ///< the policy's weight
    double threshold = 0; ///< the totals of the pick and `winner` tie at this weight
    bool raise = true;    ///< the pick changes when the weight is above (else below) threshold
    int winner = -1;      ///< node that wins just beyond the threshold
    double change() const { return threshold - weight; }
};

struct Contrast
{
    int decision = 0; ///< index in the log
    int pick = -1;    ///< node
    int other = -1;   ///< node
    bool otherHasRow = true; ///< false: a top:K log kept no row for `other`
    bool otherFiltered = false;
    std::string filterReason; ///< when otherFiltered
    double pickTotal = 0, otherTotal = 0;
    double margin() const { return pickTotal - otherTotal; }
    bool tied() const { return !otherFiltered && otherHasRow && pickTotal == otherTotal; }
    std::vector<PluginDifference> plugins; ///< policy order (when both have scores)
    /// The plugin with the largest weighted difference in the pick's favour, or -1 when
    /// no plugin favours the pick (a tie).
    int deciding = -1;
    /// Whether the pick would lose to `other` without the deciding plugin.
    bool decisive() const;
    /// Weight changes of one plugin at which `other` catches up with the pick (a tie at
    /// the threshold): nearest first. Empty when no single weight can do it.
    std::vector<WeightFlip> flips;
};

/// The contrast of decision `decision` (log index) with node `other` (node index). Fails
/// when the decision or node does not exist, or `other` is the pick.
Result<Contrast> contrastDecision(const DecisionLog &log, int decision, int other);

/// The node a contrast compares with when none is named: the best-scoring feasible node that
/// is not the pick (another tied node first), else the first filtered node; -1 when the
/// decision has no other row.
int defaultContrastNode(const DecisionLog &log, int decision);

struct DecisionFlips
{
    /// Per plugin, the nearest threshold up and down that changes the pick (if any), nearest
    /// first overall.
    std::vector<WeightFlip> flips;
    /// Thresholds consider only kept rows: false for a top:K log with omitted feasible nodes.
    bool complete = true;
    const WeightFlip *smallest() const { return flips.empty() ? nullptr : &flips.front(); }
};

/// Every single-plugin weight change that changes the pick of decision `decision`.
DecisionFlips weightFlips(const DecisionLog &log, int decision);

/// "the pick would change if dltap weight < 1.5 (now 2; node-b would win)".
std::string describeFlip(const DecisionLog &log, const WeightFlip &flip);

/// What a log that keeps only the best rows (top:K) says of a node it kept no row for at
/// decision `d` (Contrast::otherHasRow false): "no row kept: below the kept rows (the 1016
/// nodes without one scored 0 to 19; 2 were ruled out)".
std::string unkeptNodeText(const Decision &d);

} // namespace cb

namespace cb {

/// The filter reasons of a decision with how many nodes each ruled out (rows and omitted
/// nodes together), most nodes first, then in order of first use.
std::vector<std::pair<std::string, int>> filterGroups(const DecisionLog &log, const Decision &d);

} // namespace cb
