#include "stochastic/phase_planner.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace cb {

const char *toString(PlanKind kind)
{
    switch (kind) {
    case PlanKind::Loose: return "loose";
    case PlanKind::Optimised: return "optimised";
    case PlanKind::Tardy: return "tardy";
    }
    return "?";
}

std::vector<double> PhasePlan::breakpoints(std::size_t optionCount, double doneEpochs) const
{
    std::vector<double> x(optionCount + 1, doneEpochs);
    std::size_t seg = 0;
    for (std::size_t i = 0; i < optionCount; ++i) {
        if (seg < segments.size() && segments[seg].option == i)
            x[i + 1] = segments[seg++].toEpoch;
        else
            x[i + 1] = x[i]; // unused option: a phase of length zero
    }
    return x;
}

double expectedPhaseCost(const PhasePlanInput &in, const std::vector<double> &x)
{
    double cost = 0;
    for (std::size_t i = 1; i < x.size() && i <= in.options.size(); ++i)
        cost += in.options[i - 1].costPerEpoch() * in.survival.integral(x[i - 1], x[i]);
    return cost;
}

namespace {

/// Lower convex hull of (seconds per epoch, cost per epoch) from the cheapest option to the
/// fastest, ordered from slow/cheap to fast/expensive; collinear and dominated points dropped.
std::vector<std::size_t> costTimeHull(const std::vector<PhaseOption> &o, std::size_t cheap,
                                      std::size_t fast)
{
    const auto tau = [&](std::size_t i) { return 1.0 / o[i].speed; };
    const auto p = [&](std::size_t i) { return o[i].costPerEpoch(); };
    std::vector<std::size_t> pts;
    for (std::size_t i = 0; i < o.size(); ++i)
        if (tau(i) <= tau(cheap) && tau(i) >= tau(fast) && p(i) >= p(cheap) && p(i) <= p(fast))
            pts.push_back(i);
    // Fastest first; equal times: cheaper first, then input order.
    std::stable_sort(pts.begin(), pts.end(), [&](std::size_t a, std::size_t b) {
        return std::make_tuple(tau(a), p(a)) < std::make_tuple(tau(b), p(b));
    });
    std::vector<std::size_t> hull;
    for (std::size_t i : pts) {
        if (!hull.empty() && tau(hull.back()) == tau(i))
            continue; // same time, not cheaper
        while (hull.size() >= 2) {
            const std::size_t a = hull[hull.size() - 2], b = hull.back();
            const double cross =
                (tau(b) - tau(a)) * (p(i) - p(a)) - (p(b) - p(a)) * (tau(i) - tau(a));
            if (cross <= 0)
                hull.pop_back();
            else
                break;
        }
        hull.push_back(i);
    }
    std::reverse(hull.begin(), hull.end());
    return hull;
}

void finishPlan(const PhasePlanInput &in, PhasePlan &plan)
{
    plan.expectedEnergyCost = 0;
    plan.worstCaseSeconds = 0;
    for (const PhasePlan::Segment &s : plan.segments) {
        const PhaseOption &o = in.options[s.option];
        plan.expectedEnergyCost += o.costPerEpoch() * in.survival.integral(s.fromEpoch, s.toEpoch);
        plan.worstCaseSeconds += (s.toEpoch - s.fromEpoch) / o.speed;
    }
    for (std::size_t i = 1; i < plan.segments.size(); ++i)
        if (plan.segments[i].option < plan.segments[i - 1].option)
            plan.reordered = true;
    // Receding horizon.
    const double minEpochs = in.minPhaseFraction * in.maxEpochs;
    plan.enactedIsLast = true;
    if (plan.segments.empty()) {
        plan.enactedOption = 0;
        plan.enactedUntilEpoch = in.maxEpochs;
        plan.enactedSeconds = 0;
        return;
    }
    std::size_t pick = plan.segments.size() - 1;
    for (std::size_t i = 0; i < plan.segments.size(); ++i)
        if (plan.segments[i].toEpoch - in.doneEpochs >= minEpochs - 1e-12) {
            pick = i;
            break;
        }
    const PhasePlan::Segment &s = plan.segments[pick];
    plan.enactedOption = s.option;
    plan.enactedIsLast = pick + 1 == plan.segments.size();
    plan.enactedUntilEpoch = plan.enactedIsLast ? in.maxEpochs : s.toEpoch;
    plan.enactedSeconds = (plan.enactedUntilEpoch - in.doneEpochs) / in.options[s.option].speed;
}

} // namespace

Result<PhasePlan> planPhases(const PhasePlanInput &in)
{
    if (in.options.empty())
        return Result<PhasePlan>::failure("options", "expected at least one configuration");
    for (std::size_t i = 0; i < in.options.size(); ++i) {
        const PhaseOption &o = in.options[i];
        if (!(std::isfinite(o.speed) && o.speed > 0))
            return Result<PhasePlan>::failure("options/" + std::to_string(i),
                                              "expected a positive speed (epochs per second)");
        if (!(std::isfinite(o.costPerSecond) && o.costPerSecond >= 0))
            return Result<PhasePlan>::failure("options/" + std::to_string(i),
                                              "expected a cost per second >= 0");
    }
    const double e = in.doneEpochs, E = in.maxEpochs;
    std::size_t cheap = 0, fast = 0;
    for (std::size_t i = 1; i < in.options.size(); ++i) {
        const PhaseOption &o = in.options[i];
        const double pc = in.options[cheap].costPerEpoch(), pi = o.costPerEpoch();
        if (pi < pc || (pi == pc && o.speed > in.options[cheap].speed))
            cheap = i;
        const double sf = in.options[fast].speed;
        if (o.speed > sf || (o.speed == sf && pi < in.options[fast].costPerEpoch()))
            fast = i;
    }
    PhasePlan plan;
    const double remaining = std::max(0.0, E - e);
    const double slack = 1e-9 * std::max(1.0, std::abs(in.secondsLeft));
    if (remaining / in.options[cheap].speed <= in.secondsLeft + slack) {
        plan.kind = PlanKind::Loose;
        if (remaining > 0)
            plan.segments.push_back({cheap, e, E});
        finishPlan(in, plan);
        return plan;
    }
    if (remaining / in.options[fast].speed > in.secondsLeft + slack) {
        plan.kind = PlanKind::Tardy;
        plan.segments.push_back({fast, e, E});
        finishPlan(in, plan);
        const double s = in.options[fast].speed;
        for (const SurvivalFunction::Cell &c : in.survival.cells())
            plan.expectedTardinessCost += c.stopPmf * in.tardinessWeight *
                                          std::max(0.0, (c.to - e) / s - in.secondsLeft);
        return plan;
    }

    plan.kind = PlanKind::Optimised;
    const std::vector<std::size_t> chain = costTimeHull(in.options, cheap, fast);
    const std::vector<SurvivalFunction::Cell> &cells = in.survival.cells();
    const auto tau = [&](std::size_t j) { return 1.0 / in.options[chain[j]].speed; };
    const auto p = [&](std::size_t j) { return in.options[chain[j]].costPerEpoch(); };

    struct Move
    {
        double rate;
        std::size_t cell;
        std::size_t step;
    };
    std::vector<Move> moves;
    moves.reserve(cells.size() * (chain.size() - 1));
    for (std::size_t k = 0; k < cells.size(); ++k)
        for (std::size_t j = 0; j + 1 < chain.size(); ++j)
            moves.push_back({cells[k].value * (p(j + 1) - p(j)) / (tau(j) - tau(j + 1)), k, j});
    std::sort(moves.begin(), moves.end(), [](const Move &a, const Move &b) {
        if (a.rate != b.rate)
            return a.rate < b.rate;
        if (a.cell != b.cell)
            return a.cell > b.cell; // later cells first: keeps phases in order on ties
        return a.step < b.step;
    });

    std::vector<std::size_t> level(cells.size(), 0);
    double toSave = remaining * tau(0) - in.secondsLeft;
    std::size_t splitCell = cells.size();
    double splitAt = 0;
    for (const Move &m : moves) {
        if (toSave <= 0)
            break;
        const SurvivalFunction::Cell &c = cells[m.cell];
        const double saving = (c.to - c.from) * (tau(m.step) - tau(m.step + 1));
        if (saving <= toSave) {
            level[m.cell] = m.step + 1;
            toSave -= saving;
        } else {
            const double theta = toSave / saving; // share of the cell moved up
            splitCell = m.cell;
            splitAt = c.to - theta * (c.to - c.from);
            toSave = 0;
        }
    }

    auto append = [&](std::size_t chainIndex, double from, double to) {
        if (!(to > from))
            return;
        const std::size_t option = chain[chainIndex];
        if (!plan.segments.empty() && plan.segments.back().option == option)
            plan.segments.back().toEpoch = to;
        else
            plan.segments.push_back({option, from, to});
    };
    for (std::size_t k = 0; k < cells.size(); ++k) {
        if (k == splitCell) {
            append(level[k], cells[k].from, splitAt);
            append(level[k] + 1, splitAt, cells[k].to);
        } else {
            append(level[k], cells[k].from, cells[k].to);
        }
    }
    finishPlan(in, plan);
    return plan;
}

} // namespace cb
