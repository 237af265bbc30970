#include "runs/run_store.h"

#include "analysis/sts_session.h"

#include "io/scenario_json.h"
#include "net/topology.h"
#include "io/policy_json.h"
#include "sched/traffic.h"
#include "runs/run_service.h"
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

std::string requestPolicyName(const PanelRequest &request)
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

PanelRequest requestForSession(const RunSession &session)
{
    PanelRequest r;
    r.policy = session.basePolicy.empty() ? session.policy : session.basePolicy;
    r.weights = session.weights;
    r.seed = session.seed;
    r.simulate = session.result.has_value();
    r.pins = session.pins;
    return r;
}

Scenario scenarioForRequest(const Scenario &scenario, const PanelRequest &request)
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

RunRecord recordForRun(const cb::Run &run, const Scenario &original, const PanelRequest &request)
{
    RunRecord record = cb::runRecord(run, original);
    record.policy = requestPolicyName(request);
    if (!request.weights.empty()) {
        record.parameters["base"] = request.policy;
        record.parameters["weights"] = request.weights;
    }
    record.parameters["source"] = "gui";
    if (!request.decisionLog)
        record.parameters["decision_log"] = false;
    return record;
}

RunRecord recordForSession(const RunSession &session, const PanelRequest &request)
{
    cb::Run run;
    run.kind = session.result ? "simulate" : "place";
    run.policy = session.policy;
    run.family = session.family;
    run.seed = session.seed;
    run.programVersion = CB_VERSION;
    run.scenarioName = session.scenario.name;
    run.placement = session.placement;
    run.placedScenario = session.scenarioOfPlacement();
    run.decisions = session.log;
    run.result = session.result;
    run.metrics = session.metrics;
    if (session.sts) {
        run.stsLog = session.sts->log;
        run.pricesFrom = session.sts->pricesFrom;
    }
    if (auto presets = userPresets(session.scenario, {}); presets && !session.sts)
        if (auto policy = resolvePolicy(session.policy, presets.value()); policy)
            run.parameters["policy"] = policyToJson(policy.value());
    const Topology topology(session.scenario.cluster);
    run.traffic = computeTraffic(run.placedScenario.jobs, session.scenario.cluster, topology,
                                 run.placement, session.scenario.settings.allreduce);
    return recordForRun(run, session.scenario, request);
}

Result<std::int64_t> saveRecord(Workspace &workspace, const Scenario &original, RunRecord record)
{
    auto stored = workspace.addScenario(original);
    if (!stored)
        return Result<std::int64_t>(stored.problems());
    record.scenarioDigest = stored->digest;
    return workspace.saveRun(std::move(record));
}

Result<std::int64_t> saveSession(Workspace &workspace, const Scenario &original,
                                 const RunSession &session, const PanelRequest &request)
{
    return saveRecord(workspace, original, recordForSession(session, request));
}

Result<std::shared_ptr<const RunSession>> loadStoredSession(const Workspace &workspace,
                                                            std::int64_t id)
{
    using R = Result<std::shared_ptr<const RunSession>>;
    auto stored = cb::readRun(workspace, id);
    if (!stored)
        return R(stored.problems());
    auto session = std::make_shared<RunSession>(
        sessionFromRun(std::move(stored->first), std::move(stored->second)));
    session->label = QStringLiteral("#%1 %2").arg(id).arg(session->label);
    session->id = id;
    return R(std::shared_ptr<const RunSession>(std::move(session)));
}

} // namespace cb::views
