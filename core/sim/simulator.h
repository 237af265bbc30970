#pragma once
// The discrete-event simulator: replays a scenario's job queue on its cluster with one
// scheduling policy and reports job completion times, traffic, energy and cost.
//
// Events (EventQueue, ordered by time then scheduling order): job arrivals at their submit
// time; scheduling passes (waiting jobs offered to the policy's Placer in queue order; a
// job that does not fit waits); completions (resources released, the next pass runs);
// injected node failures and repairs; planned hooks (scheduleAt), e.g. STS reconfigurations.
//
// A running job's flows (job_flows.h) are long-lived in a MaxMinNetwork. Whenever the set of
// running jobs changes, the network is re-solved incrementally and every job whose flow
// rates changed gets a new iteration time; progress is kept in iterations, so the job's
// completion moves by exactly the remaining iterations times the new iteration time.
// Iteration time = compute + straggler wait + max(comm - overlap x compute, exposed x comm)
// (job_flows.h: iterationSeconds, stragglerSeconds), where compute is the slowest worker's
// seconds per iteration and comm the communication plan's phases at the flows' current rates
// (net/comm_model.h; the flows of all phases share the links together, a conservative
// approximation where phases of one job would use the same link in the same direction). A
// job whose model has a measured step-time model (Scenario::stepTimeModels) takes the
// table's step time for its placement instead (sync included, so no modelled communication
// is added and network contention does not change it); its flows still load the links with
// the same bytes.
//
// Threads: a run works out the jobs' times alone (JobRun::isolatedSeconds) and adds to the
// time buckets (sim/bucket_stream.h) on two threads beside its own; each does its work in
// the order one thread would, so the results are the same to the bit.
//
// Energy: node base watts and idle GPU watts all the time (nodes that are down draw
// nothing), busy watts on allocated GPU shares while their job runs, all x PUE, priced by
// PriceSchedule. A job's energy is its GPUs at busy draw x PUE.

#include "model/scenario.h"
#include "sched/placer.h"
#include "sim/run_result.h"
#include "sim/sim_options.h"
#include "util/result.h"

#include <functional>
#include <memory>
#include <string>

namespace cb {

class Simulator
{
public:
    /// `scenario` must outlive the simulator.
    Simulator(const Scenario &scenario, SimOptions options);
    ~Simulator();
    Simulator(const Simulator &) = delete;
    Simulator &operator=(const Simulator &) = delete;

    using Hook = std::function<void(Simulator &)>;
    /// Plans a call at simulated time t (logged as a "hook" event with `what`). Hooks may
    /// call requeue() and scheduleAt(); events at the same time run in scheduling order.
    void scheduleAt(double t, std::string what, Hook hook);

    /// Stops a running job and puts it back in the queue (for reconfiguration: keepProgress
    /// keeps its iterations done, as with a checkpoint). False if the job is not running.
    bool requeue(const std::string &jobId, bool keepProgress, const std::string &reason);

    /// Simulated time now (inside hooks) or at the end of the run.
    double now() const;
    const Placer &placer() const;
    /// Offers of waiting jobs skipped because they provably could not be placed (their
    /// decisions counted all the same); 0 in the exhaustive reference mode.
    std::int64_t skippedOffers() const;

    /// Runs to the end (once). Fails on a failure naming an unknown node, or when cancelled.
    Result<RunResult> run();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// Convenience: one simulator, run.
Result<RunResult> simulate(const Scenario &scenario, SimOptions options);

/// Convenience: `scheduler` runs `jobs` (one per scenario job, in order) on `pool` (the
/// scenario's GPUs; sim/stochastic_scenario.h builds a scenario for a bare job list),
/// charging `prices`; `log` receives every scheduling event. `detail` off skips the event
/// log and node-pair buckets (experiments that only need the costs).
Result<RunResult> simulateStochastic(const Scenario &scenario, std::vector<StsJob> jobs,
                                     GpuPool pool, PriceCatalogue prices,
                                     std::shared_ptr<StsScheduler> scheduler, std::uint64_t seed,
                                     StsDecisionLog *log = nullptr, bool detail = true);

} // namespace cb
