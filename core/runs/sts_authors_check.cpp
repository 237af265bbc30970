#include "runs/sts_authors_check.h"

#include "runs/sts_experiment.h"
#include "sim/simulator.h"
#include "util/text.h"

#include <iomanip>
#include <map>
#include <sstream>

namespace cb {

namespace {

bool isRandom(const std::string &method)
{
    return method == "RG" || method == "LS";
}

} // namespace

Result<StsAuthorsCheck> checkAgainstStsAuthors(const std::vector<StsAuthorsInstance> &instances,
                                              const StsAuthorsData &data,
                                              const StsAuthorsCheckParams &params)
{
    Problems p;
    for (const std::string &m : params.methods)
        if (!makeStsScheduler(m, 1))
            p.push_back({"--methods", "unknown method \"" + m + "\"; expected STS, STS-net, "
                                      "FIFO, EDF, PS, G, RG or LS"});
    if (params.randomIterations < 1)
        p.push_back({"--iterations", "expected at least 1 iteration"});
    if (params.randomRuns < 0 || params.randomRuns > 1000)
        p.push_back({"--runs", "expected 0..1000 runs"});
    if (!p.empty())
        return p;

    StsAuthorsCheck check;
    check.params = params;
    for (const StsAuthorsInstance &inst : instances) {
        // Our jobs with the authors' stop points (the seed draws nothing else without slices).
        auto jobs = stsJobsFromScenario(inst.scenario, data, nullptr, 1);
        if (!jobs)
            return prefixed(jobs.problems(), inst.dir);
        for (std::size_t i = 0; i < jobs->size(); ++i)
            jobs.value()[i].trueStopPercent = inst.stopPercent[i];
        GpuPool pool = stsPoolFromScenario(inst.scenario);
        pool.setTieOrder(params.ties);
        for (const std::string &method : params.methods) {
            StsAuthorsCheckRow row;
            row.instance = inst.scenario.name;
            row.method = method;
            for (const StsAuthorsResult &r : inst.results)
                if (r.method == method) {
                    ++row.theirRuns;
                    row.theirs += r.totalCost;
                    row.theirTardiness += r.tardinessCost;
                }
            if (row.theirRuns > 0) {
                row.theirs /= row.theirRuns;
                row.theirTardiness /= row.theirRuns;
            }
            const int runs = !isRandom(method) ? 1
                             : params.randomRuns > 0 ? params.randomRuns
                                                     : std::max(1, row.theirRuns);
            for (int k = 0; k < runs; ++k) {
                auto run = simulateStochastic(
                    inst.scenario, jobs.value(), pool, inst.prices,
                    makeStsScheduler(method, params.randomIterations, params.saturationGuard,
                                     params.ranking),
                    std::uint64_t(k + 1), nullptr, false);
                if (!run)
                    return prefixed(run.problems(), inst.dir);
                row.ours += run->totalCost();
                row.ourTardiness += run->tardinessCost;
                row.ourViolations += run->violations();
                ++row.ourRuns;
            }
            row.ours /= row.ourRuns;
            row.ourTardiness /= row.ourRuns;
            row.ourViolations /= row.ourRuns;
            check.rows.push_back(row);
        }
    }
    return check;
}

std::vector<StsAuthorsCheck::Total> StsAuthorsCheck::totals() const
{
    std::vector<Total> out;
    for (const std::string &m : params.methods) {
        Total t;
        t.method = m;
        for (const StsAuthorsCheckRow &r : rows)
            if (r.method == m && r.theirRuns > 0) {
                t.theirs += r.theirs;
                t.ours += r.ours;
                ++t.instances;
            }
        out.push_back(t);
    }
    return out;
}

nlohmann::json StsAuthorsCheck::toJson() const
{
    nlohmann::json rowsJson = nlohmann::json::array();
    for (const StsAuthorsCheckRow &r : rows) {
        nlohmann::json j = {{"instance", r.instance},
                            {"method", r.method},
                            {"our_runs", r.ourRuns},
                            {"our_total_cost", r.ours},
                            {"our_tardiness_cost", r.ourTardiness},
                            {"our_violations", r.ourViolations},
                            {"their_runs", r.theirRuns}};
        if (r.theirRuns > 0) {
            j["their_total_cost"] = r.theirs;
            j["their_tardiness_cost"] = r.theirTardiness;
            j["difference"] = r.difference();
        }
        rowsJson.push_back(j);
    }
    nlohmann::json totalsJson = nlohmann::json::array();
    for (const Total &t : totals())
        totalsJson.push_back({{"method", t.method},
                              {"instances", t.instances},
                              {"their_total_cost", t.theirs},
                              {"our_total_cost", t.ours},
                              {"difference", t.theirs > 0 ? t.ours / t.theirs - 1 : 0.0}});
    return {{"random_iterations", params.randomIterations},
            {"saturation_guard", params.saturationGuard},
            {"ranking", params.ranking == StsRanking::Authors ? "authors" : "expected-cost"},
            {"ties", params.ties == StsTieOrder::Authors ? "authors" : "node-order"},
            {"rows", rowsJson},
            {"totals", totalsJson}};
}

std::string StsAuthorsCheck::toText() const
{
    std::ostringstream s;
    s << "Total cost per instance: the STS authors' simulator (theirs) and ClusterBench (ours) "
         "on the same jobs\n";
    s << "RG and LS: means over runs; STS: " << (params.saturationGuard ? "with" : "without")
      << " the saturation guard, plans ranked "
      << (params.ranking == StsRanking::Authors ? "as the authors' code does" : "by expected cost")
      << "; ties between best-fit nodes "
      << (params.ties == StsTieOrder::Authors ? "in the authors' list order" : "in node order")
      << "\n\n";
    s << std::left << std::setw(18) << "instance" << std::setw(8) << "method" << std::right
      << std::setw(12) << "theirs" << std::setw(12) << "ours" << std::setw(10) << "ours-1"
      << std::setw(14) << "our late jobs" << "\n";
    const auto percent = [](double v) {
        std::string t = formatFixed(100 * v, 2) + " %";
        return v > 0 ? "+" + t : t;
    };
    for (const StsAuthorsCheckRow &r : rows) {
        s << std::left << std::setw(18) << r.instance << std::setw(8) << r.method << std::right
          << std::setw(12) << (r.theirRuns > 0 ? formatFixed(r.theirs, 2) : "-")
          << std::setw(12) << formatFixed(r.ours, 2) << std::setw(10)
          << (r.theirRuns > 0 ? percent(r.difference()) : "-") << std::setw(14)
          << formatFixed(r.ourViolations, 1) << "\n";
    }
    s << "\nover the instances both ran\n";
    for (const Total &t : totals()) {
        if (t.instances == 0)
            continue;
        s << std::left << std::setw(8) << t.method << std::right << std::setw(4) << t.instances
          << " instances: theirs " << formatFixed(t.theirs, 2) << ", ours "
          << formatFixed(t.ours, 2) << " (" << percent(t.ours / t.theirs - 1) << ")\n";
    }
    return s.str();
}

} // namespace cb
