#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/progress.h"
#include "io/file_io.h"
#include "io/import/importer_registry.h"
#include "io/import/scenario_import.h"
#include "io/import/text_fields.h"
#include "io/import/time_column.h"
#include "io/import/yaml_expansion.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

std::string formatList()
{
    std::string s;
    const auto section = [&](const char *title, auto wanted) {
        s += std::string(title) + ":\n";
        for (const Importer *i : importers()) {
            if (!wanted(i->produces()))
                continue;
            std::string left = "  " + i->name();
            left.resize(std::max<std::size_t>(left.size() + 2, 22), ' ');
            s += left + i->description() + "\n";
        }
    };
    using P = Importer::Produces;
    section("Cluster formats", [](P p) { return p == P::Cluster || p == P::ClusterAndJobs; });
    section("Trace formats", [](P p) { return p == P::Jobs; });
    section("Model data", [](P p) { return p == P::ModelData; });
    return s;
}

std::string description()
{
    return "Reads a cluster (Kubernetes nodes, Slurm configuration, a topology file) and/or a "
           "job trace into a scenario. Without FORMAT the format of each FILE is detected "
           "from its content and named in the report; a cluster file and a trace may be given "
           "together (the trace's jobs go to that cluster). A FORMAT that does not fit a file "
           "says what the file looks like instead.\n\n"
           "Trace jobs go to the cluster of --cluster SCENARIO (its jobs are not kept), to "
           "--append-to SCENARIO (its cluster and jobs are kept), to a cluster among the "
           "inputs, or else to a default cluster of 4 nodes with 8 V100 GPUs each (--gpu-type "
           "picks another model). A job is left out, with its file and line, when it cannot "
           "run on the cluster, when a value is beyond the scenario format's range, or when "
           "it never started (--pending skip, the default; --pending wait keeps such jobs "
           "waiting from their submit time with the default length). The report counts the "
           "rows read and the jobs written, and groups the rows left out by reason with the "
           "first line numbers of each (--all-skipped lists every one); it goes to stderr, "
           "or to stdout as JSON with --json, on success and on failure.\n\n"
           "Times: each time column's format is detected from its first value: a date-time "
           "(\"2017-10-09 07:01:55\", also with T, fractions, a zone such as Z, +08:00 or "
           "PDT; without a zone it is read as UTC), a number from 10^11 up (epoch "
           "milliseconds), from 10^8 up (epoch seconds), or a smaller number (seconds from "
           "the trace's start). --time-format FORMAT or --time-format COLUMN=FORMAT "
           "overrides it, with FORMAT one of " +
           timeFormatNames() +
           ". Jobs are rebased so the first submission is at 0 s.\n\n"
           "csv-mapping reads any CSV trace through a JSON mapping given as its first file, "
           "e.g. mapping.json:\n"
           "  {\"delimiter\": \",\", \"header\": true, \"time_format\": \"auto\",\n"
           "   \"columns\": {\"id\": \"job_id\", \"submit\": \"submit_time\", \"gpus\": "
           "\"num_gpu\",\n"
           "               \"duration\": \"duration\", \"model\": \"model_name\"},\n"
           "   \"defaults\": {\"gpus\": 1}}\n"
           "  clusterbench import csv-mapping mapping.json trace.csv --out s.json\n"
           "Roles: id, submit, gpus, duration, start, end, iterations, model, name, cpus, "
           "memory_gib, workers; a column is a header name, or a 0-based index with "
           "\"header\": false; time_scale multiplies numeric times (60: minutes).\n\n"
           "Topology formats that name nodes but not their contents (topology.conf or "
           "topology.yaml alone, topograph, SimGrid) take --node-template "
           "gpus=8,gpu-type=H100,cpus=96,memory-gib=1024, or a node file (NCCL or hwloc "
           "XML) whose node is copied; with slurm.conf it fills in only what the NodeName "
           "lines leave out (RealMemory, CPUs, a GPU type). YAML aliases may make a document "
           "stand for at most " +
           std::to_string(kYamlExpansionFactor) + " times its written nodes plus " +
           std::to_string(kYamlExpansionAllowance) +
           ".\n\nExit codes: 0 with the scenario written; 1 when nothing usable was found "
           "(every row left out, or a cluster without a GPU) or the file could not be written; 2 "
           "on bad usage or input "
           "that cannot be read as its format. On any failure nothing is written. A progress "
           "bar covers reading, checking and writing when stderr is a terminal.\n\n" +
           formatList();
}

/// The import report laid out for the terminal.
std::string reportText(const ImportReport &report, bool allSkipped)
{
    return wrappedLines(report.toText(allSkipped));
}

int failImport(Io &io, bool json, int code, const std::string &message,
               const ImportReport *report = nullptr)
{
    if (json) {
        nlohmann::ordered_json j = report ? report->toJson() : nlohmann::ordered_json::object();
        j["written"] = false;
        j["error"] = message;
        io.out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else if (report && (report->rowsRead > 0 || report->skippedCount > 0 ||
                          (code == ExitFailure && !report->assumptions.empty()))) {
        // (nothing usable: what was assumed may say why, e.g. gres.conf lines that name no
        // node, or a node file without a GPU)
        io.err << reportText(*report, false);
    }
    // On a terminal a long message (the list of formats) wraps; in a pipe or a log each
    // stays on one line, for grep.
    io.err << forStderr("clusterbench import: " + message, io.errIsTerminal);
    return code;
}

} // namespace

Command importCommand()
{
    Command c;
    c.name = "import";
    c.synopsis = "import [FORMAT] FILE... --out SCENARIO.json [--cluster S | --append-to S] "
                 "[--json]";
    c.summary = "Import a cluster (Kubernetes, Slurm, topology files) and/or a job trace";
    c.description = description();
    c.options = {
        {"out", "FILE", "scenario file to write (required)"},
        {"cluster", "SCENARIO", "trace jobs go to this scenario's cluster (its jobs not kept)"},
        {"append-to", "SCENARIO", "trace jobs are added to this scenario (its jobs kept)"},
        {"name", "NAME", "scenario name (default: the first input's file name)"},
        {"time-format", "[COLUMN=]FORMAT", "how to read time columns (default: detected)"},
        {"pending", "skip|wait", "jobs that never started: left out (skip) or kept waiting"},
        {"gpu-type", "TYPE", "GPU model where the input names none, and of the default cluster"},
        {"node-template", "SPEC|FILE",
         "node contents for topology-only formats (slurm.conf: what it leaves out)"},
        {"nodes", "N", "nccl-topo, hwloc: identical nodes the one-node file stands for (1)"},
        {"keep-unavailable-nodes", "",
         "scontrol-nodes, k8s-nodes: keep nodes that take no new job now (down, drained, "
         "failed, cordoned, not Ready), which are left out"},
        {"throughputs", "FILE", "gavel: Gavel throughputs JSON (default: built in)"},
        {"default-model", "MODEL", "model profile for jobs naming no known model (resnet50)"},
        {"seconds-per-iteration", "S", "reference-GPU time per iteration for durations (0.1)"},
        {"date", "YYYY-MM-DD",
         "helios-gpus: the day to build the cluster from (default: the last)"},
        {"model", "NAME",
         "pollux-throughput: model profile the table is for (default: from "
         "the file names)"},
        {"all-skipped", "", "list every skipped row, not the first of each reason"},
        {"json", "", "print the report as JSON on stdout"},
    };
    c.run = [](const Args &args, Io &io) {
        const bool json = args.flag("json");
        const auto &pos = args.positional();
        if (pos.empty())
            return failImport(io, json, ExitBadInput,
                              "expected [FORMAT] and at least one FILE (see --help)");
        ImportRequest request;
        std::size_t first = 0;
        if (findImporter(pos[0])) {
            request.format = pos[0];
            first = 1;
        } else {
            std::error_code ec;
            if (!std::filesystem::exists(pos[0], ec)) {
                std::string msg = "\"" + pos[0] + "\" is neither a format nor a file";
                if (pos.size() > 1)
                    msg += "; formats: ";
                else
                    msg += " (see --help for the formats)";
                if (pos.size() > 1)
                    for (const Importer *i : importers())
                        msg += i->name() + (i == importers().back() ? "" : ", ");
                return failImport(io, json, ExitBadInput, msg);
            }
        }
        request.files.assign(pos.begin() + std::ptrdiff_t(first), pos.end());
        if (request.files.empty())
            return failImport(io, json, ExitBadInput, "expected at least one FILE after " + pos[0]);
        if (!args.has("out"))
            return failImport(io, json, ExitBadInput, "--out FILE is required");
        // (refused before the work: a trace may take a while to read)
        if (const Status out = checkOutputFile(args.value("out")); !out) {
            ImportReport named; // (the format, when named: as any failure once it is known)
            named.format = request.format;
            return failImport(io, json, ExitFailure, out.error() + "; nothing read", &named);
        }
        ImportOptions &options = request.options;
        if (args.has("default-model"))
            options.defaultModel = args.value("default-model");
        if (args.has("seconds-per-iteration")) {
            auto v = importtext::parseNumber(args.value("seconds-per-iteration"));
            if (!v || *v <= 0 || *v > 1e6)
                return failImport(io, json, ExitBadInput,
                                  "--seconds-per-iteration: expected a positive number");
            options.secondsPerIteration = *v;
        }
        for (const std::string &spec : args.values("time-format"))
            if (auto ok = options.timeFormats.add(spec); !ok)
                return failImport(io, json, ExitBadInput, ok.error());
        if (args.has("pending")) {
            const std::string p = args.value("pending");
            if (p != "skip" && p != "wait")
                return failImport(io, json, ExitBadInput,
                                  "--pending: expected skip or wait, found \"" + p + "\"");
            options.pending = p == "wait" ? PendingJobs::Wait : PendingJobs::Skip;
        }
        if (args.has("nodes")) {
            auto n = args.integer("nodes", 1);
            if (!n || n.value() < 1 || n.value() > 100000)
                return failImport(io, json, ExitBadInput,
                                  "--nodes: expected a whole number from 1 to 100000");
            options.nodeCount = int(n.value());
        }
        options.gpuType = args.value("gpu-type", "");
        options.keepUnavailableNodes = args.flag("keep-unavailable-nodes");
        options.throughputsFile = args.value("throughputs", "");
        options.date = args.value("date", "");
        options.model = args.value("model", "");
        request.clusterFile = args.value("cluster", "");
        request.appendTo = args.value("append-to", "");
        request.nodeTemplate = args.value("node-template", "");
        request.name = args.value("name", "");

        // An --out that names an input is refused before any work (the import would be read,
        // checked and reported, then refused).
        {
            std::vector<std::string> inputs = request.files;
            for (const std::string *also : {&request.clusterFile, &request.nodeTemplate})
                if (!also->empty())
                    inputs.push_back(*also);
            if (const Status notInput = checkNotAnInput(args.value("out"), inputs, "the scenario");
                !notInput)
                return failImport(io, json, ExitBadInput,
                                  "--out " + args.value("out") + ": " +
                                      notInput.problems().front().message + "; nothing written");
        }
        ProgressBar bar(io, "import");
        ScenarioImport import(std::move(request), [&bar](const std::string &phase, double f) {
            bar.updateFraction(f, phase);
            return true;
        });
        const bool ok = import.run() && import.write(args.value("out"));
        bar.finish();
        if (!ok) {
            const int code =
                import.failure() == ImportFailure::BadInput ? ExitBadInput : ExitFailure;
            std::string message = formatProblems(import.problems());
            if ((import.failure() == ImportFailure::BadInput ||
                 import.failure() == ImportFailure::NothingUsable) &&
                message.find('\n') == std::string::npos)
                message += "; nothing written";
            else
                message =
                    (import.failure() == ImportFailure::BadInput ? "nothing written:\n" : "") +
                    message;
            return failImport(io, json, code, message, &import.report());
        }
        const ImportReport &report = import.report();
        if (json) {
            nlohmann::ordered_json j = report.toJson();
            j["detected"] = import.detected();
            j["scenario_jobs"] = import.scenario().jobs.size();
            j["out"] = args.value("out");
            j["written"] = true;
            io.out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        } else {
            for (const std::string &d : import.detected())
                io.err << wrapText("detected " + d, outputColumns(), 2) << "\n";
            io.err << reportText(report, args.flag("all-skipped"));
        }
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
