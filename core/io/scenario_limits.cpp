#include "io/scenario_limits.h"

#include "io/import/text_fields.h"
#include "util/text.h"

#include <cmath>

namespace cb::limits {

namespace {

void range(Problems &p, const std::string &ptr, double v, double lo, double hi)
{
    if (!(v >= lo && v <= hi))
        p.push_back({ptr, "expected a number in [" + numberText(lo) + ", " + numberText(hi) +
                              "], found " + numberText(v)});
}

} // namespace

Problems jobProblems(const Job &job, const std::string &ptr)
{
    Problems p;
    if (job.id.empty())
        p.push_back({ptr + "/id", "expected a non-empty job id"});
    range(p, ptr + "/submit_s", job.submitSeconds, 0, kMaxSeconds);
    if (job.dueSeconds)
        range(p, ptr + "/due_s", *job.dueSeconds, 0, kMaxSeconds);
    range(p, ptr + "/tardiness_weight", job.tardinessWeight, 0, kMaxTardinessWeight);
    range(p, ptr + "/priority", job.priority, -kMaxPriority, kMaxPriority);
    for (std::size_t t = 0; t < job.tasks.size(); ++t) {
        const TaskGroup &g = job.tasks[t];
        const std::string tptr = ptr + "/tasks/" + std::to_string(t);
        range(p, tptr + "/replicas", g.replicas, 1, double(kMaxReplicas));
        range(p, tptr + "/cpus", g.cpus, 0, kMaxCpus);
        range(p, tptr + "/memory_gib", g.memoryGiB, 0, kMaxMemoryGiB);
        range(p, tptr + "/gpus", g.gpus, 0, double(kMaxGpusPerNode));
        range(p, tptr + "/gpu_fraction", g.gpuFraction, kMinGpuFraction, 1.0);
    }
    const ModelProfile &m = job.model;
    range(p, ptr + "/model/parameter_bytes", double(m.parameterBytes), 0, double(kMaxBytes));
    range(p, ptr + "/model/iterations", double(m.iterations), 1, double(kMaxIterations));
    range(p, ptr + "/model/compute_s_per_iteration", m.computeSecondsPerIteration, 0, kMaxSeconds);
    for (const auto &[type, s] : m.computeSecondsByGpuType)
        range(p, ptr + "/model/compute_s_by_gpu_type/" + type, s, 0, kMaxSeconds);
    if (m.localBatch != 0)
        range(p, ptr + "/model/local_batch", m.localBatch, 1, double(kMaxLocalBatch));
    return p;
}

/// Text that is not UTF-8 (an importer's YAML escapes such as \N give raw bytes) cannot be
/// written as JSON: refused here, naming the field, instead of failing when the scenario is
/// saved.
void utf8(Problems &p, const std::string &where, const std::string &text)
{
    if (const auto at = importtext::invalidUtf8At(text))
        p.push_back({where, "text that is not UTF-8 (byte " + std::to_string(*at) + " of " +
                                importtext::shown(text) + ")"});
}

Problems clusterProblems(const Cluster &c)
{
    Problems p;
    for (std::size_t i = 0; i < c.gpuTypes.size(); ++i)
        utf8(p, "/cluster/gpu_types/" + std::to_string(i) + "/name", c.gpuTypes[i].name);
    for (std::size_t i = 0; i < c.nodes.size(); ++i) {
        const Node &n = c.nodes[i];
        const std::string ptr = "/cluster/nodes/" + std::to_string(i);
        utf8(p, ptr + "/id", n.id);
        utf8(p, ptr + "/gpu_type", n.gpuType);
        utf8(p, ptr + "/partition", n.partition);
        utf8(p, ptr + "/rack", n.rack);
        for (const auto &[key, value] : n.labels) {
            utf8(p, ptr + "/labels", key);
            utf8(p, ptr + "/labels/" + key, value);
        }
    }
    for (std::size_t i = 0; i < c.switches.size(); ++i) {
        utf8(p, "/cluster/switches/" + std::to_string(i) + "/id", c.switches[i].id);
        utf8(p, "/cluster/switches/" + std::to_string(i) + "/tier", c.switches[i].tier);
    }
    for (std::size_t i = 0; i < c.nvlinkDomains.size(); ++i)
        utf8(p, "/cluster/nvlink_domains/" + std::to_string(i) + "/id", c.nvlinkDomains[i].id);
    for (std::size_t i = 0; i < c.gpuTypes.size(); ++i) {
        const GpuType &t = c.gpuTypes[i];
        const std::string ptr = "/cluster/gpu_types/" + std::to_string(i);
        range(p, ptr + "/memory_gib", t.memoryGiB, 0, kMaxMemoryGiB);
        range(p, ptr + "/relative_speed", t.relativeSpeed, 1e-6, 1e6);
        range(p, ptr + "/idle_watts", t.idleWatts, 0, kMaxWatts);
        range(p, ptr + "/busy_watts", t.busyWatts, 0, kMaxWatts);
        range(p, ptr + "/price_per_hour", t.pricePerHour, 0, kMaxPrice);
    }
    for (std::size_t i = 0; i < c.nodes.size(); ++i) {
        const Node &n = c.nodes[i];
        const std::string ptr = "/cluster/nodes/" + std::to_string(i);
        range(p, ptr + "/cpus", n.cpus, 0, kMaxCpus);
        range(p, ptr + "/memory_gib", n.memoryGiB, 0, kMaxMemoryGiB);
        range(p, ptr + "/gpus", n.gpus, 0, double(kMaxGpusPerNode));
        range(p, ptr + "/base_watts", n.baseWatts, 0, kMaxWatts);
        range(p, ptr + "/interconnect/bandwidth_gbps", n.interconnect.bandwidthGbps, 0, kMaxGbps);
    }
    for (std::size_t i = 0; i < c.links.size(); ++i) {
        const Link &l = c.links[i];
        const std::string ptr = "/cluster/links/" + std::to_string(i);
        range(p, ptr + "/capacity_gbps", l.capacityGbps, -kMaxGbps, kMaxGbps);
        range(p, ptr + "/latency_us", l.latencyUs, 0, kMaxLatencyUs);
    }
    return p;
}

} // namespace cb::limits
