#include "stochastic/sts_policy.h"

#include "stochastic/phase_planner.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cb {

namespace {

struct Candidate
{
    std::string gpuType;
    PhasePlanInput input;
    PhasePlan plan;
};

/// Options of one GPU type at or above the floor (strictly above at a phase end, when any).
std::vector<PhaseOption> optionsOf(const StsJob &job, const std::string &type,
                                   const StsJobState &state, const PriceCatalogue &prices)
{
    std::vector<const StsConfigTime *> ofType;
    for (const StsConfigTime &t : job.times)
        if (t.config.gpuType == type)
            ofType.push_back(&t);
    std::stable_sort(ofType.begin(), ofType.end(),
                     [](const StsConfigTime *a, const StsConfigTime *b) {
                         return a->config.smallerThan(b->config);
                     });
    auto build = [&](bool strict) {
        std::vector<PhaseOption> out;
        for (const StsConfigTime *t : ofType) {
            if (state.lastConfig) {
                const StsConfig &floor = *state.lastConfig;
                const bool below = t->config.smallerThan(floor);
                const bool equal = !below && !floor.smallerThan(t->config);
                if (below || (strict && equal))
                    continue;
            }
            PhaseOption o;
            o.config = t->config;
            o.speed = t->speed(job.maxEpochs);
            o.costPerSecond = stsConfigRate(prices, t->config) / 3600;
            out.push_back(o);
        }
        return out;
    };
    std::vector<PhaseOption> out = build(state.phaseEnded);
    if (out.empty() && state.phaseEnded)
        out = build(false); // already at the largest configuration
    return out;
}

StsCandidateRecord record(const Candidate &c)
{
    StsCandidateRecord r;
    r.gpuType = c.gpuType;
    r.kind = toString(c.plan.kind);
    r.expectedCost = c.plan.expectedCost();
    r.expectedEnergyCost = c.plan.expectedEnergyCost;
    r.expectedTardinessCost = c.plan.expectedTardinessCost;
    for (const PhasePlan::Segment &s : c.plan.segments)
        r.phases.push_back({c.input.options[s.option].config.toString(), s.fromEpoch, s.toEpoch});
    r.enacted = c.input.options[c.plan.enactedOption].config.toString();
    r.enactedSeconds = c.plan.enactedSeconds;
    return r;
}

} // namespace

std::vector<StsAssignment> StsPolicy::schedule(StsPass &pass)
{
    const std::vector<StsJob> &jobs = *pass.jobs;
    // Pressure order, highest first; ties by submission then id.
    std::vector<std::pair<double, std::size_t>> order;
    for (std::size_t i = 0; i < pass.states.size(); ++i)
        order.emplace_back(stsPressure(jobs[pass.states[i].job], pass.states[i].doneEpochs,
                                       pass.now),
                           i);
    std::stable_sort(order.begin(), order.end(), [&](const auto &a, const auto &b) {
        if (a.first != b.first)
            return a.first > b.first;
        const StsJob &ja = jobs[pass.states[a.second].job], &jb = jobs[pass.states[b.second].job];
        return std::tie(ja.submitSeconds, ja.id) < std::tie(jb.submitSeconds, jb.id);
    });

    std::vector<StsAssignment> out;
    for (const auto &[pressure, si] : order) {
        const StsJobState &state = pass.states[si];
        const StsJob &job = jobs[state.job];
        StsJobDecision decision;
        decision.job = job.id;
        decision.pressure = pressure;
        decision.doneEpochs = state.doneEpochs;

        std::vector<std::string> types;
        for (const StsConfigTime &t : job.times)
            if (std::find(types.begin(), types.end(), t.config.gpuType) == types.end())
                types.push_back(t.config.gpuType);
        std::sort(types.begin(), types.end());

        const SurvivalFunction survival =
            job.termination.survival(state.doneEpochs, job.maxEpochs);
        std::vector<Candidate> candidates;
        for (const std::string &type : types) {
            Candidate c;
            c.gpuType = type;
            c.input.doneEpochs = state.doneEpochs;
            c.input.maxEpochs = job.maxEpochs;
            c.input.secondsLeft = job.dueSeconds - pass.now;
            c.input.options = optionsOf(job, type, state, *pass.prices);
            c.input.survival = survival;
            c.input.tardinessWeight = job.tardinessWeight;
            if (c.input.options.empty())
                continue;
            auto plan = planPhases(c.input);
            if (!plan)
                continue; // a malformed option (zero time) cannot be planned on this type
            c.plan = std::move(plan.value());
            candidates.push_back(std::move(c));
        }
        std::stable_sort(candidates.begin(), candidates.end(),
                         [](const Candidate &a, const Candidate &b) {
                             return a.plan.expectedCost() < b.plan.expectedCost();
                         });

        bool placed = false;
        for (const Candidate &c : candidates) {
            const StsConfig &config = c.input.options[c.plan.enactedOption].config;
            if (auto at = pass.pool->place(config)) {
                StsAssignment a;
                a.job = state.job;
                a.config = config;
                a.at = *at;
                if (!c.plan.enactedIsLast)
                    a.phaseSeconds = c.plan.enactedSeconds;
                out.push_back(a);
                decision.chosen = config.toString();
                decision.node = pass.pool->nodes()[at->node].id;
                decision.sharedGpu = at->sharedGpu;
                decision.phaseSeconds = c.plan.enactedIsLast ? 0 : c.plan.enactedSeconds;
                decision.reason = &c == &candidates.front()
                                      ? "cheapest expected cost"
                                      : "cheapest expected cost that fits";
                placed = true;
                break;
            }
        }
        if (!placed) {
            for (std::size_t ti : rankConfigurations(job, state.doneEpochs, pass.now,
                                                     *pass.prices)) {
                const StsConfig &config = job.times[ti].config;
                if (auto at = pass.pool->place(config)) {
                    StsAssignment a;
                    a.job = state.job;
                    a.config = config;
                    a.at = *at;
                    out.push_back(a);
                    decision.chosen = config.toString();
                    decision.node = pass.pool->nodes()[at->node].id;
                    decision.sharedGpu = at->sharedGpu;
                    decision.reason = "no planned configuration fits: fallback ranking";
                    placed = true;
                    break;
                }
            }
        }
        if (!placed)
            decision.reason = "nothing fits: waits";
        if (pass.log) {
            for (const Candidate &c : candidates)
                decision.candidates.push_back(record(c));
            pass.log->jobs.push_back(std::move(decision));
        }
    }
    return out;
}

} // namespace cb
