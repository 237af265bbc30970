#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/policy_input.h"
#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/export/placed_job.h"
#include "io/export/placement_json.h"
#include "io/policy_json.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "runs/run_service.h"
#include "sched/placer.h"
#include "util/terminal_text.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <set>

namespace cb::cli {

Command exportCommand()
{
    Command c;
    c.name = "export";
    c.synopsis = "export SCENARIO --format FORMAT --out DIR (--placement FILE | --policy P) "
                 "[--simulate] [--at SECONDS] [--json]";
    c.summary = "Write a placement as Kubernetes manifests or Slurm batch scripts";
    c.description =
        "FORMAT is one of " + ExporterRegistry::names() +
        ". k8s-pods and volcano pin every task to its node; tfjob, pytorchjob and mpijob "
        "can pin a role only to a node set and say so in a warning; slurm writes one batch "
        "script per job placing every task; slurm-cluster writes slurm.conf node and "
        "partition lines, gres.conf and topology.conf for the scenario's cluster, and "
        "k8s-nodes the cluster as a Kubernetes Node list (kubectl get nodes -o json shape, "
        "read back by `clusterbench import k8s-nodes`); neither needs a placement.\n"
        "The placement comes from --placement FILE, a JSON file {\"format\": "
        "\"clusterbench-placement\", \"version\": 1, \"jobs\": [{\"job\": ID, \"start\": S, "
        "\"tasks\": [{\"role\": \"ps\"|\"worker\"|..., \"index\": I, \"node\": NODE, "
        "\"gpus\": [..]}]}], \"waiting\": [IDs]} (what `clusterbench place --json` gives "
        "as its \"placement\": jq .placement), or from placing the scenario with a policy "
        "preset (--policy P, as `clusterbench place` does: " +
        builtinPolicyList() +
        ", or a user preset). Jobs that do not fit are reported as waiting and not exported; "
        "with --simulate the queue is simulated with the policy instead and every job is "
        "exported where it first runs (or what runs at --at SECONDS), as a Slurm queue would "
        "run them. A stochastic policy (sts, sts-net, sts-fifo, ...) plans every job's GPUs "
        "over time: the scenario is always simulated and each job exported as it first runs "
        "(or as it runs at --at SECONDS), one task per node with that node's GPUs.\n"
        "Warnings (what a format could not express exactly) go to stderr, one per line (a "
        "long one wraps on a terminal), or into the --json report; jobs that share one (no "
        "command, no image, left waiting) are named in one warning.";
    c.options = {
        {"format", "FORMAT", "output format (see above)"},
        {"out", "DIR", "output folder (created if missing)"},
        {"placement", "FILE", "placement JSON to export"},
        {"policy", "P", "place the scenario with this policy preset and export that"},
        {"policy-file", "F", "JSON file with more policy presets (with --policy)"},
        {"seed", "S", "seed for --policy (default: the scenario's)"},
        {"simulate", "",
         "placement policies: simulate the queue and export every job where "
         "it first runs, not only the jobs that fit at once"},
        {"at", "SECONDS",
         "with --simulate or a stochastic policy: export what runs at this "
         "time (default: every job as it first runs)"},
        {"pinning", "MODE", "k8s-pods: nodename (default) or affinity"},
        {"namespace", "NS", "metadata.namespace of Kubernetes objects"},
        {"image", "IMAGE", "container image for jobs that have none"},
        {"blocks", "",
         "Slurm topology/block: slurm-cluster writes topology.conf as blocks by "
         "rack (Slurm 23.11+) and makes them topology.yaml's default; slurm adds "
         "--segment to batch scripts (not in Slurm 22.05)"},
        {"json", "", "print a JSON report"},
    };
    c.run = [](const Args &args, Io &io) {
        auto usage = [&](const std::string &message) {
            io.err << "clusterbench export: " << message << " (see --help)\n";
            return int(ExitBadInput);
        };
        if (args.positional().size() != 1)
            return usage("expected exactly one SCENARIO file");
        if (!args.has("format"))
            return usage("missing --format FORMAT (one of " + ExporterRegistry::names() + ")");
        const Exporter *exporter = ExporterRegistry::find(args.value("format"));
        if (!exporter) {
            // A likely typo gets the format it resembles; "kubernetes" (no format of that
            // name: there are several) gets the one that pins pods to nodes.
            std::vector<std::string> formats;
            for (const Exporter *e : ExporterRegistry::all())
                formats.push_back(e->name());
            std::string word = args.value("format");
            std::transform(word.begin(), word.end(), word.begin(),
                           [](unsigned char ch) { return char(std::tolower(ch)); });
            std::string hint;
            if (const std::string near = nearestName(word, formats); !near.empty())
                hint = " (did you mean \"" + near + "\"?)";
            else if (word == "kubernetes" || word == "k8s" || word == "kube" || word == "pods")
                hint = " (for Kubernetes: k8s-pods writes a Pod per task, pinned to its node; "
                       "tfjob, pytorchjob, mpijob, volcano, jobset and kueue write those "
                       "controllers' objects)";
            return usage("unknown format \"" + args.value("format") + "\"" + hint +
                         "; expected one of " + ExporterRegistry::names());
        }
        if (!args.has("out"))
            return usage("missing --out DIR");
        // (a file where the folder should be: said before any work, not as a failure to
        // create the folder after the placement)
        if (std::error_code ec; std::filesystem::exists(args.value("out"), ec) &&
                                !std::filesystem::is_directory(args.value("out"), ec))
            return usage("--out " + args.value("out") +
                         ": is a file; export writes a folder of files: give a folder");
        ExportOptions options;
        const std::string pinning = args.value("pinning", "nodename");
        if (pinning == "affinity")
            options.pinning = ExportOptions::Pinning::NodeAffinity;
        else if (pinning != "nodename")
            return usage("--pinning expects nodename or affinity, found \"" + pinning + "\"");
        options.kubernetesNamespace = args.value("namespace");
        options.defaultImage = args.value("image");
        options.slurmBlocks = args.flag("blocks");

        const std::string scenarioPath = args.positional().front();
        auto scenario = loadScenarioFile(scenarioPath);
        if (!scenario) {
            io.err << scenario.error(scenarioPath) << "\n";
            return int(ExitBadInput);
        }
        warnJobsThatNeverStart(scenario.value(), scenarioPath, io, "export");

        Placement placement;
        Scenario exportedScenario = scenario.value();
        std::string origin;             // (what the files say they come from)
        std::vector<std::string> notes; // warnings about the schedule, with the exporter's
        const bool stochastic = !stochasticMethod(args.value("policy")).empty();
        // Over time: simulated, every job as it first runs (or what runs at --at).
        const bool overTime = args.has("policy") && (stochastic || args.flag("simulate"));
        if (args.has("simulate") && !args.has("policy"))
            return usage("--simulate needs --policy P: a placement file is one moment");
        if (args.has("at") && !overTime)
            return usage("--at needs --simulate or a stochastic --policy (sts, sts-net, "
                         "sts-fifo, ...): one placement does not change over time");
        if (exporter->needsPlacement()) {
            if (args.has("placement") && args.has("policy"))
                return usage("give either --placement or --policy, not both");
            if (!args.has("placement") && !args.has("policy"))
                return usage("missing --placement FILE or --policy P");
            if (overTime) {
                // A stochastic scheduler decides over time, and a placement policy's queue
                // does once simulated: take every job as it runs at --at (default: as it
                // first runs); a stochastic job one task per node.
                const Scenario &s = scenario.value();
                auto seed = args.integer("seed", (long long)s.settings.seed);
                if (!seed || seed.value() < 0)
                    return usage("--seed: expected an integer >= 0");
                std::optional<double> at;
                if (args.has("at")) {
                    char *end = nullptr;
                    const std::string text = args.value("at");
                    const double v = std::strtod(text.c_str(), &end);
                    if (text.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
                        return usage("--at: expected a time in seconds >= 0, found \"" + text +
                                     "\"");
                    at = v;
                }
                RunRequest request;
                request.policy = args.value("policy");
                request.policyFile = args.value("policy-file");
                request.seed = std::uint64_t(seed.value());
                request.simulate = true;
                request.decisionLog = false;
                auto run = executeRun(s, request);
                if (!run) {
                    io.err << "clusterbench export: " << run.error() << "\n";
                    return int(run.problems().front().where == "policy" ? ExitBadInput
                                                                        : ExitFailure);
                }
                // Jobs that ran past their time limit: deployed, they would be ended there.
                for (const Problem &p : timeLimitOverruns(s, *run->result))
                    notes.push_back(p.message);
                auto [shaped, scheduled] = stochasticScheduleAt(s, *run->result, at);
                if (stochastic) // (a placement policy's tasks are as the job has them)
                    oneTaskPerNode(shaped, scheduled);
                if (at) {
                    // Not running at --at: finished, not yet submitted, or waiting.
                    const std::set<std::string> notRunning(scheduled.waiting.begin(),
                                                           scheduled.waiting.end());
                    std::vector<std::string> waiting;
                    int done = 0, later = 0;
                    for (const JobRun &jr : run->result->jobs) {
                        if (!notRunning.count(jr.id))
                            continue;
                        if (jr.finishSeconds && *jr.finishSeconds <= *at)
                            ++done;
                        else if (jr.submitSeconds > *at)
                            ++later;
                        else
                            waiting.push_back(jr.id);
                    }
                    scheduled.waiting = std::move(waiting);
                    if (done + later > 0)
                        notes.push_back("at " + args.value("at") + " s, " + std::to_string(done) +
                                        (done == 1 ? " job had" : " jobs had") + " finished and " +
                                        std::to_string(later) + (later == 1 ? " was" : " were") +
                                        " not yet submitted: not exported");
                } else if (std::string note =
                               firstRunsOverloadWarning(exporter->name(), shaped, scheduled,
                                                        "export one moment with --at SECONDS");
                           !note.empty()) {
                    notes.push_back(std::move(note));
                }
                // Jobs the run reconfigured: a file holds one of their configurations.
                for (std::string &n : reconfigurationNotes(*run->result))
                    notes.push_back(std::move(n));
                if (scheduled.jobs.empty()) {
                    io.err << "clusterbench export: no job runs at " << args.value("at")
                           << " s under " << args.value("policy") << " (the run ends at "
                           << run->result->makespanSeconds << " s): nothing to export\n";
                    return int(ExitFailure);
                }
                exportedScenario = std::move(shaped);
                placement = std::move(scheduled);
                origin = args.value("policy") + ", seed " + std::to_string(seed.value()) +
                         ", simulated: " +
                         (at ? "the jobs running at " + args.value("at") + " s"
                             : std::string("each job as it first runs"));
            } else if (args.has("policy")) {
                const Scenario &s = scenario.value();
                auto seed = args.integer("seed", (long long)s.settings.seed);
                if (!seed || seed.value() < 0)
                    return usage("--seed: expected an integer >= 0");
                auto presets = userPresets(s, args.value("policy-file"));
                if (!presets) {
                    io.err << presets.error(args.has("policy-file") ? "" : scenarioPath) << "\n";
                    return int(ExitBadInput);
                }
                auto policy = resolvePolicy(args.value("policy"), presets.value());
                if (!policy) {
                    io.err << "clusterbench export: " << policy.error() << "\n";
                    return int(ExitBadInput);
                }
                const Topology topology(s.cluster);
                placement = placeScenario(s, topology, policy.value(), std::uint64_t(seed.value()));
                origin = ExportWriter::placementOrigin(args.value("policy"), seed.value());
            } else {
                const std::string placementPath = args.value("placement");
                auto loaded = PlacementJson::loadFile(placementPath, scenario.value());
                if (!loaded) {
                    io.err << loaded.error(placementPath) << "\n";
                    return int(ExitBadInput);
                }
                placement = std::move(loaded.value());
                origin = "the placement file " +
                         std::filesystem::path(placementPath).filename().string();
                // Applied, the files start every job at once: a node given more than it has
                // would fail its pods (nodeName skips the scheduler) or queue them for ever.
                if (const Problems over = nodeOverloads(scenario.value(), placement);
                    !over.empty()) {
                    for (const Problem &p : over)
                        io.err << placementPath << ": " << p.toString() << "\n";
                    io.err << "clusterbench export: the placement asks " << over.size()
                           << (over.size() == 1 ? " time" : " times")
                           << " for more than a node has; nothing written\n";
                    return int(ExitBadInput);
                }
            }
        }

        if (exporter->needsPlacement() && placement.jobs.empty()) {
            // Nothing to deploy: an empty folder and exit 0 would read as success.
            io.err << "clusterbench export: no job is placed, so there is nothing to export; "
                   << counted((long long)placement.waiting.size(), "job")
                   << (placement.waiting.size() == 1 ? " waits" : " wait");
            if (!placement.waiting.empty())
                io.err << " (" << terminalText(placement.waiting.front())
                       << (placement.waiting.size() > 1 ? ", ..." : "") << "; `clusterbench why "
                       << terminalText(scenarioPath) << " "
                       << terminalText(placement.waiting.front()) << " --policy "
                       << (args.has("policy") ? terminalText(args.value("policy"))
                                              : std::string("P"))
                       << "` says why)";
            io.err << "; nothing written\n";
            return int(ExitFailure);
        }
        auto exported = exporter->exportPlacement(exportedScenario, placement, options);
        if (!exported) {
            io.err << exported.error(args.value("placement", scenarioPath)) << "\n";
            return int(ExitBadInput);
        }
        exported->warnings.insert(exported->warnings.begin(), notes.begin(), notes.end());
        if (!origin.empty())
            ExportWriter::stampOrigin(exported.value(),
                                      origin + "; " + ExportWriter::scenarioTag(scenario.value()));
        const std::string out = args.value("out");
        const std::vector<std::string> stray = ExportWriter::strayFiles(out, exported.value());
        for (const std::string &f : stray)
            exported->warnings.push_back(
                out + "/" + f + " is left from an earlier export and is not part of this one: "
                "remove it before submitting the folder's files");
        // (read before writing: which files were there, and which of them now change)
        const std::vector<ExportWriter::Fate> fates = ExportWriter::fates(out, exported.value());
        if (Status s = ExportWriter::write(out, exported.value()); !s) {
            io.err << "clusterbench export: " << s.error() << "\n";
            return int(ExitFailure);
        }
        if (args.flag("json")) {
            nlohmann::ordered_json report = nlohmann::ordered_json::object();
            report["format"] = exporter->name();
            report["out"] = out;
            nlohmann::ordered_json files = nlohmann::ordered_json::array();
            for (const ExportedFile &f : exported->files)
                files.push_back(f.path);
            report["files"] = files;
            nlohmann::ordered_json replaced = nlohmann::ordered_json::array();
            for (std::size_t i = 0; i < fates.size(); ++i)
                if (fates[i] == ExportWriter::Fate::Replaces)
                    replaced.push_back(exported->files[i].path);
            report["replaced"] = replaced;
            report["warnings"] = exported->warnings;
            io.out << report.dump(2) << "\n";
        } else {
            // A file that was there is said to be replaced (another format's of the same
            // job has its name), or unchanged.
            for (std::size_t i = 0; i < exported->files.size(); ++i)
                io.out << (fates[i] == ExportWriter::Fate::New        ? "wrote "
                           : fates[i] == ExportWriter::Fate::Replaces ? "replaced "
                                                                      : "unchanged ")
                       << (std::filesystem::path(out) / exported->files[i].path).string() << "\n";
            for (const std::string &w : exported->warnings)
                io.err << forStderr("warning: " + w, io.errIsTerminal);
        }
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
