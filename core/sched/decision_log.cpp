#include "sched/decision_log.h"

#include "util/json_number.h"
#include "util/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace cb {

const char *toString(JobEvent::Kind kind)
{
    switch (kind) {
    case JobEvent::Kind::RolledBack:
        return "rolled-back";
    case JobEvent::Kind::PartlyPlaced:
        return "partly-placed";
    case JobEvent::Kind::NotTried:
        return "not-tried";
    case JobEvent::Kind::Admitted:
        return "admitted";
    }
    return "?";
}

namespace {

std::optional<JobEvent::Kind> jobEventKindFromString(const std::string &name)
{
    for (JobEvent::Kind k : {JobEvent::Kind::RolledBack, JobEvent::Kind::PartlyPlaced,
                             JobEvent::Kind::NotTried, JobEvent::Kind::Admitted})
        if (name == toString(k))
            return k;
    return std::nullopt;
}

} // namespace

using nlohmann::ordered_json;

Result<LogDetail> LogDetail::parse(const std::string &text)
{
    if (text == "auto")
        return LogDetail{};
    if (text == "full")
        return full();
    if (text == "summary")
        return topK(0);
    if (text.rfind("top:", 0) == 0) {
        const char *b = text.data() + 4, *e = text.data() + text.size();
        int k = -1;
        const auto [end, ec] = std::from_chars(b, e, k);
        if (ec == std::errc() && end == e && b != e && k >= 0)
            return topK(k);
    }
    return Result<LogDetail>::failure(
        "", "expected auto, full, summary or top:K (K >= 0), found \"" + text + "\"");
}

std::string LogDetail::toString() const
{
    switch (kind) {
    case Kind::Auto: return "auto";
    case Kind::Full: return "full";
    case Kind::Top: return "top:" + std::to_string(top);
    }
    return "auto";
}

LogDetail LogDetail::resolved(int nodes) const
{
    if (kind != Kind::Auto)
        return *this;
    return nodes <= kAutoFullNodes ? full() : topK(kAutoTop);
}

int OmittedRows::filteredNodes() const
{
    int n = 0;
    for (const auto &[reason, count] : filtered)
        n += count;
    return n;
}

std::string Decision::task() const
{
    return std::string(toString(role)) + "-" + std::to_string(indexInRole);
}

const CandidateRow *Decision::row(int node) const
{
    // Rows are in cluster order; with Full, row i is node i.
    if (node >= 0 && node < int(rows.size()) && rows[std::size_t(node)].node == node)
        return &rows[std::size_t(node)];
    const auto it = std::lower_bound(rows.begin(), rows.end(), node,
                                     [](const CandidateRow &r, int n) { return r.node < n; });
    return it != rows.end() && it->node == node ? &*it : nullptr;
}

std::size_t DecisionLog::rowCount() const
{
    std::size_t n = 0;
    for (const Decision &d : decisions)
        n += d.rows.size();
    return n;
}

std::string DecisionLog::omittedSummary(const Decision &d, std::size_t maxReasons) const
{
    const OmittedRows &o = d.omitted;
    if (o.nodes() == 0)
        return {};
    std::string s = "+ " + std::to_string(o.nodes()) + " more node" + (o.nodes() > 1 ? "s" : "") + ": ";
    if (o.filteredNodes() > 0) {
        std::vector<std::pair<int, int>> byCount = o.filtered;
        std::stable_sort(byCount.begin(), byCount.end(),
                         [](const auto &a, const auto &b) { return a.second > b.second; });
        s += std::to_string(o.filteredNodes()) + " filtered (";
        for (std::size_t i = 0; i < byCount.size() && i < maxReasons; ++i) {
            if (i > 0)
                s += "; ";
            const int r = byCount[i].first;
            s += (r >= 0 && std::size_t(r) < reasons.size() ? reasons[std::size_t(r)] : "?") +
                 ": " + std::to_string(byCount[i].second);
        }
        if (byCount.size() > maxReasons)
            s += "; " + std::to_string(byCount.size() - maxReasons) + " more reasons";
        s += ")";
        if (o.scored > 0)
            s += ", ";
    }
    if (o.scored > 0) {
        const std::string totals =
            "total" + (o.minTotal == o.maxTotal ? " " + wholeOrNumberText(o.minTotal)
                                                : "s " + wholeOrNumberText(o.minTotal) + " to " +
                                                      wholeOrNumberText(o.maxTotal));
        const int tied = o.tied;
        s += std::to_string(o.scored) + " fit";
        if (tied == 0)
            s += " but scored lower (" + totals + ")";
        else if (tied == o.scored)
            s += ", all tied with the pick (" + totals + ")";
        else
            s += ": " + std::to_string(tied) + " tied with the pick, " +
                 std::to_string(o.scored - tied) + " scored lower (" + totals + ")";
    }
    return s;
}

ordered_json DecisionLog::toJson() const
{
    ordered_json j;
    j["version"] = kJsonVersion;
    j["policy"] = policy;
    j["seed"] = seed;
    j["detail"] = detail.toString();
    j["nodes"] = nodeNames;
    j["plugins"] = ordered_json::array();
    for (std::size_t p = 0; p < pluginNames.size(); ++p)
        j["plugins"].push_back({{"name", pluginNames[p]}, {"weight", jsonNumber(weights[p])}});
    j["reasons"] = reasons;
    j["decisions"] = ordered_json::array();
    const std::size_t plugins = pluginNames.size();
    for (const Decision &d : decisions) {
        ordered_json dj;
        dj["index"] = d.index;
        dj["job"] = d.jobId;
        dj["task"] = d.task();
        dj["group"] = d.group;
        dj["pick"] = d.pick >= 0 ? ordered_json(nodeNames[std::size_t(d.pick)]) : ordered_json();
        ordered_json tied = ordered_json::array();
        for (std::size_t k = 0; k < d.tied.size();) {
            std::size_t e = k;
            while (e + 1 < d.tied.size() && d.tied[e + 1] == d.tied[e] + 1)
                ++e;
            if (e > k)
                tied.push_back({d.tied[k], d.tied[e]});
            else
                tied.push_back(d.tied[k]);
            k = e + 1;
        }
        dj["tied"] = std::move(tied);
        dj["why"] = d.why;
        ordered_json scored = ordered_json::array(), filtered = ordered_json::array();
        for (const CandidateRow &r : d.rows) {
            if (!r.feasible()) {
                filtered.push_back({r.node, r.reason});
                continue;
            }
            ordered_json row = ordered_json::array({r.node, jsonNumber(r.total)});
            for (std::size_t p = 0; p < plugins; ++p)
                row.push_back(jsonNumber(d.rawScore(r, p)));
            scored.push_back(std::move(row));
        }
        dj["scored"] = std::move(scored);
        dj["filtered"] = std::move(filtered);
        if (d.omitted != OmittedRows{}) {
            ordered_json o;
            o["filtered"] = ordered_json::array();
            for (const auto &[reason, count] : d.omitted.filtered)
                o["filtered"].push_back({reason, count});
            o["scored"] = d.omitted.scored;
            o["tied"] = d.omitted.tied;
            o["min_total"] = jsonNumber(d.omitted.minTotal);
            o["max_total"] = jsonNumber(d.omitted.maxTotal);
            dj["omitted"] = std::move(o);
        }
        j["decisions"].push_back(std::move(dj));
    }
    j["events"] = ordered_json::array();
    for (const JobEvent &e : events)
        j["events"].push_back({{"after_decision", e.afterDecision},
                               {"job", e.jobId},
                               {"kind", toString(e.kind)},
                               {"what", e.what}});
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
    /// An integer in [0, size) at `at`, else a problem naming `what`, and -1.
    int index(const nlohmann::json &v, const std::string &at, std::size_t size, const char *what)
    {
        if (v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
            std::uint64_t(v.get<std::int64_t>()) < size)
            return int(v.get<std::int64_t>());
        problems.push_back({at, std::string("expected a ") + what + " number 0.." +
                                    std::to_string(std::int64_t(size) - 1) + ", found " + v.dump()});
        return -1;
    }
};

// Version 1 rows: [{node, feasible, reason | raw, weighted, total}] with node names; the
// weighted scores are weights x raw and are not kept.
void readRowsV1(LogReader &r, const nlohmann::json &rows, const std::string &at, Decision &d,
                DecisionLog &log, std::unordered_map<std::string, int> &reasonIndex,
                const std::map<std::string, int> &nodeIndex)
{
    using V = nlohmann::json::value_t;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const nlohmann::json &rj = rows[k];
        const std::string rat = at + "/nodes/" + std::to_string(k);
        CandidateRow row;
        if (auto *n = r.field(rj, rat, "node", V::string)) {
            const auto it = nodeIndex.find(n->get<std::string>());
            if (it == nodeIndex.end())
                r.problems.push_back({rat + "/node", "unknown node " + n->dump()});
            else
                row.node = it->second;
        }
        bool feasible = false;
        if (auto *f = r.field(rj, rat, "feasible", V::boolean))
            feasible = f->get<bool>();
        if (!feasible) {
            const std::string reason = rj.contains("reason") ? r.text(rj, rat, "reason") : "";
            const auto [it, added] = reasonIndex.emplace(reason, int(log.reasons.size()));
            if (added)
                log.reasons.push_back(reason);
            row.reason = it->second;
        } else {
            const std::vector<double> raw = r.numbers(rj, rat, "raw");
            if (raw.size() != log.pluginNames.size())
                r.problems.push_back({rat + "/raw", "expected " +
                                                        std::to_string(log.pluginNames.size()) +
                                                        " scores (one per plugin), found " +
                                                        std::to_string(raw.size())});
            row.scores = int(d.raw.size());
            d.raw.insert(d.raw.end(), raw.begin(), raw.end());
            d.raw.resize(std::size_t(row.scores) + log.pluginNames.size(), 0.0);
            row.total = r.number(rj, rat, "total");
        }
        d.rows.push_back(row);
    }
}

// Version 2 rows: "scored": [[node, total, raw...]], "filtered": [[node, reason]], merged
// back into cluster order; "omitted" when the detail dropped rows.
void readRowsV2(LogReader &r, const nlohmann::json &dj, const std::string &at, Decision &d,
                const DecisionLog &log)
{
    using V = nlohmann::json::value_t;
    const std::size_t plugins = log.pluginNames.size(), nodes = log.nodeNames.size();
    if (auto *scored = r.field(dj, at, "scored", V::array)) {
        for (std::size_t k = 0; k < scored->size(); ++k) {
            const nlohmann::json &row = (*scored)[k];
            const std::string rat = at + "/scored/" + std::to_string(k);
            if (!row.is_array() || row.size() != plugins + 2) {
                r.problems.push_back({rat, "expected [node, total, " + std::to_string(plugins) +
                                               " raw scores]"});
                continue;
            }
            CandidateRow c;
            c.node = r.index(row[0], rat + "/0", nodes, "node");
            c.scores = int(d.raw.size());
            for (std::size_t i = 1; i < row.size(); ++i) {
                if (!row[i].is_number())
                    r.problems.push_back({rat + "/" + std::to_string(i), "expected a number"});
                const double v = row[i].is_number() ? row[i].get<double>() : 0.0;
                if (i == 1)
                    c.total = v;
                else
                    d.raw.push_back(v);
            }
            d.rows.push_back(c);
        }
    }
    if (auto *filtered = r.field(dj, at, "filtered", V::array)) {
        for (std::size_t k = 0; k < filtered->size(); ++k) {
            const nlohmann::json &row = (*filtered)[k];
            const std::string rat = at + "/filtered/" + std::to_string(k);
            if (!row.is_array() || row.size() != 2) {
                r.problems.push_back({rat, "expected [node, reason]"});
                continue;
            }
            CandidateRow c;
            c.node = r.index(row[0], rat + "/0", nodes, "node");
            c.reason = r.index(row[1], rat + "/1", log.reasons.size(), "reason");
            if (c.reason < 0)
                c.reason = 0; // keep it a filtered row; the problem is reported
            d.rows.push_back(c);
        }
    }
    std::stable_sort(d.rows.begin(), d.rows.end(),
                     [](const CandidateRow &a, const CandidateRow &b) { return a.node < b.node; });
    for (std::size_t k = 1; k < d.rows.size(); ++k)
        if (d.rows[k].node == d.rows[k - 1].node && d.rows[k].node >= 0)
            r.problems.push_back({at, "two rows for node " + log.nodeNames[std::size_t(d.rows[k].node)]});
    if (auto *o = r.field(dj, at, "omitted", V::object, false)) {
        const std::string oat = at + "/omitted";
        if (auto *f = r.field(*o, oat, "filtered", V::array)) {
            for (std::size_t k = 0; k < f->size(); ++k) {
                const nlohmann::json &e = (*f)[k];
                const std::string eat = oat + "/filtered/" + std::to_string(k);
                if (!e.is_array() || e.size() != 2 || !e[1].is_number_integer() ||
                    e[1].get<std::int64_t>() < 1) {
                    r.problems.push_back({eat, "expected [reason, nodes >= 1]"});
                    continue;
                }
                d.omitted.filtered.emplace_back(r.index(e[0], eat + "/0", log.reasons.size(), "reason"),
                                                int(e[1].get<std::int64_t>()));
            }
        }
        d.omitted.scored = int(r.number(*o, oat, "scored"));
        d.omitted.tied = int(r.number(*o, oat, "tied"));
        d.omitted.minTotal = r.number(*o, oat, "min_total");
        d.omitted.maxTotal = r.number(*o, oat, "max_total");
    }
}

} // namespace

Result<DecisionLog> DecisionLog::fromJson(const nlohmann::json &j)
{
    using V = nlohmann::json::value_t;
    if (!j.is_object())
        return Result<DecisionLog>::failure("", "expected a decision log object");
    LogReader r;
    int version = 1;
    if (auto it = j.find("version"); it != j.end()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 1)
            return Result<DecisionLog>::failure("/version", "expected an integer >= 1, found " + it->dump());
        if (it->get<std::int64_t>() > kJsonVersion)
            return Result<DecisionLog>::failure(
                "/version", "decision log version " + it->dump() +
                                " was written by a newer ClusterBench (this one reads 1 to " +
                                std::to_string(kJsonVersion) + ")");
        version = int(it->get<std::int64_t>());
    }
    DecisionLog log;
    log.policy = r.text(j, "", "policy");
    if (auto *s = r.field(j, "", "seed", V::number_float)) {
        if (s->is_number_unsigned() || (s->is_number_integer() && s->get<std::int64_t>() >= 0))
            log.seed = s->get<std::uint64_t>();
        else
            r.problems.push_back({"/seed", "expected an integer >= 0"});
    }
    if (version >= 2) {
        auto detail = LogDetail::parse(r.text(j, "", "detail"));
        if (detail)
            log.detail = detail.value();
        else
            r.problems.push_back({"/detail", detail.problems().front().message});
    } else {
        log.detail = LogDetail::full();
    }
    const nlohmann::json *decisions = r.field(j, "", "decisions", V::array);
    if (auto *nodes = r.field(j, "", "nodes", V::array, version < 2 ? false : true)) {
        for (std::size_t i = 0; i < nodes->size(); ++i) {
            if ((*nodes)[i].is_string())
                log.nodeNames.push_back((*nodes)[i].get<std::string>());
            else
                r.problems.push_back({"/nodes/" + std::to_string(i), "expected a node name"});
        }
    } else if (version < 2 && decisions && !decisions->empty() &&
               (*decisions)[0].contains("nodes") && (*decisions)[0]["nodes"].is_array()) {
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
    if (version >= 2) {
        if (auto *reasons = r.field(j, "", "reasons", V::array))
            for (std::size_t i = 0; i < reasons->size(); ++i) {
                if ((*reasons)[i].is_string())
                    log.reasons.push_back((*reasons)[i].get<std::string>());
                else
                    r.problems.push_back({"/reasons/" + std::to_string(i), "expected a text"});
            }
    }
    std::unordered_map<std::string, int> reasonIndex; // version 1: interned while reading
    if (decisions) {
        log.decisions.reserve(decisions->size());
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
            if (auto *tied = r.field(dj, at, "tied", V::array, false)) {
                for (std::size_t t = 0; t < tied->size(); ++t) {
                    const std::string tat = at + "/tied/" + std::to_string(t);
                    const nlohmann::json &v = (*tied)[t];
                    if (version < 2) {
                        d.tied.push_back(node(v, tat));
                    } else if (v.is_array() && v.size() == 2) {
                        const int a = r.index(v[0], tat + "/0", log.nodeNames.size(), "node");
                        const int b = r.index(v[1], tat + "/1", log.nodeNames.size(), "node");
                        if (a >= 0 && b > a)
                            for (int n = a; n <= b; ++n)
                                d.tied.push_back(n);
                        else if (a >= 0 && b >= 0)
                            r.problems.push_back({tat, "expected [first, last] with first < last"});
                    } else {
                        d.tied.push_back(r.index(v, tat, log.nodeNames.size(), "node"));
                    }
                }
            }
            if (dj.contains("why"))
                d.why = r.text(dj, at, "why");
            if (version >= 2)
                readRowsV2(r, dj, at, d, log);
            else if (auto *rows = r.field(dj, at, "nodes", V::array))
                readRowsV1(r, *rows, at, d, log, reasonIndex, nodeIndex);
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
            if ((*events)[i].is_object() && (*events)[i].contains("kind")) {
                const std::string kind = r.text((*events)[i], at, "kind");
                if (auto k = jobEventKindFromString(kind))
                    e.kind = *k;
                else
                    r.problems.push_back({at + "/kind", "expected rolled-back, partly-placed, "
                                                        "not-tried or admitted, found \"" +
                                                            kind + "\""});
            } else {
                // Logs written before the kind: the placer's own words tell it.
                e.kind = e.what.find("rolled back") != std::string::npos ? JobEvent::Kind::RolledBack
                         : e.what.find("not tried") != std::string::npos ? JobEvent::Kind::NotTried
                                                                        : JobEvent::Kind::PartlyPlaced;
            }
            log.events.push_back(std::move(e));
        }
    }
    if (!r.problems.empty())
        return Result<DecisionLog>(std::move(r.problems));
    return log;
}

} // namespace cb
