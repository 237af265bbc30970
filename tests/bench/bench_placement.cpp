// Placements per second of the scheduling pipeline on a k=16 fat-tree (1,024 nodes) and a
// 5,000-node leaf-spine cluster, for k8s-default and dltap: the incremental scorer (only the
// nodes whose load changed are rescored) next to two baselines measured in the same run:
// full scoring (every node, every plugin, every decision; the same decisions) and the floor,
// a plain loop that only sums two scores over the same node arrays and keeps the best, once
// per placement. Prints figures; asserts nothing about time (exit code 1 only if placements
// go wrong or the two scorers decide differently).

#include "model/scenario.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "sched/policy.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace cb;

namespace {

Node gpuNode(const std::string &id)
{
    Node n;
    n.id = id;
    n.cpus = 64;
    n.memoryGiB = 512;
    n.gpus = 8;
    n.gpuType = "V100";
    return n;
}

Cluster baseCluster()
{
    Cluster c;
    GpuType t;
    t.name = "V100";
    c.gpuTypes.push_back(t);
    return c;
}

/// k-ary fat-tree: k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores, k/2 hosts
/// per edge switch: k^3/4 nodes (1,024 for k = 16).
Cluster fatTree(int k)
{
    Cluster c = baseCluster();
    const int h = k / 2;
    for (int core = 0; core < h * h; ++core)
        c.switches.push_back({"core-" + std::to_string(core), "core"});
    for (int pod = 0; pod < k; ++pod) {
        for (int a = 0; a < h; ++a) {
            const std::string agg = "agg-" + std::to_string(pod) + "-" + std::to_string(a);
            c.switches.push_back({agg, "aggregation"});
            for (int j = 0; j < h; ++j)
                c.links.push_back({agg, "core-" + std::to_string(a * h + j), 100, 1});
        }
        for (int e = 0; e < h; ++e) {
            const std::string edge = "edge-" + std::to_string(pod) + "-" + std::to_string(e);
            c.switches.push_back({edge, "edge"});
            for (int a = 0; a < h; ++a)
                c.links.push_back({edge, "agg-" + std::to_string(pod) + "-" + std::to_string(a),
                                   100, 1});
            for (int x = 0; x < h; ++x) {
                const std::string id = "n-" + std::to_string(pod) + "-" + std::to_string(e) +
                                       "-" + std::to_string(x);
                c.nodes.push_back(gpuNode(id));
                c.links.push_back({id, edge, 100, 1});
            }
        }
    }
    return c;
}

/// Leaf-spine: `leaves` leaves of `perLeaf` nodes, every leaf linked to every spine.
Cluster leafSpine(int leaves, int perLeaf, int spines)
{
    Cluster c = baseCluster();
    for (int s = 0; s < spines; ++s)
        c.switches.push_back({"spine-" + std::to_string(s), "spine"});
    for (int l = 0; l < leaves; ++l) {
        const std::string leaf = "leaf-" + std::to_string(l);
        c.switches.push_back({leaf, "leaf"});
        for (int s = 0; s < spines; ++s)
            c.links.push_back({leaf, "spine-" + std::to_string(s), 400, 1});
        for (int x = 0; x < perLeaf; ++x) {
            const std::string id = "n-" + std::to_string(l) + "-" + std::to_string(x);
            c.nodes.push_back(gpuNode(id));
            c.links.push_back({id, leaf, 100, 1});
        }
    }
    return c;
}

/// `count` parameter-server jobs of 2 ps (4 CPUs, 16 GiB) and 6 workers (8 CPUs, 32 GiB,
/// 1 GPU), VGG-16 sized; with varied CPU asks so that nodes fill unevenly.
std::vector<Job> jobs(int count)
{
    std::vector<Job> out;
    for (int i = 0; i < count; ++i) {
        Job j;
        j.id = "job-" + std::to_string(i);
        j.kind = JobKind::ParameterServer;
        j.submitSeconds = i;
        TaskGroup ps;
        ps.role = TaskRole::Ps;
        ps.replicas = 2;
        ps.cpus = 2 + i % 3;
        ps.memoryGiB = 16;
        TaskGroup w;
        w.role = TaskRole::Worker;
        w.replicas = 6;
        w.cpus = 4 + 2 * (i % 3);
        w.memoryGiB = 32;
        w.gpus = 1;
        j.tasks = {ps, w};
        j.model.name = "vgg16";
        j.model.parameterBytes = 553430176;
        out.push_back(j);
    }
    return out;
}

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

/// The floor: per placement, one pass summing two per-node arrays and keeping the best; the
/// winner's value is nudged (like a bind) so the passes cannot be merged.
double floorRate(int nodes, long long placements)
{
    std::vector<double> a(static_cast<std::size_t>(nodes)), b(static_cast<std::size_t>(nodes));
    for (int i = 0; i < nodes; ++i) {
        a[std::size_t(i)] = double((i * 7919) % 101) / 10.0;
        b[std::size_t(i)] = double((i * 104729) % 103) / 10.0;
    }
    volatile long long sink = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (long long p = 0; p < placements; ++p) {
        double best = -1;
        int bestIndex = -1;
        for (int i = 0; i < nodes; ++i) {
            const double s = a[std::size_t(i)] + b[std::size_t(i)];
            if (s > best) {
                best = s;
                bestIndex = i;
            }
        }
        a[std::size_t(bestIndex)] -= 0.5;
        sink = sink + bestIndex;
    }
    const auto t1 = std::chrono::steady_clock::now();
    return double(placements) / seconds(t0, t1);
}

struct Figure
{
    double rate = 0;
    long long placements = 0;
};

Figure placeRate(const Cluster &cluster, const Topology &topo, const std::string &policy,
                 int jobCount, bool full, bool *ok, std::vector<std::string> *nodes)
{
    const std::vector<Job> queue = jobs(jobCount);
    Placer placer(cluster, topo, *builtinPolicy(policy), 1);
    placer.setFullScoring(full);
    const auto t0 = std::chrono::steady_clock::now();
    const Placement pl = placer.place(queue);
    const auto t1 = std::chrono::steady_clock::now();
    if (!pl.waiting.empty() || int(pl.jobs.size()) != jobCount)
        *ok = false;
    nodes->clear();
    for (const JobPlacement &jp : pl.jobs)
        for (const TaskAssignment &t : jp.tasks)
            nodes->push_back(t.node);
    return {double(placer.decisionCount()) / seconds(t0, t1), placer.decisionCount()};
}

} // namespace

int main()
{
    bool ok = true;
    struct Case
    {
        const char *name;
        Cluster cluster;
        int jobs;
    };
    std::vector<Case> cases;
    cases.push_back({"fat-tree k=16", fatTree(16), 600});
    cases.push_back({"leaf-spine 5000", leafSpine(125, 40, 8), 2500});
    std::printf("bench_placement: incremental scoring vs full scoring (every node scored for "
                "every task) vs the floor loop (one decision = one placement); best of 3 runs\n");
    std::printf("%-16s %6s %-12s %10s %14s %12s %8s %12s %8s\n", "cluster", "nodes",
                "policy", "placements", "incremental/s", "full/s", "speedup", "floor/s",
                "floor/inc");
    for (const Case &c : cases) {
        const Topology topo(c.cluster);
        const int nodes = int(c.cluster.nodes.size());
        for (const char *policy : {"k8s-default", "dltap"}) {
            Figure best, fullBest;
            double floorBest = 0;
            std::vector<std::string> incNodes, fullNodes;
            for (int rep = 0; rep < 3; ++rep) {
                const Figure f = placeRate(c.cluster, topo, policy, c.jobs, false, &ok, &incNodes);
                const Figure g = placeRate(c.cluster, topo, policy, c.jobs, true, &ok, &fullNodes);
                if (incNodes != fullNodes || f.placements != g.placements) {
                    std::printf("ERROR: incremental and full scoring decided differently\n");
                    ok = false;
                }
                if (f.rate > best.rate)
                    best = f;
                if (g.rate > fullBest.rate)
                    fullBest = g;
                floorBest = std::max(floorBest, floorRate(nodes, f.placements));
            }
            std::printf("%-16s %6d %-12s %10lld %14.0f %12.0f %7.1fx %12.0f %7.2fx\n", c.name,
                        nodes, policy, best.placements, best.rate, fullBest.rate,
                        best.rate / fullBest.rate, floorBest, floorBest / best.rate);
        }
    }
    std::printf("speedup = incremental / full scoring; floor/inc = floor rate / incremental "
                "rate (1.00x would be as fast as the floor)\n");
    if (!ok)
        std::printf("ERROR: some jobs were not placed\n");
    return ok ? 0 : 1;
}
