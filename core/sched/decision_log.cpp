#include "sched/decision_log.h"

#include "io/scenario_json.h"

namespace cb {

using nlohmann::ordered_json;

std::string Decision::task() const
{
    return std::string(toString(role)) + "-" + std::to_string(indexInRole);
}

ordered_json DecisionLog::toJson() const
{
    ordered_json j;
    j["policy"] = policy;
    j["seed"] = seed;
    j["plugins"] = ordered_json::array();
    for (std::size_t p = 0; p < pluginNames.size(); ++p)
        j["plugins"].push_back({{"name", pluginNames[p]}, {"weight", jsonNumber(weights[p])}});
    j["decisions"] = ordered_json::array();
    for (const Decision &d : decisions) {
        ordered_json dj;
        dj["index"] = d.index;
        dj["job"] = d.jobId;
        dj["task"] = d.task();
        dj["pick"] = d.pick >= 0 ? ordered_json(nodeNames[std::size_t(d.pick)]) : ordered_json();
        ordered_json tied = ordered_json::array();
        for (int n : d.tied)
            tied.push_back(nodeNames[std::size_t(n)]);
        dj["tied"] = tied;
        dj["why"] = d.why;
        ordered_json rows = ordered_json::array();
        for (const CandidateRow &r : d.rows) {
            ordered_json rj;
            rj["node"] = nodeNames[std::size_t(r.node)];
            rj["feasible"] = r.feasible;
            if (!r.feasible) {
                rj["reason"] = r.reason;
            } else {
                ordered_json raw = ordered_json::array(), weighted = ordered_json::array();
                for (double v : r.raw)
                    raw.push_back(jsonNumber(v));
                for (double v : r.weighted)
                    weighted.push_back(jsonNumber(v));
                rj["raw"] = raw;
                rj["weighted"] = weighted;
                rj["total"] = jsonNumber(r.total);
            }
            rows.push_back(rj);
        }
        dj["nodes"] = rows;
        j["decisions"].push_back(dj);
    }
    j["events"] = ordered_json::array();
    for (const JobEvent &e : events)
        j["events"].push_back(
            {{"after_decision", e.afterDecision}, {"job", e.jobId}, {"what", e.what}});
    return j;
}

} // namespace cb
