#pragma once
// A sparse map from keys to sums, held as one sorted array of (key, value) pairs: 16 bytes
// an entry where a std::map node takes 64 (its tree links and the allocator's rounding), and
// iteration in key order as a std::map gives it. Built for the per-bucket traffic series of a
// run (RunSeries): a bucket's keys (links, node pairs) settle after the first jobs that use
// them, and a run read back appends in key order; new keys in the middle are merged in.

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

namespace cb {

template<typename K>
class SparseSums
{
public:
    using value_type = std::pair<K, double>;
    using const_iterator = typename std::vector<value_type>::const_iterator;
    using iterator = typename std::vector<value_type>::iterator;

    SparseSums() = default;
    /// From entries sorted by key with distinct keys.
    explicit SparseSums(std::vector<value_type> sorted) : m_entries(std::move(sorted)) {}

    /// The value of `key`, inserted as 0 when absent (a key beyond the last one is appended).
    double &operator[](const K &key)
    {
        if (m_entries.empty() || m_entries.back().first < key) {
            m_entries.emplace_back(key, 0.0);
            return m_entries.back().second;
        }
        auto it = lowerBound(key);
        if (it == m_entries.end() || key < it->first)
            it = m_entries.insert(it, value_type(key, 0.0));
        return it->second;
    }
    /// Adds v x scale x fraction to each (key, v) of `entries` (sorted by key, distinct keys),
    /// key by key exactly as `(*this)[key] += v * scale * fraction` would: the keys present
    /// are added in place (each searched from the previous one's position), then the missing
    /// ones are merged in from the back in one pass, so a call costs O(size + entries)
    /// however many keys are new (inserting them one by one was quadratic: a run's node
    /// pairs keep arriving with its jobs).
    void addSorted(const std::vector<value_type> &entries, double scale, double fraction)
    {
        std::size_t missing = 0;
        auto from = m_entries.begin();
        for (const auto &[key, v] : entries) {
            from = std::lower_bound(from, m_entries.end(), key,
                                    [](const value_type &e, const K &k) { return e.first < k; });
            if (from == m_entries.end() || key < from->first) {
                ++missing;
                continue;
            }
            from->second += v * scale * fraction;
            ++from;
        }
        if (missing == 0)
            return;
        std::size_t i = m_entries.size();
        m_entries.resize(i + missing);
        std::size_t w = m_entries.size();
        for (std::size_t j = entries.size(); j > 0;) {
            const value_type &e = entries[j - 1];
            if (i > 0 && !(m_entries[i - 1].first < e.first)) {
                // Present (added above) or after the entry: it moves up.
                if (!(e.first < m_entries[i - 1].first))
                    --j;
                --w, --i;
                m_entries[w] = std::move(m_entries[i]);
                continue;
            }
            m_entries[--w] = value_type(e.first, 0.0 + e.second * scale * fraction);
            --j;
        }
    }
    /// Adds every entry of `other` (the merge of two buckets).
    void addAll(const SparseSums &other)
    {
        std::vector<value_type> out;
        out.reserve(m_entries.size() + other.m_entries.size());
        auto a = m_entries.cbegin();
        auto b = other.m_entries.cbegin();
        while (a != m_entries.end() || b != other.m_entries.end()) {
            if (b == other.m_entries.end() || (a != m_entries.end() && a->first < b->first))
                out.push_back(*a++);
            else if (a == m_entries.end() || b->first < a->first)
                out.push_back(*b++);
            else {
                out.emplace_back(a->first, a->second + b->second);
                ++a, ++b;
            }
        }
        m_entries = std::move(out);
    }
    const double &at(const K &key) const
    {
        auto it = find(key);
        if (it == end())
            throw std::out_of_range("SparseSums::at");
        return it->second;
    }
    const_iterator find(const K &key) const
    {
        auto it = std::lower_bound(m_entries.begin(), m_entries.end(), key,
                                   [](const value_type &e, const K &k) { return e.first < k; });
        return it != m_entries.end() && !(key < it->first) ? it : m_entries.end();
    }
    std::size_t count(const K &key) const { return find(key) == end() ? 0 : 1; }
    const_iterator begin() const { return m_entries.begin(); }
    const_iterator end() const { return m_entries.end(); }
    std::size_t size() const { return m_entries.size(); }
    bool empty() const { return m_entries.empty(); }
    void clear() { m_entries.clear(); }
    void shrink_to_fit() { m_entries.shrink_to_fit(); }
    bool operator==(const SparseSums &) const = default;

private:
    iterator lowerBound(const K &key)
    {
        return std::lower_bound(m_entries.begin(), m_entries.end(), key,
                                [](const value_type &e, const K &k) { return e.first < k; });
    }
    std::vector<value_type> m_entries;
};

} // namespace cb
