#include "stochastic/greedy_scheduler.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace cb {

std::string GreedyScheduler::name() const
{
    switch (m_variant) {
    case Variant::Greedy: return "G";
    case Variant::RandomGreedy: return "RG";
    case Variant::LocalSearch: return "LS";
    }
    return "?";
}

namespace {

struct Slot
{
    std::size_t time = 0; ///< index into the job's time table
    StsPlacement at;
};

struct Solution
{
    std::vector<std::optional<Slot>> slots; ///< per pass state
    GpuPool pool;
    double cost = 0;
};

class Search
{
public:
    Search(StsPass &pass, const GreedyScheduler::Params &params)
        : m_pass(pass), m_params(params), m_jobs(*pass.jobs)
    {
        for (const StsJobState &s : pass.states) {
            m_ranked.push_back(rankConfigurations(m_jobs[s.job], s.doneEpochs, pass.now,
                                                  *pass.prices));
            m_pressure.push_back(stsPressure(m_jobs[s.job], s.doneEpochs, pass.now));
        }
        m_order.resize(pass.states.size());
        for (std::size_t i = 0; i < m_order.size(); ++i)
            m_order[i] = i;
        std::stable_sort(m_order.begin(), m_order.end(), [&](std::size_t a, std::size_t b) {
            if (m_pressure[a] != m_pressure[b])
                return m_pressure[a] > m_pressure[b];
            const StsJob &ja = job(a), &jb = job(b);
            return std::tie(ja.submitSeconds, ja.id) < std::tie(jb.submitSeconds, jb.id);
        });
    }

    const StsJob &job(std::size_t state) const { return m_jobs[m_pass.states[state].job]; }
    const std::vector<std::size_t> &pressureOrder() const { return m_order; }
    const std::vector<double> &pressure() const { return m_pressure; }

    double remaining(std::size_t state, std::size_t time) const
    {
        return job(state).times[time].remainingSeconds(m_pass.states[state].doneEpochs,
                                                       job(state).maxEpochs);
    }

    /// One greedy pass in `order`; `random` picks among the top alpha share of each ranking.
    Solution greedy(const std::vector<std::size_t> &order, bool random)
    {
        Solution s;
        s.slots.resize(m_pass.states.size());
        s.pool = *m_pass.pool;
        for (std::size_t i : order) {
            std::vector<std::size_t> left = m_ranked[i];
            while (!left.empty()) {
                std::size_t pick = 0;
                if (random) {
                    const auto n = std::size_t(std::lround(double(left.size()) * m_params.alpha));
                    if (n > 1)
                        pick = std::size_t(m_pass.rng->below(n));
                }
                const std::size_t t = left[pick];
                left.erase(left.begin() + std::ptrdiff_t(pick));
                if (auto at = s.pool.place(job(i).times[t].config)) {
                    s.slots[i] = Slot{t, *at};
                    break;
                }
            }
        }
        s.cost = proxy(s);
        return s;
    }

    /// The authors' proxy: GPU cost to the first end, tardiness then, and 100 x weight x
    /// worst-case tardiness of every waiting job.
    double proxy(const Solution &s) const
    {
        double first = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < s.slots.size(); ++i)
            if (s.slots[i])
                first = std::min(first, remaining(i, s.slots[i]->time));
        if (!std::isfinite(first))
            first = 0;
        double cost = 0;
        for (std::size_t i = 0; i < s.slots.size(); ++i) {
            const StsJob &j = job(i);
            if (s.slots[i]) {
                cost += gpuCost(s, i, first);
                cost += j.tardinessWeight * std::max(0.0, m_pass.now + first - j.dueSeconds);
            } else {
                const double worst = j.maxRemainingSeconds(m_pass.states[i].doneEpochs);
                cost += 100 * j.tardinessWeight *
                        std::max(0.0, m_pass.now + worst - j.dueSeconds);
            }
        }
        return cost;
    }

    double gpuCost(const Solution &s, std::size_t i, double seconds) const
    {
        const StsConfig &c = job(i).times[s.slots[i]->time].config;
        const int busy = std::max(1, s.pool.busyGpus(s.slots[i]->at.node));
        const double share = (c.shared() ? 1.0 : double(c.gpus)) / busy * c.fraction;
        return seconds / 3600 * m_pass.prices->ratePerHour(c.gpuType, busy) * share;
    }

    void randomSwap(std::vector<std::size_t> &order)
    {
        for (std::size_t k = 0; k + 1 < order.size(); ++k) {
            const double w1 = job(order[k]).tardinessWeight, w2 = job(order[k + 1]).tardinessWeight;
            const double p = w1 > w2 ? 0.5 + m_params.swapBias : 0.5 - m_params.swapBias;
            if (m_pass.rng->uniform() < p)
                std::swap(order[k], order[k + 1]);
        }
    }

    /// Moves job a to b's resources and b to a's (b may be waiting: then a takes b's GPUs
    /// and b waits). Nothing when a configuration is missing or shared.
    std::optional<Solution> swapped(const Solution &s, std::size_t a, std::size_t b) const
    {
        if (!s.slots[b])
            return std::nullopt;
        const StsConfig &confB = job(b).times[s.slots[b]->time].config;
        if (confB.shared())
            return std::nullopt;
        const auto ta = findWhole(a, confB.gpuType, confB.gpus);
        if (!ta)
            return std::nullopt;
        Solution n = s;
        std::optional<std::size_t> tb;
        if (s.slots[a]) {
            const StsConfig &confA = job(a).times[s.slots[a]->time].config;
            if (confA.shared())
                return std::nullopt;
            tb = findWhole(b, confA.gpuType, confA.gpus);
            if (!tb)
                return std::nullopt;
            n.pool.release(confA, s.slots[a]->at);
        }
        n.pool.release(confB, s.slots[b]->at);
        if (!n.pool.reserve(job(a).times[*ta].config, s.slots[b]->at))
            return std::nullopt;
        n.slots[a] = Slot{*ta, s.slots[b]->at};
        if (s.slots[a]) {
            if (!n.pool.reserve(job(b).times[*tb].config, s.slots[a]->at))
                return std::nullopt;
            n.slots[b] = Slot{*tb, s.slots[a]->at};
        } else {
            n.slots[b].reset();
        }
        n.cost = proxy(n);
        return n;
    }

    std::optional<std::size_t> findWhole(std::size_t state, const std::string &type,
                                         int gpus) const
    {
        const StsJob &j = job(state);
        for (std::size_t t = 0; t < j.times.size(); ++t)
            if (j.times[t].config == StsConfig{type, gpus, 1.0})
                return t;
        return std::nullopt;
    }

    /// The best of the three neighbourhoods of `s`, if any improves on it.
    std::optional<Solution> bestNeighbour(const Solution &s) const
    {
        std::optional<Solution> best;
        auto consider = [&](std::optional<Solution> n) {
            if (n && n->cost < (best ? best->cost : s.cost))
                best = std::move(n);
        };
        double first = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < s.slots.size(); ++i)
            if (s.slots[i])
                first = std::min(first, remaining(i, s.slots[i]->time));
        std::vector<std::pair<double, std::size_t>> tardy, expensive;
        std::set<std::size_t> nodesUsed;
        for (std::size_t i = 0; i < s.slots.size(); ++i) {
            if (!s.slots[i])
                continue;
            nodesUsed.insert(s.slots[i]->at.node);
            const double late = std::max(0.0, m_pass.now + first - job(i).dueSeconds);
            if (late > 0)
                tardy.emplace_back(-late, i);
            else
                expensive.emplace_back(-gpuCost(s, i, first), i);
        }
        std::sort(tardy.begin(), tardy.end());
        std::sort(expensive.begin(), expensive.end());
        const auto top = std::size_t(std::max(0, m_params.localSearchTop));
        tardy.resize(std::min(tardy.size(), top));
        expensive.resize(std::min(expensive.size(), top));

        // Third: a postponed job takes the GPUs of a running job of no higher pressure.
        for (std::size_t a : m_order) {
            if (s.slots[a])
                continue;
            for (auto it = m_order.rbegin(); it != m_order.rend(); ++it)
                if (*it != a && s.slots[*it] && m_pressure[a] >= m_pressure[*it])
                    consider(swapped(s, a, *it));
        }
        if (!tardy.empty() && nodesUsed.size() >= 2) {
            // First: tardy against expensive, on different nodes with different configurations.
            for (const auto &[l, a] : tardy)
                for (const auto &[c, b] : expensive) {
                    const StsConfig &confA = job(a).times[s.slots[a]->time].config;
                    const StsConfig &confB = job(b).times[s.slots[b]->time].config;
                    if (s.slots[a]->at.node != s.slots[b]->at.node &&
                        (confA.gpuType != confB.gpuType || confA.gpus != confB.gpus))
                        consider(swapped(s, a, b));
                }
            // Second: tardy against anything running elsewhere, lowest pressure first.
            for (const auto &[l, a] : tardy)
                for (auto it = m_order.rbegin(); it != m_order.rend(); ++it)
                    if (*it != a && s.slots[*it] &&
                        s.slots[*it]->at.node != s.slots[a]->at.node)
                        consider(swapped(s, a, *it));
        }
        return best;
    }

private:
    StsPass &m_pass;
    const GreedyScheduler::Params &m_params;
    const std::vector<StsJob> &m_jobs;
    std::vector<std::vector<std::size_t>> m_ranked;
    std::vector<double> m_pressure;
    std::vector<std::size_t> m_order;
};

void addElite(std::vector<Solution> &elite, Solution s, std::size_t size)
{
    auto pos = std::upper_bound(elite.begin(), elite.end(), s.cost,
                                [](double c, const Solution &e) { return c < e.cost; });
    if (!elite.empty() && pos == elite.end())
        return; // no better than the worst elite
    elite.insert(pos, std::move(s));
    if (elite.size() > size)
        elite.pop_back();
}

} // namespace

std::vector<StsAssignment> GreedyScheduler::schedule(StsPass &pass)
{
    Search search(pass, m_params);
    const std::size_t eliteSize = std::size_t(std::max(1, m_params.eliteSize));
    std::vector<Solution> elite;
    addElite(elite, search.greedy(search.pressureOrder(), false), eliteSize);

    if (m_variant != Variant::Greedy && !pass.states.empty()) {
        std::set<std::string> types;
        for (const auto &n : pass.pool->nodes())
            types.insert(n.gpuType);
        const long long cap =
            (long long)(pass.pool->nodes().size() * pass.states.size() * types.size());
        const long long iterations = std::min<long long>(m_params.randomIterations, cap);
        for (long long it = 1; it < iterations; ++it) {
            std::vector<std::size_t> order = search.pressureOrder();
            search.randomSwap(order);
            addElite(elite, search.greedy(order, true), eliteSize);
        }
    }
    if (m_variant == Variant::LocalSearch) {
        for (int it = 0; it < m_params.localSearchIterations && elite.size() > 1; ++it) {
            std::vector<Solution> next;
            next.push_back(elite.front());
            for (const Solution &s : elite)
                if (auto n = search.bestNeighbour(s))
                    addElite(next, std::move(*n), elite.size());
            elite = std::move(next);
        }
    }

    const Solution &best = elite.front();
    std::vector<StsAssignment> out;
    for (std::size_t i : search.pressureOrder()) {
        const StsJobState &state = pass.states[i];
        StsJobDecision decision;
        decision.job = search.job(i).id;
        decision.pressure = search.pressure()[i];
        decision.doneEpochs = state.doneEpochs;
        decision.reason = "waits";
        if (best.slots[i]) {
            const StsConfig &c = search.job(i).times[best.slots[i]->time].config;
            StsAssignment a;
            a.job = state.job;
            a.config = c;
            a.at = best.slots[i]->at;
            out.push_back(a);
            decision.chosen = c.toString();
            decision.node = pass.pool->describe(a.at);
            decision.sharedGpu = a.at.sharedGpu;
            decision.reason = "best schedule under the proxy cost";
        }
        if (pass.log)
            pass.log->jobs.push_back(std::move(decision));
    }
    // The pass's pool now holds the chosen schedule.
    *pass.pool = best.pool;
    return out;
}

} // namespace cb
