// `clusterbench sweep` (a grid of runs on local cores, or emitted as a Slurm job array or a
// Kubernetes indexed Job), `sweep-point` (one grid point: what each array task or indexed
// pod runs) and `merge` (their result files back into the workspace, once each).

#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/policy_input.h"
#include "cli/progress.h"
#include "cli/run_saving.h"
#include "io/export/kubernetes_names.h"
#include "io/export/shell_text.h"
#include "io/export/yaml_text.h"
#include "io/file_io.h"
#include "io/file_set_writer.h"
#include "io/json_reader.h"
#include "io/policy_json.h"
#include "io/scenario_json.h"
#include "runs/sweep_grid.h"
#include "util/count_text.h"
#include "util/stats.h"
#include "util/text.h"
#include "util/text_table.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <thread>

namespace cb::cli {

namespace {
/// The API server's limit on a ConfigMap's data, and the annotation client-side
/// `kubectl apply` keeps the object in.
constexpr std::size_t kConfigMapLimit = 1048576, kLastAppliedLimit = 262144;
} // namespace

namespace {

std::string paramsText(const GridPoint &p)
{
    std::string out;
    for (const auto &[k, v] : p.params)
        out += (out.empty() ? "" : " ") + k + "=" + v;
    return out.empty() ? "-" : out;
}

struct Summary
{
    std::string policy;
    std::string params;
    nlohmann::json paramsJson;
    std::map<std::string, std::vector<double>> values;
};

/// Run ids as ranges: "3-7, 9, 12-13".
std::string idRanges(const std::vector<std::int64_t> &ids)
{
    std::string out;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        out += (out.empty() ? "" : ", ") + std::to_string(ids[i]) +
               (j > i ? "-" + std::to_string(ids[j]) : std::string());
        i = j + 1;
    }
    return out;
}

std::string utcStamp()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
    return buf;
}

std::string slurmArrayScript(const Scenario &s, const std::vector<GridPoint> &points,
                             const std::string &sweepId)
{
    std::ostringstream o;
    o << "#!/bin/bash\n"
      << "# ClusterBench sweep " << sweepId << ": " << counted(points.size(), "grid point")
      << " of " << ShellText::comment(s.name.empty() ? std::string("the scenario") : s.name)
      << ", one array task each.\n"
      << "# Submit from this folder:  sbatch sweep.sbatch\n"
      << "# Then merge the results:   clusterbench merge results/point-*.json\n"
      << "# Each task runs the headless CLI for its grid point (grid.json) and writes\n"
      << "# results/point-INDEX.json. Set CLUSTERBENCH to the program's path if it is not on\n"
      << "# PATH on the compute nodes.\n"
      << "#SBATCH --job-name=cb-sweep-" << sweepId << "\n"
      << "#SBATCH --array=0-" << points.size() - 1 << "\n"
      << "#SBATCH --ntasks=1\n"
      << "#SBATCH --cpus-per-task=1\n"
      << "#SBATCH --mem=1G\n"
      << "#SBATCH --output=logs/point-%a.out\n"
      << "set -euo pipefail\n"
      << "index=\"${SLURM_ARRAY_TASK_ID:?not running as a Slurm array task}\"\n"
      << "mkdir -p results\n"
      << "exec \"${CLUSTERBENCH:-clusterbench}\" sweep-point grid.json \"$index\" "
         "--out \"results/point-$index.json\"\n";
    return o.str();
}

nlohmann::ordered_json indexedJob(const std::vector<GridPoint> &points, const std::string &sweepId,
                                  const std::string &image, const std::string &claim,
                                  const std::string &name)
{
    using oj = nlohmann::ordered_json;
    oj container;
    container["name"] = "point";
    container["image"] = image;
    container["command"] = oj::array(
        {"/bin/sh", "-c",
         "mkdir -p /results && exec clusterbench sweep-point /sweep/grid.json "
         "\"$JOB_COMPLETION_INDEX\" --out \"/results/point-$JOB_COMPLETION_INDEX.json\""});
    container["resources"] = {{"requests", {{"cpu", "1"}, {"memory", "1Gi"}}},
                              {"limits", {{"memory", "1Gi"}}}};
    container["volumeMounts"] = oj::array({{{"name", "grid"}, {"mountPath", "/sweep"},
                                            {"readOnly", true}},
                                           {{"name", "results"}, {"mountPath", "/results"}}});
    oj pod;
    pod["restartPolicy"] = "Never";
    pod["containers"] = oj::array({container});
    pod["volumes"] = oj::array(
        {{{"name", "grid"}, {"configMap", {{"name", name + "-grid"}}}},
         {{"name", "results"}, {"persistentVolumeClaim", {{"claimName", claim}}}}});
    oj labels = {{"app.kubernetes.io/name", "clusterbench"},
                 {"app.kubernetes.io/component", "sweep"},
                 {"clusterbench.io/sweep", sweepId}};
    oj job;
    job["apiVersion"] = "batch/v1";
    job["kind"] = "Job";
    job["metadata"] = {{"name", name}, {"labels", labels}};
    oj spec;
    spec["completionMode"] = "Indexed";
    spec["completions"] = points.size();
    spec["parallelism"] = std::min<std::size_t>(points.size(), 16);
    spec["backoffLimitPerIndex"] = 2;
    spec["maxFailedIndexes"] = points.size();
    spec["template"] = {{"metadata", {{"labels", labels}}}, {"spec", pod}};
    job["spec"] = spec;
    return job;
}

} // namespace

Command sweepCommand()
{
    Command c;
    c.name = "sweep";
    c.synopsis =
        "sweep SCENARIO --policies P1,P2 [--seeds N] [--param KEY=V1,V2 ...] "
        "[--policy-file F] [--jobs J] [--simulate] [--emit slurm-array|k8s-indexed-job DIR]";
    c.summary = "Run a grid of policies x parameter values x seeds, locally or on a cluster";
    c.description =
        "The grid is every policy x every combination of --param values x seeds S .. S+N-1. "
        "Parameters are policy fields: weight.PLUGIN=W (a plugin's weight), PLUGIN.FIELD=V "
        "(e.g. dltap.variant=traffic), queue, task_order, tie_break, gang, backfill. A "
        "plugin's parameter is not applied to a policy without that plugin: swept beside "
        "dltap, k8s-default stays the baseline and runs once per seed (a note says so). Each point "
        "places the queue (with --simulate also simulates it) and is stored in the workspace "
        "as a run of kind \"sweep\" with the sweep id; the table gives mean and standard "
        "deviation over the seeds per policy and parameter values. Points run on --jobs "
        "threads (default: the hardware threads); the results do not depend on it. "
        "--emit writes the same grid to DIR instead of running it: grid.json plus a Slurm "
        "job-array script (slurm-array: sweep.sbatch, one array task per point) or a "
        "Kubernetes Job with completionMode Indexed and the ConfigMap holding the grid "
        "(k8s-indexed-job: sweep-job.yaml, grid-configmap.yaml). Each task runs "
        "`clusterbench sweep-point grid.json INDEX --out results/point-INDEX.json`; "
        "`clusterbench merge` puts the result files into the workspace.";
    c.options = {{"policies", "P1,P2", "comma-separated policy presets (required)"},
                 {"seeds", "N", "seeds per grid point (default 1)"},
                 {"seed", "S", "first seed (default: the scenario's settings.seed)"},
                 {"param", "KEY=V1,V2", "a policy parameter and its values (repeatable)"},
                 {"policy-file", "F", "JSON file with more policy presets"},
                 {"jobs", "J", "threads for local runs (default: hardware threads)"},
                 {"simulate", "", "simulate each point (JCT, energy, cost), not only place it"},
                 {"emit", "FORMAT", "slurm-array or k8s-indexed-job: write the sweep to DIR"},
                 {"image", "IMAGE",
                  "container image for k8s-indexed-job "
                  "(default clusterbench:" CB_VERSION ")"},
                 {"results-claim", "PVC",
                  "PersistentVolumeClaim for the result files "
                  "(default clusterbench-results)"},
                 {"json", "", "print the summary (and every point) as JSON"}};
    for (const Option &o : runSavingOptions())
        c.options.push_back(o);
    c.run = [](const Args &args, Io &io) {
        const bool emit = args.has("emit");
        if (args.positional().size() != (emit ? 2u : 1u) || !args.has("policies")) {
            io.err << "clusterbench sweep: expected SCENARIO --policies P1,P2 (and DIR after "
                      "--emit FORMAT); see --help\n";
            return int(ExitBadInput);
        }
        const long long hw = std::max(1u, std::thread::hardware_concurrency());
        auto jobs = args.integer("jobs", hw);
        auto input = readScenarioSeeds(args, io, "sweep",
                                       "--jobs: expected a whole number from 1 to 1024, found \"" +
                                           args.value("jobs") + "\"",
                                       jobs && jobs.value() >= 1 && jobs.value() <= 1024);
        if (!input)
            return int(ExitBadInput);
        const std::string &path = input->path;
        Scenario &s = input->scenario;
        const std::uint64_t seed = input->seed;
        const long long seeds = input->seeds;
        const auto listed = readPolicyNames(args, io, "sweep");
        if (!listed)
            return int(ExitBadInput);
        const std::vector<std::string> &policies = *listed;
        std::vector<SweepParam> params;
        for (const std::string &text : args.values("param")) {
            auto p = parseSweepParam(text);
            if (!p) {
                io.err << "clusterbench sweep: " << p.error() << "\n";
                return int(ExitBadInput);
            }
            // (a key given twice swept one point labelled with both, its last value winning)
            if (std::any_of(params.begin(), params.end(),
                            [&](const SweepParam &q) { return q.key == p->key; })) {
                io.err << "clusterbench sweep: --param " << p->key
                       << ": given twice; list its values once (--param " << p->key
                       << "=V1,V2,...)\n";
                return int(ExitBadInput);
            }
            params.push_back(p.value());
        }
        // The presets of --policy-file go into the swept scenario's own, after them (as every
        // command reads the two), so that the stored runs, an emitted grid and the points run
        // from it (sweep-point) all find them.
        if (args.has("policy-file")) {
            // (read once: its presets checked as every command checks the file, then carried
            // as written)
            const std::string file = args.value("policy-file");
            auto items = policyFileItems(file);
            if (!items) {
                io.err << items.error(file) << "\n";
                return int(ExitBadInput);
            }
            if (auto checked = policiesFromItems(items.value(), file); !checked) {
                io.err << checked.error() << "\n";
                return int(ExitBadInput);
            }
            for (const auto &item : items.value())
                s.policies.push_back(item.first);
        }
        auto presets = userPresets(s, "");
        if (!presets) {
            io.err << presets.error(path) << "\n";
            return int(ExitBadInput);
        }
        const bool simulate = args.flag("simulate");
        // A parameter of a plugin a policy lacks is not applied to it (said on stderr): the
        // baseline of "--policies k8s-default,dltap --param weight.dltap=1,4" stays itself.
        std::vector<std::pair<std::string, std::string>> leftOut;
        const std::vector<GridPoint> points =
            applicableGrid(expandGrid(policies, params, std::uint64_t(seed), int(seeds)),
                           presets.value(), &leftOut);
        for (const auto &[param, policy] : leftOut)
            io.err << wrapText("clusterbench sweep: note: --param " + param +
                                   " is not varied for " + policy +
                                   ", which has no such plugin: it runs once per seed",
                               outputColumns(), 2)
                   << "\n";
        if (points.size() > 100000) {
            io.err << "clusterbench sweep: " << points.size() << " grid points; at most 100000\n";
            return int(ExitBadInput);
        }
        // Every policy x parameter combination must make a valid policy before anything runs.
        for (std::size_t i = 0; i < points.size(); i += std::size_t(seeds)) {
            auto p = pointPolicy(points[i], presets.value());
            if (!p) {
                // (the policy came from --policies: named so, as compare does)
                const Problem &first = p.problems().front();
                io.err << "clusterbench sweep: "
                       << (first.where == "--policy" ? "--policies: " + first.message : p.error())
                       << "\n";
                return int(ExitBadInput);
            }
        }
        const std::string contentId = sweepContentId(s, points, simulate);

        if (emit) {
            const std::string format = args.value("emit");
            if (format != "slurm-array" && format != "k8s-indexed-job") {
                io.err << "clusterbench sweep: --emit: expected slurm-array or k8s-indexed-job, "
                          "found \""
                       << format << "\"\n";
                return int(ExitBadInput);
            }
            if (format == "slurm-array" && points.size() > 1000) {
                io.err << "clusterbench sweep: " << points.size()
                       << " grid points exceed Slurm's default MaxArraySize (1001); split the "
                          "sweep\n";
                return int(ExitBadInput);
            }
            const std::filesystem::path dir = args.positional()[1];
            std::vector<std::string> folders;
            const std::string grid = gridManifest(s, points, simulate, contentId).dump(1) + "\n";
            std::vector<std::pair<std::string, std::string>> files = {{"grid.json", grid}};
            std::size_t configMapJsonBytes = 0;
            if (format == "slurm-array") {
                files.push_back({"sweep.sbatch", slurmArrayScript(s, points, contentId)});
                folders = {"logs", "results"};
            } else {
                const std::string name = "cb-sweep-" + contentId;
                nlohmann::ordered_json cm;
                cm["apiVersion"] = "v1";
                cm["kind"] = "ConfigMap";
                cm["metadata"] = {{"name", name + "-grid"},
                                  {"labels", {{"clusterbench.io/sweep", contentId}}}};
                cm["data"] = {{"grid.json", grid}};
                // (what client-side apply would keep in the annotation: the object's JSON)
                configMapJsonBytes = cm.dump().size();
                files.push_back({"grid-configmap.yaml", YamlText::document(cm)});
                files.push_back(
                    {"sweep-job.yaml",
                     YamlText::document(indexedJob(
                         points, contentId,
                         args.value("image", std::string("clusterbench:") + CB_VERSION),
                         args.value("results-claim", "clusterbench-results"), name))});
                // A ConfigMap over 1 MiB is refused by the API server: nothing usable.
                if (grid.size() > kConfigMapLimit) {
                    io.err << "clusterbench sweep: grid.json is " << grid.size()
                           << " bytes and a ConfigMap holds at most 1 MiB (1048576 bytes): "
                              "split the sweep (fewer policies, values or seeds) or use --emit "
                              "slurm-array; nothing written\n";
                    return int(ExitFailure);
                }
            }
            // Result files of an earlier sweep in the folder: the printed merge would store
            // them too (as their own sweep's points), so they are named, and left alone.
            if (format == "slurm-array") {
                std::error_code ec;
                int stale = 0;
                for (const auto &e : std::filesystem::directory_iterator(dir / "results", ec)) {
                    const std::string name = e.path().filename().string();
                    stale += name.starts_with("point-") && name.ends_with(".json");
                }
                if (stale > 0)
                    io.err << "clusterbench sweep: warning: " << (dir / "results").string()
                           << " holds " << stale << " result file" << (stale == 1 ? "" : "s")
                           << " of an earlier run; `clusterbench merge` of point-*.json would "
                              "store them too: remove them before submitting\n";
            }
            // All or nothing: a full disk part-way leaves the folder as it was.
            std::vector<OutputFile> outputs;
            for (const auto &[name, text] : files)
                outputs.push_back({name, text, name == "sweep.sbatch"});
            if (auto st = FileSetWriter::write(dir.string(), outputs, folders); !st) {
                io.err << "clusterbench sweep: " << st.error() << "\n";
                return int(ExitFailure);
            }
            io.out << "Sweep " << contentId << ": " << counted(points.size(), "grid point")
                   << " written to " << dir.string() << "/ (";
            for (std::size_t i = 0; i < files.size(); ++i)
                io.out << (i ? ", " : "") << files[i].first;
            io.out << ")\n";
            if (format == "slurm-array")
                io.out << "Submit: cd " << ShellText::word(dir.string())
                       << " && sbatch sweep.sbatch\n"
                       << "Then:   clusterbench merge "
                       << ShellText::word((dir / "results").string()) << "/point-*.json\n";
            else
                // (client-side apply keeps a copy in an annotation of at most 256 KiB)
                io.out << "Apply: kubectl apply "
                       << (configMapJsonBytes > kLastAppliedLimit ? "--server-side " : "") << "-f "
                       << ShellText::word((dir / "grid-configmap.yaml").string()) << " -f "
                       << ShellText::word((dir / "sweep-job.yaml").string()) << "\n"
                       << "Then:  copy point-*.json from the PersistentVolumeClaim "
                       << args.value("results-claim", "clusterbench-results")
                       << " and run clusterbench merge point-*.json\n";
            return int(ExitOk);
        }

        auto workspace = openRunWorkspace(args, io, "sweep");
        if (!workspace)
            return int(ExitBadInput);
        // The id is unique in the workspace (two sweeps started in the same second get two);
        // points are stored as they finish, "partial" until the whole sweep is stored.
        std::string sweepId = contentId + "-" + utcStamp();
        if (*workspace) {
            auto reserved = (*workspace)->beginSweep(sweepId, int(points.size()));
            if (!reserved) {
                io.err << "clusterbench sweep: " << reserved.error() << "\n";
                return int(ExitFailure);
            }
            sweepId = reserved.value();
        }
        std::vector<std::int64_t> storedIds;
        bool saveFailed = false;
        ProgressBar bar(io, "sweep");
        auto results = runGrid(
            s, presets.value(), points, simulate, sweepId, int(jobs.value()),
            [&bar](int done, int total) { bar.update(done, total); },
            [&](int, const Result<RunRecord> &r) {
                if (!r)
                    return false;
                if (!*workspace)
                    return true;
                RunRecord run = r.value();
                run.status = "partial";
                auto id = saveRunTo(**workspace, s, std::move(run), io, "sweep");
                if (!id) {
                    saveFailed = true;
                    return false;
                }
                storedIds.push_back(*id);
                return true;
            });
        bar.finish();
        if (saveFailed) {
            io.err << "clusterbench sweep: stopped; the " << storedIds.size()
                   << " points stored so far stay \"partial\" (sweep " << sweepId << ")\n";
            return int(ExitFailure);
        }
        for (std::size_t i = 0; i < results.size(); ++i)
            if (!results[i]) {
                io.err << "clusterbench sweep: point " << i << " (" << points[i].policy
                       << ", seed " << points[i].seed << "): " << results[i].error() << "\n";
                if (*workspace && !storedIds.empty())
                    io.err << "clusterbench sweep: the " << storedIds.size()
                           << " points stored stay \"partial\" (sweep " << sweepId << ")\n";
                return int(ExitFailure);
            }
        if (*workspace) {
            if (auto st = (*workspace)->finishSweep(sweepId); !st) {
                io.err << "clusterbench sweep: " << st.error() << "\n";
                return int(ExitFailure);
            }
            std::sort(storedIds.begin(), storedIds.end());
            io.err << wrapText(std::string("Saved as run") + (storedIds.size() == 1 ? " " : "s ") +
                                   idRanges(storedIds) + " in " + (*workspace)->path() +
                                   " (sweep " + sweepId + ")",
                               outputColumns(), 2)
                   << "\n";
        }

        // Group by policy and parameter values (grid order), over seeds.
        std::vector<Summary> groups;
        for (std::size_t i = 0; i < points.size(); ++i) {
            const std::string key = paramsText(points[i]);
            if (groups.empty() || groups.back().policy != points[i].policy ||
                groups.back().params != key)
                groups.push_back({points[i].policy, key, pointParams(points[i]), {}});
            for (const auto &[name, value] : results[i]->metrics)
                groups.back().values[name].push_back(value);
        }
        if (args.flag("json")) {
            nlohmann::ordered_json j;
            j["scenario"] = s.name;
            j["simulate"] = simulate;
            j["seed"] = seed;
            j["seeds"] = seeds;
            j["points"] = points.size();
            nlohmann::ordered_json gj = nlohmann::ordered_json::array();
            for (const Summary &g : groups) {
                nlohmann::ordered_json o;
                o["policy"] = g.policy;
                o["params"] = g.paramsJson;
                o["runs"] = g.values.empty() ? 0 : g.values.begin()->second.size();
                nlohmann::ordered_json m = nlohmann::ordered_json::object();
                for (const auto &[name, v] : g.values) {
                    const auto [mean, sd] = meanAndStd(v);
                    m[name] = {{"mean", jsonNumber(mean)}, {"std", jsonNumber(sd)}};
                }
                o["metrics"] = m;
                gj.push_back(o);
            }
            j["groups"] = gj;
            nlohmann::ordered_json pj = nlohmann::ordered_json::array();
            for (std::size_t i = 0; i < points.size(); ++i) {
                nlohmann::ordered_json m = nlohmann::ordered_json::object();
                for (const auto &[name, value] : results[i]->metrics)
                    m[name] = jsonNumber(value);
                pj.push_back({{"index", points[i].index},
                              {"policy", points[i].policy},
                              {"seed", points[i].seed},
                              {"params", pointParams(points[i])},
                              {"metrics", m}});
            }
            j["grid"] = pj;
            io.out << j.dump(2) << "\n";
            return int(ExitOk);
        }
        io.out << wrapText(
                      (s.name.empty() ? path : s.name) + ": " + counted(points.size(), "run") +
                          " (" +
                          // (a parameter left out for a policy: the grid is no product)
                          (leftOut.empty()
                               ? counted(policies.size(), "policy", "policies") + " x " +
                                     counted(groups.size() / policies.size(), "parameter set") +
                                     " x "
                               : counted(groups.size(), "policy/parameter combination") + " x ") +
                          counted(seeds, "seed") + "); mean +/- std over seeds",
                      outputColumns(), 2)
               << "\n";
        // Placed only: traffic per iteration; simulated: over the whole run.
        std::vector<std::pair<std::string, std::string>> columns = {
            {"cross_node_bytes", simulate ? "cross GB (run)" : "cross MB/iter"},
            {"mean_hops", "hops"},
            {"waiting_jobs", "waiting"}};
        if (simulate)
            columns.insert(columns.end(), {{"mean_jct_s", "mean JCT s"},
                                           {"makespan_s", "makespan s"},
                                           {"energy_kwh", "energy kWh"},
                                           {"cost", "cost"},
                                           {"stranded_gpu_h", "stranded GPU-h"}});
        TextTable table;
        table.headers = {"policy", "params"};
        table.keyColumns = 2;
        table.rightAligned = {false, false};
        for (const auto &[key, title] : columns) {
            table.headers.push_back(title);
            table.rightAligned.push_back(true);
        }
        for (const Summary &g : groups) {
            std::vector<std::string> cells = {g.policy, g.params};
            for (const auto &[key, title] : columns) {
                auto it = g.values.find(key);
                const auto [mean, sd] = it == g.values.end() ? MeanStd{}
                                                             : meanAndStd(it->second);
                const double scale =
                    key == "cross_node_bytes" ? (simulate ? 1e-9 : 1e-6) : 1.0;
                const int digits = key == "mean_hops" ? 3 : (key == "waiting_jobs" ? 2 : 1);
                cells.push_back(groupedFixed(mean * scale, digits) + " +/- " +
                                groupedFixed(sd * scale, digits));
            }
            table.rows.push_back(std::move(cells));
        }
        io.out << table.render(outputColumns());
        return int(ExitOk);
    };
    return c;
}

Command sweepPointCommand()
{
    Command c;
    c.name = "sweep-point";
    c.synopsis = "sweep-point GRID.json INDEX --out RESULT.json";
    c.summary = "Run one point of an emitted sweep grid and write its result file";
    c.description = "What each Slurm array task or Kubernetes indexed pod of "
                    "`sweep --emit` runs. INDEX is 0-based. The result file holds the scenario "
                    "and the run; `clusterbench merge` stores it in a workspace.";
    c.options = {{"out", "RESULT.json", "result file to write (required)"},
                 {"json", "", "print the point's metrics as JSON"}};
    c.run = [](const Args &args, Io &io) {
        if (args.positional().size() != 2 || !args.has("out")) {
            io.err << "clusterbench sweep-point: expected GRID.json INDEX --out RESULT.json\n";
            return int(ExitBadInput);
        }
        const std::string path = args.positional()[0];
        auto text = readTextFile(path);
        if (!text) {
            io.err << text.error(path) << "\n";
            return int(ExitBadInput);
        }
        if (const Status out = checkNotAnInput(args.value("out"), {path}, "the result file");
            !out) {
            io.err << "clusterbench sweep-point: --out " << out.error() << "; nothing run\n";
            return int(ExitBadInput);
        }
        auto doc = parseJsonText(text.value());
        if (!doc) {
            io.err << doc.error(path) << "\n";
            return int(ExitBadInput);
        }
        auto grid = readGridManifest(doc.value());
        if (!grid) {
            io.err << grid.error(path) << "\n";
            return int(ExitBadInput);
        }
        long long index = -1;
        try {
            std::size_t used = 0;
            index = std::stoll(args.positional()[1], &used);
            if (used != args.positional()[1].size())
                index = -1;
        } catch (const std::exception &) {
        }
        if (index < 0 || index >= (long long)grid->points.size()) {
            io.err << "clusterbench sweep-point: INDEX: expected 0.."
                   << grid->points.size() - 1 << ", found \"" << args.positional()[1] << "\"\n";
            return int(ExitBadInput);
        }
        auto presets = userPresets(grid->scenario, "");
        if (!presets) {
            io.err << presets.error(path + ": /scenario") << "\n";
            return int(ExitBadInput);
        }
        // Every point's policy and parameters, named by their place in the grid file.
        Problems gridProblems;
        for (std::size_t i = 0; i < grid->points.size(); ++i)
            if (auto p = pointPolicy(grid->points[i], presets.value(),
                                     "/points/" + std::to_string(i));
                !p)
                gridProblems.insert(gridProblems.end(), p.problems().begin(),
                                    p.problems().end());
        if (!gridProblems.empty()) {
            io.err << formatProblems(gridProblems, path) << "\n";
            return int(ExitBadInput);
        }
        const GridPoint &point = grid->points[std::size_t(index)];
        auto run = runGridPoint(grid->scenario, presets.value(), point, grid->simulate,
                                grid->sweepId);
        if (!run) {
            io.err << "clusterbench sweep-point: " << run.error() << "\n";
            return int(ExitFailure);
        }
        const std::string out = args.value("out");
        const auto parent = std::filesystem::path(out).parent_path();
        std::error_code ec;
        if (!parent.empty())
            std::filesystem::create_directories(parent, ec);
        if (auto st = writeFileAtomically(
                out, sweepResultJson(grid->scenario, run.value(), grid->sweepId, int(index),
                                             int(grid->points.size()))
                             .dump(1) +
                         "\n");
            !st) {
            io.err << "clusterbench sweep-point: " << st.error() << "\n";
            return int(ExitFailure);
        }
        if (args.flag("json")) {
            nlohmann::ordered_json m = nlohmann::ordered_json::object();
            for (const auto &[name, value] : run->metrics)
                m[name] = jsonNumber(value);
            io.out << nlohmann::ordered_json{{"sweep", grid->sweepId},
                                             {"index", index},
                                             {"policy", point.policy},
                                             {"seed", point.seed},
                                             {"params", pointParams(point)},
                                             {"metrics", m},
                                             {"result", out}}
                          .dump(2)
                   << "\n";
            return int(ExitOk);
        }
        io.out << "Point " << index << " of " << grid->points.size() << " (sweep "
               << grid->sweepId << ", " << point.policy << ", seed " << point.seed << ", "
               << paramsText(point) << ") -> " << out << "\n";
        return int(ExitOk);
    };
    return c;
}

namespace {

/// "0, 3-5, 9" for {0, 3, 4, 5, 9} (sorted, distinct).
std::string sweepIndexRanges(const std::vector<int> &sorted)
{
    std::string out;
    for (std::size_t i = 0; i < sorted.size();) {
        std::size_t j = i;
        while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
            ++j;
        if (!out.empty())
            out += ", ";
        out += std::to_string(sorted[i]);
        if (j > i)
            out += "-" + std::to_string(sorted[j]);
        i = j + 1;
    }
    return out;
}

} // namespace

Command mergeCommand()
{
    Command c;
    c.name = "merge";
    c.synopsis = "merge RESULT.json... [--workspace FILE] [--json]";
    c.summary = "Store the result files of an emitted sweep in the workspace (once each)";
    c.description = "Reads every file first: if any is not a sweep result, nothing is stored "
                    "and every problem is printed (exit 2). A grid point already in the "
                    "workspace (same sweep id and index) is not stored again, so merging twice "
                    "is harmless. The points of a sweep are stored as partial until every point "
                    "of its grid is in the workspace; the points still missing are named.";
    c.options = {{"workspace", "FILE", "workspace to store into (default: as for history)"},
                 {"json", "", "print what was merged as JSON"}};
    c.run = [](const Args &args, Io &io) {
        if (args.positional().empty()) {
            io.err << "clusterbench merge: expected one or more RESULT.json files\n";
            return int(ExitBadInput);
        }
        std::vector<SweepResult> results;
        bool bad = false;
        for (const std::string &path : args.positional()) {
            auto text = readTextFile(path);
            if (!text) {
                io.err << text.error(path) << "\n";
                bad = true;
                continue;
            }
            auto doc = parseJsonText(text.value());
            if (!doc) {
                io.err << doc.error(path) << "\n";
                bad = true;
                continue;
            }
            auto r = readSweepResult(doc.value());
            if (!r) {
                io.err << r.error(path) << "\n";
                bad = true;
                continue;
            }
            results.push_back(std::move(r.value()));
        }
        // The grid size each sweep's files give (files written before it was recorded say 0);
        // files of one sweep that disagree cannot all be right.
        std::map<std::string, int> gridSize;
        for (std::size_t i = 0; i < results.size() && !bad; ++i) {
            const SweepResult &r = results[i];
            auto [it, first] = gridSize.emplace(r.sweepId, r.points);
            if (!first && it->second != r.points && r.points > 0 && it->second > 0) {
                io.err << args.positional()[i] << ": /points: sweep " << r.sweepId << " has "
                       << it->second << " points in the other files, this one says "
                       << r.points << "\n";
                bad = true;
            }
            it->second = std::max(it->second, r.points);
        }
        if (bad) {
            io.err << "clusterbench merge: nothing was stored\n";
            return int(ExitBadInput);
        }
        auto ws = Workspace::open(args.value("workspace", Workspace::defaultPath()));
        if (!ws) {
            io.err << "clusterbench merge: " << ws.error() << "\n";
            return int(ExitBadInput);
        }
        nlohmann::ordered_json merged = nlohmann::ordered_json::array();
        int added = 0, present = 0;
        for (std::size_t i = 0; i < results.size(); ++i) {
            const SweepResult &r = results[i];
            auto found = ws.value()->findSweepRun(r.sweepId, r.index);
            if (!found) {
                io.err << "clusterbench merge: " << found.error() << "\n";
                return int(ExitFailure);
            }
            std::int64_t id = found.value();
            const bool isNew = id == 0;
            if (isNew) {
                // A point of a sweep whose grid size is known stays "partial" until every
                // point of the grid is in the workspace (as a local sweep's points do).
                RunRecord run = r.run;
                if (gridSize[r.sweepId] > 0)
                    run.status = "partial";
                auto saved = saveRunTo(*ws.value(), r.scenario, std::move(run), io, "merge");
                if (!saved)
                    return int(ExitFailure);
                id = *saved;
                ++added;
            } else {
                ++present;
            }
            merged.push_back({{"file", args.positional()[i]},
                              {"sweep", r.sweepId},
                              {"index", r.index},
                              {"run", id},
                              {"new", isNew}});
            if (!args.flag("json"))
                io.out << args.positional()[i] << ": sweep " << r.sweepId << " point " << r.index
                       << (isNew ? " stored as run " : " already stored as run ") << id << "\n";
        }
        // Which points of each sweep are still not stored: complete sweeps are marked so, the
        // others are named with their missing points (a failed array task, a file not given).
        nlohmann::ordered_json sweeps = nlohmann::ordered_json::array();
        std::vector<std::string> incomplete;
        for (const auto &[sweepId, points] : gridSize) {
            if (points <= 0)
                continue;
            std::vector<int> missing;
            for (int index = 0; index < points; ++index) {
                auto found = ws.value()->findSweepRun(sweepId, index);
                if (!found) {
                    io.err << "clusterbench merge: " << found.error() << "\n";
                    return int(ExitFailure);
                }
                if (found.value() == 0)
                    missing.push_back(index);
            }
            if (missing.empty()) {
                if (auto st = ws.value()->finishSweep(sweepId); !st) {
                    io.err << "clusterbench merge: " << st.error() << "\n";
                    return int(ExitFailure);
                }
            } else {
                incomplete.push_back("sweep " + sweepId + ": " +
                                     std::to_string(points - int(missing.size())) + " of " +
                                     std::to_string(points) + " points stored; missing " +
                                     sweepIndexRanges(missing));
            }
            sweeps.push_back({{"sweep", sweepId},
                              {"points", points},
                              {"stored", points - int(missing.size())},
                              {"missing", missing}});
        }
        for (const std::string &line : incomplete)
            io.err << "clusterbench merge: " << line
                   << " (their array tasks failed or are still running, or their result files "
                      "were not given: see logs/point-INDEX.out); the stored points stay "
                      "partial until the rest are merged\n";
        if (args.flag("json")) {
            io.out << nlohmann::ordered_json{{"workspace", ws.value()->path()},
                                             {"stored", added},
                                             {"already_present", present},
                                             {"sweeps", sweeps},
                                             {"files", merged}}
                          .dump(2)
                   << "\n";
            return int(ExitOk);
        }
        io.out << "Merged " << counted((long long)added, "new run") << ", " << present
               << " already present, into " << ws.value()->path() << "\n";
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
