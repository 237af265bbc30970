#pragma once
// Accumulates quantities over time intervals into the equal-width buckets of a RunSeries.
// An amount added for [t0, t1] is spread uniformly over the interval, split exactly at
// bucket edges. When a time beyond maxBuckets buckets arrives, neighbouring buckets merge
// and the width doubles, so any run fits in a bounded series without knowing its length.

#include "sim/run_result.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace cb {

class TimeBuckets
{
public:
    TimeBuckets(RunSeries &series, double initialWidth, int maxBuckets, bool pairs);

    void addGpuBusy(double t0, double t1, double gpuSeconds);
    /// Adds scale x bytes for each (link, bytes); `bytes` sorted by link, as are the pairs of
    /// addPairBytes (the buckets are sorted arrays, util/sparse_sums.h).
    void addLinkBytes(double t0, double t1, const std::vector<std::pair<int, double>> &bytes,
                      double scale);
    void addPairBytes(double t0, double t1,
                      const std::vector<std::pair<std::pair<int, int>, double>> &bytes,
                      double scale);
    /// Adds `amount` of cost spread over [t0, t1] (turns the cost series on).
    void addCost(double t0, double t1, double amount);
    /// Adds stranded GPU-seconds spread over [t0, t1] (turns that series on).
    void addStranded(double t0, double t1, double gpuSeconds);
    /// Makes the series cover [0, t] and merges the traffic buckets' pending keys in: the
    /// series is complete, and reading it changes nothing (util/sparse_sums.h).
    void finish(double t);

private:
    std::size_t index(double t) const;
    void ensure(double t);
    void merge();
    template<typename F>
    void spread(double t0, double t1, F &&add);
    /// An optional series (empty until first used) with one value per bucket.
    void addOptional(std::vector<double> &series, double t0, double t1, double amount);

    RunSeries &m_series;
    std::size_t m_max;
    bool m_pairs;
};

} // namespace cb
