#include "fuzz_targets.h"

#include "io/export/placement_json.h"
#include "io/import/import_into_scenario.h"
#include "io/import/importer_registry.h"
#include "io/json_reader.h"
#include "io/policy_json.h"
#include "io/run_json.h"
#include "io/scenario_json.h"
#include "io/scenario_limits.h"
#include "model/validation.h"
#include "runs/sweep_grid.h"
#include "store/stored_run.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cb::fuzz {

namespace {

/// The cluster and jobs that run files, placements and stored runs name: the "tiny" seed
/// scenario (tests/fuzz/seeds/scenario/tiny.json), read once.
const Scenario &tinyScenario()
{
    static const Scenario s = [] {
        const std::string path = std::string(CB_SOURCE_DIR) + "/tests/fuzz/seeds/scenario/tiny.json";
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        auto loaded = scenarioFromText(text.str());
        if (!loaded) {
            std::fprintf(stderr, "fuzz: cannot read %s: %s\n", path.c_str(),
                         loaded.error().c_str());
            std::abort();
        }
        return loaded.value();
    }();
    return s;
}

const std::string &tinyScenarioText()
{
    static const std::string text = scenarioToText(tinyScenario());
    return text;
}

/// A refusal must say where: every problem needs a location or a message.
std::string checkProblems(const Problems &problems, const char *reader)
{
    if (problems.empty())
        return std::string(reader) + ": failed without a problem";
    for (const Problem &p : problems)
        if (p.message.empty())
            return std::string(reader) + ": a problem without a message at \"" + p.where + "\"";
    return {};
}

std::vector<std::string> split(std::string_view input, std::size_t maxParts)
{
    std::vector<std::string> parts;
    while (parts.size() + 1 < maxParts) {
        const std::size_t at = input.find(kFileSeparator);
        if (at == std::string_view::npos)
            break;
        parts.emplace_back(input.substr(0, at));
        input.remove_prefix(at + kFileSeparator.size());
    }
    parts.emplace_back(input);
    return parts;
}

std::string runScenario(std::string_view input, const Target &)
{
    auto loaded = scenarioFromText(std::string(input));
    if (!loaded)
        return checkProblems(loaded.problems(), "scenario");
    // save(load(x)) is canonical: loading it again gives the same text.
    const std::string once = scenarioToText(loaded.value());
    auto again = scenarioFromText(once);
    if (!again)
        return "scenario: the saved form of a valid scenario does not load: " + again.error();
    if (scenarioToText(again.value()) != once)
        return "scenario: saving, loading and saving again changes the text";
    if (!validateScenario(again.value()).empty())
        return "scenario: a loaded scenario fails validation";
    return {};
}

std::string runPolicy(std::string_view input, const Target &)
{
    auto doc = parseJsonText(std::string(input));
    if (!doc)
        return checkProblems(doc.problems(), "policy json");
    Scenario s = tinyScenario();
    s.policies.clear();
    const nlohmann::json &d = doc.value();
    if (d.is_array())
        for (const auto &p : d)
            s.policies.push_back(p);
    else if (d.is_object() && d.contains("policies") && d["policies"].is_array())
        for (const auto &p : d["policies"])
            s.policies.push_back(p);
    else
        s.policies.push_back(d);
    auto presets = scenarioPolicies(s);
    if (!presets)
        return checkProblems(presets.problems(), "policy");
    for (const Policy &p : presets.value()) {
        auto resolved = resolvePolicy(p.name, presets.value());
        if (!resolved)
            return "policy: a preset just read cannot be resolved by its name";
        (void)policyToJson(resolved.value()).dump();
    }
    return {};
}

std::string runPlacement(std::string_view input, const Target &)
{
    auto placement = PlacementJson::fromText(std::string(input), tinyScenario());
    if (!placement)
        return checkProblems(placement.problems(), "placement");
    const auto canonical = PlacementJson::toJson(placement.value());
    auto again = PlacementJson::fromJson(nlohmann::json::parse(canonical.dump()), tinyScenario());
    if (!again)
        return "placement: the canonical form of a placement does not read back: " +
               again.error();
    if (PlacementJson::toJson(again.value()) != canonical)
        return "placement: reading the canonical form back changes it";
    return {};
}

std::string runRunFile(std::string_view input, const Target &)
{
    auto doc = parseJsonText(std::string(input));
    if (!doc)
        return checkProblems(doc.problems(), "run json");
    auto run = runFromJson(doc.value(), tinyScenario().cluster);
    if (!run)
        return checkProblems(run.problems(), "run");
    (void)runSummaryJson(run.value()).dump();
    return {};
}

std::string runSweepGrid(std::string_view input, const Target &)
{
    auto doc = parseJsonText(std::string(input));
    if (!doc)
        return checkProblems(doc.problems(), "grid json");
    auto grid = readGridManifest(doc.value());
    if (!grid)
        return checkProblems(grid.problems(), "sweep grid");
    auto presets = userPresets(grid->scenario, "");
    if (!presets)
        return checkProblems(presets.problems(), "sweep grid presets");
    for (const GridPoint &p : grid->points) {
        auto policy = pointPolicy(p, presets.value());
        if (!policy) {
            if (auto bad = checkProblems(policy.problems(), "sweep grid point"); !bad.empty())
                return bad;
        }
    }
    (void)gridManifest(grid->scenario, grid->points, grid->simulate, grid->sweepId).dump();
    return {};
}

std::string runSweepResult(std::string_view input, const Target &)
{
    auto doc = parseJsonText(std::string(input));
    if (!doc)
        return checkProblems(doc.problems(), "result json");
    auto result = readSweepResult(doc.value());
    if (!result)
        return checkProblems(result.problems(), "sweep result");
    (void)sweepResultJson(result->scenario, result->run, result->sweepId, result->index,
                          result->points).dump();
    return {};
}

/// A run as `show --json` prints it: kind, policy, seed, parameters, decision_log, timeline.
std::string runStoredRun(std::string_view input, const Target &)
{
    auto doc = parseJsonText(std::string(input));
    if (!doc)
        return checkProblems(doc.problems(), "stored run json");
    const nlohmann::json &d = doc.value();
    if (!d.is_object())
        return {};
    RunRecord record;
    record.id = 1;
    record.parameters = d.contains("parameters") ? d["parameters"] : nlohmann::json();
    record.decisionLog = d.contains("decision_log") ? d["decision_log"] : nlohmann::json();
    record.timeline = d.contains("timeline") ? d["timeline"] : nlohmann::json();
    auto detail = decodeStoredRun(record, tinyScenarioText());
    if (!detail)
        return checkProblems(detail.problems(), "stored run");
    return {};
}

/// An import as `clusterbench import` does it: read, build the scenario, validate, save.
std::string runImporter(std::string_view input, const Target &self)
{
    const Importer *importer = findImporter(self.name.substr(std::string("import-").size()));
    if (!importer)
        return "no importer for target " + self.name;
    const auto [lo, hi] = importer->fileCount();
    const std::size_t most = hi == 0 ? 4 : std::size_t(hi);
    const std::vector<std::string> parts = split(input, most);
    if (parts.size() < std::size_t(lo))
        return {};
    std::vector<ImportInput> inputs;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string name = i < self.fileNames.size() ? self.fileNames[i]
                                                            : "input-" + std::to_string(i + 1);
        inputs.push_back({name, parts[i], {}});
    }
    static const ImportOptions defaults; // what `clusterbench import` uses without options
    auto report = importer->read(inputs, defaults);
    if (!report)
        return checkProblems(report.problems(), importer->name().c_str());
    (void)report->toText();
    Scenario scenario;
    scenario.name = "fuzz";
    if (report->cluster)
        scenario.cluster = *report->cluster;
    else
        scenario.cluster = defaultImportCluster();
    if (importer->produces() != Importer::Produces::Cluster)
        addImportedJobs(scenario, report.value());
    // The checks the command makes before writing (it refuses with every problem).
    if (!limits::clusterProblems(scenario.cluster).empty() || !validateScenario(scenario).empty())
        return {};
    const std::string text = scenarioToText(scenario);
    auto again = scenarioFromText(text);
    if (!again)
        return importer->name() + ": a valid imported scenario does not load back: " +
               again.error();
    // As `import --json` prints it: text that is not UTF-8 in a message is replaced, not thrown.
    (void)report->toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    return {};
}

std::vector<Target> makeTargets()
{
    std::vector<Target> out = {
        {"scenario", "the scenario reader (load, save, load again)", {}, runScenario},
        {"policy", "policy presets (--policy-file, a scenario's policies)", {}, runPolicy},
        {"placement", "placement files (export --placement)", {}, runPlacement},
        {"run", "run files (simulate --out)", {}, runRunFile},
        {"sweep-grid", "sweep grids (grid.json of sweep --emit, read by sweep-point)", {},
         runSweepGrid},
        {"sweep-result", "sweep result files (sweep-point --out, read by merge)", {},
         runSweepResult},
        {"stored-run", "a stored run's parameters, decision log and timeline (show, the "
                       "history panel)",
         {},
         runStoredRun},
    };
    for (const Importer *i : importers()) {
        Target t{"import-" + i->name(), "import " + i->name() + ": " + i->description(), {},
                 runImporter};
        if (i->name() == "pollux-throughput")
            t.fileNames = {"cifar10_placements.csv", "cifar10_scalability.csv"};
        else if (i->name() == "csv-mapping")
            t.fileNames = {"mapping.json", "trace.csv", "trace-2.csv"};
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace

const std::vector<Target> &targets()
{
    static const std::vector<Target> all = makeTargets();
    return all;
}

const Target *findTarget(std::string_view name)
{
    for (const Target &t : targets())
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace cb::fuzz
