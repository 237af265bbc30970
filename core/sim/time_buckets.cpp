#include "sim/time_buckets.h"

#include <algorithm>
#include <cmath>

namespace cb {

TimeBuckets::TimeBuckets(RunSeries &series, double initialWidth, int maxBuckets, bool pairs,
                         int links)
    : m_series(series), m_max(std::size_t(std::max(2, maxBuckets))), m_pairs(pairs)
{
    if (links > 0 && std::size_t(links) * m_max <= kDenseLinkBudget)
        m_denseLinks = std::size_t(links);
    m_series.bucketSeconds = initialWidth > 0 ? initialWidth : 60;
    m_series.gpuBusySeconds.clear();
    m_series.linkBytes.clear();
    m_series.pairBytes.clear();
    m_series.cost.clear();
    m_series.strandedGpuSeconds.clear();
}

std::size_t TimeBuckets::index(double t) const
{
    return std::size_t(std::max(0.0, std::floor(t / m_series.bucketSeconds)));
}

void TimeBuckets::merge()
{
    RunSeries &s = m_series;
    const std::size_t n = (s.gpuBusySeconds.size() + 1) / 2;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t a = 2 * i, b = 2 * i + 1;
        const bool hasB = b < s.gpuBusySeconds.size();
        s.gpuBusySeconds[i] = s.gpuBusySeconds[a] + (hasB ? s.gpuBusySeconds[b] : 0.0);
        if (denseLinks()) {
            // As SparseSums::addAll: a link used in both buckets is the sum, else its one
            // value. In place: bucket i is written after buckets 2i and 2i + 1 are read.
            const std::size_t L = m_links;
            for (std::size_t l = 0; l < L; ++l) {
                const bool usedA = m_used[a * L + l], usedB = hasB && m_used[b * L + l];
                const double sumA = m_dense[a * L + l], sumB = hasB ? m_dense[b * L + l] : 0.0;
                m_dense[i * L + l] = usedA && usedB ? sumA + sumB : usedA ? sumA : sumB;
                m_used[i * L + l] = usedA || usedB;
            }
        } else {
            SparseSums<int> links = std::move(s.linkBytes[a]);
            if (hasB)
                links.addAll(s.linkBytes[b]);
            s.linkBytes[i] = std::move(links);
        }
        if (m_pairs) {
            SparseSums<std::pair<int, int>> pairs = std::move(s.pairBytes[a]);
            if (hasB)
                pairs.addAll(s.pairBytes[b]);
            s.pairBytes[i] = std::move(pairs);
        }
    }
    for (std::vector<double> *v : {&s.cost, &s.strandedGpuSeconds}) {
        if (v->empty())
            continue;
        for (std::size_t i = 0; i < n; ++i)
            (*v)[i] = (*v)[2 * i] + (2 * i + 1 < v->size() ? (*v)[2 * i + 1] : 0.0);
        v->resize(n);
    }
    // (the optional series, when on, have as many buckets as gpuBusySeconds)
    s.gpuBusySeconds.resize(n);
    s.linkBytes.resize(n);
    if (denseLinks()) {
        // (the capacity stays: later buckets reuse it)
        m_dense.resize(n * m_links);
        m_used.resize(n * m_links);
    }
    if (m_pairs)
        s.pairBytes.resize(n);
    s.bucketSeconds *= 2;
}

void TimeBuckets::ensure(double t)
{
    while (index(t) >= m_max)
        merge();
    const std::size_t need = index(t) + 1;
    if (m_series.gpuBusySeconds.size() < need) {
        m_series.gpuBusySeconds.resize(need, 0.0);
        m_series.linkBytes.resize(need);
        if (denseLinks()) {
            m_dense.resize(need * m_links, 0.0);
            m_used.resize(need * m_links, 0);
        }
        if (m_pairs)
            m_series.pairBytes.resize(need);
        if (!m_series.cost.empty())
            m_series.cost.resize(need, 0.0);
        if (!m_series.strandedGpuSeconds.empty())
            m_series.strandedGpuSeconds.resize(need, 0.0);
    }
}

void TimeBuckets::useDenseLinks()
{
    if (denseLinks() || m_denseLinks == 0)
        return;
    m_links = m_denseLinks;
    const std::size_t buckets = m_series.linkBytes.size();
    // (room for every bucket: growing never moves the sums)
    m_dense.reserve(m_max * m_links);
    m_used.reserve(m_max * m_links);
    m_dense.assign(buckets * m_links, 0.0);
    m_used.assign(buckets * m_links, 0);
    for (std::size_t b = 0; b < buckets; ++b) {
        // (a key's pending additions are summed as they would have been in the array)
        for (const auto &[l, sum] : m_series.linkBytes[b]) {
            m_dense[b * m_links + std::size_t(l)] = sum;
            m_used[b * m_links + std::size_t(l)] = 1;
        }
        m_series.linkBytes[b] = {};
    }
}

void TimeBuckets::finish(double t)
{
    ensure(t);
    if (denseLinks()) {
        for (std::size_t b = 0; b < m_series.linkBytes.size(); ++b) {
            std::vector<std::pair<int, double>> sorted;
            for (std::size_t l = 0; l < m_links; ++l)
                if (m_used[b * m_links + l])
                    sorted.emplace_back(int(l), m_dense[b * m_links + l]);
            m_series.linkBytes[b] = SparseSums<int>(std::move(sorted));
        }
        m_dense = {};
        m_used = {};
        m_links = m_denseLinks = 0; // (finished: anything added later goes to the arrays)
    }
    for (const SparseSums<int> &b : m_series.linkBytes)
        b.settle();
    for (const SparseSums<std::pair<int, int>> &b : m_series.pairBytes)
        b.settle();
}

template<typename F>
void TimeBuckets::spread(double t0, double t1, F &&add)
{
    ensure(t1);
    const double w = m_series.bucketSeconds;
    if (!(t1 > t0)) {
        add(index(t0), 1.0);
        return;
    }
    const std::size_t first = index(t0);
    const std::size_t last = std::min(index(t1), m_series.gpuBusySeconds.size() - 1);
    for (std::size_t b = first; b <= last; ++b) {
        const double lo = std::max(t0, double(b) * w), hi = std::min(t1, double(b + 1) * w);
        if (hi > lo)
            add(b, (hi - lo) / (t1 - t0));
    }
}

void TimeBuckets::addGpuBusy(double t0, double t1, double gpuSeconds)
{
    if (gpuSeconds == 0)
        return;
    spread(t0, t1, [&](std::size_t b, double f) { m_series.gpuBusySeconds[b] += gpuSeconds * f; });
}

void TimeBuckets::addLinkBytes(double t0, double t1,
                               const std::vector<std::pair<int, double>> &bytes, double scale)
{
    if (bytes.empty() || scale == 0)
        return;
    if (denseLinks()) {
        spread(t0, t1, [&](std::size_t b, double f) {
            double *sums = m_dense.data() + b * m_links;
            unsigned char *used = m_used.data() + b * m_links;
            // (v x scale x fraction added to a sum that starts at 0: as addSorted)
            for (const auto &[l, v] : bytes) {
                sums[l] += v * scale * f;
                used[l] = 1;
            }
        });
        return;
    }
    spread(t0, t1, [&](std::size_t b, double f) {
        m_series.linkBytes[b].addSorted(bytes, scale, f);
        m_linkSumsAdded += bytes.size();
    });
    if (m_denseLinks > 0 && m_linkSumsAdded > m_max * m_denseLinks)
        useDenseLinks();
}

void TimeBuckets::addPairBytes(double t0, double t1,
                               const std::vector<std::pair<std::pair<int, int>, double>> &bytes,
                               double scale)
{
    if (!m_pairs || bytes.empty() || scale == 0)
        return;
    spread(t0, t1, [&](std::size_t b, double f) {
        m_series.pairBytes[b].addSorted(bytes, scale, f);
    });
}

void TimeBuckets::addOptional(std::vector<double> &series, double t0, double t1, double amount)
{
    ensure(t1);
    // Once on, the series has one value per bucket like the others.
    if (series.size() < m_series.gpuBusySeconds.size())
        series.resize(m_series.gpuBusySeconds.size(), 0.0);
    spread(t0, t1, [&](std::size_t b, double f) { series[b] += amount * f; });
}

void TimeBuckets::addCost(double t0, double t1, double amount)
{
    addOptional(m_series.cost, t0, t1, amount);
}

void TimeBuckets::addStranded(double t0, double t1, double gpuSeconds)
{
    if (gpuSeconds > 0)
        addOptional(m_series.strandedGpuSeconds, t0, t1, gpuSeconds);
}

} // namespace cb
