#pragma once
// The authors' search baselines, each re-planning all jobs at every event:
// - G, greedy: jobs by decreasing pressure, each takes the best configuration of the authors'
//   ranking (cheapest meeting the due date in the worst case, else fastest) that fits.
// - RG, randomised greedy: G, then iterations that pick among the top `alpha` share of the
//   ranking and randomly swap adjacent jobs of the pressure order (swap probability 1/2 +/-
//   `swapBias` by comparing tardiness weights, as in their code), keeping an elite pool of the
//   best schedules under their proxy cost.
// - LS, local search: RG, then for each elite schedule the best of three swap neighbourhoods
//   (a postponed high-pressure job takes a running lower-pressure job's GPUs; a tardy job
//   swaps configurations with an expensive one; a tardy job swaps with any job on another
//   node, lowest pressure first).
// Proxy cost of a schedule (theirs): GPU cost until its first job would end, plus tardiness
// then, plus 100 x weight x worst-case tardiness of every job left waiting.

#include "stochastic/sts_scheduler.h"

namespace cb {

class GreedyScheduler : public StsScheduler
{
public:
    enum class Variant { Greedy, RandomGreedy, LocalSearch };
    struct Params
    {
        int randomIterations = 1000; ///< RG iterations (capped by nodes x jobs x GPU types)
        int eliteSize = 10;
        double alpha = 0.05;         ///< top share of the ranking a random pick chooses from
        double swapBias = 0.05;      ///< pi of their random swaps
        int localSearchIterations = 1;
        int localSearchTop = 10;     ///< k1: tardy and expensive jobs examined
    };

    // Two constructors rather than a default argument: GCC 12 rejects `Params p = {}` for a
    // nested struct with member initialisers.
    explicit GreedyScheduler(Variant v) : m_variant(v) {}
    GreedyScheduler(Variant v, Params p) : m_variant(v), m_params(p) {}
    std::string name() const override;
    bool replansRunningJobs() const override { return true; }
    std::vector<StsAssignment> schedule(StsPass &pass) override;

private:
    Variant m_variant;
    Params m_params;
};

} // namespace cb
