#include "stochastic/first_principle_scheduler.h"

#include <algorithm>
#include <tuple>

namespace cb {

std::string FirstPrincipleScheduler::name() const
{
    switch (m_order) {
    case Order::Fifo: return "FIFO";
    case Order::Edf: return "EDF";
    case Order::Priority: return "PS";
    }
    return "?";
}

std::vector<StsAssignment> FirstPrincipleScheduler::schedule(StsPass &pass)
{
    const std::vector<StsJob> &jobs = *pass.jobs;
    std::vector<std::size_t> order(pass.states.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    auto key = [&](std::size_t i) {
        const StsJob &j = jobs[pass.states[i].job];
        const double primary = m_order == Order::Fifo  ? j.submitSeconds
                               : m_order == Order::Edf ? j.dueSeconds
                                                       : -j.tardinessWeight;
        return std::make_tuple(primary, j.submitSeconds, j.id);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    std::vector<StsAssignment> out;
    for (std::size_t i : order) {
        const StsJobState &state = pass.states[i];
        const StsJob &job = jobs[state.job];
        StsJobDecision decision;
        decision.job = job.id;
        decision.pressure = stsPressure(job, state.doneEpochs, pass.now);
        decision.doneEpochs = state.doneEpochs;
        decision.reason = "nothing fits: waits";
        for (std::size_t ti : rankConfigurations(job, state.doneEpochs, pass.now, *pass.prices)) {
            const StsConfig &config = job.times[ti].config;
            if (auto at = pass.pool->place(config)) {
                out.push_back({state.job, config, *at});
                decision.chosen = config.toString();
                decision.node = pass.pool->describe(*at);
                decision.sharedGpu = at->sharedGpu;
                decision.reason = "best ranked configuration that fits";
                break;
            }
        }
        if (pass.log)
            pass.log->jobs.push_back(std::move(decision));
    }
    return out;
}

} // namespace cb
