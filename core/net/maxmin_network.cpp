#include "net/maxmin_network.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <tuple>

namespace cb {

namespace {

/// A candidate bottleneck: a link (kind 0) at its fair share or a capped flow (kind 1).
struct Candidate
{
    double share;
    int kind;
    int id;
    bool operator>(const Candidate &o) const
    {
        return std::tie(share, kind, id) > std::tie(o.share, o.kind, o.id);
    }
};

} // namespace

MaxMinNetwork::MaxMinNetwork(std::vector<double> linkCapacity)
    : m_capacity(std::move(linkCapacity))
{
    const std::size_t n = m_capacity.size();
    for (double &c : m_capacity)
        c = std::max(0.0, c);
    m_linkFlows.resize(n);
    m_linkMark.assign(n, 0);
    m_remaining.assign(n, 0.0);
    m_unfrozen.assign(n, 0);
    m_heapKey.assign(n, 0.0);
    m_active.assign(n, 1);
    m_load.assign(n, 0.0);
    m_hist.resize(n);
    m_keepPrefix.assign(n, 0);
    m_histValid.assign(n, 0);
}

namespace {

/// A left-out link is taken back in at (1 - kTakeIn) of its capacity (far enough from full
/// that rounding in progressive filling, about 1e-16 per step, cannot matter) and left out
/// again only below (1 - kLeaveOut). Links between 70 % and full stay in: a change that
/// speeds flows up would often fill them again, and taking a link back in costs a second fill
/// of the whole component (measured on uniform traffic at 10,000 flows: a one-job change
/// re-solved in 6.4 ms with 1e-6, 4.3 ms with 0.3, where it mostly needs one fill).
constexpr double kTakeIn = 1e-9;
constexpr double kLeaveOut = 0.3;
/// A link's running load (m_load, summed as rates change) can drift from the sum of its
/// flows' rates by rounding; below (1 - kLoadDrift) of capacity it is surely under the
/// take-in mark without recounting.
constexpr double kLoadDrift = 1e-6;
/// The level below which a change cannot reach is taken this much (relative) lower than
/// computed, far more than the rounding of the old rates it is computed from.
constexpr double kLevelMargin = 1e-9;
/// Two rates this close (relative) might be frozen in either order by rounding in a fill.
constexpr double kNearTie = 1e-12;

} // namespace

bool MaxMinNetwork::alive(int flow) const
{
    return flow >= 0 && std::size_t(flow) < m_flows.size() && m_flows[std::size_t(flow)].alive;
}

int MaxMinNetwork::activeLinkCount() const
{
    return int(std::count(m_active.begin(), m_active.end(), std::uint8_t(1)));
}

int MaxMinNetwork::addFlow(const std::vector<int> &route, double capacityCap)
{
    int id;
    if (!m_freeIds.empty()) {
        id = m_freeIds.back();
        m_freeIds.pop_back();
    } else {
        id = int(m_flows.size());
        m_flows.emplace_back();
        m_flowMark.push_back(0);
        m_frozen.push_back(0);
        m_oldRate.push_back(0.0);
        m_touchMark.push_back(0);
    }
    Flow &f = m_flows[std::size_t(id)];
    f.route = route;
    f.slot.resize(route.size());
    f.cap = capacityCap < 0 ? 0.0 : capacityCap;
    f.rate = 0;
    f.alive = true;
    f.fresh = true;
    for (std::size_t k = 0; k < route.size(); ++k) {
        auto &list = m_linkFlows[std::size_t(route[k])];
        f.slot[k] = int(list.size());
        list.push_back(id);
    }
    ++m_liveFlows;
    m_dirtyFlows.push_back(id);
    return id;
}

void MaxMinNetwork::removeFlow(int flow)
{
    if (!alive(flow))
        return;
    Flow &f = m_flows[std::size_t(flow)];
    for (std::size_t k = 0; k < f.route.size(); ++k) {
        const int link = f.route[k];
        auto &list = m_linkFlows[std::size_t(link)];
        const int pos = f.slot[k];
        const int moved = list.back();
        list[std::size_t(pos)] = moved;
        list.pop_back();
        if (moved != flow) {
            Flow &m = m_flows[std::size_t(moved)];
            for (std::size_t j = 0; j < m.route.size(); ++j)
                if (m.route[j] == link) {
                    m.slot[j] = pos;
                    break;
                }
        }
        m_load[std::size_t(link)] -= f.rate;
        if (!std::isfinite(m_load[std::size_t(link)]) || list.empty())
            m_load[std::size_t(link)] = list.empty() ? 0.0 : kUnlimited; // recount when checked
        // A left-out link only gets more room: nothing to re-solve there.
        if (m_active[std::size_t(link)]) {
            m_dirtyLinks.push_back(link);
            m_removedOn.emplace_back(link, f.fresh ? 0.0 : f.rate);
        }
    }
    f.alive = false;
    f.fresh = false;
    f.route.clear();
    f.slot.clear();
    f.rate = 0;
    --m_liveFlows;
    m_freeIds.push_back(flow);
}

double MaxMinNetwork::load(int link) const
{
    double sum = 0;
    for (int f : m_linkFlows[std::size_t(link)])
        sum += m_flows[std::size_t(f)].rate;
    return sum;
}

void MaxMinNetwork::addToComponent(int f, bool all, std::vector<int> &stack)
{
    m_flowMark[std::size_t(f)] = m_epoch;
    m_compFlows.push_back(f);
    const Flow &flow = m_flows[std::size_t(f)];
    bool any = all;
    for (int l : flow.route)
        any = any || m_active[std::size_t(l)];
    if (!any && !flow.route.empty() && !(flow.cap < kUnlimited)) {
        // Nothing would limit it: one of its links is a bottleneck for sure.
        for (int l : flow.route)
            m_active[std::size_t(l)] = 1;
    }
    for (int l : flow.route)
        if ((all || m_active[std::size_t(l)]) && m_linkMark[std::size_t(l)] != m_epoch) {
            m_linkMark[std::size_t(l)] = m_epoch;
            stack.push_back(l);
        }
}

void MaxMinNetwork::collect(const std::vector<int> &seedLinks, const std::vector<int> &seedFlows,
                            bool all, double above)
{
    ++m_epoch;
    m_compFlows.clear();
    m_compLinks.clear();
    std::vector<int> &stack = m_stack;
    stack.clear();
    for (int l : seedLinks)
        if ((all || m_active[std::size_t(l)]) && m_linkMark[std::size_t(l)] != m_epoch) {
            m_linkMark[std::size_t(l)] = m_epoch;
            stack.push_back(l);
        }
    for (int f : seedFlows)
        if (alive(f) && m_flowMark[std::size_t(f)] != m_epoch)
            addToComponent(f, all, stack);
    while (!stack.empty()) {
        const int l = stack.back();
        stack.pop_back();
        m_compLinks.push_back(l);
        for (int f : m_linkFlows[std::size_t(l)])
            if (m_flowMark[std::size_t(f)] != m_epoch &&
                (above <= 0 || isNew(m_flows[std::size_t(f)]) ||
                 m_flows[std::size_t(f)].rate >= above))
                addToComponent(f, all, stack);
    }
}

void MaxMinNetwork::fill(bool all, double keepBelow)
{
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
    const bool partial = keepBelow > 0;
    for (int f : m_compFlows) {
        Flow &flow = m_flows[std::size_t(f)];
        if (partial && !isNew(flow) && flow.rate < keepBelow) {
            m_frozen[std::size_t(f)] = 1; // frozen below the change: keeps its rate
            ++m_stats.flowsKept;
            continue;
        }
        if (m_touchMark[std::size_t(f)] != m_solveEpoch) {
            m_touchMark[std::size_t(f)] = m_solveEpoch;
            m_oldRate[std::size_t(f)] = flow.rate;
            m_touched.push_back(f);
        }
        m_frozen[std::size_t(f)] = 0;
        if (flow.cap < kUnlimited)
            heap.push({flow.cap, 1, f});
        else if (flow.route.empty()) {
            flow.rate = kUnlimited;
            m_frozen[std::size_t(f)] = 1;
        }
    }
    for (int l : m_compLinks) {
        const auto i = std::size_t(l);
        // Resume from the last fill's history below keepBelow: historiesUsable(keepBelow),
        // run on this component, checked that the kept flows are a prefix of every history
        // and set its length (m_keepPrefix).
        std::vector<HistoryEntry> &h = m_hist[i];
        const std::size_t k = partial ? m_keepPrefix[i] : 0;
        h.resize(k);
        m_histValid[i] = 1;
        m_remaining[i] = k > 0 ? h[k - 1].remaining : m_capacity[i];
        m_unfrozen[i] = int(m_linkFlows[i].size()) - int(k);
        if (m_unfrozen[i] > 0) {
            m_heapKey[i] = m_remaining[i] / m_unfrozen[i];
            heap.push({m_heapKey[i], 0, l});
        }
    }
    // A link's share (remaining / unfrozen) does not fall when one of its flows freezes at
    // the water level, which is at most that share, except by rounding. So the heap keeps one
    // entry per link, keyed at most at the link's share (m_heapKey): a freeze pushes only when
    // the share fell below the key, and an entry popped below the link's share goes back in at
    // the share. Links are taken in the same order, at the same shares, as with an entry per
    // change, with about one push per link instead of one per freeze.
    auto freeze = [&](int f, double r) {
        Flow &flow = m_flows[std::size_t(f)];
        const double delta = r - flow.rate;
        flow.rate = r;
        m_frozen[std::size_t(f)] = 1;
        for (int l : flow.route) {
            const auto i = std::size_t(l);
            double &load = m_load[i]; // kept on left-out links too (staysSlack reads it)
            load += delta;
            if (!std::isfinite(load))
                load = kUnlimited; // recounted when checked
            if (!all && !m_active[i])
                continue;
            m_remaining[i] = std::max(0.0, m_remaining[i] - r);
            m_hist[i].push_back({r, m_remaining[i]});
            if (--m_unfrozen[i] > 0) {
                const double share = m_remaining[i] / m_unfrozen[i];
                if (share < m_heapKey[i]) {
                    m_heapKey[i] = share;
                    heap.push({share, 0, l});
                }
            }
        }
    };
    while (!heap.empty()) {
        const Candidate c = heap.top();
        heap.pop();
        if (c.kind == 1) {
            if (!m_frozen[std::size_t(c.id)])
                freeze(c.id, c.share);
            continue;
        }
        const auto i = std::size_t(c.id);
        if (m_unfrozen[i] <= 0 || c.share != m_heapKey[i])
            continue; // stale: a lower entry for this link went in after it
        const double share = m_remaining[i] / m_unfrozen[i];
        if (share != c.share) {
            m_heapKey[i] = share; // risen since it went in: back in at its share
            heap.push({share, 0, c.id});
            continue;
        }
        // Copy: freezing pushes entries but never changes the link's flow list.
        for (int f : m_linkFlows[i])
            if (!m_frozen[std::size_t(f)])
                freeze(f, c.share);
    }
}

bool MaxMinNetwork::staysSlack(int link)
{
    const auto i = std::size_t(link);
    const double cap = m_capacity[i];
    if (m_load[i] < cap * (1 - kLoadDrift))
        return true;
    double sum = 0;
    for (int f : m_linkFlows[i])
        sum += m_flows[std::size_t(f)].rate;
    m_load[i] = std::isfinite(sum) ? sum : kUnlimited;
    return sum < cap * (1 - kTakeIn);
}

void MaxMinNetwork::beginSolve()
{
    ++m_solveEpoch;
    if (m_solveEpoch == 0) { // wrapped: forget every mark
        std::fill(m_touchMark.begin(), m_touchMark.end(), 0u);
        m_solveEpoch = 1;
    }
    m_touched.clear();
}

void MaxMinNetwork::listChanged()
{
    m_changed.clear();
    for (int f : m_touched) {
        Flow &flow = m_flows[std::size_t(f)];
        if (!flow.alive)
            continue;
        if (flow.fresh || flow.rate != m_oldRate[std::size_t(f)])
            m_changed.push_back(f);
        flow.fresh = false;
    }
    std::sort(m_changed.begin(), m_changed.end());
}

double MaxMinNetwork::saturationLevel(int link)
{
    const auto i = std::size_t(link);
    std::vector<double> &v = m_scratch;
    v.clear();
    int grow = 0;
    for (int f : m_linkFlows[i]) {
        const Flow &flow = m_flows[std::size_t(f)];
        if (isNew(flow))
            ++grow;
        else
            v.push_back(flow.rate);
    }
    for (const auto &[l, r] : m_removedOn)
        if (l == link)
            v.push_back(r);
    std::sort(v.begin(), v.end());
    // The load at water level t is sum(min(rate, t)) over the old flows + t per new flow.
    double below = 0;
    for (std::size_t k = 0;; ++k) {
        const std::size_t growing = v.size() - k + std::size_t(grow);
        if (growing == 0)
            return kUnlimited; // every flow stops below: the link never saturates
        const double t = (m_capacity[i] - below) / double(growing);
        if (k == v.size() || t <= v[k])
            return t;
        below += v[k];
    }
}

double MaxMinNetwork::unaffectedLevel(const std::vector<int> &newFlows)
{
    double level = kUnlimited;
    ++m_epoch; // marks the changed links
    std::vector<int> changed;
    auto mark = [&](int l) {
        if (m_linkMark[std::size_t(l)] != m_epoch) {
            m_linkMark[std::size_t(l)] = m_epoch;
            changed.push_back(l);
        }
    };
    for (const auto &[l, r] : m_removedOn) {
        level = std::min(level, r); // its history entries must stay above the kept prefix
        mark(l);
    }
    for (int f : newFlows) {
        if (!alive(f))
            continue;
        const Flow &flow = m_flows[std::size_t(f)];
        level = std::min(level, flow.cap);
        bool any = false;
        for (int l : flow.route)
            if (m_active[std::size_t(l)]) {
                mark(l);
                any = true;
            }
        if (!any && !flow.route.empty())
            return 0; // its links are taken in without a history
    }
    for (int l : changed)
        level = std::min(level, saturationLevel(l));
    if (!(level > 0) || std::isinf(level))
        return 0;
    return level * (1 - kLevelMargin);
}

double MaxMinNetwork::takenInLevel(const std::vector<int> &links)
{
    // The rates now are the fill's without these links. A fill with them is the same up to
    // the level at which the first of them saturates (until then they freeze no flow), so
    // flows below it keep their rates, and each of these links stands where the flows below
    // it leave it: its history is its flows in the order a fill freezes them, by rate (equal
    // rates subtract alike in any order). Rates a rounding apart could be frozen in either
    // order: then no bound (0).
    double level = kUnlimited;
    std::vector<double> rates;
    for (int l : links) {
        const auto i = std::size_t(l);
        rates.clear();
        for (int f : m_linkFlows[i])
            rates.push_back(m_flows[std::size_t(f)].rate);
        std::sort(rates.begin(), rates.end());
        std::vector<HistoryEntry> &h = m_hist[i];
        h.clear();
        double remaining = m_capacity[i];
        for (std::size_t k = 0; k < rates.size(); ++k) {
            const double r = rates[k];
            if (!std::isfinite(r))
                return 0;
            if (k > 0 && r != rates[k - 1] && r - rates[k - 1] <= kNearTie * r)
                return 0;
            remaining = std::max(0.0, remaining - r);
            h.push_back({r, remaining});
        }
        m_histValid[i] = 1;
        level = std::min(level, saturationLevel(l));
    }
    if (!(level > 0) || std::isinf(level))
        return 0;
    return level * (1 - kLevelMargin);
}

bool MaxMinNetwork::historiesUsable(double level)
{
    // Every link must have the history of the current rates, with the flows below the level
    // first (a full fill would have frozen them before any other).
    for (int l : m_compLinks) {
        const auto i = std::size_t(l);
        if (!m_histValid[i])
            return false;
        const std::vector<HistoryEntry> &h = m_hist[i];
        std::size_t k = 0;
        while (k < h.size() && h[k].rate < level)
            ++k;
        m_keepPrefix[i] = std::uint32_t(k);
        for (std::size_t j = k; j < h.size(); ++j)
            if (h[j].rate < level)
                return false;
    }
    return true;
}

int MaxMinNetwork::solve()
{
    if (m_dirtyLinks.empty() && m_dirtyFlows.empty()) {
        m_changed.clear();
        return 0;
    }
    beginSolve();
    ++m_stats.solves;
    std::vector<int> seedLinks = std::move(m_dirtyLinks), seedFlows = std::move(m_dirtyFlows);
    m_dirtyLinks.clear();
    m_dirtyFlows.clear();
    m_newFlowsGrow = true;
    for (;;) {
        // The first round keeps the flows below the lowest level the change can reach and
        // collects only the flows above it that the change connects to (the others keep
        // their rates too: above that level they evolve as they did). A round after links
        // were taken in does the same from the level at which the first of them saturates;
        // the new flows have their rates by then and count as old ones.
        double level = m_newFlowsGrow ? unaffectedLevel(seedFlows) : takenInLevel(seedLinks);
        if (m_newFlowsGrow)
            m_removedOn.clear(); // (read by unaffectedLevel only)
        collect(seedLinks, seedFlows, false, level);
        if (level > 0 && !historiesUsable(level)) {
            level = 0;
            collect(seedLinks, seedFlows, false, 0);
        }
        ++m_stats.rounds;
        if (!m_newFlowsGrow) {
            ++m_stats.laterRounds;
            m_stats.laterRoundsAboveZero += level > 0 ? 1 : 0;
        }
        fill(false, level);
        // Every left-out link these flows cross must still have room; the ones that do not
        // are taken in and the (now larger) component is filled again. Only flows that are
        // new or got faster can load a left-out link more.
        seedLinks.clear();
        seedFlows.clear();
        ++m_epoch; // marks the links checked in this round
        for (int f : m_touched) {
            const Flow &flow = m_flows[std::size_t(f)];
            if (!flow.alive || (!flow.fresh && !(flow.rate > m_oldRate[std::size_t(f)])))
                continue;
            for (int l : flow.route) {
                const auto i = std::size_t(l);
                if (m_active[i] || m_linkMark[i] == m_epoch)
                    continue;
                m_linkMark[i] = m_epoch;
                if (!staysSlack(l)) {
                    m_active[i] = 1;
                    seedLinks.push_back(l);
                }
            }
        }
        if (seedLinks.empty())
            break;
        m_newFlowsGrow = false;
    }
    m_newFlowsGrow = true;
    // Links of this component with room to spare are left out from now on.
    for (int l : m_compLinks) {
        const auto i = std::size_t(l);
        if (m_remaining[i] > kLeaveOut * m_capacity[i] && m_unfrozen[i] <= 0) {
            m_active[i] = 0;
            m_histValid[i] = 0;
        }
    }
    listChanged();
    return int(m_touched.size()); // the flows kept below the change are not counted
}

void MaxMinNetwork::solveAll()
{
    beginSolve();
    std::vector<int> links(m_capacity.size()), flows;
    for (std::size_t l = 0; l < links.size(); ++l)
        links[l] = int(l);
    for (std::size_t f = 0; f < m_flows.size(); ++f)
        if (m_flows[f].alive)
            flows.push_back(int(f));
    collect(links, flows, true);
    m_dirtyLinks.clear();
    m_dirtyFlows.clear();
    m_removedOn.clear();
    fill(true, 0);
    std::fill(m_active.begin(), m_active.end(), std::uint8_t(1));
    for (std::size_t l = 0; l < m_capacity.size(); ++l)
        m_load[l] = load(int(l));
    listChanged();
}

} // namespace cb
