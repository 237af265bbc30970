#include "sched/placer.h"

#include "net/job_flows.h"
#include "sched/domain_packing.h"
#include "sched/queue_order.h"
#include "util/count_text.h"
#include "util/rng.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace cb {

namespace {

constexpr double kScoreEps = 1e-9;
constexpr double kInfeasible = -1.0; // every feasible total is >= 0 (weights and scores are)
constexpr double kMax = 10.0;        // kube-scheduler's MaxPriority

/// Truncation of a non-negative score, as kube-scheduler's int(). The epsilon keeps values
/// that are integral in exact arithmetic (7 = 0.7 * 10) from being rounded down to 6.
inline double trunc0(double x)
{
    return double(int(x + kScoreEps));
}
inline double round0(double x) { return double(int(x + 0.5)); }

enum class Category { Ps, Worker, Other };

Category category(TaskRole role)
{
    switch (role) {
    case TaskRole::Ps:
        return Category::Ps;
    case TaskRole::Worker:
    case TaskRole::Chief:
    case TaskRole::Single:
        return Category::Worker;
    case TaskRole::Evaluator:
        return Category::Other;
    }
    return Category::Other;
}

/// Resource scores shared by the fused kernel and the decision log, so both agree.
struct ResourceInputs
{
    double cpuReq, cpuCap, cpuInv10, memReq, memCap, memInv10;
    double gpuReq, gpuCap, gpuInv10;
};

inline double unusedScore(double req, double cap, double inv10)
{
    return req <= cap + kScoreEps ? trunc0((cap - req) * inv10) : 0.0;
}
inline double usedScore(double req, double cap, double inv10)
{
    return req <= cap + kScoreEps ? trunc0(req * inv10) : 0.0;
}
inline double leastAllocated(const ResourceInputs &r, bool gpu)
{
    const double c = unusedScore(r.cpuReq, r.cpuCap, r.cpuInv10);
    const double m = unusedScore(r.memReq, r.memCap, r.memInv10);
    if (gpu && r.gpuCap > 0)
        return trunc0((c + m + unusedScore(r.gpuReq, r.gpuCap, r.gpuInv10)) / 3.0);
    return trunc0((c + m) / 2.0);
}
inline double mostAllocated(const ResourceInputs &r, bool gpu)
{
    const double c = usedScore(r.cpuReq, r.cpuCap, r.cpuInv10);
    const double m = usedScore(r.memReq, r.memCap, r.memInv10);
    if (gpu && r.gpuCap > 0)
        return trunc0((c + m + usedScore(r.gpuReq, r.gpuCap, r.gpuInv10)) / 3.0);
    return trunc0((c + m) / 2.0);
}
inline double balancedAllocation(const ResourceInputs &r)
{
    if (r.cpuReq >= r.cpuCap - kScoreEps || r.memReq >= r.memCap - kScoreEps)
        return 0.0;
    const double diff = std::fabs(r.cpuReq * r.cpuInv10 - r.memReq * r.memInv10); // 0..10
    return trunc0(kMax - diff);
}

struct TaskRef
{
    int group = 0;
    TaskRole role = TaskRole::Worker;
    int indexInRole = 0;
    int ringRank = -1; ///< rank among the job's worker-category tasks (all-reduce ring)
};

} // namespace

struct Placer::Impl
{
    const Cluster &cluster;
    const Topology &topology;
    Policy policy;
    std::uint64_t seed;
    ClusterState state;
    std::int64_t decisions = 0;

    // Static per-node data.
    std::vector<double> cpuInv10, memInv10, gpuInv10;
    std::vector<double> affinity; // NodeAffinity raw score per node
    std::vector<const GpuType *> nodeGpuType; // EnergyEfficiency: the node's GPU type or null
    std::vector<double> energyRaw;            // EnergyEfficiency scratch per node
    std::unique_ptr<DomainPacking> domains;   // NvlinkDomain, when the policy has it
    std::vector<std::uint8_t> allEligible;

    // Policy, flattened for the hot path.
    double wLeast = 0, wMost = 0, wBalanced = 0, wSpread = 0, wDltap = 0;
    bool leastGpu = false, mostGpu = false;
    DltapVariant variant = DltapVariant::Counterpart;
    bool hasExtraDense = false; // topology, nvlink, affinity or random

    // Scratch, reused for every decision.
    std::vector<double> total;
    std::vector<std::uint8_t> eligible;
    std::vector<double> randomRaw;
    std::vector<double> hopSum;
    std::unordered_map<int, std::vector<int>> hopsCache;
    std::unordered_map<std::string, int> nodeIdx; // node id -> index (Cluster::nodeIndex scans)

    // The job being placed.
    const Job *job = nullptr;
    std::vector<int> psOn, workerOn, allOn;
    std::vector<int> touched;
    int placedPs = 0, placedWorkers = 0, placedAll = 0, totalPs = 0, totalWorkers = 0;
    std::vector<int> ringNode;   // node of each ring rank, -1 while unplaced
    double spreadMax = 0;        // SelectorSpread's max count over feasible nodes
    double topoMax = 0;          // TopologyDistance's max mean hops over feasible nodes

    Impl(const Cluster &c, const Topology &t, Policy p, std::uint64_t s)
        : cluster(c), topology(t), policy(std::move(p)), seed(s), state(c),
          nodeIdx(nodeIndexMap(c))
    {
        const int n = state.nodeCount();
        cpuInv10.resize(std::size_t(n));
        memInv10.resize(std::size_t(n));
        gpuInv10.resize(std::size_t(n));
        for (int i = 0; i < n; ++i) {
            cpuInv10[std::size_t(i)] = state.cpuCap()[i] > 0 ? kMax / state.cpuCap()[i] : 0;
            memInv10[std::size_t(i)] = state.memCap()[i] > 0 ? kMax / state.memCap()[i] : 0;
            gpuInv10[std::size_t(i)] = state.gpuCap()[i] > 0 ? kMax / state.gpuCap()[i] : 0;
        }
        allEligible.assign(std::size_t(n), 1);
        total.resize(std::size_t(n));
        randomRaw.assign(std::size_t(n), 0.0);
        psOn.assign(std::size_t(n), 0);
        workerOn.assign(std::size_t(n), 0);
        allOn.assign(std::size_t(n), 0);
        flattenWeights();
        for (const PluginConfig &pc : policy.plugins) {
            switch (pc.kind) {
            case PluginKind::LeastAllocated:
                leastGpu = pc.includeGpu;
                break;
            case PluginKind::MostAllocated:
                mostGpu = pc.includeGpu;
                break;
            case PluginKind::BalancedAllocation:
            case PluginKind::SelectorSpread:
                break;
            case PluginKind::Dltap:
                variant = pc.variant;
                break;
            case PluginKind::TopologyDistance:
                hopSum.assign(std::size_t(n), 0.0);
                hasExtraDense = true;
                incrementalOk = false; // every node's hops change with every bind of the job
                break;
            case PluginKind::NodeAffinity:
                affinity.assign(std::size_t(n), 0.0);
                for (int i = 0; i < n; ++i) {
                    bool all = true;
                    for (const auto &[k, v] : pc.preferredLabels) {
                        auto it = cluster.nodes[std::size_t(i)].labels.find(k);
                        all = all && it != cluster.nodes[std::size_t(i)].labels.end() &&
                              it->second == v;
                    }
                    affinity[std::size_t(i)] = all ? kMax : 0.0;
                }
                hasExtraDense = true;
                break;
            case PluginKind::EnergyEfficiency:
                nodeGpuType.assign(std::size_t(n), nullptr);
                energyRaw.assign(std::size_t(n), kMax);
                for (int i = 0; i < n; ++i) {
                    const Node &node = cluster.nodes[std::size_t(i)];
                    if (node.gpus > 0 && !node.gpuType.empty())
                        nodeGpuType[std::size_t(i)] = cluster.gpuType(node.gpuType);
                }
                energyClass.assign(std::size_t(n), -1);
                for (int i = 0; i < n; ++i) {
                    const GpuType *t = nodeGpuType[std::size_t(i)];
                    if (!t)
                        continue;
                    auto it = std::find(energyTypes.begin(), energyTypes.end(), t);
                    if (it == energyTypes.end())
                        it = energyTypes.insert(energyTypes.end(), t);
                    energyClass[std::size_t(i)] = int(it - energyTypes.begin());
                }
                hasExtraDense = true;
                break;
            case PluginKind::NvlinkDomain:
                if (!domains)
                    domains = std::make_unique<DomainPacking>(cluster);
                hasExtraDense = true;
                // A node's score follows the free GPUs of its whole domain and the job's
                // placed tasks: a bind changes the scores of every node of the domain.
                incrementalOk = false;
                break;
            case PluginKind::NvlinkPacking:
                hasExtraDense = true;
                break;
            case PluginKind::Random:
                hasExtraDense = true;
                incrementalOk = false; // a fresh draw on every node at every decision
                break;
            }
        }
    }

    /// The weights of the fused kernel and the job-local plugins, summed per kind.
    void flattenWeights()
    {
        wLeast = wMost = wBalanced = wSpread = wDltap = 0;
        for (const PluginConfig &pc : policy.plugins) {
            switch (pc.kind) {
            case PluginKind::LeastAllocated: wLeast += pc.weight; break;
            case PluginKind::MostAllocated: wMost += pc.weight; break;
            case PluginKind::BalancedAllocation: wBalanced += pc.weight; break;
            case PluginKind::SelectorSpread: wSpread += pc.weight; break;
            case PluginKind::Dltap: wDltap += pc.weight; break;
            default: break;
            }
        }
    }

    std::int64_t allRowsAt = -1; // keepAllRowsAt
    std::vector<DecisionTrace> *trace = nullptr; // traceDecisions

    // A weight that changes from a given decision on (overrideWeightFrom).
    std::int64_t overrideAt = -1;
    std::size_t overridePlugin = 0;
    double overrideWeight = 0;
    void applyOverrideIfDue()
    {
        if (overrideAt < 0 || decisions < overrideAt)
            return;
        policy.plugins[overridePlugin].weight = overrideWeight;
        flattenWeights();
        caches.clear(); // the cached totals hold the old weight
        overrideAt = -1;
    }

    ResourceInputs inputs(int n, double cpus, double mem, int gpus, double fraction) const
    {
        const auto i = std::size_t(n);
        return {state.cpuUsed()[n] + cpus, state.cpuCap()[n],  cpuInv10[i],
                state.memUsed()[n] + mem,  state.memCap()[n],  memInv10[i],
                state.gpuUsed()[n] + (gpus > 0 ? gpus * std::min(1.0, fraction) : 0.0),
                state.gpuCap()[n], gpuInv10[i]};
    }

    // ---- static filter ------------------------------------------------------------------

    /// Nodes the group may use at all (GPU type, labels, GPU count); nullptr = every node.
    const std::uint8_t *staticFilter(const TaskGroup &g)
    {
        const bool typed = g.gpus > 0 && !g.gpuType.empty();
        if (!typed && g.nodeSelector.empty() && g.gpus == 0)
            return allEligible.data();
        const int n = state.nodeCount();
        eligible.assign(std::size_t(n), 1);
        const int typeId = typed ? state.gpuTypeIndex(g.gpuType) : -1;
        for (int i = 0; i < n; ++i) {
            bool ok = state.gpuCap()[i] >= g.gpus;
            if (typed)
                ok = ok && state.gpuTypeId()[i] == typeId;
            for (const auto &[k, v] : g.nodeSelector) {
                if (!ok)
                    break;
                auto it = cluster.nodes[std::size_t(i)].labels.find(k);
                ok = it != cluster.nodes[std::size_t(i)].labels.end() && it->second == v;
            }
            eligible[std::size_t(i)] = ok ? 1 : 0;
        }
        return eligible.data();
    }

    std::string staticReason(const TaskGroup &g, int i) const
    {
        const Node &node = cluster.nodes[std::size_t(i)];
        if (node.gpus < g.gpus)
            return "needs " + std::to_string(g.gpus) + " GPU" + (g.gpus > 1 ? "s" : "") +
                   ", node has " + std::to_string(node.gpus);
        if (g.gpus > 0 && !g.gpuType.empty() && node.gpuType != g.gpuType)
            return "needs GPU type " + g.gpuType + ", node has " +
                   (node.gpuType.empty() ? std::string("none") : node.gpuType);
        for (const auto &[k, v] : g.nodeSelector) {
            auto it = node.labels.find(k);
            if (it == node.labels.end() || it->second != v)
                return "node selector: lacks label " + k + "=" + v;
        }
        return "filtered out";
    }

    // ---- job-local plugins --------------------------------------------------------------

    double dltapRaw(int n, const TaskRef &t) const
    {
        const auto i = std::size_t(n);
        const Category c = category(t.role);
        const bool psJob = job->kind == JobKind::ParameterServer;
        double a = 0;
        switch (variant) {
        case DltapVariant::Job:
            a = double(allOn[i]) / std::max(1, placedAll);
            break;
        case DltapVariant::Counterpart:
            if (psJob && c == Category::Ps)
                a = double(workerOn[i]) / std::max(1, placedWorkers);
            else if (psJob && c == Category::Worker)
                a = double(psOn[i]) / std::max(1, placedPs);
            else
                a = double(allOn[i]) / std::max(1, placedAll);
            break;
        case DltapVariant::Traffic:
            if (psJob && c == Category::Ps && totalWorkers > 0)
                a = double(workerOn[i]) / totalWorkers;
            else if (psJob && c == Category::Worker && totalPs > 0)
                a = double(psOn[i]) / totalPs;
            else if (job->kind == JobKind::AllReduce && t.ringRank >= 0 && totalWorkers > 1) {
                const int w = totalWorkers;
                const int prev = (t.ringRank + w - 1) % w, next = (t.ringRank + 1) % w;
                int on = ringNode[std::size_t(prev)] == n ? 1 : 0;
                if (next != prev && ringNode[std::size_t(next)] == n)
                    ++on;
                a = double(on) / (next == prev ? 1 : 2);
            }
            break;
        }
        return round0(kMax * a);
    }

    double spreadRaw(int n) const
    {
        if (spreadMax <= 0)
            return kMax;
        return trunc0(kMax * (spreadMax - allOn[std::size_t(n)]) / spreadMax);
    }

    // ---- dense extra plugins (topology, NVLink, affinity, random) -------------------------

    const std::vector<int> &hopsFromNode(int v)
    {
        auto it = hopsCache.find(v);
        if (it == hopsCache.end()) {
            if (hopsCache.size() >= 256) // bound the memory on large clusters
                hopsCache.clear();
            it = hopsCache.emplace(v, topology.hopsFrom(v)).first;
        }
        return it->second;
    }

    double topologyRaw(int n) const
    {
        if (placedAll == 0)
            return kMax;
        const double d = hopSum[std::size_t(n)] / placedAll;
        return topoMax > 0 ? round0(kMax * (topoMax - d) / topoMax) : kMax;
    }

    double nvlinkRaw(int n, const TaskGroup &g) const
    {
        if (g.gpus <= 0 || g.gpuFraction < 1.0 || state.nvlinkDomainCount(n) == 0)
            return 0;
        bool partly = false;
        if (!state.fitsOneNvlinkDomain(n, g.gpus, &partly))
            return 0;
        return partly ? kMax : 8.0;
    }

    double rawScore(const PluginConfig &pc, int n, const TaskGroup &g, const TaskRef &t) const
    {
        const ResourceInputs r = inputs(n, g.cpus, g.memoryGiB, g.gpus, g.gpuFraction);
        switch (pc.kind) {
        case PluginKind::LeastAllocated:
            return leastAllocated(r, pc.includeGpu);
        case PluginKind::MostAllocated:
            return mostAllocated(r, pc.includeGpu);
        case PluginKind::BalancedAllocation:
            return balancedAllocation(r);
        case PluginKind::SelectorSpread:
            return spreadRaw(n);
        case PluginKind::Dltap:
            return dltapRaw(n, t);
        case PluginKind::TopologyDistance:
            return topologyRaw(n);
        case PluginKind::NvlinkPacking:
            return nvlinkRaw(n, g);
        case PluginKind::NodeAffinity:
            return affinity[std::size_t(n)];
        case PluginKind::Random:
            return randomRaw[std::size_t(n)];
        case PluginKind::EnergyEfficiency:
            return energyRaw[std::size_t(n)];
        case PluginKind::NvlinkDomain:
            return domains->raw(n);
        }
        return 0;
    }

    // ---- the fused kernel ----------------------------------------------------------------

    /// What the dense kernel needs of a task shape, computed once per decision.
    struct ShapeAsk
    {
        double cpus = 0, mem = 0, gpuAsk = 0, needWhole = 0, needShare = -1, base = 0;
    };
    ShapeAsk shapeAsk(double cpus, double mem, int gpus, double frac) const
    {
        const bool shared = gpus > 0 && frac < 1.0;
        ShapeAsk a;
        a.cpus = cpus;
        a.mem = mem;
        a.gpuAsk = gpus > 0 ? gpus * std::min(1.0, frac) : 0.0;
        a.needWhole = shared ? 0.0 : double(gpus);
        a.needShare = shared ? frac - kScoreEps : -1.0;
        a.base = wSpread * kMax; // SelectorSpread on nodes without the job's tasks
        return a;
    }

    /// The dense total of node `i` (resource plugins plus SelectorSpread's default), or
    /// kInfeasible. One definition for the full loop and the incremental refresh, so both
    /// compute the same double bit for bit.
    template<bool Least, bool Most, bool Balanced>
    inline double denseAt(int i, const ShapeAsk &a, const std::uint8_t *elig) const
    {
        const double *cpuUsed = state.cpuUsed(), *cpuCap = state.cpuCap();
        const double *memUsed = state.memUsed(), *memCap = state.memCap();
        const double *gpuUsed = state.gpuUsed(), *gpuCap = state.gpuCap();
        const double *gpuFree = state.gpuFreeWhole(), *gpuMaxFree = state.gpuMaxFree();
        const double *ci = cpuInv10.data(), *mi = memInv10.data(), *gi = gpuInv10.data();
        const double cr = cpuUsed[i] + a.cpus, mr = memUsed[i] + a.mem;
        // Bitwise, not short-circuit: no branches in the loop.
        const bool ok = (elig[i] != 0) & (cr <= cpuCap[i] + kScoreEps) &
                        (mr <= memCap[i] + kScoreEps) & (gpuFree[i] >= a.needWhole) &
                        (gpuMaxFree[i] >= a.needShare);
        double s = a.base;
        if constexpr (Least || Most) {
            const ResourceInputs r{cr, cpuCap[i], ci[i], mr, memCap[i], mi[i],
                                   gpuUsed[i] + a.gpuAsk, gpuCap[i], gi[i]};
            if constexpr (Least)
                s += wLeast * leastAllocated(r, leastGpu);
            if constexpr (Most)
                s += wMost * mostAllocated(r, mostGpu);
        }
        if constexpr (Balanced) {
            const double b = (cr >= cpuCap[i] - kScoreEps || mr >= memCap[i] - kScoreEps)
                                 ? 0.0
                                 : trunc0(kMax - std::fabs(cr * ci[i] - mr * mi[i]));
            s += wBalanced * b;
        }
        return ok ? s : kInfeasible;
    }

    int denseMask() const
    {
        return (wLeast > 0 ? 1 : 0) | (wMost > 0 ? 2 : 0) | (wBalanced > 0 ? 4 : 0);
    }

    /// denseAt for one node, dispatched on the policy's plugin mask.
    double denseOne(int i, const ShapeAsk &a, const std::uint8_t *elig) const
    {
        switch (denseMask()) {
        case 0: return denseAt<false, false, false>(i, a, elig);
        case 1: return denseAt<true, false, false>(i, a, elig);
        case 2: return denseAt<false, true, false>(i, a, elig);
        case 3: return denseAt<true, true, false>(i, a, elig);
        case 4: return denseAt<false, false, true>(i, a, elig);
        case 5: return denseAt<true, false, true>(i, a, elig);
        case 6: return denseAt<false, true, true>(i, a, elig);
        default: return denseAt<true, true, true>(i, a, elig);
        }
    }

    template<bool Least, bool Most, bool Balanced>
    void denseKernel(const std::uint8_t *elig, const ShapeAsk &a, double *out) const
    {
        const int n = state.nodeCount();
        for (int i = 0; i < n; ++i)
            out[i] = denseAt<Least, Most, Balanced>(i, a, elig);
    }

    /// denseAt for every node into `out`.
    void denseAll(const std::uint8_t *elig, const ShapeAsk &a, double *out) const
    {
        switch (denseMask()) {
        case 0: denseKernel<false, false, false>(elig, a, out); break;
        case 1: denseKernel<true, false, false>(elig, a, out); break;
        case 2: denseKernel<false, true, false>(elig, a, out); break;
        case 3: denseKernel<true, true, false>(elig, a, out); break;
        case 4: denseKernel<false, false, true>(elig, a, out); break;
        case 5: denseKernel<true, false, true>(elig, a, out); break;
        case 6: denseKernel<false, true, true>(elig, a, out); break;
        default: denseKernel<true, true, true>(elig, a, out); break;
        }
    }

    void scoreAll(const std::uint8_t *elig, const TaskGroup &g, const TaskRef &t)
    {
        denseAll(elig, shapeAsk(g.cpus, g.memoryGiB, g.gpus, g.gpuFraction), total.data());
        // Job-local plugins: differ from their default only where the job already has tasks.
        if (wSpread > 0) {
            spreadMax = 0;
            for (int n : touched)
                if (total[std::size_t(n)] >= 0)
                    spreadMax = std::max(spreadMax, double(allOn[std::size_t(n)]));
        }
        if (wSpread > 0 || wDltap > 0)
            for (int n : touched) {
                double &tot = total[std::size_t(n)];
                if (tot < 0)
                    continue;
                if (wSpread > 0)
                    tot += wSpread * (spreadRaw(n) - kMax);
                if (wDltap > 0)
                    tot += wDltap * dltapRaw(n, t);
            }
        if (hasExtraDense)
            scoreExtraDense(g);
    }

    /// Joules per training step of the job on a node's GPU type: busy watts x seconds per
    /// iteration there (the job's own figure for that type, else the reference figure over
    /// the type's relative speed).
    double stepEnergy(const GpuType &t) const
    {
        double seconds = job->model.computeSecondsPerIteration / std::max(1e-9, t.relativeSpeed);
        if (auto it = job->model.computeSecondsByGpuType.find(t.name);
            it != job->model.computeSecondsByGpuType.end())
            seconds = it->second;
        return t.busyWatts * seconds;
    }

    /// EnergyEfficiency: round(10 x least step energy over feasible nodes / the node's);
    /// CPU-only tasks (and GPU-less nodes) score 10.
    void scoreEnergy(const TaskGroup &g)
    {
        const int n = state.nodeCount();
        std::fill(energyRaw.begin(), energyRaw.end(), kMax);
        if (g.gpus <= 0)
            return;
        double best = std::numeric_limits<double>::infinity();
        for (int i = 0; i < n; ++i)
            if (total[std::size_t(i)] >= 0 && nodeGpuType[std::size_t(i)])
                best = std::min(best, stepEnergy(*nodeGpuType[std::size_t(i)]));
        for (int i = 0; i < n; ++i) {
            const GpuType *t = nodeGpuType[std::size_t(i)];
            if (!t || !(best > 0) || std::isinf(best))
                continue;
            const double e = stepEnergy(*t);
            energyRaw[std::size_t(i)] = e > 0 ? round0(kMax * best / e) : kMax;
        }
    }

    void scoreExtraDense(const TaskGroup &g)
    {
        const int n = state.nodeCount();
        for (const PluginConfig &pc : policy.plugins) {
            const double w = pc.weight;
            switch (pc.kind) {
            case PluginKind::TopologyDistance:
                topoMax = 0;
                if (placedAll > 0)
                    for (int i = 0; i < n; ++i)
                        if (total[std::size_t(i)] >= 0)
                            topoMax = std::max(topoMax, hopSum[std::size_t(i)] / placedAll);
                for (int i = 0; i < n; ++i)
                    if (total[std::size_t(i)] >= 0)
                        total[std::size_t(i)] += w * topologyRaw(i);
                break;
            case PluginKind::NvlinkPacking:
                for (int i = 0; i < n; ++i)
                    if (total[std::size_t(i)] >= 0)
                        total[std::size_t(i)] += w * nvlinkRaw(i, g);
                break;
            case PluginKind::NodeAffinity:
                for (int i = 0; i < n; ++i)
                    if (total[std::size_t(i)] >= 0)
                        total[std::size_t(i)] += w * affinity[std::size_t(i)];
                break;
            case PluginKind::EnergyEfficiency:
                scoreEnergy(g);
                for (int i = 0; i < n; ++i)
                    if (total[std::size_t(i)] >= 0)
                        total[std::size_t(i)] += w * energyRaw[std::size_t(i)];
                break;
            case PluginKind::NvlinkDomain:
                domains->prepare(state, g, total.data());
                for (int i = 0; i < n; ++i)
                    if (total[std::size_t(i)] >= 0)
                        total[std::size_t(i)] += w * domains->raw(i);
                break;
            case PluginKind::Random: {
                // One draw per node in cluster order, so a node's value does not depend on
                // which other nodes are feasible.
                Rng rng(Rng::mix(Rng::mix(seed, std::uint64_t(decisions)), 2));
                for (int i = 0; i < n; ++i) {
                    randomRaw[std::size_t(i)] = double(rng.below(11));
                    if (total[std::size_t(i)] >= 0)
                        total[std::size_t(i)] += w * randomRaw[std::size_t(i)];
                }
                break;
            }
            default:
                break;
            }
        }
    }

    // ---- incremental scoring -------------------------------------------------------------
    //
    // Without TopologyDistance and Random, a node's total for a task is a function of the
    // task's shape (CPU, memory, GPUs, share, static filter), the node's own state and, on
    // the few nodes that already hold tasks of the job ("touched"), the job-local plugins;
    // EnergyEfficiency adds a per-GPU-type score that depends on the job and on which types
    // still have a feasible node. So per shape we keep every node's dense total and its
    // total without the job-local plugins ("base"), in a max tree with tie counts. A bind or
    // unbind marks that node dirty in every cache; a decision refreshes the dirty nodes,
    // puts the touched nodes' full totals into the tree, takes the maximum and the k-th tie
    // in cluster order (the same seeded draw as the full scan), and puts the base totals
    // back. Every value is computed by the same expressions in the same order as full
    // scoring, so totals, picks and ties are bit-identical (tests/core/tst_incremental_scoring).

    bool incrementalOk = true; // false: the policy needs full scoring at every decision
    bool fullScoring = false;  // setFullScoring / setExhaustive
    std::vector<int> energyClass;            // per node: index into energyTypes, -1 none
    std::vector<const GpuType *> energyTypes; // distinct GPU types of the nodes

    /// Max over leaves with the number of leaves equal to the max, per subtree.
    struct MaxTree
    {
        int size = 1;
        std::vector<double> mx;
        std::vector<int> cnt;
        void build(const double *v, int n)
        {
            size = 1;
            while (size < n)
                size <<= 1;
            mx.assign(std::size_t(2 * size), kInfeasible - 1);
            cnt.assign(std::size_t(2 * size), 0);
            for (int i = 0; i < n; ++i) {
                mx[std::size_t(size + i)] = v[i];
                cnt[std::size_t(size + i)] = 1;
            }
            for (int k = size - 1; k >= 1; --k)
                pull(k);
        }
        void pull(int k)
        {
            const double a = mx[std::size_t(2 * k)], b = mx[std::size_t(2 * k + 1)];
            const double m = a > b ? a : b;
            mx[std::size_t(k)] = m;
            cnt[std::size_t(k)] = (a == m ? cnt[std::size_t(2 * k)] : 0) +
                                  (b == m ? cnt[std::size_t(2 * k + 1)] : 0);
        }
        void set(int i, double v)
        {
            int k = size + i;
            mx[std::size_t(k)] = v;
            for (k >>= 1; k >= 1; k >>= 1)
                pull(k);
        }
        double best() const { return mx[1]; }
        int bestCount() const { return cnt[1]; }
        /// The leaf of the j-th (from 0) maximum in index order.
        int nth(int j) const
        {
            const double m = mx[1];
            int k = 1;
            while (k < size) {
                const int l = 2 * k;
                if (mx[std::size_t(l)] == m) {
                    if (j < cnt[std::size_t(l)]) {
                        k = l;
                        continue;
                    }
                    j -= cnt[std::size_t(l)];
                }
                k = l + 1;
            }
            return k - size;
        }
    };

    struct ScoreCache
    {
        // Key: the task shape and its static filter.
        double cpus = 0, mem = 0, frac = 0;
        int gpus = 0;
        std::string gpuType;
        std::map<std::string, std::string> nodeSelector;
        std::vector<std::uint8_t> elig;
        ShapeAsk ask;
        std::vector<double> dense, base;
        MaxTree tree;
        std::vector<int> dirty;
        std::vector<std::uint8_t> isDirty;
        std::vector<int> feasibleByType; // feasible nodes per energy class
        std::vector<double> energy;      // the per-class energy scores `base` holds
        std::uint64_t lastUse = 0;

        bool matches(const TaskGroup &g) const
        {
            return cpus == g.cpus && mem == g.memoryGiB && gpus == g.gpus &&
                   frac == g.gpuFraction && gpuType == g.gpuType && nodeSelector == g.nodeSelector;
        }
    };
    static constexpr std::size_t kMaxCaches = 16;
    std::vector<std::unique_ptr<ScoreCache>> caches;
    std::uint64_t cacheClock = 0;
    std::vector<double> energyNow; // scratch: per-class energy scores of this decision

    /// Node `n`'s state changed (bind, unbind): its cached scores are stale.
    void markDirty(int n)
    {
        for (auto &c : caches)
            if (!c->isDirty[std::size_t(n)]) {
                c->isDirty[std::size_t(n)] = 1;
                c->dirty.push_back(n);
            }
    }

    bool hasEnergy() const { return !energyClass.empty(); }

    /// EnergyEfficiency's score per GPU type for task `g` of the job, given the feasible
    /// nodes per type (as scoreEnergy computes it per node).
    void energyScores(const TaskGroup &g, const std::vector<int> &feasibleByType,
                      std::vector<double> &out) const
    {
        out.assign(energyTypes.size(), kMax);
        if (g.gpus <= 0)
            return;
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < energyTypes.size(); ++c)
            if (feasibleByType[c] > 0)
                best = std::min(best, stepEnergy(*energyTypes[c]));
        if (!(best > 0) || std::isinf(best))
            return;
        for (std::size_t c = 0; c < energyTypes.size(); ++c) {
            const double e = stepEnergy(*energyTypes[c]);
            out[c] = e > 0 ? round0(kMax * best / e) : kMax;
        }
    }

    /// The extra dense plugins (NVLink, affinity, energy) added to `tot` in policy order,
    /// as scoreExtraDense does.
    double addExtras(double tot, int i, const TaskGroup &g, const std::vector<double> &energy) const
    {
        if (!hasExtraDense || tot < 0)
            return tot;
        for (const PluginConfig &pc : policy.plugins) {
            switch (pc.kind) {
            case PluginKind::NvlinkPacking:
                tot += pc.weight * nvlinkRaw(i, g);
                break;
            case PluginKind::NodeAffinity:
                tot += pc.weight * affinity[std::size_t(i)];
                break;
            case PluginKind::EnergyEfficiency: {
                const int c = energyClass[std::size_t(i)];
                tot += pc.weight * (c >= 0 ? energy[std::size_t(c)] : kMax);
                break;
            }
            default:
                break;
            }
        }
        return tot;
    }

    /// The full total of a node holding tasks of the job, from its dense total.
    double touchedTotal(int n, double dense, const TaskGroup &g, const TaskRef &t,
                        const std::vector<double> &energy) const
    {
        if (dense < 0)
            return dense;
        double tot = dense;
        if (wSpread > 0)
            tot += wSpread * (spreadRaw(n) - kMax);
        if (wDltap > 0)
            tot += wDltap * dltapRaw(n, t);
        return addExtras(tot, n, g, energy);
    }

    void rebuildCache(ScoreCache &c, const TaskGroup &g)
    {
        const int n = state.nodeCount();
        c.dense.resize(std::size_t(n));
        c.base.resize(std::size_t(n));
        denseAll(c.elig.data(), c.ask, c.dense.data());
        c.feasibleByType.assign(energyTypes.size(), 0);
        if (hasEnergy())
            for (int i = 0; i < n; ++i)
                if (c.dense[std::size_t(i)] >= 0 && energyClass[std::size_t(i)] >= 0)
                    ++c.feasibleByType[std::size_t(energyClass[std::size_t(i)])];
        if (hasEnergy())
            energyScores(g, c.feasibleByType, c.energy);
        for (int i = 0; i < n; ++i)
            c.base[std::size_t(i)] = addExtras(c.dense[std::size_t(i)], i, g, c.energy);
        c.tree.build(c.base.data(), n);
        for (int i : c.dirty)
            c.isDirty[std::size_t(i)] = 0;
        c.dirty.clear();
    }

    /// The cache of task `g`'s shape, created or brought up to date.
    ScoreCache &cacheFor(const std::uint8_t *elig, const TaskGroup &g)
    {
        const int n = state.nodeCount();
        ScoreCache *c = nullptr;
        for (auto &k : caches)
            if (k->matches(g)) {
                c = k.get();
                break;
            }
        if (!c) {
            if (caches.size() < kMaxCaches) {
                caches.push_back(std::make_unique<ScoreCache>());
                c = caches.back().get();
            } else {
                c = std::min_element(caches.begin(), caches.end(),
                                     [](const auto &a, const auto &b) {
                                         return a->lastUse < b->lastUse;
                                     })
                        ->get();
            }
            c->cpus = g.cpus;
            c->mem = g.memoryGiB;
            c->gpus = g.gpus;
            c->frac = g.gpuFraction;
            c->gpuType = g.gpuType;
            c->nodeSelector = g.nodeSelector;
            c->elig.assign(elig, elig + n);
            c->ask = shapeAsk(g.cpus, g.memoryGiB, g.gpus, g.gpuFraction);
            c->isDirty.assign(std::size_t(n), 0);
            c->dirty.clear();
            rebuildCache(*c, g);
        } else if (c->dirty.size() * 4 > std::size_t(n)) {
            rebuildCache(*c, g);
        } else if (!c->dirty.empty()) {
            for (int i : c->dirty) {
                double &d = c->dense[std::size_t(i)];
                const double was = d;
                d = denseOne(i, c->ask, c->elig.data());
                const int cls = hasEnergy() ? energyClass[std::size_t(i)] : -1;
                if (cls >= 0)
                    c->feasibleByType[std::size_t(cls)] += int(d >= 0) - int(was >= 0);
            }
        }
        c->lastUse = ++cacheClock;
        // The energy scores depend on the job and on the feasible types: when they moved,
        // every base total moves.
        if (hasEnergy()) {
            energyScores(g, c->feasibleByType, energyNow);
            if (energyNow != c->energy) {
                c->energy = energyNow;
                for (int i : c->dirty)
                    c->isDirty[std::size_t(i)] = 0;
                c->dirty.clear();
                for (int i = 0; i < n; ++i)
                    c->base[std::size_t(i)] = addExtras(c->dense[std::size_t(i)], i, g, c->energy);
                c->tree.build(c->base.data(), n);
            }
        }
        for (int i : c->dirty) {
            c->isDirty[std::size_t(i)] = 0;
            c->base[std::size_t(i)] = addExtras(c->dense[std::size_t(i)], i, g, c->energy);
            c->tree.set(i, c->base[std::size_t(i)]);
        }
        c->dirty.clear();
        return *c;
    }

    /// One decision by the caches: the same pick, total and tie count as scoreAll + pick.
    /// With `ties` (a log), `total` (and the log's scratch scores) are filled for every node.
    int scoreAndPickIncremental(const std::uint8_t *elig, const TaskGroup &g, const TaskRef &t,
                                std::vector<int> *ties, int *tieCount, double *bestTotal)
    {
        ScoreCache &c = cacheFor(elig, g);
        if (wSpread > 0) {
            spreadMax = 0;
            for (int n : touched)
                if (c.dense[std::size_t(n)] >= 0)
                    spreadMax = std::max(spreadMax, double(allOn[std::size_t(n)]));
        }
        for (int n : touched)
            c.tree.set(n, touchedTotal(n, c.dense[std::size_t(n)], g, t, c.energy));
        int chosen = -1;
        if (ties) {
            // A log needs every node's total.
            std::copy(c.base.begin(), c.base.end(), total.begin());
            for (int n : touched)
                total[std::size_t(n)] = touchedTotal(n, c.dense[std::size_t(n)], g, t, c.energy);
            if (hasEnergy())
                for (std::size_t i = 0; i < energyRaw.size(); ++i)
                    energyRaw[i] = energyClass[i] >= 0 ? c.energy[std::size_t(energyClass[i])]
                                                       : kMax;
            chosen = pick(ties, tieCount);
        } else {
            const double best = c.tree.best();
            if (best > kInfeasible) {
                *tieCount = c.tree.bestCount();
                int k = 0;
                if (*tieCount > 1 && policy.tieBreak == TieBreak::Random) {
                    Rng rng(Rng::mix(Rng::mix(seed, std::uint64_t(decisions)), 1));
                    k = int(rng.below(std::uint64_t(*tieCount)));
                }
                chosen = c.tree.nth(k);
            } else {
                *tieCount = 0;
            }
        }
        *bestTotal = chosen >= 0 ? c.tree.best() : kInfeasible;
        for (int n : touched)
            c.tree.set(n, c.base[std::size_t(n)]);
        return chosen;
    }

    /// The winning node (-1 if none), and the tie set when `ties` is given.
    int pick(std::vector<int> *ties, int *tieCount)
    {
        const int n = state.nodeCount();
        const double *t = total.data();
        double best = kInfeasible;
        int first = -1, count = 0;
        for (int i = 0; i < n; ++i) {
            const double v = t[i];
            if (v > best) {
                best = v;
                first = i;
                count = 1;
            } else if (v == best) {
                ++count;
            }
        }
        if (first < 0) {
            *tieCount = 0;
            return -1;
        }
        *tieCount = count;
        int chosen = first;
        if (count > 1 && policy.tieBreak == TieBreak::Random) {
            Rng rng(Rng::mix(Rng::mix(seed, std::uint64_t(decisions)), 1));
            int k = int(rng.below(std::uint64_t(count)));
            for (int i = first; i < n; ++i)
                if (t[i] == best && k-- == 0) {
                    chosen = i;
                    break;
                }
        }
        if (ties) {
            ties->clear();
            for (int i = first; i < n; ++i)
                if (t[i] == best)
                    ties->push_back(i);
        }
        return chosen;
    }

    // ---- job bookkeeping -------------------------------------------------------------------

    void beginJob(const Job &j)
    {
        job = &j;
        placedPs = placedWorkers = placedAll = 0;
        totalPs = totalWorkers = 0;
        for (const TaskGroup &g : j.tasks) {
            if (category(g.role) == Category::Ps)
                totalPs += g.replicas;
            else if (category(g.role) == Category::Worker)
                totalWorkers += g.replicas;
        }
        ringNode.assign(std::size_t(totalWorkers), -1);
        if (domains)
            domains->beginJob(j);
    }

    void endJob()
    {
        for (int n : touched) {
            psOn[std::size_t(n)] = workerOn[std::size_t(n)] = allOn[std::size_t(n)] = 0;
        }
        touched.clear();
        if (!hopSum.empty())
            std::fill(hopSum.begin(), hopSum.end(), 0.0);
        job = nullptr;
    }

    void noteBound(int n, const TaskRef &t, int sign)
    {
        const auto i = std::size_t(n);
        if (allOn[i] == 0 && sign > 0 && std::find(touched.begin(), touched.end(), n) ==
                                              touched.end())
            touched.push_back(n);
        allOn[i] += sign;
        placedAll += sign;
        switch (category(t.role)) {
        case Category::Ps:
            psOn[i] += sign;
            placedPs += sign;
            break;
        case Category::Worker:
            workerOn[i] += sign;
            placedWorkers += sign;
            if (t.ringRank >= 0)
                ringNode[std::size_t(t.ringRank)] = sign > 0 ? n : -1;
            break;
        case Category::Other:
            break;
        }
        if (domains)
            domains->noteBound(n, job->tasks[std::size_t(t.group)], sign);
        if (!hopSum.empty()) {
            const std::vector<int> &h = hopsFromNode(n);
            for (int v = 0; v < state.nodeCount(); ++v)
                hopSum[std::size_t(v)] += sign * std::max(0, h[std::size_t(v)]);
        }
    }

    std::vector<TaskRef> taskOrder(const Job &j) const
    {
        std::vector<TaskRef> all;
        std::vector<int> roleCount(5, 0);
        int ring = 0;
        for (std::size_t gi = 0; gi < j.tasks.size(); ++gi) {
            const TaskGroup &g = j.tasks[gi];
            for (int r = 0; r < g.replicas; ++r) {
                TaskRef t;
                t.group = int(gi);
                t.role = g.role;
                t.indexInRole = roleCount[std::size_t(g.role)]++;
                if (category(g.role) == Category::Worker)
                    t.ringRank = ring++;
                all.push_back(t);
            }
        }
        if (policy.taskOrder == TaskOrder::AsWritten)
            return all;
        auto rank = [](TaskRole r) { return r == TaskRole::Ps ? 0 : r == TaskRole::Chief ? 1 : 2; };
        std::stable_sort(all.begin(), all.end(), [&](const TaskRef &a, const TaskRef &b) {
            return rank(a.role) < rank(b.role);
        });
        if (policy.taskOrder == TaskOrder::PsFirst)
            return all;
        // Interleaved: each PS followed by its share of the remaining tasks.
        std::vector<TaskRef> ps, rest, out;
        for (const TaskRef &t : all)
            (t.role == TaskRole::Ps ? ps : rest).push_back(t);
        std::size_t pi = 0, ri = 0;
        while (pi < ps.size()) {
            out.push_back(ps[pi++]);
            const std::size_t psLeft = ps.size() - pi + 1;
            const std::size_t take = (rest.size() - ri + psLeft - 1) / psLeft;
            for (std::size_t k = 0; k < take; ++k)
                out.push_back(rest[ri++]);
        }
        while (ri < rest.size())
            out.push_back(rest[ri++]);
        return out;
    }

    // ---- logging ------------------------------------------------------------------------

    // Filter reasons of the job being placed, interned into the log: per task group, the
    // reason index of each node (-2: not known yet). A node's reason changes only when a task
    // is bound to it, so each decision formats reasons for the changed nodes only.
    std::vector<std::vector<int>> reasonOf;
    std::unordered_map<std::string, int> reasonIndex; // text -> index in log.reasons
    std::vector<int> keptScratch, reasonCount;

    void startLog(DecisionLog &log)
    {
        log.detail = log.detail.resolved(state.nodeCount());
        reasonIndex.clear();
        for (std::size_t i = 0; i < log.reasons.size(); ++i)
            reasonIndex.emplace(log.reasons[i], int(i));
    }

    int internReason(DecisionLog &log, std::string text)
    {
        const auto [it, added] = reasonIndex.emplace(std::move(text), int(log.reasons.size()));
        if (added)
            log.reasons.push_back(it->first);
        return it->second;
    }

    int reasonFor(DecisionLog &log, const TaskGroup &g, int group, const std::uint8_t *elig, int i)
    {
        if (pinnedNode >= 0 && i != pinnedNode)
            return internReason(log, "pinned to " + cluster.nodes[std::size_t(pinnedNode)].id +
                                         " (what-if)");
        std::vector<int> &cache = reasonOf[std::size_t(group)];
        if (cache.empty())
            cache.assign(std::size_t(state.nodeCount()), -2);
        int &r = cache[std::size_t(i)];
        if (r == -2)
            r = internReason(log, elig[i] ? state.whyNotFit(i, g.cpus, g.memoryGiB, g.gpus,
                                                             g.gpuFraction)
                                          : staticReason(g, i));
        return r;
    }

    /// The state of node `n` changed: forget its filter reasons.
    void forgetReasons(int n)
    {
        for (std::vector<int> &cache : reasonOf)
            if (!cache.empty())
                cache[std::size_t(n)] = -2;
    }

    void record(DecisionLog &log, const TaskGroup &g, const TaskRef &t, const std::uint8_t *elig,
                int chosen, const std::vector<int> &ties)
    {
        Decision d;
        d.index = int(decisions);
        d.jobId = job->id;
        d.role = t.role;
        d.group = t.group;
        d.indexInRole = t.indexInRole;
        d.pick = chosen;
        const int n = state.nodeCount();
        const double *tot = total.data();
        // Which nodes keep a row: all (Full), or the K best feasible + the pick + its ties.
        std::vector<int> &kept = keptScratch;
        kept.clear();
        int feasible = 0;
        for (int i = 0; i < n; ++i)
            feasible += tot[i] >= 0;
        const bool all = log.detail.kind != LogDetail::Kind::Top || d.index == allRowsAt;
        if (!all) {
            for (int i = 0; i < n; ++i)
                if (tot[i] >= 0)
                    kept.push_back(i);
            const auto better = [tot](int a, int b) {
                return tot[a] > tot[b] || (tot[a] == tot[b] && a < b);
            };
            const std::size_t k = std::size_t(log.detail.top);
            if (kept.size() > k) {
                std::nth_element(kept.begin(), kept.begin() + std::ptrdiff_t(k), kept.end(), better);
                kept.resize(k);
            }
            if (chosen >= 0)
                kept.push_back(chosen);
            std::sort(kept.begin(), kept.end());
            kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
            d.rows.reserve(kept.size());
        } else {
            d.rows.reserve(std::size_t(n));
        }
        reasonCount.assign(log.reasons.size(), 0);
        std::size_t next = 0; // position in kept
        const std::size_t plugins = policy.plugins.size();
        for (int i = 0; i < n; ++i) {
            const bool keep = all || (next < kept.size() && kept[next] == i);
            if (keep && !all)
                ++next;
            if (tot[i] < 0) {
                const int reason = reasonFor(log, g, t.group, elig, i);
                if (keep) {
                    CandidateRow row;
                    row.node = i;
                    row.reason = reason;
                    d.rows.push_back(row);
                } else {
                    if (std::size_t(reason) >= reasonCount.size())
                        reasonCount.resize(std::size_t(reason) + 1, 0);
                    ++reasonCount[std::size_t(reason)];
                }
            } else if (keep) {
                CandidateRow row;
                row.node = i;
                row.scores = int(d.raw.size());
                row.total = tot[i];
                for (std::size_t p = 0; p < plugins; ++p)
                    d.raw.push_back(rawScore(policy.plugins[p], i, g, t));
                d.rows.push_back(row);
            } else {
                OmittedRows &o = d.omitted;
                o.minTotal = o.scored == 0 ? tot[i] : std::min(o.minTotal, tot[i]);
                o.maxTotal = o.scored == 0 ? tot[i] : std::max(o.maxTotal, tot[i]);
                ++o.scored;
            }
        }
        for (std::size_t r = 0; r < reasonCount.size(); ++r)
            if (reasonCount[r] > 0)
                d.omitted.filtered.emplace_back(int(r), reasonCount[r]);
        // Ties: the ones with a row are listed, the others counted.
        if (all) {
            d.tied = ties;
        } else {
            for (int i : ties)
                if (std::binary_search(kept.begin(), kept.end(), i))
                    d.tied.push_back(i);
            d.omitted.tied = int(ties.size() - d.tied.size());
        }
        const auto name = [&](int i) { return cluster.nodes[std::size_t(i)].id; };
        if (chosen < 0) {
            d.why = "no feasible node: all " + std::to_string(n) + " filtered out";
        } else if (chosen == pinnedNode) {
            // (the other nodes were left out by the pin, not found unable: "only feasible
            // node" told a reader none other could take the task)
            d.why = "pinned here by what-if (total " +
                    wholeOrNumberText(total[std::size_t(chosen)]) + "); the policy was not asked";
        } else if (feasible == 1) {
            d.why =
                "only feasible node (total " + wholeOrNumberText(total[std::size_t(chosen)]) + ")";
        } else {
            const double best = total[std::size_t(chosen)];
            int runner = -1;
            for (int i = 0; i < n; ++i)
                if (total[std::size_t(i)] >= 0 && total[std::size_t(i)] < best &&
                    (runner < 0 || total[std::size_t(i)] > total[std::size_t(runner)]))
                    runner = i;
            std::string s = "highest total " + wholeOrNumberText(best);
            if (ties.size() > 1) {
                s += ", tied on " + groupedCount(static_cast<long long>(ties.size())) + " nodes";
                if (policy.tieBreak == TieBreak::Random) {
                    const auto pos = std::find(ties.begin(), ties.end(), chosen) - ties.begin();
                    // (the draw depends on the decision's place in the run too; the text
                    // left out its 0-based index, which read as another decision's number)
                    s += "; tie broken by seeded draw (seed " + std::to_string(seed) +
                         "): number " + groupedCount(pos + 1) + " of " +
                         groupedCount(static_cast<long long>(ties.size())) + " in cluster order";
                } else {
                    s += "; tie broken by cluster order (first)";
                }
            }
            if (runner >= 0)
                s += (ties.size() > 1 ? "; next best " : " vs ") +
                     wholeOrNumberText(total[std::size_t(runner)]) + " on " + name(runner);
            d.why = s;
        }
        if (domains && chosen >= 0)
            d.why += "; nvlink-domain: " + domains->reason(chosen);
        log.decisions.push_back(std::move(d));
    }

    // ---- gang fast path ---------------------------------------------------------------------

    /// Bumped on every bind and unbind, so a count of fitting tasks can be reused while the
    /// state has not changed (the next job of the same shape in the same pass).
    std::uint64_t stateVersion = 0;
    bool exhaustive = false;
    /// What-if pins: (job, role, rank) -> node; the node the current decision is pinned to.
    std::map<std::tuple<std::string, int, int>, int> pins;
    std::vector<std::uint8_t> pinEligible;
    int pinnedNode = -1;

    bool hasPins(const std::string &jobId) const
    {
        const auto it = pins.lower_bound({jobId, std::numeric_limits<int>::min(),
                                          std::numeric_limits<int>::min()});
        return it != pins.end() && std::get<0>(it->first) == jobId;
    }
    std::int64_t fastRejections = 0;
    struct FitCache
    {
        std::uint64_t version = ~std::uint64_t(0);
        double cpus = 0, mem = 0;
        int gpus = 0;
        const std::uint8_t *elig = nullptr;
        std::vector<std::uint8_t> eligCopy;
        int fit = 0, limit = 0;
    } fitCache;

    static bool sameShape(const TaskGroup &a, const TaskGroup &b)
    {
        return a.cpus == b.cpus && a.memoryGiB == b.memoryGiB && a.gpus == b.gpus &&
               a.gpuFraction == b.gpuFraction && a.gpuType == b.gpuType &&
               a.nodeSelector == b.nodeSelector;
    }

    /// First position in `order` from which every task has the shape of the last one.
    static std::size_t sameShapeTail(const Job &j, const std::vector<TaskRef> &order)
    {
        if (order.size() < 2)
            return order.size(); // one task: scoring it is as cheap as counting
        const TaskGroup &last = j.tasks[std::size_t(order.back().group)];
        std::size_t k = order.size() - 1;
        while (k > 0 && sameShape(j.tasks[std::size_t(order[k - 1].group)], last))
            --k;
        return order.size() - k >= 2 ? k : order.size();
    }

    static bool integral(double x) { return x == std::floor(x) && std::fabs(x) < 1e15; }

    /// How many tasks of shape `g` can be bound one after another (on any nodes, in any
    /// order), counted up to `limit`; -1 when the count would not be exact. Each node takes
    /// tasks until its free CPU, memory or whole GPUs run out, with the same comparisons as
    /// the scoring kernel's filter, so the count does not depend on which nodes are picked.
    /// Only whole-GPU or CPU-only tasks with integral CPU and memory on nodes whose use is
    /// integral: then binding and unbinding them leaves the state exactly as it was.
    int tasksThatFit(const TaskGroup &g, const std::uint8_t *elig, int limit)
    {
        if ((g.gpus > 0 && g.gpuFraction < 1.0) || !integral(g.cpus) || !integral(g.memoryGiB))
            return -1;
        FitCache &c = fitCache;
        const int n = state.nodeCount();
        const bool sameElig =
            elig == allEligible.data()
                ? c.elig == allEligible.data()
                : c.elig != allEligible.data() && c.eligCopy.size() == std::size_t(n) &&
                      std::equal(c.eligCopy.begin(), c.eligCopy.end(), elig);
        if (c.version == stateVersion && c.cpus == g.cpus && c.mem == g.memoryGiB &&
            c.gpus == g.gpus && sameElig && (c.fit < c.limit || c.fit >= limit))
            return std::min(c.fit, limit);
        const double *cpuUsed = state.cpuUsed(), *cpuCap = state.cpuCap();
        const double *memUsed = state.memUsed(), *memCap = state.memCap();
        const double *gpuFree = state.gpuFreeWhole();
        const double need = double(std::max(0, g.gpus));
        int fit = 0;
        for (int i = 0; i < n && fit < limit; ++i) {
            if (!elig[i])
                continue;
            double cu = cpuUsed[i], mu = memUsed[i], free = gpuFree[i];
            int k = 0;
            while (fit + k < limit && cu + g.cpus <= cpuCap[i] + kScoreEps &&
                   mu + g.memoryGiB <= memCap[i] + kScoreEps && free >= need) {
                cu += g.cpus;
                mu += g.memoryGiB;
                free -= need;
                ++k;
            }
            if (k > 0 && (!integral(cpuUsed[i]) || !integral(memUsed[i])))
                return -1;
            for (int s = 0; k > 0 && need > 0 && s < int(state.gpuCap()[i]); ++s)
                if (!integral(state.gpuSlotUsed(i, s)))
                    return -1; // a leftover fraction would not come back exactly
            fit += k;
        }
        c.version = stateVersion;
        c.cpus = g.cpus;
        c.mem = g.memoryGiB;
        c.gpus = g.gpus;
        c.elig = elig == allEligible.data() ? elig : nullptr;
        if (elig != allEligible.data())
            c.eligCopy.assign(elig, elig + n);
        c.fit = fit;
        c.limit = limit;
        return fit;
    }

    // ---- one job ---------------------------------------------------------------------------

    bool placeJob(const Job &j, JobPlacement &out, DecisionLog *log)
    {
        beginJob(j);
        if (log) {
            reasonOf.assign(j.tasks.size(), {});
        }
        out.jobId = j.id;
        out.tasks.clear();
        std::vector<const std::uint8_t *> groupElig(j.tasks.size(), nullptr);
        std::vector<std::vector<std::uint8_t>> groupEligStore(j.tasks.size());
        int failed = 0;
        std::vector<int> ties;
        std::vector<TaskRef> placedRefs;
        const std::vector<TaskRef> order = taskOrder(j);
        const bool pinned = !pins.empty() && hasPins(j.id);
        // Gang with a minimum: the non-worker tasks and `needWorkers` workers admit the job;
        // a worker that does not fit is skipped, the others are still tried.
        const int workers = j.workerCount();
        const int needWorkers = gangWorkersNeeded(j, policy);
        const bool elastic = policy.gang && needWorkers < workers;
        int failedWorkers = 0;
        bool hardFail = false;      ///< a task the job cannot start without did not fit
        bool tooFewWorkers = false; ///< ... because the workers left cannot reach the minimum
        const std::size_t tail = log || !policy.gang || elastic || exhaustive || pinned
                                     ? order.size()
                                     : sameShapeTail(j, order);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const TaskRef &t = order[k];
            const TaskGroup &g = j.tasks[std::size_t(t.group)];
            if (!groupElig[std::size_t(t.group)]) {
                const std::uint8_t *e = staticFilter(g);
                if (e != allEligible.data()) {
                    groupEligStore[std::size_t(t.group)] = eligible;
                    e = groupEligStore[std::size_t(t.group)].data();
                }
                groupElig[std::size_t(t.group)] = e;
            }
            const std::uint8_t *elig = groupElig[std::size_t(t.group)];
            pinnedNode = -1;
            if (pinned) {
                const auto it = pins.find({j.id, int(t.role), t.indexInRole});
                if (it != pins.end()) {
                    pinnedNode = it->second;
                    pinEligible.assign(std::size_t(state.nodeCount()), 0);
                    pinEligible[std::size_t(pinnedNode)] = elig[pinnedNode];
                    elig = pinEligible.data();
                }
            }
            if (k == tail) {
                // Gang mode: if the remaining tasks (all alike) cannot all fit, the job is
                // rolled back after exactly `fit` more placements and one failed decision,
                // whichever nodes the scores would pick. Count those decisions (the seeded
                // draws depend on the count) and skip the scoring.
                const int remaining = int(order.size() - k);
                const int fit = tasksThatFit(g, elig, remaining);
                if (fit >= 0 && fit < remaining) {
                    decisions += fit + 1;
                    ++fastRejections;
                    ++failed;
                    break;
                }
            }
            applyOverrideIfDue();
            int tieCount = 0;
            int chosen = -1;
            double bestTotal = kInfeasible;
            // A pinned task's eligibility is not its shape's: the shape caches do not apply.
            if (fullScoring || exhaustive || !incrementalOk || pinnedNode >= 0) {
                scoreAll(elig, g, t);
                chosen = pick(log ? &ties : nullptr, &tieCount);
                if (chosen >= 0)
                    bestTotal = total[std::size_t(chosen)];
            } else {
                chosen = scoreAndPickIncremental(elig, g, t, log ? &ties : nullptr, &tieCount,
                                                 &bestTotal);
            }
            if (trace)
                trace->push_back({decisions, chosen, bestTotal, tieCount});
            if (log)
                record(*log, g, t, elig, chosen, ties);
            ++decisions;
            if (chosen < 0) {
                ++failed;
                if (elastic && t.role == TaskRole::Worker) {
                    // Too few workers left to reach the minimum: the job cannot be admitted.
                    if (workers - ++failedWorkers < needWorkers) {
                        hardFail = tooFewWorkers = true;
                        break;
                    }
                    continue;
                }
                if (policy.gang) {
                    hardFail = true;
                    break;
                }
                continue;
            }
            TaskAssignment a;
            a.role = t.role;
            a.group = t.group;
            a.indexInRole = t.indexInRole;
            a.node = cluster.nodes[std::size_t(chosen)].id;
            a.gpuIndices = state.chooseGpus(chosen, g.gpus, g.gpuFraction);
            state.bind(chosen, g.cpus, g.memoryGiB, a.gpuIndices, g.gpuFraction);
            markDirty(chosen);
            ++stateVersion;
            if (log)
                forgetReasons(chosen);
            noteBound(chosen, t, +1);
            out.tasks.push_back(std::move(a));
            placedRefs.push_back(t);
        }
        const bool admitted = elastic && failed > 0 && !hardFail;
        if (admitted) {
            if (log)
                log->events.push_back(
                    {int(decisions) - 1, j.id, JobEvent::Kind::Admitted,
                     "gang (min-available " + std::to_string(needWorkers) + "): " +
                         std::to_string(workers - failedWorkers) + " of " +
                         std::to_string(workers) + " workers placed; the job starts without " +
                         "the other " + std::to_string(failedWorkers)});
            failed = 0; // nothing pending: the job runs with the workers it has
        } else if (failed > 0 && policy.gang) {
            for (std::size_t k = 0; k < out.tasks.size(); ++k) {
                const TaskAssignment &a = out.tasks[k];
                const TaskGroup &g = j.tasks[std::size_t(a.group)];
                const int n = nodeIdx.at(a.node);
                state.unbind(n, g.cpus, g.memoryGiB, a.gpuIndices, g.gpuFraction);
                markDirty(n);
            }
            ++stateVersion;
            if (log)
                log->events.push_back(
                    {int(decisions) - 1, j.id, JobEvent::Kind::RolledBack,
                     (tooFewWorkers
                          ? "gang (min-available " + std::to_string(needWorkers) +
                                "): too few workers fit"
                          : std::string("gang: a task did not fit")) +
                         "; rolled back " + std::to_string(out.tasks.size()) +
                         " placed task(s); the job waits"});
            out.tasks.clear();
        } else if (failed > 0 && log) {
            log->events.push_back({int(decisions) - 1, j.id, JobEvent::Kind::PartlyPlaced,
                                   std::to_string(failed) + " task(s) did not fit; " +
                                       std::to_string(out.tasks.size()) +
                                       " stay bound (gang mode off); the job waits"});
        }
        endJob();
        std::stable_sort(out.tasks.begin(), out.tasks.end(),
                         [](const TaskAssignment &a, const TaskAssignment &b) {
                             return std::make_pair(a.group, a.indexInRole) <
                                    std::make_pair(b.group, b.indexInRole);
                         });
        out.pendingTasks = failed;
        return failed == 0;
    }
};

Placer::Placer(const Cluster &cluster, const Topology &topology, Policy policy,
               std::uint64_t seed)
    : d(std::make_unique<Impl>(cluster, topology, std::move(policy), seed))
{}

Placer::~Placer() = default;

void Placer::release(const Job &job, const JobPlacement &placement)
{
    for (const TaskAssignment &a : placement.tasks) {
        const TaskGroup &g = job.tasks[std::size_t(a.group)];
        if (auto n = d->nodeIdx.find(a.node); n != d->nodeIdx.end()) {
            d->state.unbind(n->second, g.cpus, g.memoryGiB, a.gpuIndices, g.gpuFraction);
            d->markDirty(n->second);
        }
    }
    ++d->stateVersion;
}

void Placer::bindPlacement(const Job &job, const JobPlacement &placement)
{
    for (const TaskAssignment &a : placement.tasks) {
        const TaskGroup &g = job.tasks[std::size_t(a.group)];
        if (auto n = d->nodeIdx.find(a.node); n != d->nodeIdx.end()) {
            d->state.bind(n->second, g.cpus, g.memoryGiB, a.gpuIndices, g.gpuFraction);
            d->markDirty(n->second);
        }
    }
    ++d->stateVersion;
}

void Placer::setExhaustive(bool on) { d->exhaustive = on; }
void Placer::setFullScoring(bool on) { d->fullScoring = on; }
bool Placer::scoresIncrementally() const
{
    return d->incrementalOk && !d->fullScoring && !d->exhaustive;
}
void Placer::traceDecisions(std::vector<DecisionTrace> *out) { d->trace = out; }

void Placer::pinTask(const std::string &jobId, TaskRole role, int indexInRole, int node)
{
    d->pins[{jobId, int(role), indexInRole}] = node;
}

void Placer::skipOffer(std::int64_t decisions, bool fastRejection)
{
    d->decisions += decisions;
    if (fastRejection)
        ++d->fastRejections;
}
void Placer::keepAllRowsAt(std::int64_t decision) { d->allRowsAt = decision; }
void Placer::overrideWeightFrom(std::int64_t decision, std::size_t plugin, double weight)
{
    if (plugin >= d->policy.plugins.size())
        return;
    d->overrideAt = std::max<std::int64_t>(0, decision);
    d->overridePlugin = plugin;
    d->overrideWeight = weight;
}
const ClusterState &Placer::state() const { return d->state; }
const Policy &Placer::policy() const { return d->policy; }
std::int64_t Placer::decisionCount() const { return d->decisions; }
std::int64_t Placer::fastRejections() const { return d->fastRejections; }

Placement Placer::place(const std::vector<Job> &jobs, DecisionLog *log)
{
    std::vector<const Job *> offered;
    offered.reserve(jobs.size());
    for (const Job &j : jobs)
        offered.push_back(&j);
    return place(offered, log);
}

Placement Placer::place(const std::vector<const Job *> &jobs, DecisionLog *log)
{
    if (log) {
        log->policy = d->policy.name;
        log->seed = d->seed;
        log->nodeNames.clear();
        for (const Node &n : d->cluster.nodes)
            log->nodeNames.push_back(n.id);
        log->pluginNames.clear();
        log->weights.clear();
        for (const PluginConfig &pc : d->policy.plugins) {
            log->pluginNames.push_back(toString(pc.kind));
            log->weights.push_back(pc.weight);
        }
        d->startLog(*log);
    }
    Placement out;
    bool blocked = false;
    for (std::size_t i : queueOrder(jobs, d->policy.queue)) {
        const Job &job = *jobs[i];
        if (blocked) {
            out.waiting.push_back(job.id);
            if (log)
                log->events.push_back({int(d->decisions) - 1, job.id, JobEvent::Kind::NotTried,
                                       "not tried: an earlier job waits and backfilling is "
                                       "off"});
            continue;
        }
        JobPlacement jp;
        const bool ok = d->placeJob(job, jp, log);
        if (!jp.tasks.empty())
            out.jobs.push_back(std::move(jp));
        if (!ok) {
            out.waiting.push_back(job.id);
            blocked = !d->policy.backfill;
        }
    }
    return out;
}

int gangWorkersNeeded(const Job &job, const Policy &policy)
{
    const int workers = job.workerCount();
    if (!policy.gang || !policy.minAvailable || !job.minAvailable)
        return workers;
    return std::clamp(*job.minAvailable, std::min(1, workers), workers);
}

Placement placeScenario(const Scenario &scenario, const Topology &topology, const Policy &policy,
                        std::uint64_t seed, DecisionLog *log)
{
    Placer placer(scenario.cluster, topology, policy, seed);
    return placer.place(scenario.jobs, log);
}

} // namespace cb
