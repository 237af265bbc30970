#include "net/topology.h"

#include "util/rng.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace cb {

Topology::Topology(const Cluster &cluster)
{
    m_nodeCount = int(cluster.nodes.size());
    const std::size_t n = cluster.nodes.size() + cluster.switches.size();
    m_names.reserve(n);
    for (const Node &node : cluster.nodes)
        m_names.push_back(node.id);
    for (const Switch &sw : cluster.switches)
        m_names.push_back(sw.id);
    m_index.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        m_index.emplace(m_names[i], int(i)); // the first wins on duplicates
    m_adjacency.resize(n);
    m_capacityGbps.resize(cluster.links.size() * 2, 0.0);
    m_latencyUs.resize(cluster.links.size() * 2, 0.0);
    for (std::size_t l = 0; l < cluster.links.size(); ++l) {
        const Link &link = cluster.links[l];
        m_capacityGbps[2 * l] = m_capacityGbps[2 * l + 1] = link.capacityGbps;
        m_latencyUs[2 * l] = m_latencyUs[2 * l + 1] = link.latencyUs;
        auto a = vertex(link.a);
        auto b = vertex(link.b);
        if (!a || !b || *a == *b)
            continue; // reported by validation; such a link carries nothing
        m_adjacency[std::size_t(*a)].push_back({*b, int(2 * l)});
        m_adjacency[std::size_t(*b)].push_back({*a, int(2 * l + 1)});
    }
    m_sole.assign(n, -1);
    for (std::size_t v = 0; v < n; ++v) {
        const std::vector<Edge> &out = m_adjacency[v];
        if (!out.empty() && std::all_of(out.begin(), out.end(),
                                        [&](const Edge &e) { return e.to == out.front().to; }))
            m_sole[v] = out.front().to;
    }
}

std::optional<int> Topology::vertex(const std::string &id) const
{
    auto it = m_index.find(id);
    if (it == m_index.end())
        return std::nullopt;
    return it->second;
}

std::vector<int> Topology::components() const
{
    std::vector<int> comp(m_adjacency.size(), -1);
    int next = 0;
    std::vector<int> stack;
    for (std::size_t s = 0; s < m_adjacency.size(); ++s) {
        if (comp[s] >= 0)
            continue;
        comp[s] = next;
        stack.assign(1, int(s));
        while (!stack.empty()) {
            const int v = stack.back();
            stack.pop_back();
            for (const Edge &e : m_adjacency[std::size_t(v)])
                if (comp[std::size_t(e.to)] < 0) {
                    comp[std::size_t(e.to)] = next;
                    stack.push_back(e.to);
                }
        }
        ++next;
    }
    return comp;
}

std::vector<int> Topology::hopsFrom(int source) const
{
    std::vector<int> dist(m_adjacency.size(), -1);
    std::vector<int> queue;
    queue.reserve(m_adjacency.size());
    dist[std::size_t(source)] = 0;
    queue.push_back(source);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const int v = queue[head];
        for (const Edge &e : m_adjacency[std::size_t(v)])
            if (dist[std::size_t(e.to)] < 0) {
                dist[std::size_t(e.to)] = dist[std::size_t(v)] + 1;
                queue.push_back(e.to);
            }
    }
    return dist;
}

const std::vector<int> &Topology::distancesTo(int dstVertex) const
{
    auto it = m_distCache.find(dstVertex);
    if (it != m_distCache.end())
        return it->second;
    // Links are symmetric, so hops to dst equal hops from dst.
    return m_distCache.emplace(dstVertex, hopsFrom(dstVertex)).first->second;
}

Topology::HopsTo Topology::hopsTo(int dstVertex) const
{
    const int via = m_sole[std::size_t(dstVertex)];
    return {&distancesTo(via >= 0 ? via : dstVertex), dstVertex, via};
}

int Topology::hops(int srcNode, int dstNode) const
{
    if (srcNode == dstNode)
        return 0;
    return hopsTo(dstNode)(srcNode);
}

std::vector<int> Topology::route(int srcNode, int dstNode, std::uint64_t flowHash, int rail) const
{
    std::vector<int> path;
    if (srcNode == dstNode)
        return path;
    const HopsTo dist = hopsTo(dstNode);
    if (dist(srcNode) < 0)
        return path;
    path.reserve(std::size_t(dist(srcNode))); // (one hop per step closer)
    int v = srcNode;
    while (v != dstNode) {
        // The edges one step closer, counted, then the chosen one found in a second pass:
        // no list of them is built (a route was eight allocations, 4 % of a replay's).
        const int closer = dist(v) - 1;
        const std::vector<Edge> &edges = m_adjacency[std::size_t(v)];
        std::size_t count = 0;
        for (const Edge &e : edges)
            count += dist(e.to) == closer ? 1 : 0;
        std::size_t want = 0;
        if (count > 1)
            want = rail >= 0 && v == srcNode ? std::size_t(rail) % count
                                             : Rng::mix(flowHash, std::uint64_t(v)) % count;
        const Edge *pick = nullptr;
        for (const Edge &e : edges)
            if (dist(e.to) == closer && want-- == 0) {
                pick = &e;
                break;
            }
        path.push_back(pick->directed);
        v = pick->to;
    }
    return path;
}

double Topology::maxFlowGbps(const std::vector<int> &from, const std::vector<int> &to) const
{
    // Dinic's algorithm on the directed link graph plus a super source and sink.
    struct Arc
    {
        int to;
        double cap;
    };
    const int n = vertexCount() + 2;
    const int source = n - 2, sink = n - 1;
    std::vector<Arc> arcs;
    std::vector<std::vector<int>> out(static_cast<std::size_t>(n));
    auto addArc = [&](int a, int b, double cap) {
        out[std::size_t(a)].push_back(int(arcs.size()));
        arcs.push_back({b, cap});
        out[std::size_t(b)].push_back(int(arcs.size()));
        arcs.push_back({a, 0.0});
    };
    for (int v = 0; v < vertexCount(); ++v)
        for (const Edge &e : m_adjacency[std::size_t(v)])
            addArc(v, e.to, m_capacityGbps[std::size_t(e.directed)]);
    const double inf = std::numeric_limits<double>::infinity();
    for (int v : from)
        addArc(source, v, inf);
    for (int v : to)
        addArc(v, sink, inf);

    double flow = 0;
    std::vector<int> level(static_cast<std::size_t>(n)), it(static_cast<std::size_t>(n));
    constexpr double eps = 1e-9;
    auto bfs = [&] {
        std::fill(level.begin(), level.end(), -1);
        std::deque<int> q{source};
        level[std::size_t(source)] = 0;
        while (!q.empty()) {
            const int v = q.front();
            q.pop_front();
            for (int a : out[std::size_t(v)])
                if (arcs[std::size_t(a)].cap > eps && level[std::size_t(arcs[std::size_t(a)].to)] < 0) {
                    level[std::size_t(arcs[std::size_t(a)].to)] = level[std::size_t(v)] + 1;
                    q.push_back(arcs[std::size_t(a)].to);
                }
        }
        return level[std::size_t(sink)] >= 0;
    };
    // Iterative DFS to avoid deep recursion on large fabrics.
    auto dfs = [&]() -> double {
        std::vector<int> pathArcs;
        int v = source;
        while (true) {
            if (v == sink) {
                double push = inf;
                for (int a : pathArcs)
                    push = std::min(push, arcs[std::size_t(a)].cap);
                for (int a : pathArcs) {
                    arcs[std::size_t(a)].cap -= push;
                    arcs[std::size_t(a) ^ 1].cap += push;
                }
                return push;
            }
            bool advanced = false;
            for (int &i = it[std::size_t(v)]; i < int(out[std::size_t(v)].size()); ++i) {
                const int a = out[std::size_t(v)][std::size_t(i)];
                const Arc &arc = arcs[std::size_t(a)];
                if (arc.cap > eps && level[std::size_t(arc.to)] == level[std::size_t(v)] + 1) {
                    pathArcs.push_back(a);
                    v = arc.to;
                    advanced = true;
                    break;
                }
            }
            if (!advanced) {
                if (v == source)
                    return 0;
                level[std::size_t(v)] = -1; // dead end
                const int a = pathArcs.back();
                pathArcs.pop_back();
                v = arcs[std::size_t(a) ^ 1].to;
                ++it[std::size_t(v)];
            }
        }
    };
    while (bfs()) {
        std::fill(it.begin(), it.end(), 0);
        while (true) {
            const double f = dfs();
            if (f <= eps)
                break;
            if (f == inf)
                return inf;
            flow += f;
        }
    }
    return flow;
}

double Topology::bisectionGbps() const
{
    if (m_nodeCount < 2)
        return 0;
    std::vector<int> a, b;
    for (int v = 0; v < m_nodeCount; ++v)
        (v < m_nodeCount / 2 ? a : b).push_back(v);
    return maxFlowGbps(a, b);
}

} // namespace cb
