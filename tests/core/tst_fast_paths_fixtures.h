#pragma once
// Shared by tst_fast_paths and tst_reoffers: scenarios and runs compared between the fast
// paths and the simulator's exhaustive reference mode.

#include "io/run_json.h"
#include "model/gen_fat_tree.h"
#include "model/gen_jobs.h"
#include "net/topology.h"
#include "sched/policy.h"
#include "sim/simulator.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cb::fastpaths {

/// A k = 8 fat-tree (128 hosts, 8 GPUs each) under a queue of all-reduce and PS jobs of up
/// to 40 workers arriving faster than they finish: most passes try jobs that do not fit.
inline Scenario overloaded(int jobs)
{
    FatTreeParams p;
    p.k = 8;
    Scenario s;
    s.name = "overloaded-fat-tree";
    s.cluster = generateFatTree(p).value();
    JobSetParams j;
    j.jobs = jobs;
    j.meanInterarrivalSeconds = 20;
    j.minWorkers = 2;
    j.maxWorkers = 40;
    j.singleFraction = 0.3;
    j.seed = 11;
    s.jobs = generateJobs(j).value();
    return s;
}

/// The overloaded queue's length: shorter under the sanitizers, where the exhaustive
/// reference runs about 30 times slower; it still takes every fast path (checked).
#ifdef CB_SANITIZED
constexpr int kOverloadedJobs = 120;
#else
constexpr int kOverloadedJobs = 600;
#endif

/// A run file (the whole run as JSON text) and the placer's counts.
struct SimText
{
    std::string text;
    std::int64_t decisions = 0;
    std::int64_t skipped = 0;
};

inline SimText simulated(const Scenario &s, const Policy &policy, bool exhaustive,
                         std::vector<NodeFailure> failures = {}, std::uint64_t seed = 3)
{
    SimOptions o;
    o.policy = policy;
    o.seed = seed;
    o.exhaustive = exhaustive;
    o.failures = std::move(failures);
    Simulator sim(s, o);
    auto r = sim.run();
    SimText out;
    if (!r) {
        out.text = "error: " + r.error();
        return out;
    }
    const Topology topo(s.cluster);
    out.text = runToJson(r.value(), s.cluster, topo).dump();
    out.decisions = sim.placer().decisionCount();
    out.skipped = sim.skippedOffers();
    return out;
}

} // namespace cb::fastpaths
