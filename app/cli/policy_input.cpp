#include "cli/policy_input.h"

#include "io/policy_json.h"
#include "io/scenario_json.h"
#include "model/validation.h"
#include "runs/run_service.h"
#include "util/text.h"

#include <algorithm>
#include <ostream>

namespace cb::cli {

void printWarnings(const Problems &warnings, const std::string &path, Io &io,
                   const std::string &command, const std::string &listedBy)
{
    constexpr std::size_t kShown = 3;
    for (std::size_t i = 0; i < warnings.size() && i < kShown; ++i)
        io.err << "clusterbench " << command << ": warning: " << path << ": "
               << warnings[i].toString() << "\n";
    if (warnings.size() > kShown)
        io.err << "clusterbench " << command << ": warning: " << warnings.size() - kShown
               << " more such problems (" << listedBy << " lists them)\n";
}

Problems warnJobsThatNeverStart(const Scenario &scenario, const std::string &path, Io &io,
                                const std::string &command)
{
    const Problems never = jobsThatNeverStart(scenario);
    printWarnings(never, path, io, command, "`clusterbench validate " + path + "`");
    return never;
}

std::optional<std::vector<std::string>> readPolicyNames(const Args &args, Io &io,
                                                        const std::string &command)
{
    const std::string text = args.value("policies");
    std::vector<std::string> names = commaList(text, true);
    const auto empty = std::find(names.begin(), names.end(), std::string());
    if (text.find_first_not_of(" \t,") == std::string::npos) {
        io.err << "clusterbench " << command << ": --policies: expected at least one name\n";
        return std::nullopt;
    }
    if (empty != names.end()) {
        io.err << "clusterbench " << command << ": --policies: name " << (empty - names.begin()) + 1
               << " of \"" << text << "\" is empty; remove the extra comma\n";
        return std::nullopt;
    }
    return names;
}

nlohmann::ordered_json problemsJson(const Problems &problems)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Problem &p : problems)
        out.push_back({{"where", p.where}, {"message", p.message}});
    return out;
}

std::optional<PolicyInput> readPolicyInput(const Args &args, Io &io, const std::string &command,
                                           std::size_t positionals)
{
    const std::string prefix = "clusterbench " + command + ": ";
    if (args.positional().size() != positionals || !args.has("policy")) {
        io.err << prefix << "expected SCENARIO" << (positionals == 2 ? " JOB" : "")
               << " and --policy P (see --help)\n";
        return std::nullopt;
    }
    const std::string path = args.positional()[0];
    auto loaded = loadScenarioFile(path);
    if (!loaded) {
        io.err << loaded.error(path) << "\n";
        return std::nullopt;
    }
    Problems never = warnJobsThatNeverStart(loaded.value(), path, io, command);
    auto seed = args.integer("seed", (long long)loaded->settings.seed);
    if (!seed || seed.value() < 0) {
        io.err << prefix << "--seed: expected an integer >= 0\n";
        return std::nullopt;
    }
    if (!stochasticMethod(args.value("policy")).empty()) {
        // STS and its baselines: no preset to resolve (the run service checks the scenario).
        Policy named;
        named.name = args.value("policy");
        return PolicyInput{std::move(loaded.value()), std::move(named), std::uint64_t(seed.value()),
                           true, std::move(never)};
    }
    auto presets = userPresets(loaded.value(), args.value("policy-file"));
    if (!presets) {
        io.err << presets.error(args.has("policy-file") ? "" : path) << "\n";
        return std::nullopt;
    }
    auto policy = resolvePolicy(args.value("policy"), presets.value());
    if (!policy) {
        // (the stochastic policies are taken above: name them too)
        std::string stochastic;
        for (const std::string &n : stochasticPolicyNames())
            stochastic += (stochastic.empty() ? "" : ", ") + n;
        io.err << prefix << policy.error()
               << "; stochastic, for jobs with due dates: " << stochastic << "\n";
        return std::nullopt;
    }
    return PolicyInput{std::move(loaded.value()), std::move(policy.value()),
                       std::uint64_t(seed.value()), false, std::move(never)};
}

std::string builtinPolicyList()
{
    std::string list;
    for (const std::string &name : builtinPolicyNames())
        list += (list.empty() ? "" : ", ") + name;
    return list;
}

std::vector<Option> policyInputOptions()
{
    return {{"policy", "P", "policy preset name (required)"},
            {"seed", "S", "seed for tie-breaks and the random plugin (default: the scenario's "
                          "settings.seed)"},
            {"policy-file", "F", "JSON file with more policy presets"}};
}

std::optional<PolicyInput> readPlacementPolicyInput(const Args &args, Io &io,
                                                    const std::string &command,
                                                    std::size_t positionals)
{
    auto input = readPolicyInput(args, io, command, positionals);
    if (input && input->stochastic) {
        io.err << "clusterbench " << command << ": " << input->policy.name
               << " plans whole jobs over time and logs no per-node scores: " << command
               << " takes a placement policy (k8s-default, dltap, ...)\n";
        return std::nullopt;
    }
    return input;
}

Option pinOption()
{
    return {"pin", "JOB/TASK=NODE,...",
            "what if: place these tasks on these nodes (e.g. job-1/worker-0=node-03), the rest "
            "by the policy; prints the difference from the policy's own choice"};
}

bool readPins(const Args &args, Io &io, const std::string &command, RunRequest &request)
{
    if (!args.has("pin"))
        return true;
    auto pins = parseTaskPins(args.value("pin"));
    if (!pins) {
        io.err << "clusterbench " << command << ": " << pins.error() << "\n";
        return false;
    }
    request.pins = std::move(pins.value());
    return true;
}

std::optional<Run> ownRunBesidePins(const Scenario &scenario, const RunRequest &request, Io &io,
                                    const std::string &command)
{
    RunRequest plain = request;
    plain.pins.clear();
    plain.decisionLog = false;
    plain.progress = nullptr;
    auto own = executeRun(scenario, plain);
    if (!own) {
        io.err << "clusterbench " << command << ": " << own.error() << "\n";
        return std::nullopt;
    }
    return std::move(own.value());
}

std::optional<ScenarioSeeds> readScenarioSeeds(const Args &args, Io &io, const std::string &command,
                                               const std::string &extra, bool extraOk)
{
    ScenarioSeeds out;
    out.path = args.positional().at(0);
    auto loaded = loadScenarioFile(out.path);
    if (!loaded) {
        io.err << loaded.error(out.path) << "\n";
        return std::nullopt;
    }
    warnJobsThatNeverStart(loaded.value(), out.path, io, command);
    auto seed = args.integer("seed", (long long)loaded->settings.seed);
    auto seeds = args.integer("seeds", 1);
    // (each option said on its own: "--seeds 0" was answered with all three rules)
    const std::string prefix = "clusterbench " + command + ": ";
    if (!seed || seed.value() < 0) {
        io.err << prefix << "--seed: expected an integer >= 0, found \"" << args.value("seed")
               << "\"\n";
        return std::nullopt;
    }
    if (!seeds || seeds.value() < 1 || seeds.value() > 100000) {
        io.err << prefix << "--seeds: expected a whole number from 1 to 100000, found \""
               << args.value("seeds") << "\"\n";
        return std::nullopt;
    }
    if (!extraOk) {
        io.err << prefix << extra << "\n";
        return std::nullopt;
    }
    out.scenario = std::move(loaded.value());
    out.seed = std::uint64_t(seed.value());
    out.seeds = int(seeds.value());
    return out;
}

Option logDetailOption()
{
    return {"log-detail", "D",
            "rows the decision log keeps per decision: full (every node), top:K (the K best "
            "nodes and the pick; the others counted per filter reason, with the range of "
            "their totals and how many tied with the pick), summary (= top:0) or auto "
            "(default: full up to " +
                std::to_string(LogDetail::kAutoFullNodes) + " nodes, else top:" +
                std::to_string(LogDetail::kAutoTop) + ")"};
}

std::optional<LogDetail> readLogDetail(const Args &args, Io &io, const std::string &command)
{
    auto detail = LogDetail::parse(args.value("log-detail", "auto"));
    if (!detail) {
        io.err << "clusterbench " << command << ": --log-detail: "
               << detail.problems().front().message << "\n";
        return std::nullopt;
    }
    return detail.value();
}

} // namespace cb::cli
