#include "cli/command.h"
#include "cli/progress.h"
#include "io/import/import_into_scenario.h"
#include "io/import/importer_registry.h"
#include "io/import/text_fields.h"
#include "io/scenario_json.h"
#include "model/validation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace cb::cli {

namespace {

std::string formatList()
{
    std::string s;
    for (const Importer *i : importers()) {
        std::string left = "  " + i->name();
        left.resize(std::max<std::size_t>(left.size() + 2, 20), ' ');
        s += left + i->description() + "\n";
    }
    return s;
}

int failImport(Io &io, bool json, int code, const std::string &message)
{
    if (json) {
        nlohmann::ordered_json j;
        j["written"] = false;
        j["error"] = message;
        io.out << j.dump(2) << "\n";
    }
    io.err << "clusterbench import: " << message << "\n";
    return code;
}

} // namespace

Command importCommand()
{
    Command c;
    c.name = "import";
    c.synopsis = "import FORMAT FILE... --out SCENARIO.json [--cluster SCENARIO] [--json]";
    c.summary = "Import a cluster (Kubernetes nodes, Slurm config) or a job trace";
    c.description =
        "Cluster formats make a new scenario holding that cluster. Trace formats add their "
        "jobs to the scenario given with --cluster, or to a default cluster of 4 nodes with "
        "8 V100 GPUs each on one switch. pollux-throughput attaches a measured step-time "
        "table to a model profile of the --cluster scenario (or of a new one on that default "
        "cluster); jobs of that model then take their iteration time from it. A progress bar "
        "follows the bytes read when stderr is a terminal. The report (counts, every skipped row with its "
        "line, every assumption) goes to stderr, or to stdout as JSON with --json. The "
        "scenario is written atomically; on any fatal error nothing is written.\n\nFormats:\n" +
        formatList();
    c.options = {
        {"out", "FILE", "scenario file to write (required)"},
        {"cluster", "SCENARIO", "trace formats: add the jobs to this scenario's cluster"},
        {"name", "NAME", "scenario name (default: the first input's file name)"},
        {"default-model", "MODEL", "model profile for jobs naming no known model (resnet50)"},
        {"seconds-per-iteration", "S", "reference-GPU time per iteration for durations (0.1)"},
        {"date", "YYYY-MM-DD", "helios-gpus: the day to build the cluster from (default: the last)"},
        {"model", "NAME", "pollux-throughput: model profile the table is for (default: from "
                          "the file names)"},
        {"json", "", "print the report as JSON on stdout"},
    };
    c.run = [](const Args &args, Io &io) {
        const bool json = args.flag("json");
        const auto &pos = args.positional();
        if (pos.size() < 2)
            return failImport(io, json, ExitBadInput,
                              "expected FORMAT and at least one FILE "
                              "(see --help)");
        const Importer *importer = findImporter(pos[0]);
        if (!importer)
            return failImport(io, json, ExitBadInput,
                              "unknown format \"" + pos[0] + "\"; formats:\n" + formatList());
        if (!args.has("out"))
            return failImport(io, json, ExitBadInput, "--out FILE is required");
        ImportOptions options;
        if (args.has("default-model"))
            options.defaultModel = args.value("default-model");
        if (args.has("seconds-per-iteration")) {
            auto v = importtext::parseNumber(args.value("seconds-per-iteration"));
            if (!v || *v <= 0)
                return failImport(io, json, ExitBadInput,
                                  "--seconds-per-iteration: expected a positive number");
            options.secondsPerIteration = *v;
        }
        options.date = args.value("date", "");
        options.model = args.value("model", "");
        const std::vector<std::string> files(pos.begin() + 1, pos.end());
        ProgressBar bar(io, "import " + importer->name() + " (KiB)");
        options.progress = [&bar](std::size_t done, std::size_t total) {
            const auto kib = [](std::size_t bytes) { return (long long)((bytes + 1023) / 1024); };
            bar.update(done >= total ? kib(total) : (long long)(done / 1024), kib(total));
        };
        auto imported = importFiles(*importer, files, options);
        bar.finish();
        if (!imported)
            return failImport(io, json, ExitBadInput, imported.error());
        ImportReport report = std::move(imported.value());
        // Checking and writing a big trace takes longer than reading it: say so on a terminal.
        if (io.errIsTerminal && report.jobs.size() >= 10000)
            io.err << "import " << importer->name() << ": checking " << report.jobs.size()
                   << " jobs and writing " << args.value("out") << " ..." << std::endl;

        Scenario scenario;
        std::string base = files.front();
        if (auto slash = base.find_last_of('/'); slash != std::string::npos)
            base = base.substr(slash + 1);
        scenario.name = args.value("name", base);
        scenario.description = "Imported with clusterbench import " + importer->name() + ".";
        if (report.cluster) {
            if (args.has("cluster"))
                return failImport(io, json, ExitBadInput,
                                  "--cluster cannot be combined with input that defines a cluster");
            scenario.cluster = *report.cluster;
        } else if (args.has("cluster")) {
            auto loaded = loadScenarioFile(args.value("cluster"));
            if (!loaded)
                return failImport(io, json, ExitBadInput, loaded.error(args.value("cluster")));
            scenario = std::move(loaded.value());
            if (args.has("name"))
                scenario.name = args.value("name");
        } else if (!report.jobs.empty() || !report.stepTimeModels.empty()) {
            scenario.cluster = defaultImportCluster();
            report.assume("no --cluster given: default cluster of 4 nodes x 8 V100 GPUs "
                          "(64 CPUs, 512 GiB each) on one switch");
        }
        if (importer->produces() != Importer::Produces::Cluster)
            addImportedJobs(scenario, report);

        const Problems problems = validateScenario(scenario);
        if (!problems.empty())
            return failImport(io, json, ExitBadInput,
                              "the imported scenario is not valid, nothing written:\n" +
                                  formatProblems(problems, args.value("out")));
        if (auto saved = saveScenarioFile(args.value("out"), scenario); !saved)
            return failImport(io, json, ExitFailure, saved.error());
        if (json) {
            nlohmann::ordered_json j = report.toJson();
            j["scenario_jobs"] = scenario.jobs.size();
            j["out"] = args.value("out");
            j["written"] = true;
            io.out << j.dump(2) << "\n";
        } else {
            io.err << report.toText() << "wrote " << args.value("out") << " ("
                   << scenario.cluster.nodes.size() << " nodes, " << scenario.jobs.size()
                   << " jobs)\n";
        }
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
