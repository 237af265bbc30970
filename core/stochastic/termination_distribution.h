#pragma once
// Early-termination distribution of a training job (STS, Filippini et al., IEEE TCC 2024):
// the probability that the job stops after k % of its maximum epochs, k = 1..100. The six
// empirical ones come from the authors' distributions.csv (Scenario::distributions); users may
// define their own with any 100 non-negative weights.

#include "util/result.h"
#include "util/rng.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace cb {

class SurvivalFunction;

class TerminationDistribution
{
public:
    static constexpr int kPoints = 100;

    /// Normalises `weights` (exactly 100 values, each >= 0, positive sum); problems name `where`.
    static Result<TerminationDistribution> fromWeights(const std::string &name,
                                                      const std::vector<double> &weights,
                                                      const std::string &where = {});
    /// Every distribution of a scenario, by name (problems name /distributions/<name>).
    static Result<std::map<std::string, TerminationDistribution>>
    fromScenario(const std::map<std::string, std::vector<double>> &distributions);
    /// The job always runs all epochs (stop at 100 %).
    static TerminationDistribution runsToEnd();

    const std::string &name() const { return m_name; }
    /// P(stop = k %), k in 1..100 (0 outside).
    double pmf(int k) const { return k >= 1 && k <= kPoints ? m_pmf[std::size_t(k - 1)] : 0.0; }
    /// P(stop >= k %), k in 1..101.
    double tail(int k) const;
    /// Mean stop point in percent.
    double meanPercent() const;
    /// Draws a stop point in 1..100 (inverse CDF on one uniform draw).
    int sample(Rng &rng) const;
    /// Survival over epochs [doneEpochs, maxEpochs] conditioned on the job still running.
    SurvivalFunction survival(double doneEpochs, double maxEpochs) const;

private:
    std::string m_name;
    std::array<double, kPoints> m_pmf{};
    std::array<double, kPoints + 2> m_tail{}; ///< m_tail[k] = P(stop >= k), k = 0..101
};

} // namespace cb
