#include "sched/decision_contrast.h"

#include "util/text.h"

#include <algorithm>
#include <cmath>

namespace cb {

namespace {

/// The crossing of plugin `p` between the pick's row and row `r`: the weight change at
/// which r's total reaches the pick's (nullopt when the raw scores are equal, or the
/// weight would have to go below 0).
std::optional<WeightFlip> crossing(const DecisionLog &log, const Decision &d,
                                   const CandidateRow &pick, const CandidateRow &r, std::size_t p)
{
    const double diff = d.rawScore(r, p) - d.rawScore(pick, p);
    if (diff == 0)
        return std::nullopt;
    const double margin = pick.total - r.total; // >= 0: the pick had the best total
    WeightFlip f;
    f.plugin = p;
    f.name = log.pluginNames[p];
    f.weight = log.weights[p];
    f.threshold = f.weight + margin / diff;
    f.raise = diff > 0;
    f.winner = r.node;
    if (!f.raise && !(f.threshold > 0))
        return std::nullopt; // only a negative weight would do
    return f;
}

bool nearer(const WeightFlip &a, const WeightFlip &b)
{
    const double da = std::fabs(a.change()), db = std::fabs(b.change());
    if (da != db)
        return da < db;
    if (a.plugin != b.plugin)
        return a.plugin < b.plugin;
    return a.raise && !b.raise;
}

} // namespace

bool Contrast::decisive() const
{
    if (deciding < 0 || !otherHasRow || otherFiltered)
        return false;
    for (const PluginDifference &p : plugins)
        if (int(p.plugin) == deciding)
            return margin() - p.weightedDifference() < 0;
    return false;
}

Result<Contrast> contrastDecision(const DecisionLog &log, int decision, int other)
{
    if (decision < 0 || decision >= int(log.decisions.size()))
        return Result<Contrast>::failure("decision", "no decision " + std::to_string(decision + 1) +
                                                         " (the log has " +
                                                         std::to_string(log.decisions.size()) + ")");
    if (other < 0 || other >= int(log.nodeNames.size()))
        return Result<Contrast>::failure("node", "no node " + std::to_string(other));
    const Decision &d = log.decisions[std::size_t(decision)];
    Contrast c;
    c.decision = decision;
    c.pick = d.pick;
    c.other = other;
    if (other == d.pick)
        return Result<Contrast>::failure("node", log.nodeNames[std::size_t(other)] +
                                                     " is the pick of this decision");
    const CandidateRow *pr = d.pick >= 0 ? d.row(d.pick) : nullptr;
    const CandidateRow *orow = d.row(other);
    if (pr)
        c.pickTotal = pr->total;
    if (!orow) {
        c.otherHasRow = false;
        return c;
    }
    if (!orow->feasible()) {
        c.otherFiltered = true;
        c.filterReason = log.reason(*orow);
        return c;
    }
    c.otherTotal = orow->total;
    if (!pr)
        return c;
    double best = 0;
    for (std::size_t p = 0; p < log.pluginNames.size(); ++p) {
        PluginDifference pd;
        pd.plugin = p;
        pd.name = log.pluginNames[p];
        pd.weight = log.weights[p];
        pd.rawPick = d.rawScore(*pr, p);
        pd.rawOther = d.rawScore(*orow, p);
        if (pd.weightedDifference() > best) {
            best = pd.weightedDifference();
            c.deciding = int(p);
        }
        c.plugins.push_back(pd);
        if (auto f = crossing(log, d, *pr, *orow, p))
            c.flips.push_back(*f);
    }
    std::sort(c.flips.begin(), c.flips.end(), nearer);
    return c;
}

int defaultContrastNode(const DecisionLog &log, int decision)
{
    if (decision < 0 || decision >= int(log.decisions.size()))
        return -1;
    const Decision &d = log.decisions[std::size_t(decision)];
    const CandidateRow *best = nullptr, *filtered = nullptr;
    for (const CandidateRow &r : d.rows) {
        if (r.node == d.pick)
            continue;
        if (!r.feasible()) {
            if (!filtered)
                filtered = &r;
            continue;
        }
        if (!best || r.total > best->total)
            best = &r;
    }
    return best ? best->node : filtered ? filtered->node : -1;
}

DecisionFlips weightFlips(const DecisionLog &log, int decision)
{
    DecisionFlips out;
    if (decision < 0 || decision >= int(log.decisions.size()))
        return out;
    const Decision &d = log.decisions[std::size_t(decision)];
    out.complete = d.omitted.scored == 0;
    const CandidateRow *pick = d.pick >= 0 ? d.row(d.pick) : nullptr;
    if (!pick)
        return out;
    for (std::size_t p = 0; p < log.pluginNames.size(); ++p) {
        // Nearest crossing each way; of several at the same weight, the node that leads just
        // beyond it (the largest raw difference), then the first in cluster order.
        std::optional<WeightFlip> up, down;
        double upDiff = 0, downDiff = 0;
        for (const CandidateRow &r : d.rows) {
            if (!r.feasible() || r.node == d.pick)
                continue;
            auto f = crossing(log, d, *pick, r, p);
            if (!f)
                continue;
            const double diff = std::fabs(d.rawScore(r, p) - d.rawScore(*pick, p));
            std::optional<WeightFlip> &slot = f->raise ? up : down;
            double &slotDiff = f->raise ? upDiff : downDiff;
            if (!slot || std::fabs(f->change()) < std::fabs(slot->change()) ||
                (f->threshold == slot->threshold && diff > slotDiff)) {
                slot = f;
                slotDiff = diff;
            }
        }
        if (up)
            out.flips.push_back(*up);
        if (down)
            out.flips.push_back(*down);
    }
    std::sort(out.flips.begin(), out.flips.end(), nearer);
    return out;
}

std::string describeFlip(const DecisionLog &log, const WeightFlip &flip)
{
    std::string s = "the pick would change if " + flip.name + " weight " +
                    (flip.raise ? "> " : "< ") + numberText(flip.threshold) + " (now " +
                    numberText(flip.weight);
    if (flip.winner >= 0 && flip.winner < int(log.nodeNames.size()))
        s += "; " + log.nodeNames[std::size_t(flip.winner)] + " would win";
    return s + ")";
}

std::string unkeptNodeText(const Decision &d)
{
    const OmittedRows &o = d.omitted;
    std::string s = "no row kept: below the kept rows (the " + std::to_string(o.nodes()) +
                    " nodes without one ";
    if (o.scored > 0)
        s += "scored " + wholeOrNumberText(o.minTotal) +
             (o.minTotal == o.maxTotal ? "" : " to " + wholeOrNumberText(o.maxTotal));
    if (o.filteredNodes() > 0)
        s += std::string(o.scored > 0 ? "; " : "") + std::to_string(o.filteredNodes()) +
             (o.filteredNodes() == 1 ? " was" : " were") + " ruled out";
    return s + ")";
}

} // namespace cb

namespace cb {

std::vector<std::pair<std::string, int>> filterGroups(const DecisionLog &log, const Decision &d)
{
    std::vector<int> count(log.reasons.size(), 0);
    for (const CandidateRow &r : d.rows)
        if (!r.feasible())
            ++count[std::size_t(r.reason)];
    for (const auto &[reason, nodes] : d.omitted.filtered)
        count[std::size_t(reason)] += nodes;
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < count.size(); ++i)
        if (count[i] > 0)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return count[a] > count[b]; });
    std::vector<std::pair<std::string, int>> out;
    for (std::size_t i : order)
        out.emplace_back(log.reasons[i], count[i]);
    return out;
}

} // namespace cb
