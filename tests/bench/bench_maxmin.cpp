// Max-min re-solve at 10,000 active flows on a 1,024-host fat-tree (k = 16): a change of one
// flow or of one job (8 flows started or finished together) re-solved incrementally (local
// repair or levels, whichever has cost less lately; and by levels only) vs a full re-solve
// of every flow. Two traffic patterns: uniform random host pairs (one giant
// component) and rack-local pairs (many small components). Where SimGrid 3.32 is installed
// the same flow sets and the same changes are solved by SimGrid's own max-min solver (its
// LMM System, "maxmin" solver, precision 1e-12) in the same run, and the ratio ours /
// SimGrid is printed with the largest relative difference of the link loads of the two
// solutions. A first solve is the median of five new networks (systems) built alike; a full
// re-solve the mean of as many rounds as fill 50 ms (ten at least). Prints figures and
// ratios; asserts nothing about time.

#include "model/gen_fat_tree.h"
#include "net/maxmin_network.h"
#include "net/topology.h"
#include "util/rng.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

#ifdef CB_SIMGRID_LMM
// libsimgrid-dev ships libsimgrid.so with the LMM solver but not its headers
// (src/kernel/lmm/System.hpp is internal). These declare, as opaque classes, only the
// exported System calls used here, with the signatures of SimGrid 3.32 (CMake checks the
// version). Objects are only handled through pointers SimGrid returns.
namespace simgrid::kernel {
namespace resource {
class Action;
class Resource;
} // namespace resource
namespace lmm {
class Variable;
class Constraint
{
public:
    double get_usage() const;
};
class System
{
public:
    static System *build(std::string_view solver_name, bool selective_update);
    Constraint *constraint_new(resource::Resource *id, double bound_value);
    Variable *variable_new(resource::Action *id, double sharing_penalty, double bound,
                           std::size_t number_of_constraints);
    void variable_free(Variable *var);
    void expand(Constraint *cnst, Variable *var, double value, bool force_creation);
    void update_constraint_bound(Constraint *cnst, double bound);
    void solve();
};
} // namespace lmm
} // namespace simgrid::kernel
extern double sg_maxmin_precision;
#endif

using namespace cb;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

/// A first solve is timed on this many new networks (and SimGrid systems), built alike; the
/// median is reported (one cold solve varies by 2x from run to run).
constexpr int kFirstRounds = 5;

/// A full re-solve, ours and SimGrid's alike, is repeated until the rounds have taken this
/// long (ten rounds at least) and timed as their mean. Ten rounds of a 0.3 ms solve, a 3 ms
/// window, measured mostly the warm-up after the five first solves: the same solve took
/// 0.38 ms in its first round and 0.20 ms by its twelfth.
constexpr double kFullSeconds = 0.05;

template<typename Solve>
double fullResolveSeconds(Solve solve)
{
    int rounds = 0;
    const auto t0 = Clock::now();
    do {
        solve();
        ++rounds;
    } while (rounds < 10 || seconds(t0, Clock::now()) < kFullSeconds);
    return seconds(t0, Clock::now()) / rounds;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// One change: the flows (indices into the flow slots) that finish, replaced by new routes.
struct Change
{
    std::vector<std::size_t> slots;
    std::vector<std::vector<int>> routes;
};

struct Workload
{
    std::vector<std::vector<int>> initial;
    std::vector<Change> changes;
};

Workload workload(const Topology &topo, int hostsPerGroup, int flows, int changes, int perChange,
                  std::uint64_t seed)
{
    Rng rng(seed);
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
    Workload w;
    for (int f = 0; f < flows; ++f)
        w.initial.push_back(randomRoute());
    for (int c = 0; c < changes; ++c) {
        Change ch;
        while (int(ch.slots.size()) < perChange) {
            const std::size_t s = std::size_t(rng.below(std::uint64_t(flows)));
            if (std::find(ch.slots.begin(), ch.slots.end(), s) == ch.slots.end())
                ch.slots.push_back(s);
        }
        for (int k = 0; k < perChange; ++k)
            ch.routes.push_back(randomRoute());
        w.changes.push_back(std::move(ch));
    }
    return w;
}

struct Timing
{
    double first = 0, full = 0, change = 0; // seconds: first solve, full re-solve, per solve
    double meanResolved = 0;
    double roundsPerSolve = 0; // fills per solve (more when left-out links are taken in)
    long long laterRounds = 0, laterAboveZero = 0;
    long long repairs = 0, repairRounds = 0, repairsAbandoned = 0, solves = 0;
    std::vector<double> loads; // per link, after the last change
};

/// Ours: every change is applied as a finish (remove + solve) and a start (add + solve).
Timing ours(const std::vector<double> &caps, const Workload &w,
           MaxMinNetwork::Repair repair = MaxMinNetwork::Repair::Auto)
{
    MaxMinNetwork net(caps);
    net.setRepair(repair);
    std::vector<int> ids;
    for (const auto &r : w.initial)
        ids.push_back(net.addFlow(r));
    Timing t;
    auto t0 = Clock::now();
    net.solve();
    auto t1 = Clock::now();
    std::vector<double> firsts{seconds(t0, t1)};
    for (int r = 1; r < kFirstRounds; ++r) { // more new networks, for the median
        MaxMinNetwork other(caps);
        for (const auto &route : w.initial)
            other.addFlow(route);
        const auto a = Clock::now();
        other.solve();
        firsts.push_back(seconds(a, Clock::now()));
    }
    t.first = median(firsts);
    t.full = fullResolveSeconds([&] { net.solveAll(); });
    std::size_t resolved = 0;
    const MaxMinNetwork::Stats before = net.stats();
    auto t3 = Clock::now();
    for (const Change &c : w.changes) {
        for (std::size_t s : c.slots)
            net.removeFlow(ids[s]);
        resolved += std::size_t(net.solve());
        for (std::size_t k = 0; k < c.slots.size(); ++k)
            ids[c.slots[k]] = net.addFlow(c.routes[k]);
        resolved += std::size_t(net.solve());
    }
    auto t4 = Clock::now();
    t.change = seconds(t3, t4) / double(2 * w.changes.size());
    t.meanResolved = double(resolved) / double(2 * w.changes.size());
    const MaxMinNetwork::Stats &after = net.stats();
    t.roundsPerSolve = double(after.rounds - before.rounds) / double(after.solves - before.solves);
    t.laterRounds = after.laterRounds - before.laterRounds;
    t.laterAboveZero = after.laterRoundsAboveZero - before.laterRoundsAboveZero;
    t.solves = after.solves - before.solves;
    t.repairs = after.repairs - before.repairs;
    t.repairRounds = after.repairRounds - before.repairRounds;
    t.repairsAbandoned = after.repairsAbandoned - before.repairsAbandoned;
    for (int l = 0; l < net.linkCount(); ++l)
        t.loads.push_back(net.load(l));
    return t;
}

#ifdef CB_SIMGRID_LMM
namespace lmm = simgrid::kernel::lmm;

/// A new LMM System with one constraint per link (in `links`).
lmm::System *lmmSystem(const std::vector<double> &caps, std::vector<lmm::Constraint *> &links)
{
    lmm::System *sys = lmm::System::build("maxmin", false);
    links.clear();
    for (double c : caps)
        links.push_back(sys->constraint_new(nullptr, c));
    return sys;
}

lmm::Variable *lmmFlow(lmm::System *sys, const std::vector<lmm::Constraint *> &links,
                       const std::vector<int> &route)
{
    lmm::Variable *v = sys->variable_new(nullptr, 1.0, -1.0, route.size());
    for (int l : route)
        sys->expand(links[std::size_t(l)], v, 1.0, false);
    return v;
}

/// SimGrid's LMM System (solver "maxmin", no selective update: SimGrid's lazy mode needs
/// its own model's actions), the same changes in the same order.
Timing simgridLmm(const std::vector<double> &caps, const Workload &w)
{
    sg_maxmin_precision = 1e-12;
    std::vector<lmm::Constraint *> cnst;
    lmm::System *sys = lmmSystem(caps, cnst);
    auto add = [&](const std::vector<int> &route) { return lmmFlow(sys, cnst, route); };
    std::vector<lmm::Variable *> vars;
    for (const auto &r : w.initial)
        vars.push_back(add(r));
    Timing t;
    auto t0 = Clock::now();
    sys->solve();
    auto t1 = Clock::now();
    std::vector<double> firsts{seconds(t0, t1)};
    for (int r = 1; r < kFirstRounds; ++r) { // more new systems, for the median
        std::vector<lmm::Constraint *> links;
        lmm::System *other = lmmSystem(caps, links);
        for (const auto &route : w.initial)
            lmmFlow(other, links, route);
        const auto a = Clock::now();
        other->solve();
        firsts.push_back(seconds(a, Clock::now()));
    }
    t.first = median(firsts);
    t.full = fullResolveSeconds([&] {
        sys->update_constraint_bound(cnst[0], caps[0]); // marks the system modified
        sys->solve();
    });
    auto t3 = Clock::now();
    for (const Change &c : w.changes) {
        for (std::size_t s : c.slots)
            sys->variable_free(vars[s]);
        sys->solve();
        for (std::size_t k = 0; k < c.slots.size(); ++k)
            vars[c.slots[k]] = add(c.routes[k]);
        sys->solve();
    }
    auto t4 = Clock::now();
    t.change = seconds(t3, t4) / double(2 * w.changes.size());
    for (lmm::Constraint *c : cnst)
        t.loads.push_back(c->get_usage());
    // The system is left to the end of the process: deleting it needs SimGrid's headers.
    return t;
}
#endif

void run(const char *pattern, const Topology &topo, int hostsPerGroup, int flows, int perChange)
{
    std::vector<double> caps;
    for (int l = 0; l < topo.directedLinkCount(); ++l)
        caps.push_back(topo.capacityGbps(l));
    const Workload w = workload(topo, hostsPerGroup, flows, perChange == 1 ? 400 : 100,
                                perChange, 42);
    const Timing a = ours(caps, w);
    const char *what = perChange == 1 ? "one flow" : "one job (8 flows)";
    std::printf("%-10s %6d flows, %-17s started or finished: first solve %8.3f ms, full "
                "re-solve %8.3f ms, incremental %8.4f ms (mean flows re-solved %6.0f), "
                "full/incremental %6.1fx; %lld of %lld solves repaired locally (%.1f fills "
                "each), %lld repairs given up; %.2f fills by levels per solve (%lld after "
                "links were taken in, %lld of them resumed above level 0)\n",
                pattern, flows, what, a.first * 1e3, a.full * 1e3, a.change * 1e3,
                a.meanResolved, a.full / a.change, a.repairs, a.solves,
                a.repairs > 0 ? double(a.repairRounds) / double(a.repairs) : 0.0,
                a.repairsAbandoned, a.roundsPerSolve, a.laterRounds, a.laterAboveZero);
    // The same changes re-solved by levels only (no local repair), as before it existed.
    const Timing l = ours(caps, w, MaxMinNetwork::Repair::Off);
    double maxLevels = 0;
    for (std::size_t k = 0; k < caps.size(); ++k)
        maxLevels = std::max(maxLevels, std::fabs(a.loads[k] - l.loads[k]));
    std::printf("%-10s %6d flows, by levels only: incremental %8.4f ms (mean flows re-solved "
                "%6.0f); with repair / levels only %5.3fx; link loads differ by %.2g\n",
                pattern, flows, l.change * 1e3, l.meanResolved, a.change / l.change,
                maxLevels);
#ifdef CB_SIMGRID_LMM
    const Timing s = simgridLmm(caps, w);
    double maxRel = 0;
    for (std::size_t l = 0; l < caps.size(); ++l) {
        const double scale = std::max({std::fabs(a.loads[l]), std::fabs(s.loads[l]), 1e-9});
        maxRel = std::max(maxRel, std::fabs(a.loads[l] - s.loads[l]) / scale);
    }
    std::printf("%-10s %6d flows, SimGrid LMM: first solve %8.3f ms, full re-solve %8.3f ms, "
                "after the change %8.4f ms; ours/SimGrid: first %5.3fx, full %5.3fx, change "
                "%6.4fx; link loads max rel. difference %.2g\n",
                pattern, flows, s.first * 1e3, s.full * 1e3, s.change * 1e3, a.first / s.first,
                a.full / s.full, a.change / s.change, maxRel);
#endif
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
#ifdef CB_SIMGRID_LMM
    std::printf("SimGrid LMM solver: timed in the same run on the same flows and changes\n");
#else
    std::printf("SimGrid LMM solver: not available (libsimgrid-dev 3.32 not found)\n");
#endif
    run("uniform", topo, 0, 10000, 1);
    run("uniform", topo, 0, 10000, 8);
    run("rack-local", topo, 8, 10000, 1);
    run("rack-local", topo, 8, 10000, 8);
    run("uniform", topo, 0, 1000, 1);
    std::printf("ratio ours/SimGrid < 1 means ours is faster\n");
    return 0;
}
