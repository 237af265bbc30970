#include "stochastic/sts_experiment.h"

#include "io/sts_setup.h"
#include "stochastic/first_principle_scheduler.h"
#include "stochastic/greedy_scheduler.h"
#include "stochastic/sts_policy.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace cb {

const std::vector<std::string> &stsMethodNames()
{
    static const std::vector<std::string> names = {"STS", "FIFO", "EDF", "PS", "G", "RG", "LS"};
    return names;
}

std::unique_ptr<StsScheduler> makeStsScheduler(const std::string &name, int randomIterations)
{
    GreedyScheduler::Params p;
    p.randomIterations = randomIterations;
    if (name == "STS")
        return std::make_unique<StsPolicy>();
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

Result<std::vector<StsJob>> stsJobsFromScenario(const Scenario &s, const StsAuthorsData &data,
                                                const SharingSlices *slices, std::uint64_t seed)
{
    auto dists = TerminationDistribution::fromScenario(s.distributions);
    if (!dists)
        return dists.problems();
    Problems p;
    std::vector<StsJob> jobs;
    for (std::size_t i = 0; i < s.jobs.size(); ++i) {
        const Job &job = s.jobs[i];
        const std::string where = "/jobs/" + std::to_string(i);
        if (!job.sts) {
            p.push_back({where + "/sts", "expected STS data (execution times, distribution)"});
            continue;
        }
        StsJob j;
        j.id = job.id;
        j.submitSeconds = job.submitSeconds;
        j.dueSeconds = job.dueSeconds.value_or(job.submitSeconds);
        j.tardinessWeight = job.tardinessWeight;
        j.maxEpochs = job.sts->maxEpochs;
        if (auto d = dists->find(job.sts->termination); d != dists->end())
            j.termination = d->second;
        else
            p.push_back({where + "/sts/termination",
                         "unknown distribution \"" + job.sts->termination + "\""});
        const std::string templateId = job.name.substr(0, job.name.find(' '));
        for (const StsJobTemplate &t : data.templates)
            if (t.id == templateId)
                j.memoryGB = t.memoryGB;
        for (const ExecutionTime &e : job.sts->executionTimes)
            if (e.seconds > 0)
                j.times.push_back({{e.gpuType, e.gpus, e.fraction}, e.seconds});
        Rng rng(Rng::mix(seed, 0x73747300ULL + i));
        // The stop point first: the same with and without sharing slices.
        j.trueStopPercent = j.termination.sample(rng);
        if (slices) {
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
            p.push_back({where + "/sts/execution_times", "expected at least one time"});
        jobs.push_back(std::move(j));
    }
    if (!p.empty())
        return p;
    return jobs;
}

GpuPool stsPoolFromScenario(const Scenario &s)
{
    GpuPool pool;
    for (const Node &n : s.cluster.nodes)
        if (n.gpus > 0)
            pool.addNode(n.id, n.gpuType, n.gpus);
    return pool;
}

namespace {

StsStat stat(const std::vector<double> &v)
{
    StsStat s;
    if (v.empty())
        return s;
    for (double x : v)
        s.mean += x;
    s.mean /= double(v.size());
    if (v.size() > 1) {
        double ss = 0;
        for (double x : v)
            ss += (x - s.mean) * (x - s.mean);
        s.std = std::sqrt(ss / double(v.size() - 1));
    }
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
            p.push_back({"--methods", "unknown method \"" + m + "\"; expected STS, FIFO, EDF, "
                                      "PS, G, RG or LS"});
    if (!p.empty())
        return p;

    StsExperimentReport report;
    report.params = params;
    std::vector<std::vector<double>> total(params.methods.size()), energy(total.size()),
        tardiness(total.size()), violations(total.size());
    std::vector<double> stsNoSharingEnergy;
    const bool stsRuns =
        std::find(params.methods.begin(), params.methods.end(), "STS") != params.methods.end();

    for (int k = 0; k < params.seeds; ++k) {
        const std::uint64_t seed = params.firstSeed + std::uint64_t(k);
        StsSetupParams setup;
        setup.nodes = params.nodes;
        setup.jobsPerNode = params.jobsPerNode;
        setup.seed = seed;
        auto scenario = buildStsScenario(data, setup);
        if (!scenario)
            return scenario.problems();
        auto jobs = stsJobsFromScenario(scenario.value(), data,
                                        params.sharing ? &slices : nullptr, seed);
        if (!jobs)
            return jobs.problems();
        report.jobsPerSeed = int(jobs->size());
        const StsSimulator sim(jobs.value(), stsPoolFromScenario(scenario.value()), prices);
        for (std::size_t m = 0; m < params.methods.size(); ++m) {
            auto scheduler = makeStsScheduler(params.methods[m], params.randomIterations);
            auto run = sim.run(*scheduler, seed);
            if (!run)
                return run.problems();
            total[m].push_back(run->totalCost);
            energy[m].push_back(run->energyCost);
            tardiness[m].push_back(run->tardinessCost);
            violations[m].push_back(run->violations);
        }
        if (params.sharing && stsRuns) {
            auto plain = stsJobsFromScenario(scenario.value(), data, nullptr, seed);
            if (!plain)
                return plain.problems();
            const StsSimulator noSharing(plain.value(), stsPoolFromScenario(scenario.value()),
                                         prices);
            StsPolicy sts;
            auto run = noSharing.run(sts, seed);
            if (!run)
                return run.problems();
            stsNoSharingEnergy.push_back(run->energyCost);
        }
    }
    for (std::size_t m = 0; m < params.methods.size(); ++m) {
        StsMethodSummary s;
        s.name = params.methods[m];
        s.totalCost = stat(total[m]);
        s.energyCost = stat(energy[m]);
        s.tardinessCost = stat(tardiness[m]);
        s.violations = stat(violations[m]);
        s.totalPerSeed = total[m];
        report.methods.push_back(std::move(s));
    }
    if (stsRuns) {
        const StsMethodSummary *sts = nullptr;
        for (const StsMethodSummary &s : report.methods)
            if (s.name == "STS")
                sts = &s;
        for (const StsMethodSummary &s : report.methods)
            if (s.name != "STS" && s.totalCost.mean > 0)
                report.stsReduction.emplace_back(s.name,
                                                 1.0 - sts->totalCost.mean / s.totalCost.mean);
        if (params.sharing) {
            const double without = stat(stsNoSharingEnergy).mean;
            report.stsEnergyWithoutSharing = without;
            if (without > 0)
                report.sharingSaving = 1.0 - sts->energyCost.mean / without;
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
                          {"random_iterations", params.randomIterations},
                          {"methods", methodsJson}};
    if (sharingSaving) {
        out["sts_energy_cost_without_sharing"] = *stsEnergyWithoutSharing;
        out["sharing_saving"] = *sharingSaving;
    }
    return out;
}

std::string StsExperimentReport::toText() const
{
    std::ostringstream s;
    s << "STS experiment: " << params.nodes << " nodes x 8 GPUs (K80/M60), " << jobsPerSeed
      << " jobs, " << params.seeds << " seed" << (params.seeds == 1 ? "" : "s") << " from "
      << params.firstSeed << (params.sharing ? ", GPU sharing" : "") << "\n";
    s << "mean +/- std over seeds\n\n";
    s << std::left << std::setw(7) << "method" << std::right << std::setw(22) << "total cost"
      << std::setw(22) << "energy cost" << std::setw(22) << "tardiness cost" << std::setw(16)
      << "violations" << std::setw(14) << "STS saves" << "\n";
    s << std::fixed;
    for (const StsMethodSummary &m : methods) {
        auto cell = [&](const StsStat &st, int width, int precision) {
            std::ostringstream c;
            c << std::fixed << std::setprecision(precision) << st.mean << " +/- " << st.std;
            s << std::setw(width) << c.str();
        };
        s << std::left << std::setw(7) << m.name << std::right;
        cell(m.totalCost, 22, 1);
        cell(m.energyCost, 22, 1);
        cell(m.tardinessCost, 22, 1);
        cell(m.violations, 16, 1);
        std::string red = "-";
        for (const auto &[name, r] : stsReduction)
            if (name == m.name) {
                std::ostringstream c;
                c << std::fixed << std::setprecision(1) << 100 * r << " %";
                red = c.str();
            }
        s << std::setw(14) << red << "\n";
    }
    if (sharingSaving)
        s << "\nGPU sharing: STS energy cost " << std::setprecision(1) << *stsEnergyWithoutSharing
          << " without slices, saving " << 100 * *sharingSaving << " %\n";
    return s.str();
}

} // namespace cb
