#include "net/job_flows.h"

#include "util/rng.h"
#include "util/text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <tuple>
#include <unordered_map>

namespace cb {

namespace {

constexpr double kNoLimit = std::numeric_limits<double>::infinity();

bool computes(TaskRole role) { return role != TaskRole::Ps && role != TaskRole::Evaluator; }

/// Computing tasks of the job: (node index, ranks) in task order; ranks = GPUs, 1 for a CPU
/// task.
std::vector<RankGroup> workerTasks(const Job &job, const JobPlacement &placement,
                                   const std::unordered_map<std::string, int> &nodeIndex)
{
    std::vector<RankGroup> out;
    for (const TaskAssignment &a : placement.tasks) {
        if (!computes(a.role))
            continue;
        auto n = nodeIndex.find(a.node);
        if (n == nodeIndex.end())
            continue;
        const TaskGroup &g = job.tasks[std::size_t(a.group)];
        out.push_back({n->second, std::max(1, g.gpus)});
    }
    return out;
}

/// The tasks merged by node, nodes in order of first appearance.
std::vector<RankGroup> byNode(const std::vector<RankGroup> &tasks)
{
    std::vector<RankGroup> out;
    for (const RankGroup &t : tasks) {
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const RankGroup &g) { return g.node == t.node; });
        if (it == out.end())
            out.push_back(t);
        else
            it->ranks += t.ranks;
    }
    return out;
}

double routeFlowCap(const Cluster &cluster, const std::vector<int> &route)
{
    double cap = kNoLimit;
    for (int l : route) {
        const double c = cluster.links[std::size_t(l / 2)].flowCapGbps;
        if (c > 0)
            cap = std::min(cap, c);
    }
    return cap;
}

double flowSeconds(double bytes, double rateGbps)
{
    if (bytes <= 0)
        return 0;
    if (!(rateGbps > 0))
        return kNoLimit;
    if (std::isinf(rateGbps))
        return 0;
    return bytes * 8.0 / (rateGbps * 1e9);
}

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
                              const std::unordered_map<std::string, int> &nodeIndex,
                              AllReduceAlgorithm algorithm, const std::vector<int> *nodeDomain)
{
    const double bytes = double(job.model.parameterBytes);
    CommPlan plan;
    if (job.kind == JobKind::ParameterServer) {
        std::vector<int> servers;
        for (const TaskAssignment &a : placement.tasks)
            if (a.role == TaskRole::Ps)
                if (auto n = nodeIndex.find(a.node); n != nodeIndex.end())
                    servers.push_back(n->second);
        if (!servers.empty())
            plan = parameterServerPlan(workerTasks(job, placement, nodeIndex), servers, bytes);
    } else if (job.kind == JobKind::AllReduce) {
        const std::vector<RankGroup> groups = byNode(workerTasks(job, placement, nodeIndex));
        int rails = std::numeric_limits<int>::max();
        for (const RankGroup &g : groups)
            rails = std::min(rails, int(topology.edges(g.node).size()));
        plan = allReducePlan(algorithm, groups, bytes, groups.empty() ? 1 : std::max(1, rails));
    }

    std::vector<SimFlow> flows;
    flows.reserve(plan.transfers.size());
    std::vector<int> ownDomains;
    if (!cluster.nvlinkDomains.empty() && !nodeDomain) {
        ownDomains = cluster.nvlinkDomainOfNodes();
        nodeDomain = &ownDomains;
    }
    auto sharedDomain = [&](int a, int b) {
        if (!nodeDomain || a == b || std::size_t(a) >= nodeDomain->size() ||
            std::size_t(b) >= nodeDomain->size())
            return -1;
        const int d = (*nodeDomain)[std::size_t(a)];
        return d >= 0 && d == (*nodeDomain)[std::size_t(b)] ? d : -1;
    };
    // Channels of the plan per (phase, src, dst) inside a domain: they share one GPU's links.
    std::map<std::tuple<int, int, int>, int> domainChannels;
    if (nodeDomain)
        for (const CommTransfer &t : plan.transfers)
            if (sharedDomain(t.src, t.dst) >= 0)
                ++domainChannels[{t.phase, t.src, t.dst}];
    const std::uint64_t jobHash = fnv1a(job.id);
    for (std::size_t f = 0; f < plan.transfers.size(); ++f) {
        const CommTransfer &t = plan.transfers[f];
        SimFlow flow;
        flow.src = t.src;
        flow.dst = t.dst;
        flow.bytes = t.bytes;
        flow.copies = t.copies;
        flow.phase = t.phase;
        flow.steps = t.steps;
        if (t.src == t.dst) {
            const Node &node = cluster.nodes[std::size_t(t.src)];
            flow.capGbps = node.interconnect.bandwidthGbps;
            flow.latencySeconds = node.interconnect.latencyUs * 1e-6;
        } else if (const int d = sharedDomain(t.src, t.dst); d >= 0) {
            const NvlinkDomain &dom = cluster.nvlinkDomains[std::size_t(d)];
            flow.nvlinkDomain = d;
            flow.capGbps = dom.bandwidthGbps / domainChannels[{t.phase, t.src, t.dst}];
            flow.latencySeconds = dom.latencyUs * 1e-6;
        } else {
            flow.route =
                topology.route(t.src, t.dst, Rng::mix(jobHash, std::uint64_t(f)), t.rail);
            for (int l : flow.route)
                flow.latencySeconds += topology.latencyUs(l) * 1e-6;
            flow.capGbps = routeFlowCap(cluster, flow.route);
        }
        flows.push_back(std::move(flow));
    }
    return flows;
}

double commSeconds(const std::vector<SimFlow> &flows, const std::vector<double> &ratesGbps,
                   bool crossNodeOnly)
{
    int phases = 0;
    for (const SimFlow &f : flows)
        phases = std::max(phases, f.phase + 1);
    // (called for every job whose rates change at every network solve: the sums of a few
    // phases stay on the stack)
    constexpr int kStackPhases = 32;
    std::array<double, 2 * kStackPhases> onStack;
    std::vector<double> onHeap;
    double *latency = onStack.data(), *transfer = onStack.data() + kStackPhases;
    if (phases > kStackPhases) {
        onHeap.resize(2 * std::size_t(phases));
        latency = onHeap.data();
        transfer = onHeap.data() + phases;
    }
    std::fill(latency, latency + phases, 0.0);
    std::fill(transfer, transfer + phases, 0.0);
    for (std::size_t i = 0; i < flows.size(); ++i) {
        const SimFlow &f = flows[i];
        if (crossNodeOnly && f.src == f.dst)
            continue;
        const std::size_t p = std::size_t(f.phase);
        latency[p] = std::max(latency[p], f.steps * f.latencySeconds);
        transfer[p] = std::max(transfer[p], flowSeconds(f.bytes, ratesGbps[i]));
    }
    double total = 0;
    for (int p = 0; p < phases; ++p)
        total += latency[std::size_t(p)] + transfer[std::size_t(p)];
    return total;
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
    if (slowest < 0)
        return job.model.computeSecondsPerIteration;
    if (job.model.colocationSlowdown != 0) {
        const std::vector<int> perNode = workerGpusPerNode(job, placement);
        const int most = perNode.empty() ? 1 : *std::max_element(perNode.begin(), perNode.end());
        slowest *= 1.0 + job.model.colocationSlowdown * double(std::max(0, most - 1));
    }
    return slowest;
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

int synchronisingRanks(const Job &job, const JobPlacement &placement)
{
    if (job.kind == JobKind::Single)
        return 1;
    int n = 0;
    for (const TaskAssignment &a : placement.tasks)
        if (computes(a.role))
            n += std::max(1, job.tasks[std::size_t(a.group)].gpus);
    return std::max(1, n);
}

double expectedMaxOfNormals(int n)
{
    if (n <= 1)
        return 0;
    static thread_local std::unordered_map<int, double> cache;
    if (auto it = cache.find(n); it != cache.end())
        return it->second;
    // E[max] = integral of x n phi(x) Phi(x)^(n-1) dx, Simpson's rule on [-10, 10].
    constexpr int kIntervals = 4000;
    constexpr double a = -10, b = 10, h = (b - a) / kIntervals;
    const double invSqrt2Pi = 1.0 / std::sqrt(2.0 * std::numbers::pi);
    auto f = [&](double x) {
        const double cdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
        if (cdf <= 0)
            return 0.0;
        return x * n * invSqrt2Pi * std::exp(-0.5 * x * x + (n - 1) * std::log(cdf));
    };
    double sum = f(a) + f(b);
    for (int i = 1; i < kIntervals; ++i)
        sum += (i % 2 ? 4.0 : 2.0) * f(a + i * h);
    const double value = sum * h / 3.0;
    cache.emplace(n, value);
    return value;
}

double stragglerSeconds(const ModelProfile &model, double compute, int ranks)
{
    if (!(model.computeCv > 0) || ranks <= 1)
        return 0;
    return model.computeCv * compute * expectedMaxOfNormals(ranks);
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

double iterationSeconds(double compute, double comm, double overlap, double exposed)
{
    const double o = std::clamp(overlap, 0.0, 1.0);
    const double e = std::clamp(exposed, 0.0, 1.0);
    return compute + std::max(comm - o * compute, e * comm);
}

double modelOverlap(const ModelProfile &model, double defaultOverlap)
{
    return model.overlap ? *model.overlap : defaultOverlap;
}

} // namespace cb
