#include "cli/command.h"
#include "cli/output_columns.h"
#include "io/import/importer_registry.h"
#include "io/import/model_catalog.h"
#include "io/import/pollux_validation.h"
#include "io/scenario_json.h"
#include "sim/fidelity_check.h"
#include "sim/pollux_replay.h"
#include "util/json_number.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <ostream>
#include <set>

namespace cb::cli {

namespace {

/// The trace files of `model` in `dir`: <model>_placements.csv and <model>_scalability.csv,
/// or <model>/placements.csv and <model>/scalability.csv (the Pollux repository's layout).
std::vector<std::string> traceFiles(const std::string &dir, const std::string &model)
{
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    for (const char *kind : {"placements", "scalability"}) {
        const fs::path flat = fs::path(dir) / (model + "_" + kind + ".csv");
        const fs::path nested = fs::path(dir) / model / (std::string(kind) + ".csv");
        std::error_code ec;
        if (fs::is_regular_file(flat, ec))
            out.push_back(flat.string());
        else if (fs::is_regular_file(nested, ec))
            out.push_back(nested.string());
    }
    return out;
}

int runNccl(const Args &args, Io &io)
{
    // NVLink on A100: 12 links x 25 GB/s line rate, about 20 GB/s each effective with 128-byte
    // payloads (NCCL maintainer, NVIDIA/nccl-tests#149): 240 GB/s. Latencies: NCCL's tuning
    // model for the ring's Simple protocol over NVLink (src/graph/tuning.cc, 2.x): 8.4 us
    // base, 3.4 us per step.
    const auto points = ncclA100BusBandwidth(240, 3.4e-6, 8.4e-6);
    std::vector<double> errors;
    for (const BusBandwidthPoint &p : points)
        errors.push_back(std::fabs(p.predictedGBps / p.measuredGBps - 1.0));
    if (args.flag("json")) {
        nlohmann::ordered_json j;
        j["system"] = "8 x A100-SXM4-80GB, NVSwitch (Azure ND A100 v4, NCCL 2.18.5)";
        j["model"] = {{"bus_gbytes_per_s", 240}, {"step_latency_us", 3.4},
                      {"base_latency_us", 8.4}};
        nlohmann::ordered_json arr = nlohmann::ordered_json::array();
        for (const BusBandwidthPoint &p : points)
            arr.push_back({{"bytes", jsonNumber(p.bytes)},
                           {"measured_busbw_gbytes_per_s", jsonNumber(p.measuredGBps)},
                           {"predicted_busbw_gbytes_per_s", jsonNumber(p.predictedGBps)}});
        j["points"] = arr;
        j["error_median"] = jsonNumber(medianOf(errors));
        j["error_p90"] = jsonNumber(percentileOf(errors, 0.9));
        io.out << j.dump(2) << "\n";
        return ExitOk;
    }
    io.out << wrapText("All-reduce bus bandwidth, 8 x A100-SXM4-80GB (NVSwitch), measured "
                       "(Azure ND A100 v4, NCCL 2.18.5) vs the ring model (240 GB/s, 8.4 us + "
                       "14 x 3.4 us)",
                       outputColumns())
           << "\n";
    io.out << "       bytes   measured GB/s   predicted GB/s   error\n";
    char line[128];
    for (const BusBandwidthPoint &p : points) {
        std::snprintf(line, sizeof line, "%12.0f %15.2f %16.2f %+7.1f %%\n", p.bytes,
                      p.measuredGBps, p.predictedGBps,
                      100.0 * (p.predictedGBps / p.measuredGBps - 1.0));
        io.out << line;
    }
    std::snprintf(line, sizeof line, "median error %.1f %%, 90th percentile %.1f %%\n",
                  100.0 * medianOf(errors), 100.0 * percentileOf(errors, 0.9));
    io.out << line;
    return ExitOk;
}

/// The Pollux simulator's average JCT on workload-6, Tiresias+TunedJobs (osdi21-artifact,
/// simulator/results-jobload/tiresias-1.0/summary.json; 3,470 s in simulator/README.md).
constexpr double kPolluxTiresiasWorkload6 = 3469.69375;

/// Mean JCT of one application's jobs in a replay (0 when it has none), for the table and
/// the JSON alike.
double meanJctOf(const ReplayResult &r, const std::string &application)
{
    double sum = 0;
    int n = 0;
    for (const ReplayJobResult &jr : r.jobs)
        if (jr.application == application) {
            sum += jr.jct();
            ++n;
        }
    return n ? sum / n : 0.0;
}

int runReplay(const Args &args, Io &io)
{
    const auto &pos = args.positional();
    if (pos.size() != 2) {
        io.err << "clusterbench fidelity: --replay WORKLOAD expects SCENARIO and TRACE_DIR\n";
        return ExitBadInput;
    }
    std::vector<ReplayQueue> queues;
    const std::string queueName = args.value("queue", "all");
    if (queueName == "all")
        queues = {ReplayQueue::Tiresias, ReplayQueue::Fifo, ReplayQueue::FifoStrict};
    else if (auto q = replayQueueFromString(queueName))
        queues = {*q};
    else {
        io.err << "clusterbench fidelity: --queue: expected tiresias, fifo, fifo-strict or all, "
                  "found \""
               << queueName << "\"\n";
        return ExitBadInput;
    }
    auto scenario = loadScenarioFile(pos[0]);
    if (!scenario) {
        io.err << "clusterbench fidelity: " << scenario.error() << "\n";
        return ExitBadInput;
    }
    ImportInput win;
    win.name = win.path = args.value("replay");
    {
        std::error_code ec;
        win.fileSize = std::size_t(std::filesystem::file_size(win.path, ec));
        if (ec) {
            io.err << "clusterbench fidelity: " << win.path << ": cannot open: " << ec.message()
                   << "\n";
            return ExitBadInput;
        }
    }
    auto workload = readPolluxWorkload(win);
    if (!workload) {
        io.err << "clusterbench fidelity: " << workload.error() << "\n";
        return ExitBadInput;
    }
    std::set<std::string> names;
    for (const PolluxWorkloadJob &j : workload.value())
        names.insert(j.application);
    const Importer *importer = findImporter("pollux-throughput");
    std::vector<PolluxApplication> apps;
    for (const std::string &name : names) {
        const auto settings = polluxSimulatorApplication(name);
        if (!settings) {
            io.err << "clusterbench fidelity: " << win.path << ": application \"" << name
                   << "\" is not one of the Pollux simulator's (bert, cifar10, deepspeech2, "
                      "imagenet, ncf, yolov3)\n";
            return ExitBadInput;
        }
        const std::vector<std::string> files = traceFiles(pos[1], name);
        if (files.empty()) {
            io.err << "clusterbench fidelity: " << pos[1] << ": no " << name
                   << "_placements.csv or " << name << "/placements.csv\n";
            return ExitBadInput;
        }
        ImportOptions options;
        options.model = name;
        auto imported = importFiles(*importer, files, options);
        if (!imported) {
            io.err << "clusterbench fidelity: " << imported.error() << "\n";
            return ExitBadInput;
        }
        auto runs = readPolluxValidationRuns(pos[1], name);
        if (!runs) {
            io.err << "clusterbench fidelity: " << runs.error() << "\n";
            return ExitBadInput;
        }
        PolluxApplication a;
        a.name = name;
        a.table = imported->stepTimeModels.at(name);
        a.validation = std::move(runs.value());
        a.maxEpochs = settings->first;
        a.maxLocalBatch = settings->second;
        apps.push_back(std::move(a));
    }
    ReplayOptions options;
    options.gpusPerNode.clear();
    for (const Node &n : scenario->cluster.nodes)
        options.gpusPerNode.push_back(n.gpus);
    std::vector<std::pair<ReplayQueue, ReplayResult>> results;
    for (ReplayQueue q : queues) {
        options.queue = q;
        auto r = replayPolluxWorkload(apps, workload.value(), options);
        if (!r) {
            io.err << "clusterbench fidelity: " << r.error() << "\n";
            return ExitBadInput;
        }
        results.emplace_back(q, std::move(r.value()));
    }
    const bool workload6 = std::filesystem::path(win.path).filename().string() == "workload-6.csv";
    if (args.flag("json")) {
        nlohmann::ordered_json j;
        j["workload"] = win.path;
        j["jobs"] = workload->size();
        j["gpus"] = std::accumulate(options.gpusPerNode.begin(), options.gpusPerNode.end(), 0);
        nlohmann::ordered_json arr = nlohmann::ordered_json::array();
        for (const auto &[q, r] : results) {
            nlohmann::ordered_json o;
            o["queue"] = toString(q);
            o["mean_jct_s"] = jsonNumber(r.meanJct);
            o["makespan_s"] = jsonNumber(r.makespan);
            o["preemptions"] = r.preemptions;
            if (q == ReplayQueue::Tiresias && workload6) {
                o["pollux_simulator_mean_jct_s"] = jsonNumber(kPolluxTiresiasWorkload6);
                o["ratio"] = jsonNumber(r.meanJct / kPolluxTiresiasWorkload6);
            }
            nlohmann::ordered_json per = nlohmann::ordered_json::object();
            for (const std::string &name : names)
                per[name] = jsonNumber(meanJctOf(r, name));
            o["mean_jct_by_application_s"] = per;
            if (args.flag("points")) {
                nlohmann::ordered_json pts = nlohmann::ordered_json::array();
                for (const ReplayJobResult &jr : r.jobs)
                    pts.push_back({{"name", jr.name},
                                   {"submit_s", jsonNumber(jr.submitSeconds)},
                                   {"finish_s", jsonNumber(jr.finishSeconds)},
                                   {"starts", jr.starts}});
                o["jobs"] = pts;
            }
            arr.push_back(o);
        }
        j["runs"] = arr;
        io.out << j.dump(2) << "\n";
        return ExitOk;
    }
    char line[256];
    const std::size_t width = outputColumns();
    io.out << wrapText("Pollux workload " + win.path + ": " + std::to_string(workload->size()) +
                           " jobs on " + std::to_string(options.gpusPerNode.size()) + " nodes, " +
                           std::to_string(std::accumulate(options.gpusPerNode.begin(),
                                                          options.gpusPerNode.end(), 0)) +
                           " GPUs; rounds of 60 s, 30 s per (re)start, fixed GPUs and batch "
                           "per job",
                       width)
           << "\n";
    io.out << "queue         mean JCT (s)   makespan (s)   preemptions\n";
    for (const auto &[q, r] : results) {
        std::snprintf(line, sizeof line, "%-12s %13.1f %14.0f %13d\n", toString(q), r.meanJct,
                      r.makespan, r.preemptions);
        io.out << line;
    }
    // The mean JCT per model: a table of its own, split into blocks of equal size that fit
    // the width.
    const std::vector<std::string> models(names.begin(), names.end());
    const std::size_t fit = std::max<std::size_t>(1, (width - 12) / 13);
    const std::size_t blocks = (models.size() + fit - 1) / fit;
    const std::size_t perRow = blocks > 0 ? (models.size() + blocks - 1) / blocks : fit;
    for (std::size_t first = 0; first < models.size(); first += perRow) {
        const std::size_t last = std::min(models.size(), first + perRow);
        io.out << "\n" << (first == 0 ? "mean JCT (s)" : "            ");
        for (std::size_t k = first; k < last; ++k)
            io.out << "  " << std::string(models[k].size() < 11 ? 11 - models[k].size() : 0, ' ')
                   << models[k];
        io.out << "\n";
        for (const auto &[q, r] : results) {
            std::snprintf(line, sizeof line, "%-12s", toString(q));
            io.out << line;
            for (std::size_t k = first; k < last; ++k) {
                std::snprintf(line, sizeof line, "  %*.1f",
                              int(std::max<std::size_t>(11, models[k].size())),
                              meanJctOf(r, models[k]));
                io.out << line;
            }
            io.out << "\n";
        }
    }
    for (const auto &[q, r] : results)
        if (q == ReplayQueue::Tiresias && workload6) {
            std::snprintf(line, sizeof line,
                          "the Pollux simulator (Tiresias+TunedJobs on workload-6, its run's "
                          "summary.json; 3,470 s in its README): %.1f s; ours / theirs = %.4f",
                          kPolluxTiresiasWorkload6, r.meanJct / kPolluxTiresiasWorkload6);
            io.out << "\n" << wrapText(line, width) << "\n";
        }
    return ExitOk;
}

int runFidelity(const Args &args, Io &io)
{
    if (args.has("replay"))
        return runReplay(args, io);
    if (args.flag("nccl")) {
        if (!args.positional().empty()) {
            io.err << "clusterbench fidelity: --nccl takes no files\n";
            return ExitBadInput;
        }
        return runNccl(args, io);
    }
    const auto &pos = args.positional();
    if (pos.size() != 2) {
        io.err << "clusterbench fidelity: expected SCENARIO and TRACE_DIR (see --help)\n";
        return ExitBadInput;
    }
    Problems usage;
    FidelitySplit split = FidelitySplit::Half;
    const std::string splitName = args.value("split", "half");
    if (splitName == "one-node")
        split = FidelitySplit::OneNode;
    else if (splitName != "half")
        usage.push_back({"--split", "expected half or one-node, found \"" + splitName + "\""});
    auto scenario = loadScenarioFile(pos[0]);
    if (!scenario) {
        io.err << "clusterbench fidelity: " << scenario.error() << "\n";
        return ExitBadInput;
    }
    Scenario &s = scenario.value();
    AllReduceAlgorithm algorithm = s.settings.allreduce;
    if (args.has("allreduce")) {
        if (auto a = allReduceAlgorithmFromString(args.value("allreduce")))
            algorithm = *a;
        else
            usage.push_back({"--allreduce", "expected ring, tree or hierarchical, found \"" +
                                                args.value("allreduce") + "\""});
    }
    if (args.has("flow-cap-gbps")) {
        const std::string v = args.value("flow-cap-gbps");
        char *end = nullptr;
        const double cap = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0' || !(cap >= 0))
            usage.push_back({"--flow-cap-gbps", "expected a number >= 0, found \"" + v + "\""});
        else
            for (Link &l : s.cluster.links)
                l.flowCapGbps = cap;
    }
    if (!usage.empty()) {
        io.err << "clusterbench fidelity: " << formatProblems(usage) << "\n";
        return ExitBadInput;
    }
    const Importer *importer = findImporter("pollux-throughput");
    std::vector<FidelityModelInput> models;
    std::set<std::string> seen;
    for (const Job &job : s.jobs) {
        const std::string &name = job.model.name;
        if (name.empty() || !seen.insert(name).second)
            continue;
        // Under the model's name, or a name a trace gives it (an imported Pollux workload's
        // cifar10 jobs train resnet18; their files are cifar10_*.csv).
        std::vector<std::string> files;
        for (const std::string &traceName : traceNamesOf(name))
            if (files = traceFiles(pos[1], traceName); !files.empty())
                break;
        if (files.empty())
            continue;
        ImportOptions options;
        options.model = name;
        auto imported = importFiles(*importer, files, options);
        if (!imported) {
            io.err << "clusterbench fidelity: " << imported.error() << "\n";
            return ExitBadInput;
        }
        FidelityModelInput in;
        in.name = name;
        in.parameterBytes = job.model.parameterBytes;
        in.table = imported->stepTimeModels.at(name);
        models.push_back(std::move(in));
    }
    if (models.empty()) {
        io.err << "clusterbench fidelity: " << pos[1]
               << ": no <model>_placements.csv or <model>/placements.csv for any model of "
               << pos[0] << "\n";
        return ExitBadInput;
    }
    auto report = checkFidelity(s.cluster, algorithm, models, split);
    if (!report) {
        io.err << "clusterbench fidelity: " << report.error() << "\n";
        return ExitBadInput;
    }
    if (args.flag("json"))
        io.out << report->toJson(args.flag("points")).dump(2) << "\n";
    else
        io.out << report->text(outputColumns());
    return ExitOk;
}

} // namespace

Command fidelityCommand()
{
    Command c;
    c.name = "fidelity";
    c.synopsis = "fidelity SCENARIO TRACE_DIR [--split half|one-node] "
                 "[--allreduce ring|tree|hierarchical] [--flow-cap-gbps G] [--json [--points]] "
                 "| fidelity --replay WORKLOAD SCENARIO TRACE_DIR [--queue tiresias|fifo|"
                 "fifo-strict|all] [--json [--points]] | fidelity --nccl [--json]";
    c.summary = "Check simulated step times against measured ones (the Pollux traces)";
    c.description =
        "Predicts the step and sync time of every measured placement in the Pollux authors' "
        "traces (TRACE_DIR holds <model>_placements.csv and <model>_scalability.csv, or "
        "<model>/placements.csv as in petuum/adaptdl simulator/traces) on the SCENARIO's "
        "cluster (its first nodes take a placement's GPUs, node by node) with the simulator's "
        "own model: the communication plan on the max-min network, compute, overlap and the "
        "straggler wait. Models are the job model names of SCENARIO that have traces; their "
        "parameter_bytes come from the scenario. Only compute and overlap are calibrated per "
        "model, on the training split: the 1-GPU measurement as the compute profile, "
        "colocation_slowdown, overlap, exposed_comm_fraction and compute_cv; every other "
        "figure is the scenario's hardware. --split half (default) trains on every other "
        "measured placement (in order of nodes, GPUs, digits) and holds out the rest; "
        "one-node trains on the single-node placements only. scalability.csv points are "
        "always held out. Prints per model the training and held-out points, the median and "
        "90th-percentile absolute relative error of step and sync time, the worst held-out "
        "placement, the scalability points' errors and the calibrated parameters. "
        "--allreduce and --flow-cap-gbps (every link's per-flow limit, 0 = none) override the "
        "scenario for a sensitivity check. --nccl compares the ring model's all-reduce bus "
        "bandwidth with nccl-tests figures published for an 8 x A100 NVSwitch node. "
        "--replay WORKLOAD replays a Pollux workload CSV (name, time, application, "
        "num_replicas, batch_size) on the SCENARIO's nodes the way the Pollux simulator "
        "(petuum/adaptdl osdi21-artifact) runs its fixed-configuration baselines: rounds of "
        "60 s, 30 s per (re)start, each job on its GPUs at its batch with the measured step "
        "times of TRACE_DIR and the progress of its validation runs "
        "(<app>_validation-<B>.csv or <app>/validation-<B>.csv), the epochs per application "
        "of their simulator; --queue tiresias (Tiresias's two-queue discretised 2D-LAS, "
        "preemptive, 16 GPU-hours to demotion), fifo (never preempts; a job that does not "
        "fit lets later ones start), fifo-strict (stops at the first that does not fit) or "
        "all (default). Prints each queue's mean JCT, makespan, preemptions and per-"
        "application mean JCT, and for workload-6.csv the Pollux simulator's published "
        "Tiresias figure (3,469.7 s) with the ratio.";
    c.options = {
        {"split", "S", "half (default) or one-node"},
        {"allreduce", "A", "ring, tree or hierarchical (default: the scenario's)"},
        {"flow-cap-gbps", "G", "per-flow limit on every link, Gbit/s (0 = none)"},
        {"json", "", "print JSON"},
        {"points", "", "with --json: every point, predicted and measured"},
        {"nccl", "", "bus bandwidth of the ring model against published nccl-tests figures"},
        {"replay", "WORKLOAD", "replay a Pollux workload CSV with fixed GPUs per job"},
        {"queue", "Q", "with --replay: tiresias, fifo, fifo-strict or all (default)"},
    };
    c.run = runFidelity;
    return c;
}

} // namespace cb::cli
