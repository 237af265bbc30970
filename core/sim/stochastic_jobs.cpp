#include "sim/stochastic_jobs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace cb {

Scenario stochasticScenario(const std::vector<StsJob> &jobs, const GpuPool &pool)
{
    Scenario s;
    s.name = "stochastic jobs";
    std::set<std::string> types, racks;
    for (const GpuPool::NodeState &p : pool.nodes()) {
        Node n;
        n.id = p.id;
        n.gpus = p.gpus;
        n.gpuType = p.gpuType;
        n.rack = p.rack.empty() ? "rack" : p.rack;
        n.cpus = 8.0 * std::max(1, p.gpus);
        n.memoryGiB = 64.0 * std::max(1, p.gpus);
        s.cluster.nodes.push_back(n);
        types.insert(p.gpuType);
        racks.insert(n.rack);
    }
    for (const std::string &t : types) {
        GpuType g;
        g.name = t;
        s.cluster.gpuTypes.push_back(g);
    }
    const bool core = racks.size() > 1;
    for (const std::string &r : racks)
        s.cluster.switches.push_back({"switch-" + r, "tor"});
    if (core)
        s.cluster.switches.push_back({"switch-core", "core"});
    for (const GpuPool::NodeState &p : pool.nodes()) {
        Link l;
        l.a = p.id;
        l.b = "switch-" + (p.rack.empty() ? std::string("rack") : p.rack);
        l.capacityGbps = p.nicGbps > 0 ? p.nicGbps : 10;
        l.latencyUs = 0;
        s.cluster.links.push_back(l);
    }
    if (core)
        for (const std::string &r : racks)
            s.cluster.links.push_back({"switch-" + r, "switch-core", 400, 0});
    for (const StsJob &j : jobs) {
        Job job;
        job.id = j.id;
        job.name = j.id;
        job.kind = JobKind::Single;
        job.submitSeconds = j.submitSeconds;
        if (std::isfinite(j.dueSeconds))
            job.dueSeconds = j.dueSeconds;
        job.tardinessWeight = j.tardinessWeight;
        TaskGroup t;
        t.role = TaskRole::Single;
        t.replicas = 1;
        t.cpus = 1;
        t.memoryGiB = 1;
        t.gpus = 1;
        job.tasks = {t};
        job.model.name = "model";
        job.model.parameterBytes = std::int64_t(j.parameterBytes);
        job.model.iterations = std::int64_t(std::llround(j.maxEpochs * j.iterationsPerEpoch));
        s.jobs.push_back(std::move(job));
    }
    return s;
}

Job configurationJob(const Job &original, const StsConfig &config)
{
    Job j = original;
    const int g = std::max(1, config.gpus);
    const int originalGpus = std::max(1, original.gpuCount());
    double cpus = 0, memory = 0;
    for (const TaskGroup &t : original.tasks) {
        cpus += t.cpus * t.replicas;
        memory += t.memoryGiB * t.replicas;
    }
    TaskGroup t;
    t.role = g > 1 ? TaskRole::Worker : TaskRole::Single;
    t.replicas = g;
    t.cpus = cpus / originalGpus;
    t.memoryGiB = memory / originalGpus;
    t.gpus = 1;
    t.gpuFraction = config.fraction;
    j.kind = g > 1 ? JobKind::AllReduce : JobKind::Single;
    j.tasks = {t};
    return j;
}

} // namespace cb
