#include "net/maxmin_network.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <cmath>
#include <tuple>

namespace cb {

/// The fill's priority queue of candidates (by share, then kind, then id), kept in vectors
/// of the network's that outlive each fill, so a fill allocates nothing once they have grown.
/// The first entries go in unordered (add) and are sorted at once (start); the entries
/// pushed while filling go into a binary heap, and pop() takes the smaller of the two fronts.
/// Most first entries are popped only after every flow of their link froze elsewhere, which
/// costs a step along the sorted run instead of a heap pop (on uniform traffic at 1,000
/// flows, 3 of 4 pops).
///
/// First entries that can only ever freeze one given flow (its cap, or a link it is the only
/// unfrozen flow of: such a link's share stays where it is until that flow freezes) are
/// offered per flow (offer), and only the smallest goes in: once it has frozen the flow the
/// others would be popped with nothing to freeze. Pops come in the same order as from one
/// heap of every entry, leaving out only those, as no two distinct entries compare equal.
class MaxMinNetwork::Heap
{
public:
    Heap(MaxMinNetwork &net) : m_sorted(net.m_startStore), m_heap(net.m_heapStore),
          m_best(net.m_bestKey), m_offered(net.m_offered)
    {
        m_sorted.clear();
        m_heap.clear();
    }
    bool empty() const { return m_next == m_sorted.size() && m_heap.empty(); }
    void add(const Candidate &c) { m_sorted.push_back(pack(c)); }
    void offer(int flow, const Candidate &c)
    {
        Key &best = m_best[std::size_t(flow)];
        if (best == kNone)
            m_offered.push_back(flow);
        best = std::min(best, pack(c));
    }
    void start()
    {
        for (int f : m_offered) {
            m_sorted.push_back(m_best[std::size_t(f)]);
            m_best[std::size_t(f)] = kNone;
        }
        m_offered.clear();
        std::sort(m_sorted.begin(), m_sorted.end());
        m_next = 0;
    }
    void push(const Candidate &c)
    {
        m_heap.push_back(pack(c));
        std::push_heap(m_heap.begin(), m_heap.end(), std::greater<Key>{});
    }
    Candidate pop()
    {
        if (m_heap.empty() || (m_next < m_sorted.size() && m_sorted[m_next] < m_heap.front()))
            return unpack(m_sorted[m_next++]);
        std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<Key>{});
        const Key k = m_heap.back();
        m_heap.pop_back();
        return unpack(k);
    }

    static constexpr Key kNone = ~Key(0); ///< no entry offered (above every real key)

private:
    // Shares are >= +0 (never -0 or NaN: see addFlow and drain), and for those the order of
    // the bits as an unsigned integer is the order of the values, so (share, kind, id)
    // compares as one 128-bit integer: no branch on ties, which are common (equal links).
    static Key pack(const Candidate &c)
    {
        return Key(std::bit_cast<std::uint64_t>(c.share)) << 64 |
               Key(std::uint32_t(c.kind)) << 32 | Key(std::uint32_t(c.id));
    }
    static Candidate unpack(Key k)
    {
        return {std::bit_cast<double>(std::uint64_t(k >> 64)), int(std::uint32_t(k >> 32)),
                int(std::uint32_t(k))};
    }
    std::vector<Key> &m_sorted, &m_heap, &m_best;
    std::vector<int> &m_offered;
    std::size_t m_next = 0;
};

MaxMinNetwork::MaxMinNetwork(std::vector<double> linkCapacity)
    : m_capacity(std::move(linkCapacity))
{
    const std::size_t n = m_capacity.size();
    for (double &c : m_capacity)
        c = std::max(0.0, c);
    m_linkFlows.resize(n);
    m_linkMark.assign(n, 0);
    m_link.resize(n);
    m_active.assign(n, 1);
    m_histValid.assign(n, kHistSorted); // no flows yet: the empty history is a fill's
    m_regionMark.assign(n, 0);
    m_pseudoAt.assign(n, 0);
    m_late.assign(n, 0);
    m_compLinks.reserve(n);
    m_roseMark.assign(n, 0);
    m_newOn.assign(n, 0);
    m_stack.reserve(n);
}

namespace {

/// A left-out link is taken back in at (1 - kTakeIn) of its capacity (far enough from full
/// that rounding in progressive filling, about 1e-16 per step, cannot matter) and left out
/// again only below (1 - kLeaveOut). Links between 95 % and full stay in: a change that
/// speeds flows up would often fill them again, and taking a link back in costs a second fill
/// (from the level at which it saturates). Leaving out only the links below 70 % cost more,
/// as the components were larger: the sample fat-tree's jobs repeated to 2,000 simulated in
/// 2.41 s instead of 2.05 s, `bench_sim`'s 10,000 jobs in 0.66 s instead of 0.49 s, a one-flow
/// change among 10,000 uniform flows re-solved in 1.25 ms instead of 1.00 ms (2 % to 10 %
/// all measure alike). Before a second fill resumed from a level, the other way held: 6.4 ms
/// with 1e-6, 4.3 ms with 0.3.
constexpr double kTakeIn = 1e-9;
constexpr double kLeaveOut = 0.05;
/// A link's running load (LinkFill::load, summed as rates change) can drift from the sum of
/// its flows' rates by rounding; below (1 - kLoadDrift) of capacity it is surely under the
/// take-in mark without recounting.
constexpr double kLoadDrift = 1e-6;
/// The level below which a change cannot reach is taken this much (relative) lower than
/// computed, far more than the rounding of the old rates it is computed from.
constexpr double kLevelMargin = 1e-9;
/// Two rates this close (relative) might be frozen in either order by rounding in a fill.
constexpr double kNearTie = 1e-12;
/// MaxMinNetwork::m_bneck: a flow frozen at its own cap (or unlimited, with no link), or not
/// yet filled.
constexpr int kCapBottleneck = -1;
constexpr int kNoBottleneck = -2;
/// A local repair's budget: what a re-fill by levels has cost lately (in flows filled), and
/// before that is known this many, or a quarter of the live flows if that is more. It gives
/// up, and solve() re-fills by levels, when one round would fill more than half the budget
/// or its rounds together more than kRepairRoundsTotal budgets. (On the 1,024-node sample's
/// jobs repeated to 2,000, giving up on a round of more than half rather than on rounds
/// together past one budget ran 11 % fewer instructions: a repair that spreads is seen
/// early, and one that converges in several small rounds is kept.)
constexpr std::size_t kRepairBudget = 1024;
constexpr std::size_t kRepairRoundsTotal = 4;
/// Nor is the budget, once re-filling by levels has shown its cost, below this many.
constexpr std::size_t kRepairBudgetFloor = 256;
/// Every this many solves, the way of solving that has cost more lately is taken: a repair
/// often, as its cost varies more from change to change.
constexpr std::int64_t kProbeLevels = 64, kProbeRepair = 16;

} // namespace

template<typename T>
void MaxMinNetwork::reserveFor(std::vector<T> &v, std::size_t n)
{
    if (v.capacity() < n)
        v.reserve(std::max<std::size_t>(4, 2 * n)); // doubling: linear in all
}

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
        m_slot.emplace_back();
        m_flowMark.push_back(0);
        m_frozen.push_back(0);
        m_oldRate.push_back(0.0);
        m_touchMark.push_back(0);
        m_bneck.push_back(kNoBottleneck);
        m_oldBneck.push_back(kNoBottleneck);
        m_inRepair.push_back(0);
        m_inFill.push_back(0);
        m_frozenLate.push_back(0);
        m_bestKey.push_back(Heap::kNone);
        m_scanRate.push_back(-kUnlimited);
    }
    m_bneck[std::size_t(id)] = kNoBottleneck;
    Flow &f = m_flows[std::size_t(id)];
    f.route.assign(route);
    std::vector<int> &slot = m_slot[std::size_t(id)];
    slot.resize(route.size());
    f.cap = capacityCap > 0 ? capacityCap : 0.0; // (no -0 or NaN: the fill's keys need >= +0)
    setRate(id, 0);
    f.alive = true;
    f.fresh = true;
    for (std::size_t k = 0; k < route.size(); ++k) {
        auto &list = m_linkFlows[std::size_t(route[k])];
        slot[k] = int(list.size());
        list.push_back(id);
        // A fill writes one history entry per flow of the link: room for them grows with
        // the list, here rather than in the solve.
        reserveFor(m_link[std::size_t(route[k])].hist, list.size());
    }
    // The same for the scratch that holds up to every flow or link in a solve.
    const std::size_t flows = m_flows.size(), entries = flows + m_capacity.size();
    reserveFor(m_compFlows, flows);
    reserveFor(m_touched, flows);
    reserveFor(m_changed, flows);
    reserveFor(m_offered, flows);
    reserveFor(m_startStore, entries);
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
        const int pos = m_slot[std::size_t(flow)][k];
        const int moved = list.back();
        list[std::size_t(pos)] = moved;
        list.pop_back();
        if (moved != flow) {
            Flow &m = m_flows[std::size_t(moved)];
            for (std::size_t j = 0; j < m.route.size(); ++j)
                if (m.route[j] == link) {
                    m_slot[std::size_t(moved)][j] = pos;
                    break;
                }
        }
        LinkFill &lf = m_link[std::size_t(link)];
        lf.load -= f.rate;
        if (!std::isfinite(lf.load))
            lf.load = kUnlimited; // recount when checked
        if (list.empty()) {
            // A link without flows has no load and the empty history a fill leaves it (so
            // solveAll need not visit it).
            lf.load = 0.0;
            lf.hist.clear();
            m_histValid[std::size_t(link)] = kHistSorted;
        }
        // A left-out link only gets more room: nothing to re-solve there.
        if (m_active[std::size_t(link)]) {
            m_dirtyLinks.push_back(link);
            m_removedOn.emplace_back(link, f.fresh ? 0.0 : f.rate);
        }
    }
    f.alive = false;
    f.fresh = false;
    f.route.clear();
    m_slot[std::size_t(flow)].clear();
    f.rate = 0;
    m_scanRate[std::size_t(flow)] = -kUnlimited;
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

void MaxMinNetwork::collectEverything()
{
    // What collect() over every link gives when its seeds hold every live flow and link,
    // without the search. A link without flows is where a fill leaves it: no load and an
    // empty history (removeFlow clears them), which only a left-out mark may call invalid.
    ++m_epoch;
    m_compFlows.clear();
    m_compLinks.clear();
    for (std::size_t f = 0; f < m_flows.size(); ++f)
        if (m_flows[f].alive)
            m_compFlows.push_back(int(f));
    for (std::size_t l = 0; l < m_capacity.size(); ++l) {
        if (!m_linkFlows[l].empty())
            m_compLinks.push_back(int(l));
        else
            m_histValid[l] = kHistSorted;
    }
}

void MaxMinNetwork::collectByScan(const std::vector<int> &seedLinks,
                                  const std::vector<int> &seedFlows, double above)
{
    // Every flow collect() can reach, and more: the seed flows, then every live flow that
    // collect() would take from a link (new, or at `above` or more) and crosses an active
    // link, with those links. The flows beyond the seeds' components are in components of
    // their own, which a fill leaves where they are (to the bit: it repeats their last fill
    // from the same kept level, with no link in common with the change).
    ++m_epoch;
    m_compFlows.clear();
    m_compLinks.clear();
    for (int f : seedFlows)
        if (alive(f) && m_flowMark[std::size_t(f)] != m_epoch)
            addToComponent(f, false, m_compLinks); // (its links go straight in: no search)
    for (int l : seedLinks)
        if (m_active[std::size_t(l)] && m_linkMark[std::size_t(l)] != m_epoch) {
            m_linkMark[std::size_t(l)] = m_epoch;
            m_compLinks.push_back(l);
        }
    // (A new flow is a seed in the first round, so it is in already; in a later round it
    // counts as an old one: the rate alone says. The rates are read from their own array,
    // so that the flows left out cost no read of the flow.)
    for (std::size_t f = 0; f < m_flows.size(); ++f) {
        if (!(m_scanRate[f] >= above) || m_flowMark[f] == m_epoch)
            continue; // (a removed flow's is -inf)
        const Flow &flow = m_flows[f];
        bool any = false; // (a flow without an active link is not taken)
        for (int l : flow.route)
            if (m_active[std::size_t(l)]) {
                any = true;
                if (m_linkMark[std::size_t(l)] != m_epoch) {
                    m_linkMark[std::size_t(l)] = m_epoch;
                    m_compLinks.push_back(l);
                }
            }
        if (any) {
            m_flowMark[f] = m_epoch;
            m_compFlows.push_back(int(f));
        }
    }
}

void MaxMinNetwork::collectBySize(const std::vector<int> &seedLinks,
                                  const std::vector<int> &seedFlows, double above)
{
    // A search costs a random access per flow and link it reaches; a pass over every flow
    // costs less once the change reaches most of them (uniform traffic: one component). The
    // last search says which; every 16th round searches again, to notice when the component
    // shrinks.
    const bool scan = m_searchReached * 2 > std::size_t(m_liveFlows) && ++m_scans % 16 != 0;
    if (scan) {
        collectByScan(seedLinks, seedFlows, above);
        return;
    }
    collect(seedLinks, seedFlows, false, above);
    m_searchReached = m_compFlows.size();
}

bool MaxMinNetwork::everyFlowIn(const std::vector<int> &flows)
{
    ++m_epoch;
    int distinct = 0;
    for (int f : flows)
        if (alive(f) && m_flowMark[std::size_t(f)] != m_epoch) {
            m_flowMark[std::size_t(f)] = m_epoch;
            ++distinct;
        }
    return distinct == m_liveFlows;
}

void MaxMinNetwork::fill(bool all, double keepBelow)
{
    Heap heap(*this);
    const bool partial = keepBelow > 0;
    for (int f : m_compFlows) {
        Flow &flow = m_flows[std::size_t(f)];
        if (partial && !isNew(flow) && flow.rate < keepBelow) {
            m_frozen[std::size_t(f)] = 1; // frozen below the change: keeps its rate
            ++m_stats.flowsKept;
            continue;
        }
        startFlow(heap, f);
    }
    for (int l : m_compLinks) {
        const auto i = std::size_t(l);
        // Resume from the last fill's history below keepBelow: historiesUsable(keepBelow),
        // run on this component, checked that the kept flows are a prefix of every history
        // and set its length (LinkFill::keepPrefix).
        startLink(heap, l, partial ? m_link[i].keepPrefix : 0);
    }
    if (all)
        drain<Scope::All>(heap);
    else
        drain<Scope::Active>(heap);
}

void MaxMinNetwork::startFlow(Heap &heap, int f)
{
    Flow &flow = m_flows[std::size_t(f)];
    touch(f);
    m_frozen[std::size_t(f)] = 0;
    if (flow.cap < kUnlimited)
        heap.offer(f, {flow.cap, 1, f});
    else if (flow.route.empty()) {
        setRate(f, kUnlimited);
        m_frozen[std::size_t(f)] = 1;
        m_bneck[std::size_t(f)] = kCapBottleneck;
    }
}

void MaxMinNetwork::startLink(Heap &heap, int l, std::size_t keep)
{
    const auto i = std::size_t(l);
    LinkFill &k = m_link[i];
    std::vector<HistoryEntry> &h = k.hist;
    h.reserve(m_linkFlows[i].size()); // the fill adds one entry per flow frozen
    h.resize(keep);
    // (the prefix of a history in rate order is in rate order; an empty one is too)
    m_histValid[i] = keep == 0 || m_histValid[i] == kHistSorted ? kHistSorted : kHistValid;
    k.remaining = keep > 0 ? h[keep - 1].remaining : m_capacity[i];
    k.unfrozen = int(m_linkFlows[i].size()) - int(keep);
    if (k.unfrozen > 0) {
        k.heapKey = k.remaining / k.unfrozen;
        const int only = m_linkFlows[i].front(); // (the one flow, when there is one)
        if (m_linkFlows[i].size() == 1 && !m_frozen[std::size_t(only)])
            heap.offer(only, {k.heapKey, 0, l}); // it can freeze no other flow
        else
            heap.add({k.heapKey, 0, l});
    }
}

template<MaxMinNetwork::Scope scope>
bool MaxMinNetwork::counts(int link) const
{
    const auto i = std::size_t(link);
    // (a template, so that a fill's inner loop has no branch on the scope)
    return scope == Scope::All || (scope == Scope::Active ? m_active[i] != 0
                                                          : m_regionMark[i] == m_regionEpoch);
}

template<MaxMinNetwork::Scope scope>
void MaxMinNetwork::drain(Heap &heap)
{
    // A link's share (remaining / unfrozen) does not fall when one of its flows freezes at
    // the water level, which is at most that share, except by rounding. So the heap keeps one
    // entry per link, keyed at most at the link's share (LinkFill::heapKey): a freeze pushes
    // only when the share fell below the key, and an entry popped below the link's share goes
    // back in at the share. Links are taken in the same order, at the same shares, as with an
    // entry per change, with about one push per link instead of one per freeze. Links out of
    // the scope only carry the load (a left-out link; in a repair, a link outside the region,
    // where a pinned flow stays at its old rate).
    auto freeze = [&](int f, double r, int bottleneck) {
        Flow &flow = m_flows[std::size_t(f)];
        const double delta = r - flow.rate;
        // A flow that got faster loads its left-out links more: they are listed for the check
        // after the fill (see solve()).
        const bool listRose = delta > 0 && scope == Scope::Active;
        setRate(f, r);
        m_frozen[std::size_t(f)] = 1;
        m_bneck[std::size_t(f)] = bottleneck;
        for (int l : flow.route) {
            const auto i = std::size_t(l);
            LinkFill &k = m_link[i];
            if (delta != 0) {
                k.load += delta; // kept on left-out links too (staysSlack reads it)
                if (!std::isfinite(k.load))
                    k.load = kUnlimited; // recounted when checked
            }
            if (!counts<scope>(l)) {
                if (listRose && m_roseMark[i] != m_roseEpoch) {
                    m_roseMark[i] = m_roseEpoch;
                    m_roseLinks.push_back(l);
                }
                continue;
            }
            k.remaining = std::max(0.0, k.remaining - r);
            if (!k.hist.empty() && r < k.hist.back().rate)
                m_histValid[i] = kHistValid; // (a late share: no longer in rate order)
            k.hist.push_back({r, k.remaining});
            if (--k.unfrozen > 0) {
                const double share = k.remaining / k.unfrozen;
                if (share < k.heapKey) {
                    k.heapKey = share;
                    heap.push({share, 0, l});
                }
            }
        }
    };
    heap.start();
    double water = -kUnlimited; // the highest share taken so far
    while (!heap.empty()) {
        const Candidate c = heap.pop();
        if (c.kind == 1) {
            if (!m_frozen[std::size_t(c.id)]) {
                freeze(c.id, c.share, kCapBottleneck);
                water = std::max(water, c.share);
            }
            continue;
        }
        const auto i = std::size_t(c.id);
        if (!counts<scope>(c.id)) {
            // A repair's pinned flows whose old bottleneck is outside the region, frozen at
            // the share it froze them at (see fillRegion).
            for (std::size_t k = m_pseudoAt[i];
                 k < m_pseudo.size() && m_pseudo[k].first == c.id; ++k)
                if (!m_frozen[std::size_t(m_pseudo[k].second)])
                    freeze(m_pseudo[k].second, c.share, c.id);
            water = std::max(water, c.share);
            continue;
        }
        LinkFill &k = m_link[i];
        if (k.unfrozen <= 0 || c.share != k.heapKey)
            continue; // stale: a lower entry for this link went in after it
        const double share = k.remaining / k.unfrozen;
        if (share != c.share) {
            k.heapKey = share; // risen since it went in: back in at its share
            heap.push({share, 0, c.id});
            continue;
        }
        // A share that rounding took below one already taken (see m_late).
        m_late[i] = c.share < water ? 1 : 0;
        water = std::max(water, c.share);
        // Copy: freezing pushes entries but never changes the link's flow list.
        for (int f : m_linkFlows[i])
            if (!m_frozen[std::size_t(f)]) {
                // A link of a pinned flow outside the region may take a higher share before
                // a late one in a full fill: then it, not this link, freezes the flow.
                m_frozenLate[std::size_t(f)] = m_late[i];
                freeze(f, c.share, c.id);
            }
    }
}

void MaxMinNetwork::touch(int f)
{
    const auto i = std::size_t(f);
    if (m_touchMark[i] == m_solveEpoch)
        return;
    m_touchMark[i] = m_solveEpoch;
    m_oldRate[i] = m_flows[i].rate;
    m_oldBneck[i] = m_bneck[i];
    m_touched.push_back(f);
}

int MaxMinNetwork::bottleneckBefore(int f) const
{
    const auto i = std::size_t(f);
    return m_touchMark[i] == m_solveEpoch ? m_oldBneck[i] : m_bneck[i];
}

double MaxMinNetwork::rateBefore(int f) const
{
    const auto i = std::size_t(f);
    return m_touchMark[i] == m_solveEpoch ? m_oldRate[i] : m_flows[i].rate;
}

bool MaxMinNetwork::fillRegion()
{
    Heap heap(*this);
    auto inRegion = [&](int l) { return m_regionMark[std::size_t(l)] == m_regionEpoch; };
    for (int f : m_repairFlows)
        startFlow(heap, f);
    // Pinned flows: frozen at their old rates, when the water reaches them, by an entry in
    // the place their old bottleneck held in the last fill: their cap, or a link outside the
    // region at the share it froze them at (every flow a link froze has the same rate). One
    // whose old bottleneck is in the region waits for the region's links like any flow.
    std::vector<std::pair<int, int>> &pseudo = m_pseudo;
    pseudo.clear();
    for (int g : m_pinned) {
        const Flow &flow = m_flows[std::size_t(g)];
        touch(g);
        m_frozen[std::size_t(g)] = 0;
        m_frozenLate[std::size_t(g)] = 0;
        const int b = m_oldBneck[std::size_t(g)];
        if (b == kCapBottleneck)
            heap.add({flow.cap, 1, g});
        else if (!inRegion(b))
            pseudo.emplace_back(b, g);
    }
    std::sort(pseudo.begin(), pseudo.end());
    for (std::size_t k = 0; k < pseudo.size(); ++k) {
        const auto [b, g] = pseudo[k];
        const double r = m_oldRate[std::size_t(g)];
        if (k > 0 && pseudo[k - 1].first == b) {
            if (m_oldRate[std::size_t(pseudo[k - 1].second)] != r)
                return false; // not the state a fill leaves: no repair
            continue;
        }
        m_pseudoAt[std::size_t(b)] = std::uint32_t(k);
        heap.add({r, 0, b});
    }
    for (int l : m_regionLinks)
        startLink(heap, l, m_link[std::size_t(l)].keepPrefix);
    drain<Scope::Region>(heap);
    return true;
}

bool MaxMinNetwork::repairLocally(const std::vector<int> &seedLinks,
                                  const std::vector<int> &seedFlows, std::size_t &filled)
{
    if (++m_regionEpoch == 0) { // wrapped: forget every mark
        std::fill(m_regionMark.begin(), m_regionMark.end(), 0u);
        std::fill(m_inRepair.begin(), m_inRepair.end(), 0u);
        std::fill(m_inFill.begin(), m_inFill.end(), 0u);
        m_regionEpoch = 1;
    }
    std::vector<int> &flows = m_repairFlows, &links = m_regionLinks;
    flows.clear();
    links.clear();
    m_savedCount = 0;
    // Flows frozen below the level the change can first reach keep their rates (as in a
    // fill by levels): they are neither re-filled nor pinned, and every region link resumes
    // from the prefix of its history below that level (LinkFill::keepPrefix). A link whose
    // history gives no such prefix ends the repair.
    const double level = m_repairLevel;
    bool prefixesUsable = true;
    auto addLink = [&](int l, bool takingIn) {
        const auto i = std::size_t(l);
        if (m_regionMark[i] == m_regionEpoch)
            return;
        m_regionMark[i] = m_regionEpoch;
        links.push_back(l);
        if (m_savedCount == m_saved.size())
            m_saved.emplace_back();
        SavedLink &k = m_saved[m_savedCount++]; // reuses the vectors of earlier repairs
        k.link = l;
        k.hist.assign(m_link[i].hist.begin(), m_link[i].hist.end());
        k.histValid = m_histValid[i];
        k.active = m_active[i] != 0;
        k.late = m_late[i] != 0;
        m_link[i].keepPrefix = 0;
        if (level > 0 && !(takingIn ? prefixFromRates(l, level) : prefixBelow(l, level)))
            prefixesUsable = false;
        if (takingIn)
            m_active[i] = 1;
    };
    auto addFlow = [&](int f) {
        if (m_inRepair[std::size_t(f)] == m_regionEpoch || keptBelow(f, level))
            return;
        m_inRepair[std::size_t(f)] = m_regionEpoch;
        flows.push_back(f);
    };
    const std::size_t budget = repairBudget();
    filled = seedFlows.size();
    if (seedFlows.size() > budget)
        return false; // (nothing changed yet)
    for (int f : seedFlows)
        if (alive(f))
            addFlow(f);
    for (int l : seedLinks) {
        if (!m_active[std::size_t(l)])
            continue;
        addLink(l, false);
        for (int f : m_linkFlows[std::size_t(l)])
            if (bottleneckBefore(f) == l)
                addFlow(f); // may speed up now that its bottleneck has more room
    }
    filled = 0;
    std::size_t linked = 0;
    bool ok = true;
    for (;;) {
        // The region: every active link of the re-solved flows (a flow with none, and no
        // cap, takes its links in: one of them is its bottleneck).
        for (; linked < flows.size(); ++linked) {
            const Flow &flow = m_flows[std::size_t(flows[linked])];
            bool any = false;
            for (int l : flow.route)
                if (m_active[std::size_t(l)]) {
                    addLink(l, false);
                    any = true;
                }
            if (!any && !flow.route.empty() && !(flow.cap < kUnlimited))
                for (int l : flow.route)
                    addLink(l, true);
        }
        if (!prefixesUsable) {
            ok = false;
            break;
        }
        // Every other flow on the region's links is pinned at its old rate; one never filled
        // is re-solved instead.
        if (flows.size() > budget) {
            ok = false;
            break;
        }
        m_pinned.clear();
        if (++m_fillEpoch == 0) {
            std::fill(m_inFill.begin(), m_inFill.end(), 0u);
            m_fillEpoch = 1;
        }
        for (int f : flows)
            m_inFill[std::size_t(f)] = m_fillEpoch;
        for (std::size_t k = 0; k < links.size(); ++k) {
            const auto i = std::size_t(links[k]);
            std::uint32_t kept = 0;
            for (int f : m_linkFlows[i]) {
                if (keptBelow(f, level)) {
                    m_frozen[std::size_t(f)] = 1; // in the link's history prefix
                    ++kept;
                    continue;
                }
                if (m_inFill[std::size_t(f)] == m_fillEpoch)
                    continue;
                m_inFill[std::size_t(f)] = m_fillEpoch;
                // One never filled is re-solved, and so is one whose old bottleneck, outside
                // the region, took its share late: an entry at that share would come too
                // early in this fill.
                const int b = bottleneckBefore(f);
                if (b == kNoBottleneck ||
                    (b >= 0 && m_late[std::size_t(b)] &&
                     m_regionMark[std::size_t(b)] != m_regionEpoch)) {
                    addFlow(f);
                    continue;
                }
                m_pinned.push_back(f);
            }
            if (kept != m_link[i].keepPrefix)
                prefixesUsable = false; // (not the flows of its history: no repair)
        }
        if (!prefixesUsable) {
            ok = false;
            break;
        }
        if (linked < flows.size())
            continue; // flows never filled joined: their links first
        // Each round fills the region again. The repair is given up when one more round
        // would fill more than half of what a re-fill by levels has cost lately (what it
        // filled before is spent either way), or its rounds together more than four times.
        const std::size_t round = flows.size() + m_pinned.size();
        if (2 * round > budget || filled + round > kRepairRoundsTotal * budget) {
            ok = false;
            break;
        }
        filled += round;
        if (!fillRegion()) {
            ok = false;
            break;
        }
        ++m_stats.repairRounds;
        // A pinned flow whose rate moved, or that another link froze first (its old
        // bottleneck then subtracts it before its own share, which can move that share by a
        // rounding), or that a link froze late (one of its links outside the region may come
        // first), was not where the change leaves it: re-solved too.
        const std::size_t before = flows.size();
        for (int g : m_pinned)
            if (m_flows[std::size_t(g)].rate != m_oldRate[std::size_t(g)] ||
                m_bneck[std::size_t(g)] != m_oldBneck[std::size_t(g)] ||
                m_frozenLate[std::size_t(g)]) {
                addFlow(g);
                // The flows its links outside the region froze are likely to move with it:
                // they join at once rather than a round later.
                for (int l : m_flows[std::size_t(g)].route)
                    if (m_regionMark[std::size_t(l)] != m_regionEpoch && m_active[std::size_t(l)])
                        for (int f : m_linkFlows[std::size_t(l)])
                            if (bottleneckBefore(f) == l)
                                addFlow(f);
            }
        if (flows.size() > before)
            continue;
        // Left-out links that flows which are new or got faster load past the take-in mark
        // join the region.
        bool taken = false;
        for (int f : flows) {
            const Flow &flow = m_flows[std::size_t(f)];
            if (!flow.fresh && !(flow.rate > m_oldRate[std::size_t(f)]))
                continue;
            for (int l : flow.route)
                if (!m_active[std::size_t(l)] && !staysSlack(l)) {
                    addLink(l, true);
                    taken = true;
                }
        }
        if (!taken)
            break;
    }
    if (ok) {
        m_compLinks = links; // left out below when they have room to spare
        return true;
    }
    // Back to the state before: rates (and the loads they add to), bottlenecks, histories,
    // and the links' late marks (the fill by levels after this may not take these links).
    for (int f : m_touched) {
        Flow &flow = m_flows[std::size_t(f)];
        const double old = m_oldRate[std::size_t(f)];
        if (flow.rate != old)
            for (int l : flow.route) {
                double &load = m_link[std::size_t(l)].load;
                load += old - flow.rate;
                if (!std::isfinite(load))
                    load = kUnlimited;
            }
        setRate(f, old);
        m_bneck[std::size_t(f)] = m_oldBneck[std::size_t(f)];
    }
    for (std::size_t n = 0; n < m_savedCount; ++n) {
        const SavedLink &k = m_saved[n];
        const auto i = std::size_t(k.link);
        m_link[i].hist.assign(k.hist.begin(), k.hist.end());
        m_histValid[i] = k.histValid;
        m_active[i] = k.active ? 1 : 0;
        m_late[i] = k.late ? 1 : 0; // a later repair may pin flows by it
    }
    m_savedCount = 0;
    return false;
}

bool MaxMinNetwork::keptBelow(int f, double level) const
{
    const auto i = std::size_t(f);
    if (!(level > 0) || m_flows[i].fresh || bottleneckBefore(f) == kNoBottleneck)
        return false;
    return rateBefore(f) < level;
}

bool MaxMinNetwork::prefixFromRates(int link, double level)
{
    // A link taken in froze nothing in the last fill. If it cannot saturate below the level,
    // a full fill with it in freezes the flows below the level first, in rate order (equal
    // rates subtract alike in any order); rates a rounding apart could go in either order.
    const auto i = std::size_t(link);
    std::vector<double> &rates = m_rates;
    rates.clear();
    for (int f : m_linkFlows[i])
        if (keptBelow(f, level))
            rates.push_back(rateBefore(f));
    std::sort(rates.begin(), rates.end());
    if (const std::size_t tie = historyFromSorted(link, rates); tie < rates.size()) {
        if (tie > 0) { // (from below the pair, the prefix has no such rates)
            const double retry = rates[tie - 1] * (1 - kLevelMargin);
            m_retryLevel = m_retryLevel < 0 ? retry : std::min(m_retryLevel, retry);
        }
        return false;
    }
    // It must not saturate below the level, with the flows above it (the new ones too)
    // growing with the water: else the repair is tried again from the level at which it
    // saturates (m_retryLevel).
    const std::size_t n = m_linkFlows[i].size();
    double below = 0;
    for (std::size_t k = 0; k <= rates.size(); ++k) {
        if (n == k)
            break; // every flow stops below: it never saturates
        const double t = (m_capacity[i] - below) / double(n - k);
        if (k == rates.size() ? !(t > level * (1 + kLevelMargin)) : t <= rates[k]) {
            const double retry = std::max(0.0, t * (1 - 2 * kLevelMargin));
            m_retryLevel = m_retryLevel < 0 ? retry : std::min(m_retryLevel, retry);
            return false;
        }
        if (k < rates.size())
            below += rates[k];
    }
    m_histValid[i] = kHistSorted;
    m_link[i].keepPrefix = std::uint32_t(rates.size());
    return true;
}

bool MaxMinNetwork::staysSlack(int link)
{
    const auto i = std::size_t(link);
    const double cap = m_capacity[i];
    if (m_link[i].load < cap * (1 - kLoadDrift))
        return true;
    double sum = 0;
    for (int f : m_linkFlows[i])
        sum += m_flows[std::size_t(f)].rate;
    m_link[i].load = std::isfinite(sum) ? sum : kUnlimited;
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
    auto consider = [&](int f) {
        Flow &flow = m_flows[std::size_t(f)];
        if (!flow.alive)
            return;
        if (flow.fresh || flow.rate != m_oldRate[std::size_t(f)])
            m_changed.push_back(f);
        flow.fresh = false;
    };
    if (m_touched.size() * 8 < m_flows.size()) {
        for (int f : m_touched)
            consider(f);
        std::sort(m_changed.begin(), m_changed.end());
        return;
    }
    // Most flows were filled: a pass over the ids lists them in order without a sort.
    for (std::size_t f = 0; f < m_flows.size(); ++f)
        if (m_touchMark[f] == m_solveEpoch)
            consider(int(f));
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
        if (any || flow.route.empty())
            continue;
        if (flow.cap < kUnlimited)
            return 0; // its links stay out unless the check after the fill takes them in
        // Every link of it was left out, so one of them will be a bottleneck: they are taken
        // in now (collect would take them in anyway) with the history of their flows at the
        // current rates, which is where a fill that had them all along stands (they froze
        // nothing), so the change's level bound holds with them in.
        for (int l : flow.route) {
            m_active[std::size_t(l)] = 1;
            if (!historyFromRates(l))
                return 0;
            mark(l);
        }
    }
    for (int l : changed)
        level = std::min(level, saturationLevel(l));
    if (!(level > 0) || std::isinf(level))
        return 0;
    return level * (1 - kLevelMargin);
}

double MaxMinNetwork::leftOutLevel(const std::vector<int> &newFlows, double level)
{
    // A left-out link of a new flow saturates no lower than where its load at the old rates
    // (the new flows at 0) plus the level per new flow on it reaches its capacity: only a link
    // that this does not clear is looked at flow by flow.
    if (!(level > 0))
        return level;
    ++m_epoch;
    std::vector<int> &links = m_stack;
    links.clear();
    for (int f : newFlows) {
        if (!alive(f))
            continue;
        for (int l : m_flows[std::size_t(f)].route) {
            const auto i = std::size_t(l);
            if (m_active[i])
                continue;
            if (m_linkMark[i] != m_epoch) {
                m_linkMark[i] = m_epoch;
                m_newOn[i] = 0;
                links.push_back(l);
            }
            ++m_newOn[i];
        }
    }
    double bound = level;
    for (int l : links) {
        const auto i = std::size_t(l);
        const double load = m_link[i].load + level * m_newOn[i];
        if (!(load < m_capacity[i] * (1 - kLoadDrift)))
            bound = std::min(bound, saturationLevel(l) * (1 - kLevelMargin));
    }
    return bound > 0 ? bound : 0;
}

std::size_t MaxMinNetwork::historyFromSorted(int link, const std::vector<double> &rates)
{
    const auto i = std::size_t(link);
    std::vector<HistoryEntry> &h = m_link[i].hist;
    h.clear();
    m_histValid[i] = 0;
    double remaining = m_capacity[i];
    for (std::size_t k = 0; k < rates.size(); ++k) {
        const double r = rates[k];
        if (!std::isfinite(r) || (k > 0 && r != rates[k - 1] && r - rates[k - 1] <= kNearTie * r))
            return k;
        remaining = std::max(0.0, remaining - r);
        h.push_back({r, remaining});
    }
    return rates.size();
}

bool MaxMinNetwork::historyFromRates(int link)
{
    // A link that froze no flow in the last fill stands, at the rates it gave, where its
    // flows leave it: its history is its old flows in the order a fill freezes them, by rate
    // (equal rates subtract alike in any order). New flows have no rate yet and grow with the
    // water. Rates a rounding apart could be frozen in either order: then no history.
    const auto i = std::size_t(link);
    std::vector<double> &rates = m_rates;
    rates.clear();
    for (int f : m_linkFlows[i]) {
        const Flow &flow = m_flows[std::size_t(f)];
        if (!isNew(flow))
            rates.push_back(flow.rate);
    }
    std::sort(rates.begin(), rates.end());
    if (historyFromSorted(link, rates) < rates.size())
        return false;
    m_histValid[i] = kHistSorted; // (built in rate order)
    return true;
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
    for (int l : links) {
        if (!historyFromRates(l))
            return 0;
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
    for (int l : m_compLinks)
        if (!prefixBelow(l, level))
            return false;
    return true;
}

bool MaxMinNetwork::prefixBelow(int link, double level)
{
    const auto i = std::size_t(link);
    if (!m_histValid[i])
        return false;
    const std::vector<HistoryEntry> &h = m_link[i].hist;
    if (m_histValid[i] == kHistSorted) { // in rate order: the prefix by a search
        const auto end = std::partition_point(
            h.begin(), h.end(), [level](const HistoryEntry &e) { return e.rate < level; });
        m_link[i].keepPrefix = std::uint32_t(end - h.begin());
        return true;
    }
    std::size_t k = 0;
    while (k < h.size() && h[k].rate < level)
        ++k;
    m_link[i].keepPrefix = std::uint32_t(k);
    for (std::size_t j = k; j < h.size(); ++j)
        if (h[j].rate < level)
            return false;
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
    // Both ways give the same rates, to the bit; the one that has cost less lately (in flows
    // filled, smoothed; a repair given up costs what it filled and the levels' fill after
    // it) is taken, and now and then the other, to keep its cost known: a repair every 16th
    // solve, the levels every 64th.
    // With every live flow in the change (a first solve), there is nothing to keep: one fill
    // of everything, without a repair or a search for components.
    const bool everything = everyFlowIn(seedFlows);
    bool repair = m_repair != Repair::Off && !everything;
    if (repair && m_repair == Repair::Auto && m_repairCost > 0) {
        // (with the levels' cost not known yet, the levels are probed as when they cost more)
        if (m_levelCost <= 0 || m_repairCost <= m_levelCost)
            repair = m_stats.solves % kProbeLevels != 0;
        else
            repair = m_stats.solves % kProbeRepair == 0;
    }
    std::size_t abandoned = 0;
    if (repair) {
        std::size_t filled = 0;
        m_repairLevel = leftOutLevel(seedFlows, unaffectedLevel(seedFlows));
        m_retryLevel = -1;
        bool repaired = repairLocally(seedLinks, seedFlows, filled);
        if (!repaired && m_retryLevel >= 0) {
            // A link it took in saturates below the level: again from there.
            const std::size_t first = filled;
            m_repairLevel = m_retryLevel;
            beginSolve();
            repaired = repairLocally(seedLinks, seedFlows, filled);
            filled += first;
            ++m_stats.repairRetries;
        }
        if (repaired) {
            m_repairCost = smoothed(m_repairCost, double(filled));
            ++m_stats.repairs;
            m_removedOn.clear();
            return finishSolve();
        }
        abandoned = std::max<std::size_t>(filled, 1); // its cost: this and the levels'
        ++m_stats.repairsAbandoned;
        beginSolve(); // the abandoned repair touched nothing that stays
    }
    for (;;) {
        // The first round keeps the flows below the lowest level the change can reach and
        // collects only the flows above it that the change connects to (the others keep
        // their rates too: above that level they evolve as they did). A round after links
        // were taken in does the same from the level at which the first of them saturates;
        // the new flows have their rates by then and count as old ones.
        double level = 0;
        if (m_newFlowsGrow && everything) {
            m_removedOn.clear();
            collectByScan(seedLinks, seedFlows, 0); // (every flow a seed: no search)
        } else {
            level = m_newFlowsGrow ? unaffectedLevel(seedFlows) : takenInLevel(seedLinks);
            if (m_newFlowsGrow)
                m_removedOn.clear(); // (read by unaffectedLevel only)
            collectBySize(seedLinks, seedFlows, level);
        }
        if (level > 0 && !historiesUsable(level)) {
            level = 0;
            collectBySize(seedLinks, seedFlows, 0);
        }
        ++m_stats.rounds;
        if (!m_newFlowsGrow) {
            ++m_stats.laterRounds;
            m_stats.laterRoundsAboveZero += level > 0 ? 1 : 0;
        }
        if (++m_roseEpoch == 0) { // wrapped: forget every mark
            std::fill(m_roseMark.begin(), m_roseMark.end(), 0u);
            m_roseEpoch = 1;
        }
        m_roseLinks.clear();
        fill(false, level);
        // Every left-out link must still have room. Only a flow that this fill made faster
        // (a new one too) loads one more than before, so the fill listed their left-out links
        // (every other left-out link had room at the rates before, as the check after each
        // fill keeps it); the ones without room are taken in and the (now larger) component
        // is filled again.
        seedLinks.clear();
        seedFlows.clear();
        for (int l : m_roseLinks)
            if (!m_active[std::size_t(l)] && !staysSlack(l)) {
                m_active[std::size_t(l)] = 1;
                seedLinks.push_back(l);
            }
        if (seedLinks.empty())
            break;
        m_newFlowsGrow = false;
    }
    m_newFlowsGrow = true;
    const int resolved = finishSolve();
    // What re-filling by levels costs (flows filled), smoothed: a local repair is given up
    // once it has filled about as many. (Not a first solve's: it says nothing of a change.)
    if (!everything)
        m_levelCost = smoothed(m_levelCost, double(resolved));
    if (abandoned > 0)
        m_repairCost = smoothed(m_repairCost, double(abandoned + std::size_t(resolved)));
    return resolved;
}

double MaxMinNetwork::smoothed(double average, double sample)
{
    return average > 0 ? average + (sample - average) / 16 : std::max(sample, 1.0);
}

std::size_t MaxMinNetwork::repairBudget() const
{
    const std::size_t most = std::max(kRepairBudget, std::size_t(m_liveFlows) / 4);
    if (!(m_levelCost > 0))
        return most;
    return std::clamp(std::size_t(m_levelCost), kRepairBudgetFloor, most);
}

int MaxMinNetwork::finishSolve()
{
    // Links of this component with room to spare are left out from now on.
    for (int l : m_compLinks) {
        const auto i = std::size_t(l);
        if (m_link[i].remaining > kLeaveOut * m_capacity[i] && m_link[i].unfrozen <= 0) {
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
    collectEverything();
    m_dirtyLinks.clear();
    m_dirtyFlows.clear();
    m_removedOn.clear();
    fill(true, 0);
    std::fill(m_active.begin(), m_active.end(), std::uint8_t(1));
    // Loads recounted (rounding drifts them as rates change), flow by flow: the order of the
    // sum may differ from load()'s, which staysSlack's margin (kLoadDrift) covers. (Links
    // without flows, the ones not collected, have none.)
    for (int l : m_compLinks)
        m_link[std::size_t(l)].load = 0.0;
    for (int f : m_compFlows)
        for (int l : m_flows[std::size_t(f)].route)
            m_link[std::size_t(l)].load += m_flows[std::size_t(f)].rate;
    for (int l : m_compLinks) {
        double &load = m_link[std::size_t(l)].load;
        if (!std::isfinite(load))
            load = kUnlimited; // recounted when checked, as elsewhere
    }
    listChanged();
}

} // namespace cb
