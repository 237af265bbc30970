#pragma once
// The STS phase planner: for one job and one GPU type, split the remaining epochs [e, E] into
// phases run on the type's configurations in increasing GPU count (cheap and slow first, fast
// later only if the job is still running) so that
//     minimise   sum_i p_i * integral_{x(i-1)}^{x(i)} S(w) dw      (expected cost)
//     subject to sum_i (x(i) - x(i-1)) / s_i = D - now               (worst case ends on time)
// with p_i = cost per second / speed = cost per epoch and S the survival function.
//
// How we solve it (the authors call IPOPT on a smoothed S; we solve it exactly in-process):
// S is constant on 1 %-of-E cells, so the problem is a linear programme over "which fraction
// of each cell runs on which configuration". Mixing two configurations on the same epochs is
// never better than a point of the lower convex hull of (seconds per epoch 1/s_i, cost per
// epoch p_i), so only hull configurations are used, ordered from slowest/cheapest to fastest.
// Starting from every cell on the cheapest, moving cell k from hull step j to j+1 saves
// len_k (1/s_j - 1/s_{j+1}) seconds at a cost of S_k (p_{j+1} - p_j) per epoch; the marginal
// price per saved second is S_k * r_j with r_j increasing in j (convexity). Taking the
// cheapest moves first until the time constraint holds (the last one partially) is a
// fractional knapsack and is optimal; since S is non-increasing, later cells are upgraded at
// least as far as earlier ones, so the phases come out in increasing speed: the order the
// constraint asks for whenever speed grows with GPU count (true for all profiled data; when
// it is not, the plan follows the speed order and says so in `reordered`).
// Shortcuts as the authors define them: if the cheapest configuration alone meets the due
// date, it runs everything (kind Loose; its real expected cost is still computed); if even
// the fastest misses it, the fastest runs everything (kind Tardy, with expected tardiness).

#include "stochastic/sts_configuration.h"
#include "stochastic/survival_function.h"
#include "util/result.h"

#include <cstddef>
#include <vector>

namespace cb {

/// One configuration the planner may use: its speed and its cost rate.
struct PhaseOption
{
    StsConfig config;
    double speed = 1;         ///< epochs per second
    double costPerSecond = 0; ///< price per hour x fraction / 3600
    double costPerEpoch() const { return costPerSecond / speed; }
};

struct PhasePlanInput
{
    double doneEpochs = 0;          ///< e
    double maxEpochs = 100;         ///< E
    double secondsLeft = 0;         ///< D - now (may be <= 0: already late)
    std::vector<PhaseOption> options; ///< in increasing GPU count (then fraction)
    SurvivalFunction survival;      ///< conditioned on e
    double tardinessWeight = 0;     ///< cost per second late, for the Tardy expectation
    double minPhaseFraction = 0.01; ///< enact the first phase covering >= this share of E
};

enum class PlanKind { Loose, Optimised, Tardy };
const char *toString(PlanKind kind);

struct PhasePlan
{
    struct Segment
    {
        std::size_t option = 0; ///< index into PhasePlanInput::options
        double fromEpoch = 0;
        double toEpoch = 0;
    };

    PlanKind kind = PlanKind::Loose;
    std::vector<Segment> segments;      ///< non-empty phases in execution order
    double expectedEnergyCost = 0;      ///< sum_i p_i * integral of S over phase i
    double expectedTardinessCost = 0;   ///< 0 unless Tardy
    double worstCaseSeconds = 0;        ///< time to run all remaining epochs under the plan
    bool reordered = false;             ///< phases not in input (GPU-count) order

    // The receding horizon: only the first phase covering >= minPhaseFraction of E is enacted.
    std::size_t enactedOption = 0;
    double enactedUntilEpoch = 0;       ///< the phase ends here (== E: runs to the end)
    double enactedSeconds = 0;          ///< its duration on the enacted option
    bool enactedIsLast = true;          ///< no reconfiguration after it

    double expectedCost() const { return expectedEnergyCost + expectedTardinessCost; }
    /// Breakpoints x0..xN over the input options (zero-length phases for unused ones);
    /// meaningful when !reordered.
    std::vector<double> breakpoints(std::size_t optionCount, double doneEpochs) const;
};

/// Plans one job on one GPU type. Fails when there is no option or a speed or cost is not
/// a positive finite number (the problem names the option index).
Result<PhasePlan> planPhases(const PhasePlanInput &input);

/// Expected cost sum_i p_i * integral of S over [x(i-1), x(i)] of breakpoints x0..xN in input
/// order (used by tests and the decision log).
double expectedPhaseCost(const PhasePlanInput &input, const std::vector<double> &breakpoints);

} // namespace cb
