#include "runs/timeline_series.h"

#include "sim/price_schedule.h"
#include "sim/stochastic_jobs.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace cb {

TimelineSeries timelineSeries(const cb::Scenario &scenario, const cb::RunResult &run)
{
    TimelineSeries out;
    const RunSeries &s = run.series;
    out.bucketSeconds = s.bucketSeconds;
    const int n = int(s.gpuBusySeconds.size());
    if (n == 0 || s.bucketSeconds <= 0)
        return out;
    const Cluster &c = scenario.cluster;
    const double pue = std::max(1.0, scenario.settings.pue);
    const PriceSchedule price(scenario.settings);
    const bool energyModel = run.costModel == CostModel::Energy;
    double totalGpus = 0, baseline = 0;
    std::unordered_map<std::string, int> nodeIndex;
    for (std::size_t i = 0; i < c.nodes.size(); ++i) {
        const Node &node = c.nodes[i];
        nodeIndex.emplace(node.id, int(i));
        totalGpus += node.gpus;
        const GpuType *t = c.gpuType(node.gpuType);
        baseline += (node.baseWatts + (t ? node.gpus * t->idleWatts : 0.0)) * pue;
    }
    // The last bucket is only partly inside the run: means are over that part.
    auto widthInRun = [&](int k) {
        return std::max(0.0, std::min((k + 1) * s.bucketSeconds, run.makespanSeconds) -
                                 k * s.bucketSeconds);
    };
    out.gpuUtilisation.resize(std::size_t(n));
    const bool stranded = s.strandedGpuSeconds.size() == std::size_t(n);
    if (stranded)
        out.strandedShare.resize(std::size_t(n));
    for (int k = 0; k < n; ++k) {
        const double w = widthInRun(k) > 0 ? widthInRun(k) : s.bucketSeconds;
        out.gpuUtilisation[std::size_t(k)] =
            totalGpus > 0 ? s.gpuBusySeconds[std::size_t(k)] / (totalGpus * w) : 0;
        if (stranded)
            out.strandedShare[std::size_t(k)] =
                totalGpus > 0 ? s.strandedGpuSeconds[std::size_t(k)] / (totalGpus * w) : 0;
    }

    // Joules and cost per bucket: the baseline, then every job's extra draw.
    std::vector<double> joules(std::size_t(n), 0.0), cost(std::size_t(n), 0.0);
    for (int k = 0; k < n; ++k) {
        // The run ends at its makespan; the last bucket is only partly inside it.
        const double a = k * s.bucketSeconds;
        const double b = std::min((k + 1) * s.bucketSeconds, run.makespanSeconds);
        if (b <= a)
            continue;
        joules[std::size_t(k)] = baseline * (b - a);
        if (energyModel)
            cost[std::size_t(k)] = price.cost(baseline, a, b);
    }
    const double end = n * s.bucketSeconds;
    const bool catalogue = run.costModel == CostModel::Catalogue && !s.cost.empty();
    for (const JobRun &jr : run.jobs) {
        const Job *original = scenario.job(jr.id);
        if (!original)
            continue;
        for (const JobSegment &seg : jr.segments) {
            const Job job = seg.config ? configurationJob(*original, *seg.config) : *original;
            double extra = 0, perHour = 0;
            for (const TaskAssignment &a : seg.placement.tasks) {
                if (a.group < 0 || a.group >= int(job.tasks.size()))
                    continue;
                const TaskGroup &g = job.tasks[std::size_t(a.group)];
                if (g.gpus <= 0)
                    continue;
                auto it = nodeIndex.find(a.node);
                const GpuType *t = it == nodeIndex.end()
                                       ? nullptr
                                       : c.gpuType(c.nodes[std::size_t(it->second)].gpuType);
                if (!t)
                    continue;
                const double share = g.gpus * std::min(1.0, g.gpuFraction);
                extra += share * (t->busyWatts - t->idleWatts) * pue;
                perHour += share * t->pricePerHour;
            }
            const double t0 = seg.startSeconds;
            const double t1 = std::min(seg.endSeconds.value_or(run.makespanSeconds), end);
            for (int k = std::max(0, int(t0 / s.bucketSeconds)); k < n; ++k) {
                const double a = std::max(t0, k * s.bucketSeconds);
                const double b = std::min(t1, (k + 1) * s.bucketSeconds);
                if (b <= a) {
                    if (k * s.bucketSeconds >= t1)
                        break;
                    continue;
                }
                joules[std::size_t(k)] += extra * (b - a);
                if (!catalogue)
                    cost[std::size_t(k)] +=
                        energyModel ? price.cost(extra, a, b) : perHour * (b - a) / 3600;
            }
        }
    }
    if (catalogue)
        for (int k = 0; k < n && k < int(s.cost.size()); ++k)
            cost[std::size_t(k)] = s.cost[std::size_t(k)];
    out.powerWatts.resize(std::size_t(n));
    out.energyKWh.resize(std::size_t(n));
    out.cost.resize(std::size_t(n));
    double e = 0, money = 0;
    for (int k = 0; k < n; ++k) {
        out.powerWatts[std::size_t(k)] =
            joules[std::size_t(k)] / (widthInRun(k) > 0 ? widthInRun(k) : s.bucketSeconds);
        e += joules[std::size_t(k)] / 3.6e6;
        money += cost[std::size_t(k)];
        out.energyKWh[std::size_t(k)] = e;
        out.cost[std::size_t(k)] = money;
    }
    return out;
}

std::vector<GanttBar> ganttBars(const cb::Scenario &scenario, const cb::RunResult &run)
{
    std::vector<GanttBar> bars;
    std::unordered_map<std::string, int> nodeIndex;
    for (std::size_t i = 0; i < scenario.cluster.nodes.size(); ++i)
        nodeIndex.emplace(scenario.cluster.nodes[i].id, int(i));
    for (std::size_t j = 0; j < run.jobs.size(); ++j) {
        const JobRun &jr = run.jobs[j];
        for (std::size_t k = 0; k < jr.segments.size(); ++k) {
            const JobSegment &seg = jr.segments[k];
            for (const TaskAssignment &a : seg.placement.tasks) {
                auto it = nodeIndex.find(a.node);
                if (it == nodeIndex.end())
                    continue;
                GanttBar bar;
                bar.job = int(j);
                bar.node = it->second;
                bar.gpus = a.gpuIndices;
                bar.start = seg.startSeconds;
                bar.finished = seg.endSeconds.has_value();
                bar.end = seg.endSeconds.value_or(run.makespanSeconds);
                bar.segment = int(k);
                bar.config = seg.config ? seg.config->toString() : std::string();
                bars.push_back(std::move(bar));
            }
        }
    }
    return bars;
}

} // namespace cb

namespace cb {

std::vector<double> linkUtilisationAt(const cb::Scenario &scenario, const cb::RunResult &run,
                                      double seconds)
{
    const RunSeries &s = run.series;
    if (s.linkBytes.empty() || s.bucketSeconds <= 0)
        return {};
    const int k = std::clamp(int(std::floor(seconds / s.bucketSeconds)), 0,
                             int(s.linkBytes.size()) - 1);
    std::vector<double> out(scenario.cluster.links.size(), 0.0);
    for (const auto &[directed, bytes] : s.linkBytes[std::size_t(k)]) {
        const std::size_t l = std::size_t(directed / 2);
        if (l >= out.size())
            continue;
        const double cap = scenario.cluster.links[l].capacityGbps * 1e9 / 8 * s.bucketSeconds;
        if (cap > 0)
            out[l] = std::max(out[l], bytes / cap);
    }
    return out;
}

} // namespace cb
