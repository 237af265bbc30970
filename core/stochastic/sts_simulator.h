#pragma once
// A lean job-level event simulation of the STS experiment. Why not core/sim: STS needs only
// GPU time and cost accounting per job (no traffic, no network sharing), the authors'
// simulator is exactly this, and it lets the experiment run hundreds of seeded simulations
// in seconds. Events: arrivals, true completions (at the job's sampled stop point) and
// planned reconfigurations; at each event the method schedules (re-planning everything, or
// only the waiting jobs for non-preemptive methods).
// Cost model (SEEDS.md §2): a job on node n pays dt / 3600 * rate(type, GPUs busy on n) *
// its share (its GPUs / busy GPUs, times its fraction); tardiness cost w * max(0, end - D);
// total = energy + tardiness. Node base cost is 0 in the authors' data-centre setup.
// Multi-node placements (a pool with a split mode): data-parallel training as a ring
// all-reduce over the job's g GPUs ordered node by node; each of the k links of the ring
// that cross nodes carries 2 P (g - 1) / g bytes per iteration (P: parameter bytes), so
// cross-node bytes per iteration = k x 2 P (g - 1) / g, and an iteration takes its compute
// time (from the time table) plus that ring step over the slowest node uplink used. The
// time tables (profiled on one node) know nothing of this: schedulers plan without it.

#include "stochastic/gpu_pool.h"
#include "stochastic/price_catalogue.h"
#include "stochastic/sts_decision_log.h"
#include "stochastic/sts_job.h"
#include "stochastic/sts_scheduler.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

struct StsJobOutcome
{
    std::string id;
    double finishSeconds = 0;
    double energyCost = 0;
    double tardinessCost = 0;
    bool violated = false;     ///< finished after its due date
    int reconfigurations = 0;  ///< configuration changes while running
    double crossNodeBytes = 0; ///< moved between nodes (multi-node placements only)
    double gpuSeconds = 0;     ///< GPU shares x seconds held
};

struct StsRunResult
{
    std::string method;
    double energyCost = 0;
    double tardinessCost = 0;
    double totalCost = 0;
    int violations = 0;
    int events = 0;
    double crossNodeBytes = 0;
    int multiNodePlacements = 0; ///< scheduling decisions that split a job over nodes
    std::vector<StsJobOutcome> jobs; ///< in input order
};

class StsSimulator
{
public:
    StsSimulator(std::vector<StsJob> jobs, GpuPool pool, PriceCatalogue prices)
        : m_jobs(std::move(jobs)), m_pool(std::move(pool)), m_prices(std::move(prices))
    {}

    /// Runs all jobs to completion under `scheduler`; `seed` drives its random choices.
    /// Fails when a job fits no node at all (it would wait forever).
    Result<StsRunResult> run(StsScheduler &scheduler, std::uint64_t seed,
                             StsDecisionLog *log = nullptr) const;

    const std::vector<StsJob> &jobs() const { return m_jobs; }

    /// Cross-node bytes per iteration of `g` GPUs over `nodes` nodes (0 on one node).
    static double crossBytesPerIteration(double parameterBytes, int g, int nodes);
    /// Seconds of the ring step over a link of `gbps` (0 on one node or without a link).
    static double ringSeconds(double parameterBytes, int g, int nodes, double gbps);

private:
    std::vector<StsJob> m_jobs;
    GpuPool m_pool;
    PriceCatalogue m_prices;
};

} // namespace cb
