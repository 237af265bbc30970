#pragma once
// Max-min fair sharing of directed link capacity among long-lived flows (progressive
// filling, the bottleneck algorithm): repeatedly take the link whose remaining capacity
// divided by its unfrozen flows is smallest, freeze those flows at that share and take their
// rate off every link they cross. A flow may carry its own rate cap (e.g. the node's internal
// bandwidth for two co-located tasks, which cross no link); a cap acts as a private link.
//
// Incremental: adding or removing flows only marks them dirty; solve() re-solves the
// connected components that contain a dirty flow or link, which gives the same rates as
// solveAll() because components do not interact. Components are taken over the links that
// can be bottlenecks only: a link whose flows, at the rates of the last solve, use less
// than (1 - 1e-9) of its capacity never freezes a flow in progressive filling, so leaving
// it out changes no rate, not even in the last bit (the freezes on every other link happen
// in the same order with the same values). solve() checks this after every fill: a left-out
// link that the new rates load more is taken back in and the component re-solved from the
// level at which the first such link saturates at those rates (below it, the link freezes
// nothing, so the fill is the same with it or without it); a link
// that ends a solve below 95 % of its capacity is left out of later solves. On a
// fat-tree the core and aggregation links are rarely full, so components and routes shrink
// to the host links. Rates are in the unit of the capacities (Gbit/s in ClusterBench).
//
// Within a component, solve() re-solves only the bottleneck levels a change can reach: the
// first level at which progressive filling can differ from the last solve is bounded below
// by the level at which a link of a changed flow would saturate (old flows at their old
// rates, new flows growing with the water) and by the rates of the removed flows. Flows
// frozen below that bound keep their rates; every link resumes from the history of the last
// fill at that level (its remaining capacity after exactly the same subtractions in the same
// order), so the rates are the bits a full fill computes. On uniform traffic (one giant
// component) this skips the lower levels that the change cannot touch.
//
// Local repair: a change usually moves a few rates while the levels above it hold thousands
// of flows, so solve() first tries to re-fill only the flows the change reaches: the new
// flows and those its removed flows' links froze, over their links (the region), with every
// other flow on those links pinned at its old rate, frozen when the water reaches it by an
// entry standing where its old bottleneck froze it (its cap, or that link at the same share
// and id). A pinned flow that ends at another rate, or frozen by another link (its old
// bottleneck would then take its share after subtracting it, which can move that share by a
// rounding), joins the re-filled flows with the flows its links froze, and the region is
// filled again; so does a left-out link that the faster flows load. When no pinned flow
// moved, the region is where a full fill leaves it, to the bit: the same links take the same
// shares in the same order, and every link outside it sees the same freezes. A pinned flow
// whose old bottleneck took its share late (rounding took it below a share already taken) is
// re-filled rather than pinned. A repair that fills more flows than re-filling by levels has
// cost lately is given up, with everything as it was, and the levels are used; solve() takes
// whichever of the two has cost less lately (setRepair()). A repair also keeps the flows below
// the level the change can first reach (as the levels do, that level lowered to where a
// left-out link of a new flow could saturate): they are neither re-filled nor pinned, and each
// region link resumes from its history below that level; a link taken in mid-repair gets that
// prefix from its flows' rates, or the repair starts again from the level where it saturates.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace cb {

class MaxMinNetwork
{
public:
    static constexpr double kUnlimited = std::numeric_limits<double>::infinity();

    /// One capacity per directed link (Topology numbering), each >= 0.
    explicit MaxMinNetwork(std::vector<double> linkCapacity);
    ~MaxMinNetwork()
    {
        if (std::getenv("CB_STATS") && m_stats.solves > 100)
            std::fprintf(stderr,
                         "solves %ld rounds %ld later %ld kept %ld repairs %ld rrounds %ld "
                         "abandoned %ld levelCost %.0f repairCost %.0f\n",
                         long(m_stats.solves), long(m_stats.rounds), long(m_stats.laterRounds),
                         long(m_stats.flowsKept), long(m_stats.repairs), long(m_stats.repairRounds),
                         long(m_stats.repairsAbandoned), m_levelCost, m_repairCost);
    }

    /// Adds a flow over `route` (directed link ids; may be empty) with an optional rate cap;
    /// returns its id (ids of removed flows are reused). Rates are stale until solve().
    int addFlow(const std::vector<int> &route, double capacityCap = kUnlimited);
    void removeFlow(int flow);

    /// Re-solves what changed since the last solve: by a local repair, or the components
    /// touched from the lowest bottleneck level the change can reach; returns how many flows
    /// were re-solved (pinned flows count). Flows whose rate changed are listed by
    /// changedFlows().
    int solve();
    /// Re-solves everything from scratch over every link (the reference for comparison and
    /// tests; afterwards every link counts as a possible bottleneck again).
    void solveAll();
    /// What solve() did so far: rounds are fills (a second one follows when left-out links
    /// were taken in); the later rounds that resumed above level 0; flows kept below a level.
    struct Stats
    {
        std::int64_t solves = 0, rounds = 0, laterRounds = 0, laterRoundsAboveZero = 0,
                     flowsKept = 0;
        /// Solves done by a local repair, its fills, and repairs given up for a re-fill by levels.
        std::int64_t repairs = 0, repairRounds = 0, repairsAbandoned = 0;
        /// Repairs tried again from a lower level (a link taken in saturated below theirs).
        std::int64_t repairRetries = 0;
    };
    /// How solve() re-solves a change: by a local repair or by levels, whichever has cost
    /// less lately (Auto, the default), always by levels (Off), or always trying a local
    /// repair first (Always, for tests). The rates are the same in every mode.
    enum class Repair { Off, Auto, Always };
    void setRepair(Repair mode) { m_repair = mode; }
    const Stats &stats() const { return m_stats; }
    /// Links that solve() currently treats as possible bottlenecks.
    int activeLinkCount() const;

    /// Rate of a live flow as of the last solve (kUnlimited for a flow with no link and no cap).
    double rate(int flow) const { return m_flows[std::size_t(flow)].rate; }
    bool alive(int flow) const;
    int flowCount() const { return m_liveFlows; }
    int linkCount() const { return int(m_capacity.size()); }
    double capacity(int link) const { return m_capacity[std::size_t(link)]; }
    /// Sum of the rates of the flows on a link.
    double load(int link) const;
    /// Flows on a link, in no particular order.
    const std::vector<int> &flowsOn(int link) const { return m_linkFlows[std::size_t(link)]; }
    std::span<const int> route(int flow) const
    {
        const Route &r = m_flows[std::size_t(flow)].route;
        return {r.begin(), r.size()};
    }
    /// Live flows whose rate differs after the last solve() or solveAll() (sorted by id);
    /// newly added flows are always listed.
    const std::vector<int> &changedFlows() const { return m_changed; }

private:
    /// A candidate bottleneck in a fill: a link (kind 0) at its fair share or a capped flow
    /// (kind 1).
    struct Candidate
    {
        double share;
        int kind;
        int id;
    };
    class Heap;
    /// A candidate packed into one integer with the same order (see Heap).
    using Key = unsigned __int128;
    std::vector<Key> m_startStore, m_heapStore;
    std::vector<Key> m_bestKey; ///< per flow: the smallest entry offered to the fill's queue
    std::vector<int> m_offered; ///< flows with an entry offered

    /// A flow's route, held in the flow itself up to kInline links (every route of a
    /// fat-tree: host, edge, aggregation, core and back), so a fill or a pass over the flows
    /// reads it with the flow's rate rather than from a separate allocation; longer ones
    /// spill to the heap.
    class Route
    {
    public:
        static constexpr std::size_t kInline = 6;
        Route() = default;
        Route(const Route &o) { assign(o.begin(), o.end()); }
        Route &operator=(const Route &o)
        {
            if (this != &o)
                assign(o.begin(), o.end());
            return *this;
        }
        Route(Route &&) noexcept = default;
        Route &operator=(Route &&) noexcept = default;
        void assign(const std::vector<int> &links)
        {
            assign(links.data(), links.data() + links.size());
        }
        void assign(const int *first, const int *last)
        {
            m_size = std::uint32_t(last - first);
            if (m_size <= kInline) {
                std::copy(first, last, m_inline);
                m_spill.reset();
            } else {
                m_spill = std::make_unique<int[]>(m_size);
                std::copy(first, last, m_spill.get());
            }
        }
        void clear() { assign(nullptr, nullptr); }
        const int *begin() const { return m_size <= kInline ? m_inline : m_spill.get(); }
        const int *end() const { return begin() + m_size; }
        std::size_t size() const { return m_size; }
        bool empty() const { return m_size == 0; }
        int operator[](std::size_t k) const { return begin()[k]; }

    private:
        std::uint32_t m_size = 0;
        int m_inline[kInline] = {};
        std::unique_ptr<int[]> m_spill;
    };

    /// What a fill and a pass over the flows read of a flow, in one cache line: a pass over
    /// every flow (collectByScan) and each freeze load one line per flow.
    struct alignas(64) Flow
    {
        double rate = 0;
        double cap = kUnlimited;
        Route route;
        bool alive = false;
        bool fresh = false;
    };
    /// Per flow: its rate, or -inf when it is removed, apart from the flow, for the pass
    /// over every flow (collectByScan) to skip those below its level reading 8 bytes each.
    std::vector<double> m_scanRate;
    /// Per flow: its position in each route link's flow list (read only when it is removed).
    std::vector<std::vector<int>> m_slot;

    /// Grows `v`'s capacity to at least `n`, by doubling.
    template<typename T>
    static void reserveFor(std::vector<T> &v, std::size_t n);
    /// Collects the component(s) reachable from the seeds into m_compFlows / m_compLinks,
    /// over every link (`all`) or over the possible bottlenecks only.
    /// With `above` > 0, a link adds only its flows that are new or have a rate >= above.
    void collect(const std::vector<int> &seedLinks, const std::vector<int> &seedFlows,
                 bool all, double above = 0);
    void addToComponent(int flow, bool all, std::vector<int> &stack);
    /// collect() over every link with every live flow and link among the seeds (solveAll),
    /// in linear time without a search.
    void collectEverything();
    /// A superset of what collect(seedLinks, seedFlows, false, above) collects, by one pass
    /// over every flow instead of a search.
    void collectByScan(const std::vector<int> &seedLinks, const std::vector<int> &seedFlows,
                       double above);
    /// collect() or collectByScan(), whichever the size of the last search's component makes
    /// cheaper.
    void collectBySize(const std::vector<int> &seedLinks, const std::vector<int> &seedFlows,
                       double above);
    std::size_t m_searchReached = 0; ///< flows the last search collected
    /// Left-out links that flows made faster in the current fill cross (marked per fill).
    std::vector<int> m_roseLinks;
    std::vector<std::uint32_t> m_roseMark;
    std::uint32_t m_roseEpoch = 0;
    std::uint32_t m_scans = 0;
    /// Whether `flows` holds every live flow (a first solve, or everything replaced).
    bool everyFlowIn(const std::vector<int> &flows);
    /// Progressive filling over m_compFlows / m_compLinks. Flows with a rate below `keepBelow`
    /// (and not new) keep their rates: the fill starts where the last one stood at that level
    /// (see LinkFill::hist); 0 re-solves every flow of the component.
    void fill(bool all, double keepBelow);
    /// A lower bound of the level at which the change since the last solve (the removed
    /// flows, `newFlows`) can first make a difference to progressive filling (0 when there
    /// is no safe bound).
    double unaffectedLevel(const std::vector<int> &newFlows);
    /// `level` lowered to where a left-out link of a new flow could saturate, if below it (a
    /// repair takes such a link in from that level).
    double leftOutLevel(const std::vector<int> &newFlows, double level);
    /// For a round after `links` were taken in: builds their histories from the current
    /// rates and returns a lower bound of the level at which the first of them saturates
    /// (0 when there is no safe bound).
    double takenInLevel(const std::vector<int> &links);
    /// Sets `link`'s history to its old flows at their current rates, in freeze order (for a
    /// link taken in that froze nothing in the last fill); false when two rates are so close
    /// that rounding could freeze them in either order.
    bool historyFromRates(int link);
    /// A new flow (added since the last solve) grows with the water in the first round of a
    /// solve; later rounds treat it as an old one at the rate the first round gave it.
    bool isNew(const Flow &f) const { return m_newFlowsGrow && f.fresh; }
    /// Sets a live flow's rate, and its copy for the pass over every flow (m_scanRate).
    void setRate(int flow, double rate)
    {
        m_flows[std::size_t(flow)].rate = rate;
        m_scanRate[std::size_t(flow)] = rate;
    }
    /// Whether every link of the component has the history of the current rates with the
    /// flows below `level` first; sets each link's keepPrefix, which a fill below `level`
    /// resumes from.
    bool historiesUsable(double level);
    /// The level at which `link` saturates if its old flows keep their old rates and its new
    /// flows grow with the water level.
    double saturationLevel(int link);
    /// Whether `flow` keeps its rate in a repair from `level`: an old flow frozen below it.
    bool keptBelow(int flow, double level) const;
    /// Sets `link`'s history to `rates` (sorted) taken in turn from its capacity, marked not
    /// valid yet; returns the position of the first rate that is not finite or is a rounding
    /// above the one before it (rounding could freeze the two in either order), else the size.
    std::size_t historyFromSorted(int link, const std::vector<double> &rates);
    /// For a link a repair takes in: its history prefix below `level` from the rates of its
    /// flows there; false when it could saturate below the level or rounding could order them
    /// otherwise.
    bool prefixFromRates(int link, double level);
    /// Sets `link`'s keepPrefix to its history entries below `level`; false when its history
    /// is not that of the current rates or has an entry below the level after the prefix.
    bool prefixBelow(int link, double level);
    /// Whether a left-out link stays below (1 - 1e-9) of its capacity at the current rates.
    bool staysSlack(int link);
    void beginSolve();
    void listChanged();
    /// Leaves out the component's links with room to spare, lists the changed flows and
    /// returns how many flows were re-solved.
    int finishSolve();
    /// Records a flow's rate and bottleneck before this solve, the first time it is filled.
    void touch(int flow);
    int bottleneckBefore(int flow) const;
    /// A flow's rate before this solve (its rate now if this solve has not filled it yet).
    double rateBefore(int flow) const;
    /// Solves the change by re-filling only the flows it reaches (see solve()); false, with
    /// everything as it was, when that grows past its budget.
    bool repairLocally(const std::vector<int> &seedLinks, const std::vector<int> &seedFlows,
                       std::size_t &filled);
    /// Progressive filling of m_repairFlows over m_regionLinks, every other flow on those
    /// links pinned (m_pinned) at its old rate where its old bottleneck froze it; false when
    /// the pinned flows are not as a fill left them.
    bool fillRegion();
    /// The links a fill works on: every link, the active ones, or a repair's region.
    enum class Scope { All, Active, Region };
    template<Scope scope>
    bool counts(int link) const;
    /// Progressive filling from the heap's entries until every flow is frozen (shared by
    /// fill() and fillRegion()).
    template<Scope scope>
    void drain(Heap &heap);
    /// Puts a flow into a fill (its cap into the heap) and a link, resumed from the first
    /// `keep` entries of its history.
    void startFlow(Heap &heap, int flow);
    void startLink(Heap &heap, int link, std::size_t keep);

    std::vector<double> m_capacity;
    std::vector<std::vector<int>> m_linkFlows;
    std::vector<Flow> m_flows;
    std::vector<int> m_freeIds;
    int m_liveFlows = 0;

    std::vector<int> m_dirtyLinks, m_dirtyFlows;
    std::vector<std::uint32_t> m_linkMark, m_flowMark;
    std::uint32_t m_epoch = 0;
    std::vector<int> m_compFlows, m_compLinks, m_changed;
    // Scratch for fill(), indexed by flow id.
    std::vector<std::uint8_t> m_frozen;
    std::vector<double> m_oldRate; ///< a flow's rate before the current solve
    std::vector<std::uint8_t> m_active; ///< per link: taken into components and fills
    std::vector<std::uint32_t> m_touchMark; ///< per flow: solve epoch it was last filled in
    bool m_newFlowsGrow = true;
    std::uint32_t m_solveEpoch = 0;
    std::vector<int> m_touched, m_stack;
    // Progressive filling's history per link, in freeze order: the rate of each flow frozen
    // on it and the link's remaining capacity after it. A re-solve that keeps the flows below
    // a level resumes every link from the prefix of its history below that level, which is
    // bit for bit where a full fill would stand there.
    struct HistoryEntry
    {
        double rate, remaining;
    };
    /// What a freeze reads and writes of a link, in one cache line (six arrays before: up to six
    /// lines per link of every frozen flow).
    struct alignas(64) LinkFill
    {
        double remaining = 0; ///< capacity left in the current fill
        double heapKey = 0;   ///< the key of its live heap entry in the current fill
        double load = 0;      ///< sum of its flows' rates, kept up to date
        int unfrozen = 0;     ///< its flows not yet frozen in the current fill
        std::uint32_t keepPrefix = 0; ///< history entries below the level
        std::vector<HistoryEntry> hist; ///< the last fill's history
    };
    std::vector<LinkFill> m_link;
    /// Per link: whether its history is that of the current rates (kHistValid), and also in
    /// rate order (kHistSorted: no share was taken late), or not (0).
    std::vector<std::uint8_t> m_histValid;
    static constexpr std::uint8_t kHistValid = 1, kHistSorted = 2;
    std::vector<std::pair<int, double>> m_removedOn; ///< (active link, rate) of removed flows
    std::vector<double> m_scratch, m_rates;
    // Local repair: per flow the link that froze it in its last fill (or a kind below 0), as
    // it was before this solve; marks of the repair's flows, of its fill and of its links.
    Repair m_repair = Repair::Auto;
    double m_repairLevel = 0;           ///< the level below which a repair keeps every flow
    double m_retryLevel = -1;           ///< a lower level to repair from (-1: none)
    std::vector<std::uint32_t> m_newOn; ///< per link: new flows on it (leftOutLevel's scratch)
    std::vector<int> m_bneck, m_oldBneck;
    std::vector<std::uint32_t> m_inRepair, m_inFill, m_regionMark;
    std::uint32_t m_regionEpoch = 0, m_fillEpoch = 0;
    std::vector<int> m_repairFlows, m_regionLinks, m_pinned;
    std::vector<std::pair<int, int>> m_pseudo; ///< (old bottleneck outside, pinned flow)
    std::vector<std::uint32_t> m_pseudoAt;      ///< per link: its first entry in m_pseudo
    /// Per link: in its last fill it took its share after a higher one had been taken (a
    /// share rounding lowered after the link went into the heap).
    std::vector<std::uint8_t> m_late;
    std::vector<std::uint8_t> m_frozenLate; ///< per pinned flow: frozen by a late share
    struct SavedLink
    {
        int link;
        std::vector<HistoryEntry> hist;
        std::uint8_t histValid;
        bool active, late;
    };
    std::vector<SavedLink> m_saved; ///< the region's links as they were, to give up
    std::size_t m_savedCount = 0;
    /// Flows filled per solve by re-filling by levels and by a local repair (given up or
    /// not), smoothed (0: not yet measured).
    double m_levelCost = 0, m_repairCost = 0;
    static double smoothed(double average, double sample);
    /// A local repair's budget, in flows filled (see kRepairBudget).
    std::size_t repairBudget() const;
    Stats m_stats;
};

} // namespace cb
