#pragma once
// S(w) = P(stop >= w | stop > e) over epochs w in [e, E] for a job that has done e of its E
// maximum epochs and is still running. Stop points lie on the 1 %-of-E grid, so S is constant
// on each grid cell (w in ((k-1) E/100, k E/100] needs a stop point >= k); integrals of S are
// therefore exact sums, with no smoothing.

#include <vector>

namespace cb {

class SurvivalFunction
{
public:
    /// One grid cell (from, to] on which S is constant; `stopPmf` is the conditional
    /// probability that the job stops exactly at `to` (the cell's end).
    struct Cell
    {
        double from = 0;
        double to = 0;
        double value = 1;
        double stopPmf = 0;
    };

    SurvivalFunction() = default;
    SurvivalFunction(double doneEpochs, double maxEpochs, std::vector<Cell> cells)
        : m_done(doneEpochs), m_max(maxEpochs), m_cells(std::move(cells))
    {}

    double doneEpochs() const { return m_done; }
    double maxEpochs() const { return m_max; }
    const std::vector<Cell> &cells() const { return m_cells; }

    /// S(w); 1 for w <= e, 0 for w > E.
    double value(double w) const;
    /// Integral of S over [a, b] (clamped to [e, E]; 0 when b <= a).
    double integral(double a, double b) const;

private:
    double m_done = 0;
    double m_max = 0;
    std::vector<Cell> m_cells;
};

} // namespace cb
