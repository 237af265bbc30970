#pragma once
// The STS policy (Filippini et al., IEEE TCC 2024): jobs in decreasing pressure; for each job
// and GPU type a phase plan (phase_planner.h) from its current configuration upwards; the
// cheapest expected cost whose first phase fits is enacted on a best-fit node; the end of that
// phase is a reconfiguration event at which the job moves to more GPUs, and every event
// re-plans all jobs (receding horizon). When no planned configuration fits, the job falls
// back to the authors' ranking (cheapest meeting the due date, else fastest) of anything that
// fits, and otherwise waits.

#include "stochastic/sts_scheduler.h"

namespace cb {

// STS-net (beyond the paper, network-aware): the same plans, but placement avoids cross-node
// traffic. Each candidate (cheapest expected cost first) is tried on a single node before any
// is split; a split stays in one rack on the fewest nodes (StsSplit::Network) instead of the
// GPU-by-GPU best fit plain STS uses when the pool may split (StsSplit::BestFit). With a pool
// that never splits, STS-net and STS decide alike.
//
// Saturation guard (our fix, on by default): plans ignore capacity, so when many jobs reach
// the fast tails of their plans together (whole 8-GPU nodes, a worst-case guard) the cluster
// saturates; the jobs left waiting grow late, their plans turn to the fastest configuration
// too, and the queue feeds itself. After the pressure-ordered pass, each job left waiting
// (in pressure order) takes GPUs from the single-node assignment of its type with the most
// GPUs: that job moves to its largest configuration leaving the room the waiting job's best
// ranked configuration needs (a slice needs one GPU), and the waiting job runs there.
//
// Ranking of the GPU types' plans: ours by expected cost (energy plus expected tardiness). The
// authors' service (script/py/stochastic.py) scores a plan 0 when its cheapest configuration
// alone meets the due date, 1e6 when not even the fastest does, and by its objective only in
// between; their C++ side then takes the lowest score, ties in GPU-type order. So a loose plan
// wins whatever it costs, and among tardy plans the first GPU type wins.
enum class StsRanking {
    ExpectedCost, ///< ours
    Authors,      ///< 0 loose, 1e6 tardy, else the expected cost; ties by GPU-type order
};

class StsPolicy : public StsScheduler
{
public:
    StsPolicy() = default;
    explicit StsPolicy(bool networkAware, bool saturationGuard = true,
                       StsRanking ranking = StsRanking::ExpectedCost)
        : m_network(networkAware), m_saturationGuard(saturationGuard), m_ranking(ranking)
    {}
    std::string name() const override { return m_network ? "STS-net" : "STS"; }
    bool replansRunningJobs() const override { return true; }
    std::vector<StsAssignment> schedule(StsPass &pass) override;

private:
    bool admitBySharing(StsPass &pass, std::size_t state, std::vector<StsAssignment> &out,
                        StsJobDecision *decision) const;

    bool m_network = false;
    bool m_saturationGuard = true;
    StsRanking m_ranking = StsRanking::ExpectedCost;
};

} // namespace cb
