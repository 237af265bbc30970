#include "net/comm_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace cb {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

int ceilLog2(int n)
{
    int steps = 0;
    for (int reach = 1; reach < n; reach *= 2)
        ++steps;
    return steps;
}

double transferSeconds(double bytes, double bytesPerSecond)
{
    if (bytes <= 0)
        return 0;
    if (!(bytesPerSecond > 0))
        return kInf;
    return bytes / bytesPerSecond;
}

int totalRanks(const std::vector<RankGroup> &groups)
{
    int n = 0;
    for (const RankGroup &g : groups)
        n += std::max(0, g.ranks);
    return n;
}

int mostRanks(const std::vector<RankGroup> &groups)
{
    int m = 0;
    for (const RankGroup &g : groups)
        m = std::max(m, g.ranks);
    return m;
}

/// Renumbers the phases of `plan` 0, 1, ... in order, dropping empty ones.
void compactPhases(CommPlan &plan)
{
    std::map<int, int> renumber;
    for (const CommTransfer &t : plan.transfers)
        renumber.emplace(t.phase, 0);
    int next = 0;
    for (auto &[phase, to] : renumber)
        to = next++;
    for (CommTransfer &t : plan.transfers)
        t.phase = renumber[t.phase];
}

/// A ring inside one node: g GPUs, each edge moving `bytes`, `steps` steps.
void addNodeRing(CommPlan &plan, int phase, int node, int gpus, double bytes, int steps)
{
    if (gpus < 2 || bytes <= 0)
        return;
    plan.transfers.push_back({phase, node, node, bytes, gpus, steps, -1});
}

} // namespace

double busBandwidthFactor(Collective collective, int ranks)
{
    if (ranks < 1)
        return 0;
    const double n = ranks;
    switch (collective) {
    case Collective::AllReduce:
        return 2.0 * (n - 1.0) / n;
    case Collective::ReduceScatter:
    case Collective::AllGather:
    case Collective::AllToAll:
        return (n - 1.0) / n;
    case Collective::Broadcast:
    case Collective::Reduce:
        return 1.0;
    }
    return 1.0;
}

double ringAllReduceSeconds(int ranks, double bytes, const StepCost &cost)
{
    if (ranks < 2)
        return 0;
    return 2.0 * (ranks - 1) * cost.latencySeconds +
           transferSeconds(busBandwidthFactor(Collective::AllReduce, ranks) * bytes,
                           cost.bytesPerSecond);
}

int treeParent(int position) { return position <= 0 ? -1 : (position - 1) / 2; }

int treeEdgesAtBusiestRank(int ranks)
{
    if (ranks < 2)
        return 0;
    std::vector<int> edges(std::size_t(ranks), 0);
    for (int tree = 0; tree < 2; ++tree)
        for (int p = 1; p < ranks; ++p) {
            const int child = tree == 0 ? p : ranks - 1 - p;
            const int q = treeParent(p);
            const int parent = tree == 0 ? q : ranks - 1 - q;
            ++edges[std::size_t(child)];
            ++edges[std::size_t(parent)];
        }
    return *std::max_element(edges.begin(), edges.end());
}

double treeAllReduceSeconds(int ranks, double bytes, const StepCost &cost)
{
    if (ranks < 2)
        return 0;
    return 2.0 * ceilLog2(ranks) * cost.latencySeconds +
           transferSeconds(treeEdgesAtBusiestRank(ranks) * bytes / 2.0, cost.bytesPerSecond);
}

double reduceScatterSeconds(int ranks, double bytes, const StepCost &cost)
{
    if (ranks < 2)
        return 0;
    return (ranks - 1) * cost.latencySeconds +
           transferSeconds(busBandwidthFactor(Collective::ReduceScatter, ranks) * bytes,
                           cost.bytesPerSecond);
}

double allGatherSeconds(int ranks, double bytes, const StepCost &cost)
{
    return reduceScatterSeconds(ranks, bytes, cost);
}

double allToAllSeconds(int ranks, double bytes, const StepCost &cost)
{
    return reduceScatterSeconds(ranks, bytes, cost);
}

double flatRingAllReduceSeconds(const std::vector<int> &gpusPerNode, double bytes,
                                const StepCost &inNode, const StepCost &nic, int rails)
{
    const int n = std::accumulate(gpusPerNode.begin(), gpusPerNode.end(), 0);
    const int nodes = int(gpusPerNode.size());
    if (n < 2)
        return 0;
    if (nodes == 1)
        return ringAllReduceSeconds(n, bytes, inNode);
    const bool inside = std::any_of(gpusPerNode.begin(), gpusPerNode.end(),
                                    [](int g) { return g > 1; });
    double bandwidth = std::max(1, rails) * nic.bytesPerSecond;
    double latency = nic.latencySeconds;
    if (inside) {
        bandwidth = std::min(bandwidth, inNode.bytesPerSecond);
        latency = std::max(latency, inNode.latencySeconds);
    }
    return 2.0 * (n - 1) * latency +
           transferSeconds(busBandwidthFactor(Collective::AllReduce, n) * bytes, bandwidth);
}

HierarchicalSeconds hierarchicalAllReduceSeconds(const std::vector<int> &gpusPerNode,
                                                 double bytes, const StepCost &inNode,
                                                 const StepCost &nic, int rails)
{
    HierarchicalSeconds h;
    const int g = gpusPerNode.empty() ? 0
                                      : *std::max_element(gpusPerNode.begin(), gpusPerNode.end());
    h.reduceScatter = reduceScatterSeconds(g, bytes, inNode);
    h.allGather = allGatherSeconds(g, bytes, inNode);
    StepCost across = nic;
    across.bytesPerSecond = nic.bytesPerSecond * std::max(1, rails);
    h.acrossNodes = ringAllReduceSeconds(int(gpusPerNode.size()), bytes, across);
    return h;
}

double parameterServerSeconds(int workers, int servers, double bytes, const StepCost &nic)
{
    if (workers < 1 || servers < 1)
        return 0;
    const double perServer = double(workers) * bytes / double(servers);
    const double one = nic.latencySeconds + transferSeconds(std::max(bytes, perServer),
                                                            nic.bytesPerSecond);
    return 2.0 * one;
}

// ---- plans -----------------------------------------------------------------------------

int CommPlan::phaseCount() const
{
    int phases = 0;
    for (const CommTransfer &t : transfers)
        phases = std::max(phases, t.phase + 1);
    return phases;
}

CommPlan allReducePlan(AllReduceAlgorithm algorithm, const std::vector<RankGroup> &groups,
                       double bytes, int rails)
{
    CommPlan plan;
    const int n = totalRanks(groups);
    const int nodes = int(groups.size());
    if (n < 2 || bytes <= 0)
        return plan;
    rails = std::max(1, rails);
    if (nodes == 1) {
        const int g = groups.front().ranks;
        addNodeRing(plan, 0, groups.front().node, g,
                    busBandwidthFactor(Collective::AllReduce, g) * bytes, 2 * (g - 1));
        return plan;
    }
    switch (algorithm) {
    case AllReduceAlgorithm::Ring: {
        const double edge = busBandwidthFactor(Collective::AllReduce, n) * bytes;
        const int steps = 2 * (n - 1);
        for (int a = 0; a < nodes; ++a) {
            const RankGroup &from = groups[std::size_t(a)];
            const RankGroup &to = groups[std::size_t((a + 1) % nodes)];
            if (from.ranks > 1)
                plan.transfers.push_back({0, from.node, from.node, edge, from.ranks - 1, steps, -1});
            for (int k = 0; k < rails; ++k)
                plan.transfers.push_back({0, from.node, to.node, edge / rails, 1, steps, k});
        }
        break;
    }
    case AllReduceAlgorithm::Tree: {
        const int steps = 2 * (ceilLog2(nodes) + mostRanks(groups) - 1);
        for (const RankGroup &g : groups)
            if (g.ranks > 1) // the chain inside the node: S each way on every link
                plan.transfers.push_back({0, g.node, g.node, bytes, 2 * (g.ranks - 1), steps, -1});
        for (int tree = 0; tree < 2; ++tree)
            for (int p = 1; p < nodes; ++p) {
                const int child = tree == 0 ? p : nodes - 1 - p;
                const int q = treeParent(p);
                const int parent = tree == 0 ? q : nodes - 1 - q;
                const int c = groups[std::size_t(child)].node;
                const int up = groups[std::size_t(parent)].node;
                const int rail = tree % rails;
                plan.transfers.push_back({0, c, up, bytes / 2.0, 1, steps, rail});
                plan.transfers.push_back({0, up, c, bytes / 2.0, 1, steps, rail});
            }
        break;
    }
    case AllReduceAlgorithm::Hierarchical: {
        for (const RankGroup &g : groups) {
            const double part = busBandwidthFactor(Collective::ReduceScatter, g.ranks) * bytes;
            addNodeRing(plan, 0, g.node, g.ranks, part, g.ranks - 1);
            addNodeRing(plan, 2, g.node, g.ranks, part, g.ranks - 1);
        }
        const double edge = busBandwidthFactor(Collective::AllReduce, nodes) * bytes / rails;
        for (int a = 0; a < nodes; ++a)
            for (int k = 0; k < rails; ++k)
                plan.transfers.push_back({1, groups[std::size_t(a)].node,
                                          groups[std::size_t((a + 1) % nodes)].node, edge, 1,
                                          2 * (nodes - 1), k});
        compactPhases(plan);
        break;
    }
    }
    return plan;
}

CommPlan parameterServerPlan(const std::vector<RankGroup> &workers,
                             const std::vector<int> &servers, double bytes)
{
    CommPlan plan;
    if (workers.empty() || bytes <= 0)
        return plan;
    for (const RankGroup &w : workers)
        addNodeRing(plan, 0, w.node, w.ranks,
                    busBandwidthFactor(Collective::AllReduce, w.ranks) * bytes,
                    2 * (w.ranks - 1));
    if (!servers.empty()) {
        const double share = bytes / double(servers.size());
        for (const RankGroup &w : workers)
            for (int s : servers)
                plan.transfers.push_back({1, w.node, s, share, 1, 1, -1});
        for (const RankGroup &w : workers)
            for (int s : servers)
                plan.transfers.push_back({2, s, w.node, share, 1, 1, -1});
    }
    compactPhases(plan);
    return plan;
}

CommPlan allToAllPlan(const std::vector<RankGroup> &groups, double bytesPerRank)
{
    CommPlan plan;
    const int n = totalRanks(groups);
    if (n < 2 || bytesPerRank <= 0)
        return plan;
    const double piece = bytesPerRank / n;
    for (const RankGroup &a : groups) {
        if (a.ranks > 1)
            plan.transfers.push_back({0, a.node, a.node, piece * (a.ranks - 1), a.ranks, n - 1, -1});
        for (const RankGroup &b : groups)
            if (&a != &b && a.ranks > 0 && b.ranks > 0)
                plan.transfers.push_back({0, a.node, b.node, piece * a.ranks * b.ranks, 1, n - 1, -1});
    }
    return plan;
}

double planSeconds(const CommPlan &plan, const std::function<StepCost(std::size_t)> &costOf)
{
    const int phases = plan.phaseCount();
    std::vector<double> latency(std::size_t(phases), 0.0), transfer(std::size_t(phases), 0.0);
    for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
        const CommTransfer &t = plan.transfers[i];
        const StepCost c = costOf(i);
        const std::size_t p = std::size_t(t.phase);
        latency[p] = std::max(latency[p], t.steps * c.latencySeconds);
        transfer[p] = std::max(transfer[p], transferSeconds(t.bytes, c.bytesPerSecond));
    }
    double total = 0;
    for (int p = 0; p < phases; ++p)
        total += latency[std::size_t(p)] + transfer[std::size_t(p)];
    return total;
}

} // namespace cb
