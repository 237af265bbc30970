#include "runs/run_store.h"

#include "io/scenario_json.h"
#include "net/topology.h"
#include "io/policy_json.h"
#include "sched/traffic.h"
#include "store/stored_run.h"

#include <QString>

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

namespace cb::views {

namespace {

std::string weightText(double w)
{
    std::ostringstream s;
    s << w; // 3 -> "3", 2.5 -> "2.5"
    return s.str();
}

std::optional<std::uint64_t> parseUnsigned(std::string_view s)
{
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

std::string trimmed(std::string s)
{
    const auto notSpace = [](unsigned char c) { return !std::isspace(c); };
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), notSpace));
    s.erase(std::find_if(s.rbegin(), s.rend(), notSpace).base(), s.end());
    return s;
}

} // namespace

std::string requestPolicyName(const RunRequest &request)
{
    if (request.weights.empty())
        return request.policy;
    std::string name = request.policy + "{";
    bool first = true;
    for (const auto &[plugin, weight] : request.weights) { // std::map: name order
        name += (first ? "" : ",") + plugin + "=" + weightText(weight);
        first = false;
    }
    return name + "}";
}

Scenario scenarioForRequest(const Scenario &scenario, const RunRequest &request)
{
    if (request.weights.empty())
        return scenario;
    Scenario derived = scenario;
    nlohmann::json plugins = nlohmann::json::object();
    for (const auto &[plugin, weight] : request.weights)
        plugins[plugin] = {{"weight", weight}};
    derived.policies.push_back({{"name", requestPolicyName(request)},
                                {"base", request.policy},
                                {"plugins", plugins}});
    return derived;
}

Result<std::vector<std::uint64_t>> parseSeedList(const std::string &text)
{
    using R = Result<std::vector<std::uint64_t>>;
    std::set<std::uint64_t> seeds;
    std::stringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        item = trimmed(item);
        if (item.empty())
            continue;
        const auto dash = item.find('-', 1);
        if (dash == std::string::npos) {
            const auto v = parseUnsigned(item);
            if (!v)
                return R::failure("seeds", "expected a seed (a whole number ≥ 0), found \"" +
                                               item + "\"");
            seeds.insert(*v);
            continue;
        }
        const auto lo = parseUnsigned(trimmed(item.substr(0, dash)));
        const auto hi = parseUnsigned(trimmed(item.substr(dash + 1)));
        if (!lo || !hi || *lo > *hi)
            return R::failure("seeds", "expected a range FIRST-LAST with FIRST ≤ LAST, found \"" +
                                           item + "\"");
        if (*hi - *lo >= 1000)
            return R::failure("seeds", "range \"" + item + "\" has more than 1,000 seeds");
        for (std::uint64_t s = *lo; s <= *hi; ++s)
            seeds.insert(s);
    }
    if (seeds.empty())
        return R::failure("seeds", "expected at least one seed, e.g. 1 or 1-3 or 1,5,9");
    return std::vector<std::uint64_t>(seeds.begin(), seeds.end());
}

RunRecord recordForSession(const RunSession &session, const RunRequest &request)
{
    const Topology topology(session.scenario.cluster);
    const TrafficReport traffic =
        computeTraffic(session.scenario.jobs, session.scenario.cluster, topology, session.placement);
    RunRecord record;
    record.kind = session.result ? "simulate" : "place";
    record.policy = requestPolicyName(request);
    record.seed = session.seed;
    record.parameters = nlohmann::json::object();
    if (auto presets = userPresets(session.scenario, {}); presets)
        if (auto policy = resolvePolicy(record.policy, presets.value()); policy)
            record.parameters["policy"] = policyToJson(policy.value());
    if (!request.weights.empty()) {
        record.parameters["base"] = request.policy;
        record.parameters["weights"] = request.weights;
    }
    record.parameters["source"] = "gui";
    if (!request.decisionLog)
        record.parameters["decision_log"] = false;
    record.metrics = session.result ? simulationMetrics(*session.result)
                                    : placementMetrics(session.placement, traffic);
    record.decisionLog = storedDecisionLog(session.log);
    record.timeline = storedTimeline(session.scenario, topology, session.placement, traffic,
                                     session.result ? &*session.result : nullptr);
    return record;
}

Result<std::int64_t> saveSession(Workspace &workspace, const Scenario &original,
                                 const RunSession &session, const RunRequest &request)
{
    auto stored = workspace.addScenario(original);
    if (!stored)
        return Result<std::int64_t>(stored.problems());
    RunRecord record = recordForSession(session, request);
    record.scenarioDigest = stored->digest;
    return workspace.saveRun(std::move(record));
}

Result<std::shared_ptr<const RunSession>> loadStoredSession(const Workspace &workspace,
                                                            std::int64_t id)
{
    using R = Result<std::shared_ptr<const RunSession>>;
    auto detail = readStoredRun(workspace, id);
    if (!detail)
        return R(detail.problems());
    StoredRunDetail &d = detail.value();
    auto session = std::make_shared<RunSession>();
    session->scenario = std::move(d.scenario);
    session->policy = d.record.policy;
    session->seed = d.record.seed;
    session->placement = std::move(d.placement);
    if (d.log)
        session->log = std::move(*d.log);
    session->result = std::move(d.result);
    session->label = QStringLiteral("#%1 %2")
                         .arg(id)
                         .arg(defaultRunLabel(session->policy, session->seed,
                                              session->result.has_value()));
    return R(std::shared_ptr<const RunSession>(std::move(session)));
}

} // namespace cb::views
