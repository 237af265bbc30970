#include "sim/run_json.h"

#include "io/file_io.h"
#include "io/scenario_json.h"
#include "sched/traffic.h"

#include <cmath>

namespace cb {

using nlohmann::ordered_json;

namespace {

ordered_json num(double v)
{
    if (!std::isfinite(v))
        return ordered_json();
    return jsonNumber(v);
}

ordered_json opt(const std::optional<double> &v) { return v ? num(*v) : ordered_json(); }

ordered_json pairsJson(const std::map<std::pair<int, int>, double> &m, const Cluster &cluster,
                       std::optional<int> bucket = std::nullopt)
{
    ordered_json a = ordered_json::array();
    for (const auto &[p, bytes] : m) {
        ordered_json o;
        if (bucket)
            o["bucket"] = *bucket;
        o["from"] = cluster.nodes[std::size_t(p.first)].id;
        o["to"] = cluster.nodes[std::size_t(p.second)].id;
        o["bytes"] = num(bytes);
        a.push_back(std::move(o));
    }
    return a;
}

} // namespace

ordered_json runSummaryJson(const RunResult &run)
{
    double slowdownSum = 0, delaySum = 0;
    int slowdowns = 0, delays = 0;
    for (const JobRun &j : run.jobs) {
        if (auto s = j.slowdown()) {
            slowdownSum += *s;
            ++slowdowns;
        }
        if (auto q = j.queueDelaySeconds()) {
            delaySum += *q;
            ++delays;
        }
    }
    double busy = 0;
    for (double b : run.series.gpuBusySeconds)
        busy += b;
    const double capacity = double(run.totalGpus) * run.makespanSeconds;
    ordered_json s;
    s["jobs"] = run.jobs.size();
    s["finished"] = run.finishedJobs();
    s["unfinished"] = int(run.jobs.size()) - run.finishedJobs();
    s["makespan_s"] = num(run.makespanSeconds);
    s["mean_jct_s"] = num(run.meanJctSeconds());
    s["mean_queue_delay_s"] = num(delays > 0 ? delaySum / delays : 0.0);
    s["mean_slowdown"] = num(slowdowns > 0 ? slowdownSum / slowdowns : 0.0);
    s["cross_node_bytes"] = num(run.crossNodeBytes());
    s["total_bytes"] = num(run.totalBytes());
    s["energy_kwh"] = num(run.energyKWh);
    s["cost"] = num(run.cost);
    s["cost_model"] = toString(run.costModel);
    s["energy_cost"] = num(run.energyCost);
    s["gpu_hour_cost"] = num(run.gpuHourCost);
    s["tardiness_s"] = num(run.totalTardinessSeconds());
    s["tardiness_cost"] = num(run.tardinessCost);
    s["gpu_utilisation"] = num(capacity > 0 ? busy / capacity : 0.0);
    s["node_failures"] = run.failures;
    s["events"] = run.events;
    s["network_solves"] = run.networkSolves;
    return s;
}

ordered_json runToJson(const RunResult &run, const Cluster &cluster, const Topology &topology)
{
    ordered_json j;
    j["format"] = "clusterbench-run";
    j["version"] = 1;
    j["scenario"] = run.scenario;
    j["policy"] = run.policy;
    j["seed"] = run.seed;
    j["summary"] = runSummaryJson(run);

    ordered_json jobs = ordered_json::array();
    for (const JobRun &r : run.jobs) {
        ordered_json o;
        o["id"] = r.id;
        o["submit_s"] = num(r.submitSeconds);
        o["first_start_s"] = opt(r.firstStartSeconds);
        o["start_s"] = opt(r.startSeconds);
        o["finish_s"] = opt(r.finishSeconds);
        o["due_s"] = opt(r.dueSeconds);
        o["queue_delay_s"] = opt(r.queueDelaySeconds());
        o["jct_s"] = opt(r.jctSeconds());
        o["isolated_s"] = opt(r.isolatedSeconds);
        o["slowdown"] = opt(r.slowdown());
        o["tardiness_s"] = opt(r.tardinessSeconds());
        o["attempts"] = r.attempts;
        o["iteration_s"] = num(r.iterationSeconds);
        o["total_bytes"] = num(r.totalBytes);
        o["cross_node_bytes"] = num(r.crossNodeBytes);
        o["energy_kwh"] = num(r.energyKWh);
        o["cost"] = num(r.cost);
        o["gpus"] = r.gpus;
        ordered_json tasks = ordered_json::array();
        for (const TaskAssignment &a : r.placement.tasks)
            tasks.push_back(std::string(toString(a.role)) + "-" + std::to_string(a.indexInRole) +
                            "@" + a.node);
        o["tasks"] = tasks;
        jobs.push_back(std::move(o));
    }
    j["jobs"] = jobs;

    const RunSeries &s = run.series;
    const double w = s.bucketSeconds;
    ordered_json series;
    series["bucket_s"] = num(w);
    ordered_json util = ordered_json::array();
    for (double b : s.gpuBusySeconds)
        util.push_back(num(run.totalGpus > 0 ? b / (run.totalGpus * w) : 0.0));
    series["gpu_utilisation"] = util;
    ordered_json links = ordered_json::array();
    for (int l = 0; l < topology.directedLinkCount(); ++l) {
        if (run.linkBytes[std::size_t(l)] <= 0)
            continue;
        const double cap = topology.capacityGbps(l);
        ordered_json u = ordered_json::array();
        for (const auto &bucket : s.linkBytes) {
            auto it = bucket.find(l);
            const double bytes = it == bucket.end() ? 0.0 : it->second;
            u.push_back(num(cap > 0 ? bytes * 8.0 / (cap * 1e9 * w) : 0.0));
        }
        links.push_back({{"link", directedLinkName(cluster, l)},
                         {"capacity_gbps", num(cap)},
                         {"bytes", num(run.linkBytes[std::size_t(l)])},
                         {"utilisation", u}});
    }
    series["links"] = links;
    ordered_json pairs = ordered_json::array();
    for (std::size_t b = 0; b < s.pairBytes.size(); ++b)
        for (auto &row : pairsJson(s.pairBytes[b], cluster, int(b)))
            pairs.push_back(std::move(row));
    series["node_pairs"] = pairs;
    j["series"] = series;
    j["node_pairs"] = pairsJson(run.pairBytes, cluster);

    ordered_json events = ordered_json::array();
    for (const SimLogEntry &e : run.log)
        events.push_back({{"t", num(e.time)},
                          {"kind", e.kind},
                          {"job", e.job.empty() ? ordered_json() : ordered_json(e.job)},
                          {"detail", e.detail}});
    j["events"] = events;
    return j;
}

Status saveRunFile(const std::string &path, const RunResult &run, const Cluster &cluster,
                   const Topology &topology)
{
    return writeFileAtomically(path, runToJson(run, cluster, topology).dump(1) + "\n");
}

} // namespace cb
