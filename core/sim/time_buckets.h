#pragma once
// Accumulates quantities over time intervals into the equal-width buckets of a RunSeries.
// An amount added for [t0, t1] is spread uniformly over the interval, split exactly at
// bucket edges. When a time beyond maxBuckets buckets arrives, neighbouring buckets merge
// and the width doubles, so any run fits in a bounded series without knowing its length.
//
// Link bytes: a replay adds a job's bytes on each of its links to a bucket at every event that
// changes its rate; a search per link in a bucket's sorted array was 15 % of the replay of
// fat-tree-1024's job mix (measured). So once a run has added as many link sums as the
// cluster's links times maxBuckets, and that fits a budget (kDenseLinkBudget), each bucket
// holds one sum per link instead, and finish() turns them back into the series' sorted
// arrays (the links used). Short runs keep the arrays: the dense sums cost a fixed 30 ms on
// a 6,144-link fat-tree, the time of a whole 1,000-job replay there. Each sum receives the
// same additions in the same order either way, so the series is the same to the bit.

#include "sim/run_result.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace cb {

class TimeBuckets
{
public:
    /// `links`: the cluster's directed links (link ids below it), for the dense link sums.
    TimeBuckets(RunSeries &series, double initialWidth, int maxBuckets, bool pairs,
                int links = 0);
    /// Link sums (links x buckets) held densely at most: 4M (32 MB, and 4 MB of flags).
    static constexpr std::size_t kDenseLinkBudget = std::size_t(1) << 22;
    /// Whether link bytes are summed densely now (see above).
    bool denseLinks() const { return m_links > 0; }
    /// Sums link bytes densely from now on (when the cluster's links fit the budget; done by
    /// itself once enough were added): what the buckets hold so far moves over as it is.
    void useDenseLinks();

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
    /// Dense link sums: m_links per bucket (0: the series' sorted arrays are used), bucket
    /// after bucket, and whether each was added to (a link never added to is not in the
    /// series).
    std::size_t m_links = 0;
    std::size_t m_denseLinks = 0;   ///< the cluster's links if they fit the budget, else 0
    std::size_t m_linkSumsAdded = 0; ///< to the sorted arrays, before useDenseLinks()
    std::vector<double> m_dense;
    std::vector<unsigned char> m_used;
};

} // namespace cb
