#include "stochastic/sts_decision_log.h"

#include <limits>

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

namespace {

/// Reads fields of the log's JSON, collecting problems with their pointers. A number written
/// as null (a non-finite value) reads as -infinity for pressure, 0 elsewhere.
struct LogReader
{
    Problems problems;

    const nlohmann::json *field(const nlohmann::json &o, const std::string &at, const char *key)
    {
        if (!o.is_object() || !o.contains(key)) {
            problems.push_back({at + "/" + key, "missing"});
            return nullptr;
        }
        return &o[key];
    }
    double number(const nlohmann::json &o, const std::string &at, const char *key,
                  double ifNull = 0)
    {
        const nlohmann::json *v = field(o, at, key);
        if (!v)
            return 0;
        if (v->is_null())
            return ifNull;
        if (!v->is_number()) {
            problems.push_back({at + "/" + key, "expected a number"});
            return 0;
        }
        return v->get<double>();
    }
    std::string text(const nlohmann::json &o, const std::string &at, const char *key)
    {
        const nlohmann::json *v = field(o, at, key);
        if (!v)
            return {};
        if (!v->is_string()) {
            problems.push_back({at + "/" + key, "expected a string"});
            return {};
        }
        return v->get<std::string>();
    }
    const nlohmann::json &array(const nlohmann::json &o, const std::string &at, const char *key,
                                bool required = true)
    {
        static const nlohmann::json empty = nlohmann::json::array();
        if (!required && (!o.is_object() || !o.contains(key)))
            return empty;
        const nlohmann::json *v = field(o, at, key);
        if (!v)
            return empty;
        if (!v->is_array()) {
            problems.push_back({at + "/" + key, "expected an array"});
            return empty;
        }
        return *v;
    }
};

} // namespace

Result<StsDecisionLog> StsDecisionLog::fromJson(const nlohmann::json &j)
{
    LogReader r;
    StsDecisionLog log;
    const nlohmann::json &events = r.array(j, "", "events");
    for (std::size_t e = 0; e < events.size(); ++e) {
        const std::string ew = "/events/" + std::to_string(e);
        StsEventRecord rec;
        rec.time = r.number(events[e], ew, "time");
        rec.trigger = r.text(events[e], ew, "trigger");
        const nlohmann::json &jobs = r.array(events[e], ew, "jobs");
        for (std::size_t k = 0; k < jobs.size(); ++k) {
            const std::string jw = ew + "/jobs/" + std::to_string(k);
            const nlohmann::json &o = jobs[k];
            StsJobDecision d;
            d.job = r.text(o, jw, "job");
            d.pressure = r.number(o, jw, "pressure", -std::numeric_limits<double>::infinity());
            d.doneEpochs = r.number(o, jw, "done_epochs");
            d.chosen = r.text(o, jw, "chosen");
            d.node = r.text(o, jw, "node");
            d.phaseSeconds = r.number(o, jw, "phase_seconds");
            d.reason = r.text(o, jw, "reason");
            if (o.is_object() && o.contains("shared_gpu"))
                d.sharedGpu = int(r.number(o, jw, "shared_gpu"));
            const nlohmann::json &candidates = r.array(o, jw, "candidates", false);
            for (std::size_t c = 0; c < candidates.size(); ++c) {
                const std::string cw = jw + "/candidates/" + std::to_string(c);
                const nlohmann::json &co = candidates[c];
                StsCandidateRecord cr;
                cr.gpuType = r.text(co, cw, "gpu_type");
                cr.kind = r.text(co, cw, "kind");
                cr.expectedCost = r.number(co, cw, "expected_cost");
                cr.expectedEnergyCost = r.number(co, cw, "expected_energy_cost");
                cr.expectedTardinessCost = r.number(co, cw, "expected_tardiness_cost");
                cr.enacted = r.text(co, cw, "enacted");
                cr.enactedSeconds = r.number(co, cw, "enacted_seconds");
                const nlohmann::json &phases = r.array(co, cw, "phases");
                for (std::size_t p = 0; p < phases.size(); ++p) {
                    const std::string pw = cw + "/phases/" + std::to_string(p);
                    cr.phases.push_back({r.text(phases[p], pw, "config"),
                                         r.number(phases[p], pw, "from_epoch"),
                                         r.number(phases[p], pw, "to_epoch")});
                }
                d.candidates.push_back(std::move(cr));
            }
            rec.jobs.push_back(std::move(d));
        }
        log.add(std::move(rec));
    }
    if (!r.problems.empty())
        return r.problems;
    return log;
}

} // namespace cb
