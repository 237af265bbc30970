#pragma once
// One scheduling pass of the STS experiment: given the jobs present and a GPU pool, choose a
// configuration and a placement for each job it runs now. Implemented by the STS policy and
// by the authors' baselines (FIFO, EDF, priority, G, RG, LS).

#include "stochastic/gpu_pool.h"
#include "stochastic/price_catalogue.h"
#include "stochastic/sts_decision_log.h"
#include "stochastic/sts_job.h"
#include "util/rng.h"

#include <limits>
#include <string>
#include <vector>

namespace cb {

struct StsAssignment
{
    std::size_t job = 0;      ///< index into the job list
    StsConfig config;
    StsPlacement at;
    /// Seconds until the planned reconfiguration; infinity: runs on to its end.
    double phaseSeconds = std::numeric_limits<double>::infinity();
};

struct StsPass
{
    double now = 0;
    const std::vector<StsJob> *jobs = nullptr;
    std::vector<StsJobState> states;  ///< the jobs to schedule in this pass
    const PriceCatalogue *prices = nullptr;
    GpuPool *pool = nullptr;          ///< free resources (running non-preemptible jobs removed)
    Rng *rng = nullptr;
    StsEventRecord *log = nullptr;    ///< null: no decision log
};

class StsScheduler
{
public:
    virtual ~StsScheduler() = default;
    virtual std::string name() const = 0;
    /// True: every pass re-plans all jobs on an empty pool (running jobs may move or pause).
    /// False: running jobs keep their GPUs until they end; passes place waiting jobs only.
    virtual bool replansRunningJobs() const = 0;
    virtual std::vector<StsAssignment> schedule(StsPass &pass) = 0;
};

/// Cost per hour of running `c` alone on its GPUs: rate(type, gpus) x fraction.
double stsConfigRate(const PriceCatalogue &prices, const StsConfig &c);

/// The authors' configuration ranking (their Optimal_configurations): configurations meeting
/// the due date in worst case by increasing cost of the remaining run, then the others by
/// increasing remaining time. Indices into job.times.
std::vector<std::size_t> rankConfigurations(const StsJob &job, double doneEpochs, double now,
                                            const PriceCatalogue &prices);

} // namespace cb
