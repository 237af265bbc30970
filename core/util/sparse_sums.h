#pragma once
// A sparse map from keys to sums, held as one sorted array of (key, value) pairs: 16 bytes
// an entry where a std::map node takes 64 (its tree links and the allocator's rounding), and
// iteration in key order as a std::map gives it. Built for the per-bucket traffic series of a
// run (RunSeries): a bucket's keys (links, node pairs) settle after the first jobs that use
// them, and a run read back appends in key order; new keys in the middle are merged in.
//
// Keys new to the array are held apart (a pending list, in the order they came) and merged
// in once they number a quarter of the array: a long run's buckets keep meeting keys of new
// jobs, and merging each call's few new keys in at once moved the whole array every time (a
// quarter of a replay's time, measured). Every reader merges first; a writer done with the
// sums calls settle(), after which reading changes nothing (so shared reads are safe).

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
        settle();
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
    /// key by key exactly as `(*this)[key] += v * scale * fraction` would, to the bit: the keys
    /// present are added in place (each searched from the previous one's position), the
    /// missing ones go to the pending list, whose additions to a key are summed in the order
    /// they came when it is merged in.
    void addSorted(const std::vector<value_type> &entries, double scale, double fraction)
    {
        auto from = m_entries.begin();
        for (const auto &[key, v] : entries) {
            from = std::lower_bound(from, m_entries.end(), key,
                                    [](const value_type &e, const K &k) { return e.first < k; });
            if (from == m_entries.end() || key < from->first) {
                m_pending.emplace_back(key, v * scale * fraction);
                continue;
            }
            from->second += v * scale * fraction;
            ++from;
        }
        if (m_pending.size() > kPendingFloor + m_entries.size() / 4)
            settle();
    }
    /// Merges the pending keys in (a no-op when there are none).
    void settle() const
    {
        if (m_pending.empty())
            return;
        // Stable: a key's additions stay in the order they came.
        std::stable_sort(m_pending.begin(), m_pending.end(),
                         [](const value_type &a, const value_type &b) { return a.first < b.first; });
        std::vector<value_type> out;
        out.reserve(m_entries.size() + m_pending.size());
        auto a = m_entries.cbegin();
        for (auto p = m_pending.cbegin(); p != m_pending.cend();) {
            while (a != m_entries.cend() && a->first < p->first)
                out.push_back(*a++);
            // (a key pending is not in the array: it was missing whenever it was added)
            double sum = 0.0 + p->second;
            const K key = p->first;
            for (++p; p != m_pending.cend() && !(key < p->first); ++p)
                sum += p->second;
            out.emplace_back(key, sum);
        }
        out.insert(out.end(), a, m_entries.cend());
        m_entries = std::move(out);
        m_pending.clear();
        m_pending.shrink_to_fit();
    }
    /// Adds every entry of `other` (the merge of two buckets).
    void addAll(const SparseSums &other)
    {
        settle();
        other.settle();
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
        settle();
        auto it = std::lower_bound(m_entries.begin(), m_entries.end(), key,
                                   [](const value_type &e, const K &k) { return e.first < k; });
        return it != m_entries.end() && !(key < it->first) ? it : m_entries.end();
    }
    std::size_t count(const K &key) const { return find(key) == end() ? 0 : 1; }
    const_iterator begin() const
    {
        settle();
        return m_entries.begin();
    }
    const_iterator end() const
    {
        settle();
        return m_entries.end();
    }
    std::size_t size() const
    {
        settle();
        return m_entries.size();
    }
    bool empty() const { return m_entries.empty() && m_pending.empty(); }
    void clear()
    {
        m_entries.clear();
        m_pending.clear();
    }
    void shrink_to_fit()
    {
        settle();
        m_entries.shrink_to_fit();
    }
    bool operator==(const SparseSums &other) const
    {
        settle();
        other.settle();
        return m_entries == other.m_entries;
    }

private:
    /// Pending keys merged in once they pass this, or a quarter of the array.
    static constexpr std::size_t kPendingFloor = 64;

    iterator lowerBound(const K &key)
    {
        return std::lower_bound(m_entries.begin(), m_entries.end(), key,
                                [](const value_type &e, const K &k) { return e.first < k; });
    }
    // Mutable: readers merge the pending keys in first (settle()).
    mutable std::vector<value_type> m_entries;
    mutable std::vector<value_type> m_pending;
};

} // namespace cb
