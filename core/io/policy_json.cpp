#include "io/policy_json.h"

#include "io/file_io.h"
#include "io/json_reader.h"
#include "io/scenario_json.h"
#include "util/text.h"

#include <algorithm>

namespace cb {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr auto kOpt = ObjectReader::Optional;
constexpr double kMaxWeight = 1e6;

std::string builtinList()
{
    std::string s;
    for (const std::string &n : builtinPolicyNames())
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

const Policy *findPolicy(const std::vector<Policy> &list, const std::string &name)
{
    for (auto it = list.rbegin(); it != list.rend(); ++it)
        if (it->name == name)
            return &*it;
    return nullptr;
}

void readPlugin(const json &v, const std::string &ptr, PluginKind kind, Policy &policy,
                Problems &p)
{
    ObjectReader r(v, ptr, p);
    if (!r.isObject())
        return;
    auto existing = std::find_if(policy.plugins.begin(), policy.plugins.end(),
                                 [&](const PluginConfig &c) { return c.kind == kind; });
    PluginConfig cfg;
    cfg.kind = kind;
    if (existing != policy.plugins.end())
        cfg = *existing;
    cfg.weight = r.number("weight", kOpt, cfg.weight, 0, kMaxWeight);
    const bool enabled = r.boolean("enabled", kOpt, true);
    if (kind == PluginKind::LeastAllocated || kind == PluginKind::MostAllocated)
        cfg.includeGpu = r.boolean("gpu", kOpt, cfg.includeGpu);
    if (kind == PluginKind::Dltap && r.has("variant")) {
        const std::string variant = r.string("variant", kOpt);
        if (auto parsed = dltapVariantFromString(variant))
            cfg.variant = *parsed;
        else
            r.problem("variant", "expected \"counterpart\", \"job\" or \"traffic\", found \"" +
                                     variant + "\"");
    }
    if (kind == PluginKind::NodeAffinity && r.has("labels")) {
        cfg.preferredLabels.clear();
        for (const auto &[k, val] : r.stringMap("labels"))
            cfg.preferredLabels.emplace_back(k, val);
    }
    r.finish();
    const bool keep = enabled && cfg.weight > 0;
    if (existing != policy.plugins.end()) {
        if (keep)
            *existing = cfg;
        else
            policy.plugins.erase(existing);
    } else if (keep) {
        policy.plugins.push_back(cfg);
    }
}

template<typename E, typename Parse>
void readEnum(ObjectReader &r, const char *key, E &out, Parse parse, const char *expected)
{
    if (!r.has(key))
        return;
    const std::string s = r.string(key, kOpt);
    if (auto parsed = parse(s))
        out = *parsed;
    else
        r.problem(key, std::string("expected ") + expected + ", found \"" + s + "\"");
}

} // namespace

Result<Policy> policyFromJson(const json &value, const std::string &pointer,
                              const std::vector<Policy> &known)
{
    Problems p;
    ObjectReader r(value, pointer, p);
    if (!r.isObject())
        return Result<Policy>(p);
    const std::string name = r.string("name", ObjectReader::Required);
    if (r.has("name") && name.empty())
        r.problem("name", "expected a non-empty policy name");
    Policy policy;
    if (r.has("base")) {
        const std::string base = r.string("base", kOpt);
        if (const Policy *userBase = findPolicy(known, base))
            policy = *userBase;
        else if (auto builtin = builtinPolicy(base))
            policy = *builtin;
        else
            r.problem("base", "unknown policy \"" + base + "\" (built-in: " + builtinList() +
                                  "; or an earlier user preset)");
    }
    policy.name = name;
    if (r.has("description"))
        policy.description = r.string("description", kOpt);
    else if (r.has("base"))
        policy.description = "based on " + r.string("base", kOpt);
    if (const json *plugins = r.object("plugins", kOpt)) {
        // Visit in file order of the sorted keys (nlohmann::json keeps keys sorted), so the
        // result does not depend on how the file was written.
        for (auto it = plugins->begin(); it != plugins->end(); ++it) {
            const std::string ptr = r.pointer("plugins") + "/" + jsonPointerToken(it.key());
            auto kind = pluginKindFromString(it.key());
            if (!kind) {
                std::string all;
                for (const char *k : {"least-allocated", "most-allocated", "balanced-allocation",
                                      "selector-spread", "dltap", "topology-distance",
                                      "nvlink-packing", "node-affinity", "random",
                                      "energy-efficiency", "nvlink-domain"})
                    all += (all.empty() ? "" : ", ") + std::string(k);
                p.push_back({ptr, "unknown plugin \"" + it.key() + "\" (known: " + all + ")"});
                continue;
            }
            readPlugin(it.value(), ptr, *kind, policy, p);
        }
    }
    readEnum(r, "queue", policy.queue, queueOrderFromString,
             "\"fifo\", \"edf\", \"sjf\", \"priority\" or \"slack\"");
    readEnum(r, "task_order", policy.taskOrder, taskOrderFromString,
             "\"as-written\", \"ps-first\" or \"interleaved\"");
    readEnum(r, "tie_break", policy.tieBreak, tieBreakFromString, "\"random\" or \"first\"");
    if (const json *g = childField(value, "gang"); g && g->is_string()) {
        r.skip("gang");
        const std::string s = g->get<std::string>();
        if (s == "all" || s == "min-available" || s == "off") {
            policy.gang = s != "off";
            if (policy.gang)
                policy.minAvailable = s == "min-available";
        } else {
            r.problem("gang", "expected true, false, \"all\", \"min-available\" or \"off\", "
                              "found \"" + s + "\"");
        }
    } else {
        policy.gang = r.boolean("gang", kOpt, policy.gang);
    }
    policy.backfill = r.boolean("backfill", kOpt, policy.backfill);
    r.finish();
    if (!p.empty())
        return Result<Policy>(p);
    if (policy.plugins.empty())
        return Result<Policy>::failure(pointer.empty() ? "/" : pointer,
                                       "policy \"" + name + "\" has no scoring plugin left");
    return policy;
}

Result<std::vector<Policy>> scenarioPolicies(const Scenario &scenario)
{
    std::vector<Policy> out;
    Problems p;
    for (std::size_t i = 0; i < scenario.policies.size(); ++i) {
        auto policy = policyFromJson(scenario.policies[i], "/policies/" + std::to_string(i), out);
        if (policy)
            out.push_back(policy.value());
        else
            p.insert(p.end(), policy.problems().begin(), policy.problems().end());
    }
    if (!p.empty())
        return Result<std::vector<Policy>>(p);
    return out;
}

Result<PolicyItems> policyFileItems(const std::string &path)
{
    auto text = readTextFile(path);
    if (!text)
        return Result<PolicyItems>(text.problems());
    auto doc = parseJsonText(text.value());
    if (!doc)
        return Result<PolicyItems>(doc.problems());
    const json &d = doc.value();
    PolicyItems items;
    if (d.is_array()) {
        for (std::size_t i = 0; i < d.size(); ++i)
            items.emplace_back(d[i], "/" + std::to_string(i));
    } else if (d.is_object() && d.contains("policies") && !d.contains("name")) {
        const json &list = d["policies"];
        if (!list.is_array())
            return Result<PolicyItems>::failure("/policies", "expected an array");
        for (std::size_t i = 0; i < list.size(); ++i)
            items.emplace_back(list[i], "/policies/" + std::to_string(i));
    } else {
        items.emplace_back(d, "");
    }
    return items;
}

namespace {

/// A policy file's problems, each place prefixed with the file's path.
Problems inFile(const Problems &problems, const std::string &path)
{
    Problems p;
    for (const Problem &q : problems)
        p.push_back({path + (q.where.empty() ? "" : ": " + q.where), q.message});
    return p;
}

} // namespace

Result<std::vector<Policy>> policiesFromItems(const PolicyItems &items, const std::string &path)
{
    std::vector<Policy> out;
    Problems p;
    for (const auto &[v, ptr] : items) {
        auto policy = policyFromJson(v, ptr, out);
        if (policy)
            out.push_back(policy.value());
        else
            p.insert(p.end(), policy.problems().begin(), policy.problems().end());
    }
    if (!p.empty())
        return Result<std::vector<Policy>>(path.empty() ? p : inFile(p, path));
    return out;
}

Result<std::vector<Policy>> loadPolicyFile(const std::string &path)
{
    auto items = policyFileItems(path);
    if (!items)
        return Result<std::vector<Policy>>(items.problems());
    return policiesFromItems(items.value());
}

Result<std::vector<Policy>> userPresets(const Scenario &scenario, const std::string &policyFile)
{
    auto fromScenario = scenarioPolicies(scenario);
    if (!fromScenario)
        return fromScenario;
    std::vector<Policy> all = fromScenario.value();
    if (!policyFile.empty()) {
        auto fromFile = loadPolicyFile(policyFile);
        if (!fromFile)
            return Result<std::vector<Policy>>(inFile(fromFile.problems(), policyFile));
        all.insert(all.end(), fromFile->begin(), fromFile->end());
    }
    return all;
}

Result<Policy> resolvePolicy(const std::string &name, const std::vector<Policy> &userPresets)
{
    if (const Policy *user = findPolicy(userPresets, name))
        return *user;
    if (auto builtin = builtinPolicy(name))
        return *builtin;
    std::string users;
    std::vector<std::string> names = builtinPolicyNames();
    for (const Policy &u : userPresets) {
        users += ", " + u.name;
        names.push_back(u.name);
    }
    const std::string near = nearestName(name, names);
    return Result<Policy>::failure(
        "--policy", "unknown policy \"" + name + "\"" +
                        (near.empty() ? std::string() : " (did you mean \"" + near + "\"?)") +
                        " (available: " + builtinList() + users + ")");
}

ordered_json policyToJson(const Policy &policy)
{
    ordered_json j;
    j["name"] = policy.name;
    j["description"] = policy.description;
    ordered_json plugins = ordered_json::array();
    for (const PluginConfig &c : policy.plugins) {
        ordered_json pj;
        pj["plugin"] = toString(c.kind);
        pj["weight"] = jsonNumber(c.weight);
        if (c.kind == PluginKind::LeastAllocated || c.kind == PluginKind::MostAllocated)
            pj["gpu"] = c.includeGpu;
        if (c.kind == PluginKind::Dltap)
            pj["variant"] = toString(c.variant);
        if (c.kind == PluginKind::NodeAffinity) {
            ordered_json labels = ordered_json::object();
            for (const auto &[k, v] : c.preferredLabels)
                labels[k] = v;
            pj["labels"] = labels;
        }
        plugins.push_back(pj);
    }
    j["plugins"] = plugins;
    j["queue"] = toString(policy.queue);
    j["task_order"] = toString(policy.taskOrder);
    j["tie_break"] = toString(policy.tieBreak);
    // true: min-available (what "gang": true has always read as for jobs without a minimum)
    if (policy.gang && !policy.minAvailable)
        j["gang"] = "all";
    else
        j["gang"] = policy.gang;
    j["backfill"] = policy.backfill;
    return j;
}

} // namespace cb
