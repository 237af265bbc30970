#include "stochastic/sts_decision_log.h"

namespace cb {

nlohmann::json StsDecisionLog::toJson() const
{
    nlohmann::json events = nlohmann::json::array();
    for (const StsEventRecord &e : m_events) {
        nlohmann::json jobs = nlohmann::json::array();
        for (const StsJobDecision &d : e.jobs) {
            nlohmann::json candidates = nlohmann::json::array();
            for (const StsCandidateRecord &c : d.candidates) {
                nlohmann::json phases = nlohmann::json::array();
                for (const StsPhaseRecord &p : c.phases)
                    phases.push_back({{"config", p.config},
                                      {"from_epoch", p.fromEpoch},
                                      {"to_epoch", p.toEpoch}});
                candidates.push_back({{"gpu_type", c.gpuType},
                                      {"kind", c.kind},
                                      {"expected_cost", c.expectedCost},
                                      {"expected_energy_cost", c.expectedEnergyCost},
                                      {"expected_tardiness_cost", c.expectedTardinessCost},
                                      {"phases", phases},
                                      {"enacted", c.enacted},
                                      {"enacted_seconds", c.enactedSeconds}});
            }
            nlohmann::json j = {{"job", d.job},
                                {"pressure", d.pressure},
                                {"done_epochs", d.doneEpochs},
                                {"chosen", d.chosen},
                                {"node", d.node},
                                {"phase_seconds", d.phaseSeconds},
                                {"reason", d.reason}};
            if (d.sharedGpu >= 0)
                j["shared_gpu"] = d.sharedGpu;
            if (!candidates.empty())
                j["candidates"] = candidates;
            jobs.push_back(std::move(j));
        }
        events.push_back({{"time", e.time}, {"trigger", e.trigger}, {"jobs", jobs}});
    }
    return {{"events", events}};
}

} // namespace cb
