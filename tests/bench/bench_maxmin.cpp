// Max-min re-solve at 10,000 active flows on a 1,024-host fat-tree (k = 16): one flow added
// or removed and re-solved incrementally (only its component of the flow-link graph) vs a
// full re-solve of every flow. Two traffic patterns: uniform random host pairs (one giant
// component: the incremental solve cannot skip much) and rack-local pairs (many small
// components). Prints figures and ratios; asserts nothing about time.

#include "model/gen_fat_tree.h"
#include "net/maxmin_network.h"
#include "net/topology.h"
#include "util/rng.h"

#include <chrono>
#include <cstdio>
#include <vector>

using namespace cb;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

void run(const char *pattern, const Topology &topo, int hostsPerGroup, int flows)
{
    std::vector<double> caps;
    for (int l = 0; l < topo.directedLinkCount(); ++l)
        caps.push_back(topo.capacityGbps(l));
    MaxMinNetwork net(caps);
    Rng rng(42);
    const int n = topo.nodeCount();
    auto randomRoute = [&] {
        for (;;) {
            const int a = int(rng.below(std::uint64_t(n)));
            const int base = hostsPerGroup > 0 ? a / hostsPerGroup * hostsPerGroup : 0;
            const int span = hostsPerGroup > 0 ? hostsPerGroup : n;
            const int b = base + int(rng.below(std::uint64_t(span)));
            if (a != b)
                return topo.route(a, b, rng.next());
        }
    };
    std::vector<int> ids;
    for (int f = 0; f < flows; ++f)
        ids.push_back(net.addFlow(randomRoute()));
    auto t0 = Clock::now();
    net.solve();
    auto t1 = Clock::now();
    const int fullRounds = 10;
    for (int r = 0; r < fullRounds; ++r)
        net.solveAll();
    auto t2 = Clock::now();
    const double full = seconds(t1, t2) / fullRounds;
    const int ops = 400;
    std::size_t resolved = 0;
    auto t3 = Clock::now();
    for (int k = 0; k < ops; ++k) {
        const std::size_t i = std::size_t(rng.below(ids.size()));
        net.removeFlow(ids[i]);
        resolved += std::size_t(net.solve());
        ids[i] = net.addFlow(randomRoute());
        resolved += std::size_t(net.solve());
    }
    auto t4 = Clock::now();
    const double inc = seconds(t3, t4) / (2 * ops);
    std::printf("%-11s %6d flows: first solve %8.3f ms, full re-solve %8.3f ms, incremental "
                "(one flow added or removed) %8.4f ms, mean flows re-solved %7.0f, "
                "full/incremental %6.1fx; links that can be bottlenecks %d of %d\n",
                pattern, flows, seconds(t0, t1) * 1e3, full * 1e3, inc * 1e3,
                double(resolved) / (2 * ops), full / inc, net.activeLinkCount(), net.linkCount());
}

} // namespace

int main()
{
    FatTreeParams p;
    p.k = 16;
    p.linkGbps = 100;
    auto cluster = generateFatTree(p);
    if (!cluster) {
        std::fprintf(stderr, "%s\n", cluster.error().c_str());
        return 1;
    }
    const Topology topo(cluster.value());
    std::printf("bench_maxmin: fat-tree k=16, %d hosts, %d directed links\n", topo.nodeCount(),
                topo.directedLinkCount());
    run("uniform", topo, 0, 10000);
    run("rack-local", topo, 8, 10000);
    run("uniform", topo, 0, 1000);
    return 0;
}
