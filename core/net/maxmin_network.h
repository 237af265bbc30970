#pragma once
// Max-min fair sharing of directed link capacity among long-lived flows (progressive
// filling, the bottleneck algorithm): repeatedly take the link whose remaining capacity
// divided by its unfrozen flows is smallest, freeze those flows at that share and take their
// rate off every link they cross. A flow may carry its own rate cap (e.g. the node's internal
// bandwidth for two co-located tasks, which cross no link); a cap acts as a private link.
//
// Incremental: adding or removing flows only marks their links dirty; solve() re-solves the
// connected components of the flow-link graph that contain a dirty link (or a dirty
// link-less flow), which gives the same rates as solveAll() because components do not
// interact. Rates are in the unit of the capacities (Gbit/s in ClusterBench).

#include <cstdint>
#include <limits>
#include <vector>

namespace cb {

class MaxMinNetwork
{
public:
    static constexpr double kUnlimited = std::numeric_limits<double>::infinity();

    /// One capacity per directed link (Topology numbering), each >= 0.
    explicit MaxMinNetwork(std::vector<double> linkCapacity);

    /// Adds a flow over `route` (directed link ids; may be empty) with an optional rate cap;
    /// returns its id (ids of removed flows are reused). Rates are stale until solve().
    int addFlow(const std::vector<int> &route, double capacityCap = kUnlimited);
    void removeFlow(int flow);

    /// Re-solves the components touched since the last solve; returns how many flows were
    /// re-solved. Flows whose rate changed are listed by changedFlows().
    int solve();
    /// Re-solves everything from scratch (for comparison and tests).
    void solveAll();

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
    const std::vector<int> &route(int flow) const { return m_flows[std::size_t(flow)].route; }
    /// Live flows whose rate differs after the last solve() or solveAll() (sorted by id);
    /// newly added flows are always listed.
    const std::vector<int> &changedFlows() const { return m_changed; }

private:
    struct Flow
    {
        std::vector<int> route;
        std::vector<int> slot; ///< position of this flow in each route link's flow list
        double cap = kUnlimited;
        double rate = 0;
        bool alive = false;
        bool fresh = false;
    };

    void markDirty(int flow);
    /// Collects the component(s) reachable from the seeds into m_compFlows / m_compLinks.
    void collect(const std::vector<int> &seedLinks, const std::vector<int> &seedFlows);
    /// Progressive filling over m_compFlows / m_compLinks.
    void fill();

    std::vector<double> m_capacity;
    std::vector<std::vector<int>> m_linkFlows;
    std::vector<Flow> m_flows;
    std::vector<int> m_freeIds;
    int m_liveFlows = 0;

    std::vector<int> m_dirtyLinks, m_dirtyFlows;
    std::vector<std::uint32_t> m_linkMark, m_flowMark;
    std::uint32_t m_epoch = 0;
    std::vector<int> m_compFlows, m_compLinks, m_changed;
    // Scratch for fill(), indexed by link or flow id.
    std::vector<double> m_remaining;
    std::vector<int> m_unfrozen;
    std::vector<std::uint8_t> m_frozen;
    std::vector<double> m_oldRate;
};

} // namespace cb
