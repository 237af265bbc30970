#include "stochastic/sts_policy.h"

#include "stochastic/phase_planner.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cb {

namespace {

struct PlanCandidate
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

StsCandidateRecord record(const PlanCandidate &c)
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
    std::vector<std::pair<std::size_t, std::size_t>> waiting; // (state, log entry)
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
        std::vector<PlanCandidate> candidates;
        for (const std::string &type : types) {
            PlanCandidate c;
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
        const auto score = [this](const PlanCandidate &c) {
            if (m_ranking == StsRanking::Authors) {
                if (c.plan.kind == PlanKind::Loose)
                    return 0.0;
                if (c.plan.kind == PlanKind::Tardy)
                    return 1e6;
            }
            return c.plan.expectedCost();
        };
        std::stable_sort(candidates.begin(), candidates.end(),
                         [&score](const PlanCandidate &a, const PlanCandidate &b) {
                             return score(a) < score(b);
                         });

        // Plain STS: each candidate with the pool's split mode. STS-net: every candidate on
        // one node first, then split within a rack.
        const StsSplit poolSplit = pass.pool->split();
        std::vector<std::pair<const PlanCandidate *, StsSplit>> attempts;
        for (const PlanCandidate &c : candidates)
            attempts.emplace_back(&c, m_network ? StsSplit::None : poolSplit);
        if (m_network && poolSplit != StsSplit::None)
            for (const PlanCandidate &c : candidates)
                attempts.emplace_back(&c, StsSplit::Network);
        const StsSplit fallbackSplit =
            m_network && poolSplit != StsSplit::None ? StsSplit::Network : poolSplit;

        bool placed = false;
        for (const auto &[cp, split] : attempts) {
            const PlanCandidate &c = *cp;
            const StsConfig &config = c.input.options[c.plan.enactedOption].config;
            if (auto at = pass.pool->place(config, split)) {
                StsAssignment a;
                a.job = state.job;
                a.config = config;
                a.at = *at;
                if (!c.plan.enactedIsLast)
                    a.phaseSeconds = c.plan.enactedSeconds;
                out.push_back(a);
                decision.chosen = config.toString();
                decision.node = pass.pool->describe(*at);
                decision.sharedGpu = at->sharedGpu;
                decision.phaseSeconds = c.plan.enactedIsLast ? 0 : c.plan.enactedSeconds;
                const bool first = &c == &candidates.front();
                decision.reason = m_ranking == StsRanking::Authors
                                      ? (first ? "best by the authors' ranking"
                                               : "best by the authors' ranking that fits")
                                  : first ? "cheapest expected cost"
                                          : "cheapest expected cost that fits";
                placed = true;
                break;
            }
        }
        if (!placed) {
            for (std::size_t ti : rankConfigurations(job, state.doneEpochs, pass.now,
                                                     *pass.prices)) {
                const StsConfig &config = job.times[ti].config;
                if (auto at = pass.pool->place(config, fallbackSplit)) {
                    StsAssignment a;
                    a.job = state.job;
                    a.config = config;
                    a.at = *at;
                    out.push_back(a);
                    decision.chosen = config.toString();
                    decision.node = pass.pool->describe(*at);
                    decision.sharedGpu = at->sharedGpu;
                    decision.reason = "no planned configuration fits: fallback ranking";
                    placed = true;
                    break;
                }
            }
        }
        if (!placed) {
            decision.reason = "nothing fits: waits";
            waiting.push_back({si, pass.log ? pass.log->jobs.size() : 0});
        }
        if (pass.log) {
            for (const PlanCandidate &c : candidates)
                decision.candidates.push_back(record(c));
            pass.log->jobs.push_back(std::move(decision));
        }
    }
    if (m_saturationGuard)
        for (const auto &[si, entry] : waiting)
            admitBySharing(pass, si, out, pass.log ? &pass.log->jobs[entry] : nullptr);
    return out;
}

bool StsPolicy::admitBySharing(StsPass &pass, std::size_t si, std::vector<StsAssignment> &out,
                               StsJobDecision *decision) const
{
    const std::vector<StsJob> &jobs = *pass.jobs;
    const StsJobState &state = pass.states[si];
    const StsJob &job = jobs[state.job];
    // The waiting job's configurations, best ranked first; it needs `need` whole GPUs of a
    // node (a slice needs one to open a shared GPU).
    for (std::size_t ti : rankConfigurations(job, state.doneEpochs, pass.now, *pass.prices)) {
        const StsConfig &want = job.times[ti].config;
        const int need = want.shared() ? 1 : want.gpus;
        // Donor: a single-node whole-GPU assignment of the type with the most GPUs, that can
        // give `need` GPUs and keep at least one; ties to the lowest pressure.
        StsAssignment *donor = nullptr;
        const StsConfigTime *smaller = nullptr;
        for (StsAssignment &a : out) {
            if (a.config.gpuType != want.gpuType || a.config.shared() || !a.at.parts.empty() ||
                a.config.gpus - need < 1)
                continue;
            if (donor && a.config.gpus <= donor->config.gpus)
                continue;
            // The donor's largest configuration of the type that leaves room.
            const StsJob &dj = jobs[a.job];
            const StsConfigTime *best = nullptr;
            for (const StsConfigTime &t : dj.times)
                if (t.config.gpuType == a.config.gpuType && !t.config.shared() &&
                    t.config.gpus <= a.config.gpus - need && (!best || t.config.gpus > best->config.gpus))
                    best = &t;
            if (!best)
                continue;
            donor = &a;
            smaller = best;
        }
        if (!donor)
            continue;
        const StsConfig before = donor->config;
        pass.pool->release(before, donor->at);
        if (!pass.pool->reserve(smaller->config, donor->at)) {
            (void)pass.pool->reserve(before, donor->at);
            continue;
        }
        auto at = pass.pool->place(want, StsSplit::None);
        if (!at) {
            pass.pool->release(smaller->config, donor->at);
            (void)pass.pool->reserve(before, donor->at);
            continue;
        }
        donor->config = smaller->config;
        const std::string donorId = jobs[donor->job].id;
        StsAssignment a;
        a.job = state.job;
        a.config = want;
        a.at = *at;
        out.push_back(a);
        if (decision) {
            decision->chosen = want.toString();
            decision->node = pass.pool->describe(*at);
            decision->sharedGpu = at->sharedGpu;
            decision->reason = "saturated: " + donorId + " shrinks from " +
                               before.toString() + " to " + smaller->config.toString() +
                               " to admit it";
        }
        return true;
    }
    return false;
}

} // namespace cb
