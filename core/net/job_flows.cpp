#include "net/job_flows.h"

#include "util/rng.h"
#include "util/text.h"

#include <algorithm>
#include <limits>

namespace cb {

namespace {

bool computes(TaskRole role) { return role != TaskRole::Ps && role != TaskRole::Evaluator; }

} // namespace

std::unordered_map<std::string, int> nodeIndexMap(const Cluster &cluster)
{
    std::unordered_map<std::string, int> m;
    for (std::size_t i = 0; i < cluster.nodes.size(); ++i)
        m.emplace(cluster.nodes[i].id, int(i));
    return m;
}

std::vector<SimFlow> jobFlows(const Job &job, const JobPlacement &placement,
                              const Cluster &cluster, const Topology &topology,
                              const std::unordered_map<std::string, int> &nodeIndex)
{
    std::vector<int> ps, workers;
    for (const TaskAssignment &a : placement.tasks) {
        auto n = nodeIndex.find(a.node);
        if (n == nodeIndex.end())
            continue;
        if (a.role == TaskRole::Ps)
            ps.push_back(n->second);
        else if (a.role != TaskRole::Evaluator)
            workers.push_back(n->second);
    }
    std::vector<SimFlow> flows;
    const double b = double(job.model.parameterBytes);
    if (job.kind == JobKind::ParameterServer && !ps.empty()) {
        const double share = b / double(ps.size());
        for (int w : workers)
            for (int p : ps) {
                flows.push_back({w, p, share, {}, 0, 0});
                flows.push_back({p, w, share, {}, 0, 0});
            }
    } else if (job.kind == JobKind::AllReduce && workers.size() > 1) {
        const double w = double(workers.size());
        const double bytes = 2.0 * (w - 1.0) / w * b;
        for (std::size_t r = 0; r < workers.size(); ++r)
            flows.push_back({workers[r], workers[(r + 1) % workers.size()], bytes, {}, 0, 0});
    }
    const std::uint64_t jobHash = fnv1a(job.id);
    for (std::size_t f = 0; f < flows.size(); ++f) {
        SimFlow &flow = flows[f];
        if (flow.src == flow.dst) {
            const Node &node = cluster.nodes[std::size_t(flow.src)];
            flow.capGbps = node.interconnect.bandwidthGbps;
            continue;
        }
        flow.capGbps = std::numeric_limits<double>::infinity();
        flow.route = topology.route(flow.src, flow.dst, Rng::mix(jobHash, std::uint64_t(f)));
        for (int l : flow.route)
            flow.latencySeconds += topology.latencyUs(l) * 1e-6;
    }
    return flows;
}

double workerComputeSeconds(const ModelProfile &model, const Cluster &cluster,
                            const std::string &gpuType)
{
    if (auto it = model.computeSecondsByGpuType.find(gpuType);
        it != model.computeSecondsByGpuType.end())
        return it->second;
    const GpuType *t = gpuType.empty() ? nullptr : cluster.gpuType(gpuType);
    const double speed = t && t->relativeSpeed > 0 ? t->relativeSpeed : 1.0;
    return model.computeSecondsPerIteration / speed;
}

double jobComputeSeconds(const Job &job, const JobPlacement &placement, const Cluster &cluster,
                         const std::unordered_map<std::string, int> &nodeIndex)
{
    double slowest = -1;
    for (const TaskAssignment &a : placement.tasks) {
        if (!computes(a.role))
            continue;
        const TaskGroup &g = job.tasks[std::size_t(a.group)];
        std::string type;
        if (g.gpus > 0) {
            auto n = nodeIndex.find(a.node);
            if (n != nodeIndex.end())
                type = cluster.nodes[std::size_t(n->second)].gpuType;
        }
        slowest = std::max(slowest, workerComputeSeconds(job.model, cluster, type));
    }
    return slowest >= 0 ? slowest : job.model.computeSecondsPerIteration;
}

std::vector<int> workerGpusPerNode(const Job &job, const JobPlacement &placement)
{
    std::vector<std::string> order;
    std::vector<int> gpus;
    for (const TaskAssignment &a : placement.tasks) {
        if (!computes(a.role))
            continue;
        const TaskGroup &g = job.tasks[std::size_t(a.group)];
        if (g.gpus <= 0)
            continue;
        auto it = std::find(order.begin(), order.end(), a.node);
        if (it == order.end()) {
            order.push_back(a.node);
            gpus.push_back(g.gpus);
        } else {
            gpus[std::size_t(it - order.begin())] += g.gpus;
        }
    }
    return gpus;
}

std::optional<StepTimeEstimate>
measuredStepTime(const Job &job, const JobPlacement &placement,
                 const std::map<std::string, StepTimeTable> &models)
{
    if (models.empty())
        return std::nullopt;
    auto it = models.find(job.model.name);
    if (it == models.end())
        return std::nullopt;
    return lookupStepTime(it->second, workerGpusPerNode(job, placement), job.model.localBatch);
}

double iterationSeconds(double compute, double comm, double overlap)
{
    const double o = std::clamp(overlap, 0.0, 1.0);
    return std::max(compute, comm) * o + (compute + comm) * (1.0 - o);
}

} // namespace cb
