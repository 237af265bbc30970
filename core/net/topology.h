#pragma once
// The cluster's network as a graph: vertices are nodes then switches, each link gives two
// directed edges. Answers connectivity, hop distances, routes (shortest paths with a
// deterministic ECMP choice) and cuts (max-flow), for validation, scheduling and simulation.

#include "model/cluster.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cb {

class Topology
{
public:
    struct Edge
    {
        int to;       ///< vertex at the far end
        int directed; ///< directed link id: 2 * link index + (0 for a->b, 1 for b->a)
    };

    explicit Topology(const Cluster &cluster);

    int nodeCount() const { return m_nodeCount; }
    int vertexCount() const { return int(m_adjacency.size()); }
    int directedLinkCount() const { return int(m_capacityGbps.size()); }
    /// Vertex of a node or switch id, or nullopt.
    std::optional<int> vertex(const std::string &id) const;
    const std::string &name(int vertex) const { return m_names[std::size_t(vertex)]; }
    const std::vector<Edge> &edges(int vertex) const { return m_adjacency[std::size_t(vertex)]; }
    double capacityGbps(int directedLink) const { return m_capacityGbps[std::size_t(directedLink)]; }
    double latencyUs(int directedLink) const { return m_latencyUs[std::size_t(directedLink)]; }

    /// Connected-component id of every vertex (0, 1, ... in order of first vertex).
    std::vector<int> components() const;
    /// Hops from `source` to every vertex (-1 where unreachable).
    std::vector<int> hopsFrom(int source) const;
    /// Hops between two nodes (by node index); -1 if unreachable. Cached per destination
    /// (per leaf for hosts with one uplink switch).
    int hops(int srcNode, int dstNode) const;
    /// Directed links along a shortest path from node `srcNode` to node `dstNode`. Where
    /// several shortest paths exist, each hop picks among equal next hops by `flowHash`
    /// (deterministic ECMP); with `rail` >= 0 the first hop is the rail-th of the source's
    /// equal next hops (modulo their count, in link order): the NIC a collective's channel
    /// uses. Empty when src == dst or unreachable.
    std::vector<int> route(int srcNode, int dstNode, std::uint64_t flowHash, int rail = -1) const;

    /// Maximum flow (Gbit/s) from the vertices in `from` to the vertices in `to`.
    double maxFlowGbps(const std::vector<int> &from, const std::vector<int> &to) const;
    /// Bisection bandwidth estimate: the max flow between the first and second half of the
    /// nodes in cluster order (exact for generated leaf-spine and fat-tree clusters, whose
    /// node order follows the tree). 0 with fewer than two nodes.
    double bisectionGbps() const;

private:
    /// Hops to one vertex from every other, read as hops(x). A vertex whose links all lead
    /// to one neighbour (a host under its leaf) is reached through it: its hops are the
    /// neighbour's plus one, so the cache holds one vector per leaf, not per host (16,384
    /// of 17,920 vertices each on the largest generated fat-tree were 1.1 GB).
    struct HopsTo
    {
        const std::vector<int> *dist; ///< hops to `via`, or to `dst` itself when via < 0
        int dst, via;
        int operator()(int x) const
        {
            if (via < 0)
                return (*dist)[std::size_t(x)];
            if (x == dst)
                return 0;
            const int d = (*dist)[std::size_t(x)];
            return d < 0 ? -1 : d + 1;
        }
    };
    HopsTo hopsTo(int dstVertex) const;
    const std::vector<int> &distancesTo(int dstVertex) const;

    int m_nodeCount = 0;
    std::vector<std::string> m_names;
    std::unordered_map<std::string, int> m_index;
    std::vector<std::vector<Edge>> m_adjacency;
    std::vector<int> m_sole; ///< per vertex: the one neighbour all its links lead to, or -1
    std::vector<double> m_capacityGbps;
    std::vector<double> m_latencyUs;
    mutable std::unordered_map<int, std::vector<int>> m_distCache;
};

} // namespace cb
