#include "sched/decision_log.h"

#include "io/scenario_json.h"

#include <map>

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
    j["nodes"] = nodeNames;
    j["plugins"] = ordered_json::array();
    for (std::size_t p = 0; p < pluginNames.size(); ++p)
        j["plugins"].push_back({{"name", pluginNames[p]}, {"weight", jsonNumber(weights[p])}});
    j["decisions"] = ordered_json::array();
    for (const Decision &d : decisions) {
        ordered_json dj;
        dj["index"] = d.index;
        dj["job"] = d.jobId;
        dj["task"] = d.task();
        dj["group"] = d.group;
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

namespace cb {

namespace {

// Reads fields of a stored log, collecting every problem with its JSON pointer.
struct LogReader
{
    Problems problems;

    const nlohmann::json *field(const nlohmann::json &o, const std::string &at, const char *key,
                                nlohmann::json::value_t type, bool required = true)
    {
        auto it = o.find(key);
        if (it == o.end() || it->is_null()) {
            if (required)
                problems.push_back({at + "/" + key, "missing"});
            return nullptr;
        }
        const bool number = type == nlohmann::json::value_t::number_float;
        if (number ? !it->is_number() : it->type() != type) {
            problems.push_back({at + "/" + key, std::string("expected ") +
                                                    (number ? "number" : nlohmann::json(type).type_name()) +
                                                    ", found " + it->type_name()});
            return nullptr;
        }
        return &*it;
    }
    std::string text(const nlohmann::json &o, const std::string &at, const char *key)
    {
        auto *v = field(o, at, key, nlohmann::json::value_t::string);
        return v ? v->get<std::string>() : std::string();
    }
    double number(const nlohmann::json &o, const std::string &at, const char *key)
    {
        auto *v = field(o, at, key, nlohmann::json::value_t::number_float);
        return v ? v->get<double>() : 0.0;
    }
    std::vector<double> numbers(const nlohmann::json &o, const std::string &at, const char *key)
    {
        std::vector<double> out;
        if (auto *v = field(o, at, key, nlohmann::json::value_t::array))
            for (std::size_t i = 0; i < v->size(); ++i) {
                if ((*v)[i].is_number())
                    out.push_back((*v)[i].get<double>());
                else
                    problems.push_back(
                        {at + "/" + key + "/" + std::to_string(i), "expected a number"});
            }
        return out;
    }
};

} // namespace

Result<DecisionLog> DecisionLog::fromJson(const nlohmann::json &j)
{
    using V = nlohmann::json::value_t;
    if (!j.is_object())
        return Result<DecisionLog>::failure("", "expected a decision log object");
    LogReader r;
    DecisionLog log;
    log.policy = r.text(j, "", "policy");
    if (auto *s = r.field(j, "", "seed", V::number_float)) {
        if (s->is_number_unsigned() || (s->is_number_integer() && s->get<std::int64_t>() >= 0))
            log.seed = s->get<std::uint64_t>();
        else
            r.problems.push_back({"/seed", "expected an integer >= 0"});
    }
    const nlohmann::json *decisions = r.field(j, "", "decisions", V::array);
    if (auto *nodes = r.field(j, "", "nodes", V::array, false)) {
        for (std::size_t i = 0; i < nodes->size(); ++i) {
            if ((*nodes)[i].is_string())
                log.nodeNames.push_back((*nodes)[i].get<std::string>());
            else
                r.problems.push_back({"/nodes/" + std::to_string(i), "expected a node name"});
        }
    } else if (decisions && !decisions->empty() && (*decisions)[0].contains("nodes") &&
               (*decisions)[0]["nodes"].is_array()) {
        for (const auto &row : (*decisions)[0]["nodes"])
            if (row.is_object() && row.contains("node") && row["node"].is_string())
                log.nodeNames.push_back(row["node"].get<std::string>());
    }
    std::map<std::string, int> nodeIndex;
    for (std::size_t i = 0; i < log.nodeNames.size(); ++i)
        nodeIndex.emplace(log.nodeNames[i], int(i));
    auto node = [&](const nlohmann::json &v, const std::string &at) {
        auto it = v.is_string() ? nodeIndex.find(v.get<std::string>()) : nodeIndex.end();
        if (it == nodeIndex.end()) {
            r.problems.push_back({at, "unknown node " + v.dump()});
            return -1;
        }
        return it->second;
    };
    if (auto *plugins = r.field(j, "", "plugins", V::array)) {
        for (std::size_t i = 0; i < plugins->size(); ++i) {
            const std::string at = "/plugins/" + std::to_string(i);
            log.pluginNames.push_back(r.text((*plugins)[i], at, "name"));
            log.weights.push_back(r.number((*plugins)[i], at, "weight"));
        }
    }
    if (decisions) {
        for (std::size_t i = 0; i < decisions->size(); ++i) {
            const nlohmann::json &dj = (*decisions)[i];
            const std::string at = "/decisions/" + std::to_string(i);
            if (!dj.is_object()) {
                r.problems.push_back({at, "expected a decision object"});
                continue;
            }
            Decision d;
            d.index = int(r.number(dj, at, "index"));
            d.jobId = r.text(dj, at, "job");
            const std::string task = r.text(dj, at, "task");
            const auto dash = task.rfind('-');
            const auto role = dash == std::string::npos
                                  ? std::nullopt
                                  : taskRoleFromString(task.substr(0, dash));
            if (!role) {
                if (!task.empty())
                    r.problems.push_back({at + "/task", "expected ROLE-INDEX, found \"" + task + "\""});
            } else {
                d.role = *role;
                try {
                    d.indexInRole = std::stoi(task.substr(dash + 1));
                } catch (const std::exception &) {
                    r.problems.push_back({at + "/task", "expected ROLE-INDEX, found \"" + task + "\""});
                }
            }
            if (dj.contains("group"))
                d.group = int(r.number(dj, at, "group"));
            if (dj.contains("pick") && !dj["pick"].is_null())
                d.pick = node(dj["pick"], at + "/pick");
            if (auto *tied = r.field(dj, at, "tied", V::array, false))
                for (std::size_t t = 0; t < tied->size(); ++t)
                    d.tied.push_back(node((*tied)[t], at + "/tied/" + std::to_string(t)));
            if (dj.contains("why"))
                d.why = r.text(dj, at, "why");
            if (auto *rows = r.field(dj, at, "nodes", V::array)) {
                for (std::size_t k = 0; k < rows->size(); ++k) {
                    const nlohmann::json &rj = (*rows)[k];
                    const std::string rat = at + "/nodes/" + std::to_string(k);
                    CandidateRow row;
                    if (auto *n = r.field(rj, rat, "node", V::string))
                        row.node = node(*n, rat + "/node");
                    if (auto *f = r.field(rj, rat, "feasible", V::boolean))
                        row.feasible = f->get<bool>();
                    if (!row.feasible) {
                        if (rj.contains("reason"))
                            row.reason = r.text(rj, rat, "reason");
                    } else {
                        row.raw = r.numbers(rj, rat, "raw");
                        row.weighted = r.numbers(rj, rat, "weighted");
                        row.total = r.number(rj, rat, "total");
                    }
                    d.rows.push_back(std::move(row));
                }
            }
            log.decisions.push_back(std::move(d));
        }
    }
    if (auto *events = r.field(j, "", "events", V::array, false)) {
        for (std::size_t i = 0; i < events->size(); ++i) {
            const std::string at = "/events/" + std::to_string(i);
            JobEvent e;
            e.afterDecision = int(r.number((*events)[i], at, "after_decision"));
            e.jobId = r.text((*events)[i], at, "job");
            e.what = r.text((*events)[i], at, "what");
            log.events.push_back(std::move(e));
        }
    }
    if (!r.problems.empty())
        return Result<DecisionLog>(std::move(r.problems));
    return log;
}

} // namespace cb
