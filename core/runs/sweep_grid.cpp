#include "runs/sweep_grid.h"

#include "runs/run_service.h"

#include "io/json_reader.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "io/policy_json.h"
#include "sched/traffic.h"
#include "sim/simulator.h"
#include "store/stored_run.h"
#include "util/result.h"
#include "util/sha256.h"
#include "util/text.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

namespace cb {

Result<SweepParam> parseSweepParam(const std::string &text)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        return Result<SweepParam>::failure("--param " + text, "expected KEY=V1,V2,...");
    SweepParam p;
    p.key = text.substr(0, eq);
    p.values = commaList(std::string_view(text).substr(eq + 1), true);
    for (const std::string &v : p.values)
        if (v.empty())
            return Result<SweepParam>::failure("--param " + text, "empty value in the list");
    return p;
}

std::vector<GridPoint> expandGrid(const std::vector<std::string> &policies,
                                  const std::vector<SweepParam> &params, std::uint64_t firstSeed,
                                  int seeds)
{
    std::vector<GridPoint> out;
    std::size_t combos = 1;
    for (const SweepParam &p : params)
        combos *= p.values.size();
    for (const std::string &policy : policies)
        for (std::size_t c = 0; c < combos; ++c) {
            std::vector<std::pair<std::string, std::string>> values;
            std::size_t rest = c;
            // The first parameter varies slowest: decode c in mixed radix from the back.
            values.resize(params.size());
            for (std::size_t k = params.size(); k-- > 0;) {
                const std::size_t n = params[k].values.size();
                values[k] = {params[k].key, params[k].values[rest % n]};
                rest /= n;
            }
            for (int s = 0; s < seeds; ++s)
                out.push_back({int(out.size()), policy, firstSeed + std::uint64_t(s), values});
        }
    return out;
}

namespace {

/// The plugin a parameter sets (weight.PLUGIN, PLUGIN.FIELD), if it names one.
std::optional<PluginKind> paramPlugin(const std::string &key)
{
    const auto dot = key.find('.');
    if (dot == std::string::npos)
        return std::nullopt;
    const std::string head = key.substr(0, dot), tail = key.substr(dot + 1);
    return pluginKindFromString(head == "weight" ? tail : head);
}

} // namespace

std::vector<GridPoint> applicableGrid(const std::vector<GridPoint> &points,
                                      const std::vector<Policy> &userPresets,
                                      std::vector<std::pair<std::string, std::string>> *leftOut)
{
    std::vector<GridPoint> out;
    std::set<
        std::tuple<std::string, std::uint64_t, std::vector<std::pair<std::string, std::string>>>>
        seen;
    std::set<std::pair<std::string, std::string>> said;
    for (GridPoint p : points) {
        if (auto policy = resolvePolicy(p.policy, userPresets)) {
            std::erase_if(p.params, [&](const std::pair<std::string, std::string> &param) {
                const auto kind = paramPlugin(param.first);
                if (!kind || policy->plugin(*kind))
                    return false;
                if (leftOut && said.insert({param.first, p.policy}).second)
                    leftOut->emplace_back(param.first, p.policy);
                return true;
            });
        }
        if (!seen.insert({p.policy, p.seed, p.params}).second)
            continue;
        p.index = int(out.size());
        out.push_back(std::move(p));
    }
    return out;
}

namespace {

nlohmann::json typedValue(const std::string &v)
{
    auto parsed = nlohmann::json::parse(v, nullptr, false);
    if (!parsed.is_discarded() && (parsed.is_number() || parsed.is_boolean()))
        return parsed;
    return v;
}

} // namespace

nlohmann::json pointParams(const GridPoint &point)
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto &[k, v] : point.params)
        j[k] = typedValue(v);
    return j;
}

Result<Policy> pointPolicy(const GridPoint &point, const std::vector<Policy> &userPresets,
                           const std::string &where)
{
    auto base = resolvePolicy(point.policy, userPresets);
    if (!base) {
        if (where.empty())
            return base;
        return Result<Policy>::failure(where + "/policy", base.problems().front().message);
    }
    if (point.params.empty())
        return base;
    nlohmann::json layer = {{"name", point.policy}, {"base", point.policy}};
    Problems problems;
    // (the place in the policy each parameter sets, to name it when the policy refuses it)
    std::vector<std::pair<std::string, std::string>> setAt; // (pointer, where)
    for (const auto &[key, value] : point.params) {
        const std::string at = where.empty() ? "--param " + key + "=" + value
                                             : where + "/params/" + jsonPointerToken(key);
        const auto dot = key.find('.');
        if (dot == std::string::npos) {
            if (key == "name" || key == "base" || key == "plugins" || key == "description") {
                problems.push_back({at, "\"" + key + "\" is not a parameter a sweep can vary "
                                        "(use weight.PLUGIN, PLUGIN.FIELD, queue, task_order, "
                                        "tie_break, gang or backfill)"});
                continue;
            }
            layer[key] = typedValue(value);
            setAt.emplace_back("/" + jsonPointerToken(key), at);
        } else {
            std::string plugin = key.substr(0, dot), field = key.substr(dot + 1);
            if (plugin == "weight")
                std::swap(plugin, field); // weight.dltap -> plugins.dltap.weight
            if (plugin.empty() || field.empty()) {
                problems.push_back({at, "expected weight.PLUGIN or PLUGIN.FIELD"});
                continue;
            }
            // A preset may add a plugin; a sweep varies the ones the policy has, so that a
            // baseline swept beside it ("--policies k8s-default,dltap --param weight.dltap")
            // is not quietly given the plugin and turned into the other policy.
            const auto kind = pluginKindFromString(plugin);
            if (kind && !base->plugin(*kind)) {
                problems.push_back({at, "policy " + point.policy + " has no " + plugin +
                                            " plugin to vary (sweep it on its own, or give it the "
                                            "plugin in a preset)"});
                continue;
            }
            layer["plugins"][plugin][field] = typedValue(value);
            setAt.emplace_back(
                "/plugins/" + jsonPointerToken(plugin) + "/" + jsonPointerToken(field), at);
        }
    }
    if (!problems.empty())
        return Result<Policy>(problems);
    std::vector<Policy> known = userPresets;
    known.push_back(base.value());
    auto policy = policyFromJson(layer, "", known);
    if (!policy) {
        for (const Problem &p : policy.problems()) {
            // Named by the parameter that set it ("--param weight.dltap=abc"), not by where
            // it landed in the policy ("(policy dltap)/plugins/dltap/weight").
            const auto named = std::find_if(setAt.begin(), setAt.end(), [&](const auto &s) {
                return p.where == s.first || p.where.rfind(s.first + "/", 0) == 0;
            });
            problems.push_back({named != setAt.end()
                                    ? named->second
                                    : (where.empty() ? "--param (policy " + point.policy + ")"
                                                     : where + "/params") +
                                          p.where,
                                p.message});
        }
        return Result<Policy>(problems);
    }
    return policy;
}

Result<RunRecord> runGridPoint(const Scenario &scenario, const std::vector<Policy> &userPresets,
                               const GridPoint &point, bool simulate, const std::string &sweepId)
{
    auto policy = pointPolicy(point, userPresets);
    if (!policy)
        return Result<RunRecord>(policy.problems());
    RunRequest request;
    request.policy = point.policy;
    request.resolvedPolicy = policy.value();
    request.seed = point.seed;
    request.simulate = simulate;
    auto made = executeRun(scenario, request);
    if (!made)
        return Result<RunRecord>(made.problems());
    RunRecord run = runRecord(made.value(), scenario);
    run.kind = "sweep";
    run.parameters = {{"sweep", sweepId},
                      {"grid_index", point.index},
                      {"params", pointParams(point)},
                      {"simulate", simulate},
                      {"policy", policyToJson(policy.value())}};
    return run;
}

std::vector<Result<RunRecord>>
runGrid(const Scenario &scenario, const std::vector<Policy> &userPresets,
        const std::vector<GridPoint> &points, bool simulate, const std::string &sweepId,
        int threads, const std::function<void(int, int)> &progress,
        const std::function<bool(int, const Result<RunRecord> &)> &finished)
{
    const int total = int(points.size());
    std::vector<std::optional<Result<RunRecord>>> slots(points.size());
    std::atomic<int> next{0};
    std::atomic<bool> stopped{false};
    std::mutex mutex;
    std::condition_variable changed;
    int done = 0;
    auto worker = [&] {
        for (int i = next++; i < total && !stopped; i = next++) {
            auto r = runGridPoint(scenario, userPresets, points[std::size_t(i)], simulate, sweepId);
            std::lock_guard lock(mutex);
            slots[std::size_t(i)].emplace(std::move(r));
            ++done;
            changed.notify_all();
        }
    };
    const int n = std::clamp(threads, 1, std::max(total, 1));
    std::vector<std::thread> pool;
    for (int t = 0; t < n; ++t)
        pool.emplace_back(worker);
    {
        std::unique_lock lock(mutex);
        int reported = -1;
        std::size_t handed = 0; // points before this one were handed to `finished`
        const auto ready = [&] { return handed < slots.size() && slots[handed].has_value(); };
        while (!stopped) {
            while (finished && ready() && !stopped) {
                const std::size_t i = handed++;
                lock.unlock();
                const bool more = finished(int(i), *slots[i]);
                lock.lock();
                stopped = !more;
            }
            if (stopped)
                break; // the workers finish the points they hold and take no more
            if (progress && done != reported) {
                reported = done;
                const int d = done;
                lock.unlock();
                progress(d, total);
                lock.lock();
            }
            if (done == total && (!finished || handed == slots.size()))
                break;
            changed.wait(lock, [&] { return done != reported || (finished && ready()); });
        }
    }
    for (std::thread &t : pool)
        t.join();
    std::vector<Result<RunRecord>> out;
    out.reserve(slots.size());
    for (auto &s : slots)
        out.push_back(s ? std::move(*s)
                        : Result<RunRecord>::failure(
                              "sweep", "not run: the sweep stopped after an earlier failure"));
    return out;
}

std::string sweepContentId(const Scenario &scenario, const std::vector<GridPoint> &points,
                           bool simulate)
{
    nlohmann::json grid = nlohmann::json::array();
    for (const GridPoint &p : points)
        grid.push_back({p.policy, p.seed, pointParams(p)});
    return Sha256::hex(scenarioToText(scenario) + grid.dump() + (simulate ? "sim" : "place"))
        .substr(0, 12);
}

nlohmann::ordered_json gridManifest(const Scenario &scenario, const std::vector<GridPoint> &points,
                                    bool simulate, const std::string &sweepId)
{
    nlohmann::ordered_json j;
    j["format"] = "clusterbench-sweep-grid";
    j["version"] = 1;
    j["sweep"] = sweepId;
    j["simulate"] = simulate;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const GridPoint &p : points) {
        nlohmann::ordered_json params = nlohmann::ordered_json::object();
        for (const auto &[k, v] : p.params)
            params[k] = v;
        list.push_back({{"index", p.index}, {"policy", p.policy}, {"seed", p.seed},
                        {"params", params}});
    }
    j["points"] = list;
    j["scenario"] = scenarioToJson(scenario);
    return j;
}

namespace {

// The header every sweep file starts with: "format" must be `format` and "version" 1. A
// failure means the rest is not read (its problems are then meaningless).
Status readFileHeader(ObjectReader &r, const Problems &problems, const std::string &format)
{
    if (r.string("format", ObjectReader::Required) != format)
        return Status::failure("/format", "expected \"" + format + "\"");
    if (r.integer("version", ObjectReader::Required, 0, 1, 1) != 1 || !problems.empty())
        return Status(problems);
    return Ok{};
}

} // namespace

Result<GridManifest> readGridManifest(const nlohmann::json &doc)
{
    using R = Result<GridManifest>;
    Problems problems;
    ObjectReader r(doc, "", problems);
    if (!r.isObject())
        return R(problems);
    if (auto header = readFileHeader(r, problems, "clusterbench-sweep-grid"); !header)
        return R(header.problems());
    GridManifest m;
    m.sweepId = r.string("sweep", ObjectReader::Required);
    m.simulate = r.boolean("simulate", ObjectReader::Required, false);
    if (const nlohmann::json *points = r.array("points", ObjectReader::Required))
        for (std::size_t i = 0; i < points->size(); ++i) {
            ObjectReader pr((*points)[i], "/points/" + std::to_string(i), problems);
            GridPoint p;
            p.index = int(pr.integer("index", ObjectReader::Required, 0, 0, 1 << 30));
            if (p.index != int(i))
                problems.push_back({pr.pointer("index"), "expected " + std::to_string(i)});
            p.policy = pr.string("policy", ObjectReader::Required);
            p.seed = std::uint64_t(
                pr.integer("seed", ObjectReader::Required, 0, 0, std::int64_t(1) << 53));
            if (const nlohmann::json *params = pr.object("params", ObjectReader::Required))
                for (auto it = params->begin(); it != params->end(); ++it) {
                    if (it.value().is_string())
                        p.params.push_back({it.key(), it.value().get<std::string>()});
                    else
                        problems.push_back({pr.pointer("params") + "/" + jsonPointerToken(it.key()),
                                            "expected a string"});
                }
            pr.finish();
            m.points.push_back(std::move(p));
        }
    if (doc.contains("scenario")) {
        auto s = scenarioFromJson(doc["scenario"]);
        if (!s)
            for (const Problem &p : prefixed(s.problems(), "/scenario"))
                problems.push_back(p);
        else
            m.scenario = std::move(s.value());
    } else {
        problems.push_back({"/scenario", "missing"});
    }
    r.skip("scenario");
    r.finish();
    if (!problems.empty())
        return R(problems);
    return m;
}

nlohmann::ordered_json sweepResultJson(const Scenario &scenario, const RunRecord &run,
                                       const std::string &sweepId, int index, int points)
{
    nlohmann::ordered_json j;
    j["format"] = "clusterbench-sweep-result";
    j["version"] = 1;
    j["sweep"] = sweepId;
    j["index"] = index;
    j["points"] = points;
    j["scenario"] = scenarioToJson(scenario);
    nlohmann::ordered_json r;
    r["kind"] = run.kind;
    r["policy"] = run.policy;
    r["seed"] = run.seed;
    r["parameters"] = run.parameters;
    r["program_version"] = run.programVersion.empty() ? std::string(CB_VERSION)
                                                      : run.programVersion;
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const auto &[k, v] : run.metrics)
        metrics[k] = jsonNumber(v);
    r["metrics"] = metrics;
    r["decision_log"] = run.decisionLog;
    r["timeline"] = run.timeline;
    j["run"] = r;
    return j;
}

Result<SweepResult> readSweepResult(const nlohmann::json &doc)
{
    using R = Result<SweepResult>;
    Problems problems;
    ObjectReader r(doc, "", problems);
    if (!r.isObject())
        return R(problems);
    if (auto header = readFileHeader(r, problems, "clusterbench-sweep-result"); !header)
        return R(header.problems());
    SweepResult out;
    out.sweepId = r.string("sweep", ObjectReader::Required);
    out.index = int(r.integer("index", ObjectReader::Required, 0, 0, 1 << 30));
    out.points = int(r.integer("points", ObjectReader::Optional, 0, 1, 1 << 30));
    if (out.points > 0 && out.index >= out.points)
        problems.push_back({"/index", "expected 0.." + std::to_string(out.points - 1) +
                                          " (the grid has " + std::to_string(out.points) +
                                          " points), found " + std::to_string(out.index)});
    r.skip("scenario");
    if (const nlohmann::json *run = r.object("run", ObjectReader::Required)) {
        ObjectReader rr(*run, "/run", problems);
        out.run.kind = rr.string("kind", ObjectReader::Required);
        out.run.policy = rr.string("policy", ObjectReader::Required);
        out.run.seed = std::uint64_t(
            rr.integer("seed", ObjectReader::Required, 0, 0, std::int64_t(1) << 53));
        if (const nlohmann::json *p = rr.object("parameters", ObjectReader::Required))
            out.run.parameters = *p;
        out.run.programVersion = rr.string("program_version", ObjectReader::Required);
        if (const nlohmann::json *m = rr.object("metrics", ObjectReader::Required))
            for (const auto &[k, v] : m->items()) {
                if (v.is_number())
                    out.run.metrics[k] = v.get<double>();
                else
                    problems.push_back({"/run/metrics/" + k, "expected a number"});
            }
        rr.skip("decision_log");
        rr.skip("timeline");
        out.run.decisionLog = run->value("decision_log", nlohmann::json());
        out.run.timeline = run->value("timeline", nlohmann::json());
        rr.finish();
    }
    if (stringField(out.run.parameters, "sweep") != out.sweepId ||
        integerField(out.run.parameters, "grid_index", -1) != out.index)
        problems.push_back({"/run/parameters", "sweep and grid_index differ from the file's "
                                               "sweep and index"});
    if (doc.contains("scenario")) {
        auto s = scenarioFromJson(doc["scenario"]);
        if (!s)
            for (const Problem &p : prefixed(s.problems(), "/scenario"))
                problems.push_back(p);
        else
            out.scenario = std::move(s.value());
    } else {
        problems.push_back({"/scenario", "missing"});
    }
    r.finish();
    if (!problems.empty())
        return R(problems);
    return out;
}

} // namespace cb
