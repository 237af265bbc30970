#include "io/sts_tables.h"
#include "runs/sts_experiment.h"

#include "io/file_io.h"
#include "io/scenario_json.h"
#include "io/sts_setup.h"
#include "sim/simulator.h"
#include "stochastic/first_principle_scheduler.h"
#include "stochastic/greedy_scheduler.h"
#include "stochastic/sts_policy.h"
#include "util/text.h"
#include "util/text_table.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <set>
#include <sstream>

namespace cb {

const std::vector<std::string> &stsMethodNames()
{
    static const std::vector<std::string> names = {"STS", "STS-net", "FIFO", "EDF",
                                                   "PS",  "G",       "RG",   "LS"};
    return names;
}

std::unique_ptr<StsScheduler> makeStsScheduler(const std::string &name, int randomIterations,
                                               bool saturationGuard, StsRanking ranking)
{
    GreedyScheduler::Params p;
    p.randomIterations = randomIterations;
    if (name == "STS")
        return std::make_unique<StsPolicy>(false, saturationGuard, ranking);
    if (name == "STS-net")
        return std::make_unique<StsPolicy>(true, saturationGuard, ranking);
    if (name == "FIFO")
        return std::make_unique<FirstPrincipleScheduler>(FirstPrincipleScheduler::Order::Fifo);
    if (name == "EDF")
        return std::make_unique<FirstPrincipleScheduler>(FirstPrincipleScheduler::Order::Edf);
    if (name == "PS")
        return std::make_unique<FirstPrincipleScheduler>(
            FirstPrincipleScheduler::Order::Priority);
    if (name == "G")
        return std::make_unique<GreedyScheduler>(GreedyScheduler::Variant::Greedy, p);
    if (name == "RG")
        return std::make_unique<GreedyScheduler>(GreedyScheduler::Variant::RandomGreedy, p);
    if (name == "LS")
        return std::make_unique<GreedyScheduler>(GreedyScheduler::Variant::LocalSearch, p);
    return nullptr;
}

namespace {

/// A fixed-size table for a job without STS data: its GPU count on every GPU type of the
/// cluster, iterations x compute seconds per iteration there.
std::vector<StsConfigTime> derivedTimes(const Job &job, const Cluster &cluster)
{
    std::vector<StsConfigTime> out;
    const int g = std::max(1, job.gpuCount());
    for (const GpuType &t : cluster.gpuTypes) {
        double perIteration = job.model.computeSecondsPerIteration /
                              std::max(1e-9, t.relativeSpeed);
        if (auto it = job.model.computeSecondsByGpuType.find(t.name);
            it != job.model.computeSecondsByGpuType.end())
            perIteration = it->second;
        const double seconds = double(job.model.iterations) * perIteration;
        if (seconds > 0)
            out.push_back({{t.name, g, 1.0}, seconds});
    }
    return out;
}

} // namespace

SharingSlices perGpuSlices(const SharingSlices &slices, const Scenario &s)
{
    SharingSlices out;
    for (SharingSlice sl : slices.slices()) {
        if (const GpuType *t = s.cluster.gpuType(sl.gpuType))
            sl.memoryGB = sl.fraction * t->memoryGiB;
        out.add(sl);
    }
    return out;
}

Result<std::vector<StsJob>> stsJobsFromScenario(const Scenario &s, const StsAuthorsData &data,
                                                const SharingSlices *slices, std::uint64_t seed,
                                                bool perGpuMemory)
{
    auto dists = TerminationDistribution::fromScenario(s.distributions);
    if (!dists)
        return dists.problems();
    SharingSlices resized;
    if (slices && perGpuMemory) {
        resized = perGpuSlices(*slices, s);
        slices = &resized;
    }
    Problems p;
    std::vector<StsJob> jobs;
    for (std::size_t i = 0; i < s.jobs.size(); ++i) {
        const Job &job = s.jobs[i];
        const std::string where = "/jobs/" + std::to_string(i);
        StsJob j;
        j.id = job.id;
        j.submitSeconds = job.submitSeconds;
        j.dueSeconds = job.dueSeconds.value_or(std::numeric_limits<double>::infinity());
        j.tardinessWeight = job.tardinessWeight;
        j.parameterBytes = double(job.model.parameterBytes);
        if (job.sts) {
            j.maxEpochs = job.sts->maxEpochs;
            if (auto d = dists->find(job.sts->termination); d != dists->end())
                j.termination = d->second;
            else
                p.push_back({where + "/sts/termination",
                             "unknown distribution \"" + job.sts->termination + "\""});
            for (const ExecutionTime &e : job.sts->executionTimes)
                if (e.seconds > 0)
                    j.times.push_back({{e.gpuType, e.gpus, e.fraction}, e.seconds});
        } else {
            j.maxEpochs = 100;
            j.times = derivedTimes(job, s.cluster);
        }
        j.iterationsPerEpoch = double(job.model.iterations) / j.maxEpochs;
        const std::string templateId = job.name.substr(0, job.name.find(' '));
        for (const StsJobTemplate &t : data.templates)
            if (t.id == templateId)
                j.memoryGB = t.memoryGB;
        Rng rng(Rng::mix(seed, 0x73747300ULL + i));
        // The stop point first: the same with and without sharing slices.
        j.trueStopPercent = j.termination.sample(rng);
        if (slices && j.memoryGB > 0) {
            const double r = rng.uniform();
            std::vector<StsConfigTime> extra;
            for (const StsConfigTime &t : j.times) {
                if (t.config.gpus != 1 || t.config.shared())
                    continue;
                for (const SharingSlice &sl : slices->fitting(t.config.gpuType, j.memoryGB)) {
                    const double inflate = 1.01 + (sl.inflateMax - 1.01) * r;
                    extra.push_back({{t.config.gpuType, 1, sl.fraction},
                                     t.fullSeconds * std::max(1.0, inflate)});
                }
            }
            j.times.insert(j.times.end(), extra.begin(), extra.end());
        }
        std::stable_sort(j.times.begin(), j.times.end(),
                         [](const StsConfigTime &a, const StsConfigTime &b) {
                             if (a.config.gpuType != b.config.gpuType)
                                 return a.config.gpuType < b.config.gpuType;
                             return a.config.smallerThan(b.config);
                         });
        if (j.times.empty())
            p.push_back({where + (job.sts ? "/sts/execution_times" : "/model"),
                         job.sts ? "expected at least one time"
                                 : "expected iterations and compute seconds per iteration "
                                   "(no STS execution times to derive a time table from)"});
        jobs.push_back(std::move(j));
    }
    if (!p.empty())
        return p;
    return jobs;
}

GpuPool stsPoolFromScenario(const Scenario &s)
{
    GpuPool pool;
    for (const Node &n : s.cluster.nodes) {
        if (n.gpus <= 0)
            continue;
        // The node's uplink: its fastest link (its switch port).
        double nic = 0;
        for (const Link &l : s.cluster.links)
            if (l.a == n.id || l.b == n.id)
                nic = std::max(nic, l.capacityGbps);
        pool.addNode(n.id, n.gpuType, n.gpus, n.rack, nic);
    }
    return pool;
}

std::string unplaceableJobsText(const std::vector<StsJob> &jobs, const GpuPool &pool)
{
    std::vector<std::string> named;
    std::set<std::string> types;
    for (const StsJob &j : jobs) {
        const bool fits = std::any_of(j.times.begin(), j.times.end(),
                                      [&](const StsConfigTime &t) { return pool.fits(t.config); });
        if (fits || j.times.empty())
            continue;
        const StsConfigTime &smallest = *std::min_element(
            j.times.begin(), j.times.end(), [](const StsConfigTime &a, const StsConfigTime &b) {
                return a.config.gpuShare() < b.config.gpuShare();
            });
        named.push_back(j.id + " (" + smallest.config.toString() + ")");
        for (const StsConfigTime &t : j.times)
            types.insert(t.config.gpuType);
    }
    if (named.empty())
        return {};
    std::string text = counted(long(named.size()), "job") + (named.size() == 1 ? " fits" : " fit") +
                       " no node of the cluster on any configuration: ";
    const std::size_t shown = std::min<std::size_t>(named.size(), 5);
    for (std::size_t k = 0; k < shown; ++k)
        text += (k ? ", " : "") + named[k];
    if (shown < named.size())
        text += " and " + std::to_string(named.size() - shown) + " more";
    std::string largest;
    for (const std::string &type : types) {
        int most = 0;
        for (const GpuPool::NodeState &n : pool.nodes())
            if (n.gpuType == type)
                most = std::max(most, n.gpus);
        largest +=
            (largest.empty() ? "" : ", ") +
            (most ? "at most " + std::to_string(most) + " " + type + " on a node" : "no " + type);
    }
    return text + " (the cluster has " + largest + ")";
}

namespace {

StsMethodSummary summarise(const std::string &name, const std::vector<RunResult> &runs)
{
    std::vector<double> total, energy, tardiness, violations, cross, splits;
    for (const RunResult &r : runs) {
        total.push_back(r.totalCost());
        energy.push_back(r.cost);
        tardiness.push_back(r.tardinessCost);
        violations.push_back(r.violations());
        cross.push_back(r.crossNodeBytes());
        splits.push_back(r.multiNodePlacements);
    }
    StsMethodSummary s;
    s.name = name;
    s.totalCost = meanAndStd(total);
    s.energyCost = meanAndStd(energy);
    s.tardinessCost = meanAndStd(tardiness);
    s.violations = meanAndStd(violations);
    s.crossNodeBytes = meanAndStd(cross);
    s.multiNodePlacements = meanAndStd(splits);
    s.totalPerSeed = total;
    s.energyPerSeed = energy;
    return s;
}

} // namespace

Result<StsExperimentReport> runStsExperiment(const StsAuthorsData &data,
                                             const PriceCatalogue &prices,
                                             const SharingSlices &slices,
                                             const StsExperimentParams &params)
{
    Problems p;
    if (params.nodes < 1 || params.nodes > 1000)
        p.push_back({"--nodes", "expected 1..1000 nodes"});
    if (params.seeds < 1 || params.seeds > 10000)
        p.push_back({"--seeds", "expected 1..10000 seeds"});
    if (params.randomIterations < 1)
        p.push_back({"--iterations", "expected at least 1 iteration"});
    for (const std::string &m : params.methods)
        if (!makeStsScheduler(m, 1))
            p.push_back({"--methods", "unknown method \"" + m + "\"; expected STS, STS-net, "
                                      "FIFO, EDF, PS, G, RG or LS"});
    if (!p.empty())
        return p;

    std::optional<Scenario> fixed;
    if (!params.scenarioFile.empty()) {
        auto loaded = loadScenarioFile(params.scenarioFile);
        if (!loaded)
            return loaded.problems();
        fixed = std::move(loaded.value());
    }

    StsExperimentReport report;
    report.params = params;
    report.params.progress = nullptr; // may refer to the caller's stack
    std::vector<std::vector<RunResult>> runs(params.methods.size());
    std::vector<RunResult> stsNoSharing;
    const bool stsRuns =
        std::find(params.methods.begin(), params.methods.end(), "STS") != params.methods.end();

    const int runsPerSeed = int(params.methods.size()) + (params.sharing && stsRuns ? 1 : 0);
    int runsDone = 0;
    const auto advance = [&] {
        ++runsDone;
        if (params.progress)
            params.progress(runsDone, runsPerSeed * params.seeds);
    };
    for (int k = 0; k < params.seeds; ++k) {
        const std::uint64_t seed = params.firstSeed + std::uint64_t(k);
        Scenario scenario;
        if (fixed) {
            scenario = *fixed;
        } else {
            StsSetupParams setup;
            setup.nodes = params.nodes;
            setup.jobsPerNode = params.jobsPerNode;
            setup.seed = seed;
            auto built = buildStsScenario(data, setup);
            if (!built)
                return built.problems();
            scenario = std::move(built.value());
        }
        auto jobs = stsJobsFromScenario(scenario, data, params.sharing ? &slices : nullptr, seed,
                                        params.sliceMemoryPerGpu);
        if (!jobs)
            return jobs.problems();
        report.jobsPerSeed = int(jobs->size());
        GpuPool pool = stsPoolFromScenario(scenario);
        pool.setSplit(params.multiNode ? StsSplit::BestFit : StsSplit::None);
        for (std::size_t m = 0; m < params.methods.size(); ++m) {
            auto run = simulateStochastic(
                scenario, jobs.value(), pool, prices,
                makeStsScheduler(params.methods[m], params.randomIterations,
                                 params.saturationGuard, params.ranking),
                seed, nullptr, false);
            if (!run)
                return run.problems();
            runs[m].push_back(std::move(run.value()));
            advance();
        }
        if (params.sharing && stsRuns) {
            auto plain = stsJobsFromScenario(scenario, data, nullptr, seed);
            if (!plain)
                return plain.problems();
            auto run = simulateStochastic(
                scenario, std::move(plain.value()), pool, prices,
                std::make_shared<StsPolicy>(false, params.saturationGuard, params.ranking), seed,
                nullptr, false);
            if (!run)
                return run.problems();
            stsNoSharing.push_back(std::move(run.value()));
            advance();
        }
    }
    for (std::size_t m = 0; m < params.methods.size(); ++m)
        report.methods.push_back(summarise(params.methods[m], runs[m]));
    const auto find = [&](const std::string &name) -> const StsMethodSummary * {
        for (const StsMethodSummary &s : report.methods)
            if (s.name == name)
                return &s;
        return nullptr;
    };
    if (const StsMethodSummary *sts = find("STS")) {
        for (const StsMethodSummary &s : report.methods)
            if (s.name != "STS" && s.totalCost.mean > 0)
                report.stsReduction.emplace_back(s.name,
                                                 1.0 - sts->totalCost.mean / s.totalCost.mean);
        if (params.sharing) {
            report.stsWithoutSharing = summarise("STS without sharing", stsNoSharing);
            const double without = report.stsWithoutSharing->energyCost.mean;
            report.stsEnergyWithoutSharing = without;
            if (without > 0)
                report.sharingSaving = 1.0 - sts->energyCost.mean / without;
            for (std::size_t k = 0; k < stsNoSharing.size(); ++k)
                report.sharingSavingPerSeed.push_back(
                    stsNoSharing[k].cost > 0 ? 1.0 - sts->energyPerSeed[k] / stsNoSharing[k].cost
                                             : 0.0);
        }
        if (const StsMethodSummary *net = find("STS-net")) {
            if (sts->crossNodeBytes.mean > 0)
                report.netCrossNodeReduction =
                    1.0 - net->crossNodeBytes.mean / sts->crossNodeBytes.mean;
            if (sts->totalCost.mean > 0)
                report.netTotalCostReduction = 1.0 - net->totalCost.mean / sts->totalCost.mean;
        }
    }
    return report;
}

nlohmann::json StsExperimentReport::toJson() const
{
    nlohmann::json methodsJson = nlohmann::json::array();
    for (const StsMethodSummary &m : methods) {
        double reduction = 0;
        bool hasReduction = false;
        for (const auto &[name, r] : stsReduction)
            if (name == m.name) {
                reduction = r;
                hasReduction = true;
            }
        nlohmann::json j = {{"name", m.name},
                            {"total_cost", m.totalCost.mean},
                            {"total_cost_std", m.totalCost.std},
                            {"energy_cost", m.energyCost.mean},
                            {"energy_cost_std", m.energyCost.std},
                            {"tardiness_cost", m.tardinessCost.mean},
                            {"tardiness_cost_std", m.tardinessCost.std},
                            {"violations", m.violations.mean},
                            {"violations_std", m.violations.std},
                            {"cross_node_bytes", m.crossNodeBytes.mean},
                            {"multi_node_placements", m.multiNodePlacements.mean},
                            {"total_cost_per_seed", m.totalPerSeed}};
        if (hasReduction)
            j["sts_reduction"] = reduction;
        methodsJson.push_back(std::move(j));
    }
    nlohmann::json out = {{"experiment", "sts"},
                          {"nodes", params.nodes},
                          {"seeds", params.seeds},
                          {"first_seed", params.firstSeed},
                          {"jobs_per_seed", jobsPerSeed},
                          {"sharing", params.sharing},
                          {"slice_memory", params.sliceMemoryPerGpu ? "per-gpu" : "authors"},
                          {"multi_node", params.multiNode},
                          {"saturation_guard", params.saturationGuard},
                          {"ranking",
                           params.ranking == StsRanking::Authors ? "authors" : "expected-cost"},
                          {"random_iterations", params.randomIterations},
                          {"methods", methodsJson}};
    if (!params.scenarioFile.empty())
        out["scenario"] = params.scenarioFile;
    if (sharingSaving) {
        out["sts_energy_cost_without_sharing"] = *stsEnergyWithoutSharing;
        out["sharing_saving"] = *sharingSaving;
    }
    if (stsWithoutSharing) {
        const StsMethodSummary &w = *stsWithoutSharing;
        const StsMethodSummary *with = nullptr;
        for (const StsMethodSummary &m : methods)
            if (m.name == "STS")
                with = &m;
        out["sharing_comparison"] = {
            {"with", {{"total_cost", with->totalCost.mean},
                      {"energy_cost", with->energyCost.mean},
                      {"tardiness_cost", with->tardinessCost.mean},
                      {"violations", with->violations.mean},
                      {"energy_cost_per_seed", with->energyPerSeed}}},
            {"without", {{"total_cost", w.totalCost.mean},
                         {"energy_cost", w.energyCost.mean},
                         {"tardiness_cost", w.tardinessCost.mean},
                         {"violations", w.violations.mean},
                         {"energy_cost_per_seed", w.energyPerSeed}}},
            {"energy_saving", sharingSaving ? *sharingSaving : 0.0},
            {"total_cost_saving",
             w.totalCost.mean > 0 ? 1.0 - with->totalCost.mean / w.totalCost.mean : 0.0},
            {"energy_saving_per_seed", sharingSavingPerSeed}};
    }
    if (netCrossNodeReduction || netTotalCostReduction) {
        nlohmann::json net = nlohmann::json::object();
        if (netCrossNodeReduction)
            net["cross_node_bytes_reduction"] = *netCrossNodeReduction;
        if (netTotalCostReduction)
            net["total_cost_reduction"] = *netTotalCostReduction;
        out["sts_net_vs_sts"] = net;
    }
    return out;
}

std::string StsExperimentReport::toText(std::size_t width) const
{
    std::ostringstream s;
    if (!params.scenarioFile.empty())
        s << "STS experiment on " << params.scenarioFile << ": " << jobsPerSeed << " jobs, "
          << params.seeds << " seed" << (params.seeds == 1 ? "" : "s") << " from "
          << params.firstSeed << (params.sharing ? ", GPU sharing" : "")
          << (params.multiNode ? ", multi-node" : "") << "\n";
    else
        s << "STS experiment: " << params.nodes << " nodes x 8 GPUs (K80/M60), " << jobsPerSeed
          << " jobs, " << params.seeds << " seed" << (params.seeds == 1 ? "" : "s") << " from "
          << params.firstSeed << (params.sharing ? ", GPU sharing" : "")
          << (params.multiNode ? ", multi-node" : "") << "\n";
    s << "mean +/- std over seeds\n\n";
    TextTable table;
    table.headers = {"method",         "total cost", "energy cost",
                     "tardiness cost", "violations", "STS saves"};
    table.rightAligned = {false, true, true, true, true, true};
    for (const StsMethodSummary &m : methods) {
        auto cell = [](const StsStat &st) {
            std::ostringstream c;
            c << std::fixed << std::setprecision(1) << st.mean << " +/- " << st.std;
            return c.str();
        };
        std::string red = "-";
        for (const auto &[name, r] : stsReduction)
            if (name == m.name) {
                std::ostringstream c;
                c << std::fixed << std::setprecision(1) << 100 * r << " %";
                red = c.str();
            }
        table.rows.push_back({m.name, cell(m.totalCost), cell(m.energyCost), cell(m.tardinessCost),
                              cell(m.violations), red});
    }
    s << table.render(width);
    s << std::fixed;
    bool anyCross = false;
    for (const StsMethodSummary &m : methods)
        anyCross = anyCross || m.crossNodeBytes.mean > 0 || m.multiNodePlacements.mean > 0;
    if (anyCross || params.multiNode) {
        s << "\ncross-node traffic (multi-node placements)\n";
        for (const StsMethodSummary &m : methods)
            s << std::left << std::setw(9) << m.name << std::right << std::setprecision(3)
              << std::setw(14) << m.crossNodeBytes.mean / 1e12 << " TB  " << std::setprecision(1)
              << std::setw(8) << m.multiNodePlacements.mean << " split decisions\n";
    }
    if (sharingSaving) {
        std::ostringstream p;
        p << std::fixed << "GPU sharing ("
          << (params.sliceMemoryPerGpu ? "slice memory per GPU" : "the authors' slice memory")
          << "): STS energy cost " << std::setprecision(1) << *stsEnergyWithoutSharing
          << " without slices, saving " << 100 * *sharingSaving << " %";
        if (stsWithoutSharing)
            p << "; total cost " << stsWithoutSharing->totalCost.mean << " without slices, "
              << stsWithoutSharing->violations.mean << " violations";
        p << "\nper seed:";
        for (double v : sharingSavingPerSeed)
            p << " " << std::setprecision(1) << 100 * v << "%";
        s << "\n" << wrapText(p.str(), width) << "\n";
    }
    if (netCrossNodeReduction || netTotalCostReduction) {
        std::ostringstream p;
        p << std::fixed << "STS-net vs STS:";
        if (netCrossNodeReduction)
            p << " cross-node bytes " << std::setprecision(1)
              << (*netCrossNodeReduction == 0 ? 0.0 : -100 * *netCrossNodeReduction) << " %";
        if (netTotalCostReduction)
            p << (netCrossNodeReduction ? "," : "") << " total cost " << std::setprecision(1)
              << (*netTotalCostReduction == 0 ? 0.0 : -100 * *netTotalCostReduction) << " %";
        s << "\n" << wrapText(p.str(), width) << "\n";
    }
    return s.str();
}

StsPrices stsCloudPrices(const StsAuthorsData &data, const Scenario &scenario)
{
    StsPrices out;
    if (data.serverPrices) {
        out.catalogue = *data.serverPrices;
    } else {
        for (const StsGpuPrice &p : data.prices)
            out.catalogue.set(p.gpuType, p.gpus, p.costPerHour);
    }
    out.from = data.cloudPricesFile();
    for (const GpuType &g : scenario.cluster.gpuTypes)
        if (!out.catalogue.has(g.name)) {
            out.catalogue = PriceCatalogue::cloudFromScenario(scenario);
            out.from = "the scenario's GPU list prices";
            break;
        }
    return out;
}

Result<RunResult> runStsOnScenario(const Scenario &scenario, const StsAuthorsData &data,
                                   const PriceCatalogue &prices, const std::string &method,
                                   std::uint64_t seed, StsDecisionLog *log, bool multiNode,
                                   bool saturationGuard, int randomIterations)
{
    std::shared_ptr<StsScheduler> scheduler =
        makeStsScheduler(method, randomIterations, saturationGuard);
    if (!scheduler)
        return Result<RunResult>::failure(
            "method", "unknown STS method \"" + method + "\" (expected STS, STS-net, FIFO, EDF, "
                      "PS, G, RG or LS)");
    auto jobs = stsJobsFromScenario(scenario, data, nullptr, seed);
    if (!jobs)
        return jobs.problems();
    GpuPool pool = stsPoolFromScenario(scenario);
    pool.setSplit(multiNode ? StsSplit::BestFit : StsSplit::None);
    return simulateStochastic(scenario, std::move(jobs.value()), std::move(pool), prices,
                              std::move(scheduler), seed, log);
}

} // namespace cb
