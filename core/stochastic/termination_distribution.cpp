#include "stochastic/termination_distribution.h"

#include "stochastic/survival_function.h"

#include <algorithm>
#include <cmath>

namespace cb {

Result<TerminationDistribution>
TerminationDistribution::fromWeights(const std::string &name, const std::vector<double> &weights,
                                     const std::string &where)
{
    if (weights.size() != std::size_t(kPoints))
        return Result<TerminationDistribution>::failure(
            where, "expected " + std::to_string(kPoints) + " probabilities (1..100 % of the "
                   "maximum epochs), found " + std::to_string(weights.size()));
    double sum = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        if (!std::isfinite(weights[i]) || weights[i] < 0)
            return Result<TerminationDistribution>::failure(
                where + "/" + std::to_string(i), "expected a probability >= 0");
        sum += weights[i];
    }
    if (!(sum > 0))
        return Result<TerminationDistribution>::failure(
            where, "expected probabilities with a positive sum");
    TerminationDistribution d;
    d.m_name = name;
    for (std::size_t i = 0; i < weights.size(); ++i)
        d.m_pmf[i] = weights[i] / sum;
    d.m_tail[kPoints + 1] = 0;
    for (int k = kPoints; k >= 1; --k)
        d.m_tail[std::size_t(k)] = d.m_tail[std::size_t(k + 1)] + d.m_pmf[std::size_t(k - 1)];
    d.m_tail[0] = d.m_tail[1];
    return d;
}

Result<std::map<std::string, TerminationDistribution>>
TerminationDistribution::fromScenario(const std::map<std::string, std::vector<double>> &all)
{
    std::map<std::string, TerminationDistribution> out;
    Problems p;
    for (const auto &[name, weights] : all) {
        auto d = fromWeights(name, weights, "/distributions/" + name);
        if (!d)
            p.insert(p.end(), d.problems().begin(), d.problems().end());
        else
            out.emplace(name, std::move(d.value()));
    }
    if (!p.empty())
        return p;
    return out;
}

TerminationDistribution TerminationDistribution::runsToEnd()
{
    std::vector<double> w(kPoints, 0.0);
    w.back() = 1.0;
    return fromWeights("runs-to-end", w).value();
}

double TerminationDistribution::tail(int k) const
{
    if (k <= 1)
        return 1.0 * m_tail[1];
    if (k > kPoints)
        return 0.0;
    return m_tail[std::size_t(k)];
}

double TerminationDistribution::meanPercent() const
{
    double m = 0;
    for (int k = 1; k <= kPoints; ++k)
        m += k * m_pmf[std::size_t(k - 1)];
    return m;
}

int TerminationDistribution::sample(Rng &rng) const
{
    const double u = rng.uniform();
    double acc = 0;
    int last = kPoints;
    for (int k = 1; k <= kPoints; ++k) {
        const double p = m_pmf[std::size_t(k - 1)];
        if (p > 0)
            last = k;
        acc += p;
        if (u < acc && p > 0)
            return k;
    }
    return last; // rounding: u landed above the accumulated sum
}

SurvivalFunction TerminationDistribution::survival(double done, double maxEpochs) const
{
    std::vector<SurvivalFunction::Cell> cells;
    if (!(maxEpochs > 0))
        return SurvivalFunction(0, 0, {});
    done = std::clamp(done, 0.0, maxEpochs);
    const double percentDone = done * kPoints / maxEpochs;
    // Conditioning event: stop > e, i.e. stop point >= the first grid point above e.
    int first = int(std::floor(percentDone + 1e-9)) + 1;
    first = std::clamp(first, 1, kPoints);
    double norm = tail(first);
    const bool degenerate = !(norm > 0); // still running beyond the distribution's support
    double from = done;
    for (int k = first; k <= kPoints; ++k) {
        const double to = double(k) * maxEpochs / kPoints;
        if (to <= from)
            continue;
        SurvivalFunction::Cell c;
        c.from = from;
        c.to = to;
        if (degenerate) {
            c.value = 1.0;
            c.stopPmf = k == kPoints ? 1.0 : 0.0;
        } else {
            c.value = tail(k) / norm;
            c.stopPmf = pmf(k) / norm;
        }
        cells.push_back(c);
        from = to;
    }
    return SurvivalFunction(done, maxEpochs, std::move(cells));
}

} // namespace cb
