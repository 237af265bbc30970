#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/progress.h"
#include "io/file_io.h"
#include "io/scenario_json.h"
#include "io/sts_data.h"
#include "io/sts_setup.h"
#include "io/sts_tables.h"
#include "runs/sts_authors_check.h"
#include "runs/sts_experiment.h"
#include "sim/simulator.h"
#include "stochastic/sts_policy.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

/// Reports the usage problems, else reads the authors' data (--data DIR or the built-in
/// copies); nothing (the problems printed) on either failure.
std::optional<StsAuthorsData> usageThenData(const Args &args, Io &io, const Problems &usage)
{
    if (!usage.empty()) {
        io.err << "clusterbench experiment: " << formatProblems(usage) << "\n";
        return std::nullopt;
    }
    auto data = args.has("data") ? loadStsAuthorsData(args.value("data"))
                                 : builtinStsAuthorsData();
    if (!data) {
        io.err << "clusterbench experiment: " << data.error() << "\n";
        return std::nullopt;
    }
    return std::move(data.value());
}

/// experiment sts-authors DIR...: our STS stack against the authors' simulator.
int runAuthorsCheck(const Args &args, Io &io)
{
    const auto &pos = args.positional();
    if (pos.size() < 2) {
        io.err << "clusterbench experiment sts-authors: expected at least one instance folder "
                  "(Lof_Selectjobs.csv, SelectJobs_times.csv, tNodes.csv, GPU-costs.csv)\n";
        return ExitBadInput;
    }
    StsAuthorsCheckParams params;
    Problems usage;
    for (const char *name : {"iterations", "runs"}) {
        auto v = args.integer(name, name == std::string("runs") ? 0 : 1000);
        if (!v)
            usage.insert(usage.end(), v.problems().begin(), v.problems().end());
        else if (name == std::string("runs"))
            params.randomRuns = int(v.value());
        else
            params.randomIterations = int(v.value());
    }
    if (args.has("methods"))
        params.methods = commaList(args.value("methods"));
    params.saturationGuard = !args.flag("no-saturation-guard");
    if (args.flag("authors-ranking"))
        params.ranking = StsRanking::Authors;
    if (args.flag("authors-ties"))
        params.ties = StsTieOrder::Authors;
    auto data = usageThenData(args, io, usage);
    if (!data)
        return ExitBadInput;
    std::vector<StsAuthorsInstance> instances;
    for (std::size_t i = 1; i < pos.size(); ++i) {
        auto inst = loadStsAuthorsInstance(pos[i], data.value());
        if (!inst) {
            io.err << "clusterbench experiment: " << inst.error() << "\n";
            return ExitBadInput;
        }
        instances.push_back(std::move(inst.value()));
    }
    auto check = checkAgainstStsAuthors(instances, data.value(), params);
    if (!check) {
        io.err << "clusterbench experiment: " << check.error() << "\n";
        return ExitBadInput;
    }
    if (args.flag("json"))
        io.out << check->toJson().dump(2) << "\n";
    else
        io.out << check->toText();
    return ExitOk;
}

int runExperiment(const Args &args, Io &io)
{
    const auto &pos = args.positional();
    if (!pos.empty() && pos[0] == "sts-authors")
        return runAuthorsCheck(args, io);
    if (pos.size() != 1 || pos[0] != "sts") {
        io.err << "clusterbench experiment: expected the experiment name \"sts\" or "
                  "\"sts-authors\" (see --help)\n";
        return ExitBadInput;
    }
    StsExperimentParams params;
    Problems usage;
    auto integer = [&](const std::string &name, long long fallback) {
        auto v = args.integer(name, fallback);
        if (!v) {
            usage.insert(usage.end(), v.problems().begin(), v.problems().end());
            return fallback;
        }
        return v.value();
    };
    params.nodes = int(integer("nodes", 10));
    params.seeds = int(integer("seeds", 10));
    params.firstSeed = std::uint64_t(integer("first-seed", 1));
    params.jobsPerNode = int(integer("jobs-per-node", 10));
    params.randomIterations = int(integer("iterations", 1000));
    params.sharing = args.flag("sharing");
    params.multiNode = args.flag("multi-node");
    params.saturationGuard = !args.flag("no-saturation-guard");
    if (args.flag("authors-ranking"))
        params.ranking = StsRanking::Authors;
    params.scenarioFile = args.value("scenario", "");
    const std::string sliceMemory = args.value("slice-memory", "authors");
    if (sliceMemory != "authors" && sliceMemory != "per-gpu")
        usage.push_back({"--slice-memory", "expected authors or per-gpu, found \"" +
                                               sliceMemory + "\""});
    params.sliceMemoryPerGpu = sliceMemory == "per-gpu";
    if (args.has("methods"))
        params.methods = commaList(args.value("methods"));
    const std::string prices = args.value("prices", "cloud");
    if (prices != "cloud" && prices != "energy")
        usage.push_back({"--prices", "expected cloud or energy, found \"" + prices + "\""});
    if (params.jobsPerNode < 1 || params.jobsPerNode > 1000)
        usage.push_back({"--jobs-per-node", "expected 1..1000"});
    if (args.has("log") && !params.scenarioFile.empty())
        if (const Status log =
                checkNotAnInput(args.value("log"), {params.scenarioFile}, "the decision log");
            !log)
            usage.push_back({"--log", log.error()});
    auto data = usageThenData(args, io, usage);
    if (!data)
        return ExitBadInput;
    SharingSlices slices;
    if (params.sharing) {
        if (!data->slices) {
            io.err << "clusterbench experiment: --sharing: " << data->source
                   << "/fractions.csv: cannot open: no such file (the GPU-sharing slices)\n";
            return ExitBadInput;
        }
        slices = *data->slices;
    }
    PriceCatalogue catalogue;
    StsSetupParams setup;
    setup.nodes = params.nodes;
    setup.jobsPerNode = params.jobsPerNode;
    setup.seed = params.firstSeed;
    // The scenario of the first seed (the given file, or the authors' setup).
    auto first = params.scenarioFile.empty() ? buildStsScenario(data.value(), setup)
                                             : loadScenarioFile(params.scenarioFile);
    if (!first) {
        // (a file's problems name it, as every command's do)
        if (params.scenarioFile.empty())
            io.err << "clusterbench experiment: " << formatProblems(asOptions(first.problems()))
                   << "\n";
        else
            io.err << first.error(params.scenarioFile) << "\n";
        return ExitBadInput;
    }
    if (prices == "cloud") {
        // A scenario with GPU types the authors did not price: its own list prices.
        catalogue = stsCloudPrices(data.value(), first.value()).catalogue;
    } else {
        catalogue = PriceCatalogue::energyFromScenario(first.value());
    }

    auto report = [&] {
        ProgressBar bar(io, "experiment sts");
        params.progress = [&bar](int done, int total) { bar.update(done, total); };
        return runStsExperiment(data.value(), catalogue, slices, params);
    }();
    if (!report) {
        io.err << "clusterbench experiment: " << report.error() << "\n";
        return report.problems().front().where.rfind("--", 0) == 0 ? ExitBadInput
                                                                    : ExitFailure;
    }

    if (args.has("log")) {
        // The STS decision log of the first seed.
        auto jobs = stsJobsFromScenario(first.value(), data.value(),
                                        params.sharing ? &slices : nullptr, params.firstSeed,
                                        params.sliceMemoryPerGpu);
        if (!jobs) {
            io.err << "clusterbench experiment: " << jobs.error() << "\n";
            return ExitFailure;
        }
        GpuPool pool = stsPoolFromScenario(first.value());
        pool.setSplit(params.multiNode ? StsSplit::BestFit : StsSplit::None);
        StsDecisionLog log;
        auto run = simulateStochastic(first.value(), std::move(jobs.value()), std::move(pool),
                                      catalogue,
                                      std::make_shared<StsPolicy>(false, params.saturationGuard,
                                                                  params.ranking),
                                      params.firstSeed, &log, false);
        if (!run) {
            io.err << "clusterbench experiment: " << run.error() << "\n";
            return ExitFailure;
        }
        auto written = writeFileAtomically(args.value("log"), log.toJson().dump(1) + "\n");
        if (!written) {
            io.err << "clusterbench experiment: " << written.error() << "\n";
            return ExitFailure;
        }
    }

    if (args.flag("json"))
        io.out << report->toJson().dump(2) << "\n";
    else
        io.out << report->toText(outputColumns());
    return ExitOk;
}

} // namespace

Command experimentCommand()
{
    Command c;
    c.name = "experiment";
    c.synopsis = "experiment sts [--nodes N] [--seeds K] [--sharing] [--multi-node] "
                 "[--scenario FILE] [--json]\n"
                 "       experiment sts-authors DIR... [--methods LIST] [--runs N] [--json]";
    c.summary = "Reproduce a paper's experiment (sts: the STS data-centre comparison)";
    c.description =
        "sts: the STS paper's data-centre experiment (Filippini et al., IEEE TCC 2024): N "
        "nodes x 8 GPUs alternating K80 and M60, 10 jobs per node from the authors' 15 "
        "profiled templates, exponential arrivals with mean 50000/N s. Every method (STS and "
        "the authors' baselines FIFO, EDF, PS, G, RG, LS) runs the same jobs with the same "
        "sampled stop points; prints per method the mean and standard deviation over seeds "
        "of total, energy and tardiness cost and due-date violations, and STS's reduction of "
        "the mean total cost against each. The data folder holds the authors' CSV files.\n"
        "--sharing also runs STS without slices on the same jobs and reports the saving. "
        "STS-net (beyond the paper) plans as STS but places to avoid cross-node traffic; with "
        "--multi-node jobs may span nodes and the report gives cross-node bytes per method. "
        "--scenario runs on a scenario file (e.g. sample-clusters/dltap-testbed.json); jobs "
        "without STS data keep their own GPU count and run to the end.\n"
        "sts-authors: runs each method on instances of the authors' own experiment (folders "
        "with their generator's Lof_Selectjobs.csv, SelectJobs_times.csv, tNodes.csv and "
        "GPU-costs.csv: the exact job list and stop points) and sets our total cost beside "
        "their simulator's (authors_results_*.csv in the folder) per instance and method.";
    c.options = {
        {"nodes", "N", "nodes (default 10)"},
        {"seeds", "K", "seeds to average over (default 10)"},
        {"first-seed", "S", "first seed (default 1)"},
        {"jobs-per-node", "J", "jobs per node (default 10)"},
        {"sharing", "", "allow 1/4 and 1/2 GPU slices (fractions.csv); also reports the saving"},
        {"slice-memory", "M", "authors (fractions.csv as written, default) or per-gpu "
                              "(fraction x memory per GPU)"},
        {"multi-node", "", "configurations may span nodes (STS: best fit, STS-net: one rack)"},
        {"scenario", "FILE", "run on this scenario instead of the authors' generated setup"},
        {"no-saturation-guard", "", "STS without the saturation guard (the authors' code has "
                                    "none): jobs left waiting do not take GPUs from the largest "
                                    "running configuration"},
        {"authors-ranking", "", "STS ranks the GPU types' plans as the authors' code does (0 "
                                "when the cheapest configuration meets the due date, 1e6 when "
                                "the fastest misses it, ties in GPU-type order) instead of by "
                                "expected cost"},
        {"authors-ties", "", "sts-authors: of several best-fit nodes, take the one the authors' "
                             "simulator takes (its node list order) instead of the first"},
        {"methods", "LIST", "comma-separated methods (default STS,FIFO,EDF,PS,G,RG,LS; also "
                            "STS-net)"},
        {"iterations", "I", "RG/LS random iterations per event (default 1000, as the authors)"},
        {"runs", "N", "sts-authors: runs of RG and LS per instance (default: as many as the "
                      "authors' results)"},
        {"prices", "P", "cloud (GPU-cost_server.csv, default) or energy (watts x price x PUE)"},
        {"data", "DIR",
         "read the authors' CSV files from DIR (default: the copies built into the program)"},
        {"log", "FILE", "write the STS decision log of the first seed as JSON"},
        {"json", "", "print the results as JSON (a methods array)"},
    };
    c.run = runExperiment;
    return c;
}

} // namespace cb::cli
