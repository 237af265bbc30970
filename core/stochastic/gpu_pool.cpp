#include "stochastic/gpu_pool.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cb {

namespace {
constexpr double kPoolEps = 1e-9;
}

void GpuPool::addNode(std::string id, std::string gpuType, int gpus, std::string rack,
                      double nicGbps)
{
    NodeState n;
    n.id = std::move(id);
    n.gpuType = std::move(gpuType);
    n.rack = std::move(rack);
    n.nicGbps = nicGbps;
    n.gpus = gpus;
    n.freeWhole = gpus;
    m_nodes.push_back(std::move(n));
}

void GpuPool::clear()
{
    for (NodeState &n : m_nodes) {
        n.freeWhole = n.gpus;
        n.sharedFree.clear();
        n.sharedUsers.clear();
    }
}

std::optional<std::size_t> GpuPool::authorsFirstFit(const std::string &gpuType, int need)
{
    const auto byFreeThenId = [this](std::size_t a, std::size_t b) {
        const NodeState &x = m_nodes[a], &y = m_nodes[b];
        return x.freeWhole != y.freeWhole ? x.freeWhole < y.freeWhole : x.id < y.id;
    };
    if (m_order.size() != m_nodes.size()) {
        m_order.resize(m_nodes.size());
        for (std::size_t i = 0; i < m_nodes.size(); ++i)
            m_order[i] = i;
        m_freeAtLastPlace.assign(m_nodes.size(), -1); // everything "freed": sort all
    }
    // GPUs freed since the last placement: the authors sort that type's list.
    std::map<std::string, bool> freed;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].freeWhole > m_freeAtLastPlace[i])
            freed[m_nodes[i].gpuType] = true;
    for (const auto &[type, yes] : freed) {
        std::vector<std::size_t> slots, members;
        for (std::size_t k = 0; k < m_order.size(); ++k)
            if (m_nodes[m_order[k]].gpuType == type) {
                slots.push_back(k);
                members.push_back(m_order[k]);
            }
        std::stable_sort(members.begin(), members.end(), byFreeThenId);
        for (std::size_t k = 0; k < slots.size(); ++k)
            m_order[slots[k]] = members[k];
    }
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        m_freeAtLastPlace[i] = m_nodes[i].freeWhole;
    for (std::size_t i : m_order)
        if (m_nodes[i].gpuType == gpuType && m_nodes[i].freeWhole >= need)
            return i;
    return std::nullopt;
}

void GpuPool::authorsTook(std::size_t node)
{
    // Out of the list, then back in front of the first node of its type with at least as
    // many free GPUs as it has left (at the end if there is none).
    m_order.erase(std::find(m_order.begin(), m_order.end(), node));
    const NodeState &n = m_nodes[node];
    auto at = std::find_if(m_order.begin(), m_order.end(), [&](std::size_t i) {
        return m_nodes[i].gpuType == n.gpuType && m_nodes[i].freeWhole >= n.freeWhole;
    });
    m_order.insert(at, node);
    m_freeAtLastPlace[node] = n.freeWhole;
}

std::optional<StsPlacement> GpuPool::place(const StsConfig &c)
{
    return place(c, m_split);
}

std::optional<StsPlacement> GpuPool::splitPlacement(const StsConfig &c, StsSplit split) const
{
    // Nodes of the type with free whole GPUs.
    std::vector<std::size_t> cand;
    int totalFree = 0;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].gpuType == c.gpuType && m_nodes[i].freeWhole > 0) {
            cand.push_back(i);
            totalFree += m_nodes[i].freeWhole;
        }
    if (totalFree < c.gpus)
        return std::nullopt;
    const auto freeOf = [&](std::size_t i) { return m_nodes[i].freeWhole; };
    // Takes GPUs from `nodes` in order until the configuration is covered.
    const auto take = [&](const std::vector<std::size_t> &nodes) {
        StsPlacement at;
        int left = c.gpus;
        for (std::size_t i : nodes) {
            if (left == 0)
                break;
            const int n = std::min(left, freeOf(i));
            at.parts.emplace_back(i, n);
            left -= n;
        }
        at.node = at.parts.front().first;
        return at;
    };
    if (split == StsSplit::BestFit) {
        std::stable_sort(cand.begin(), cand.end(),
                         [&](std::size_t a, std::size_t b) { return freeOf(a) < freeOf(b); });
        return take(cand);
    }
    // Network: per rack, largest free first; the rack needing the fewest nodes, then the
    // least GPUs left over on the nodes used, then the rack seen first.
    const auto largestFirst = [&](std::vector<std::size_t> &v) {
        std::stable_sort(v.begin(), v.end(),
                         [&](std::size_t a, std::size_t b) { return freeOf(a) > freeOf(b); });
    };
    std::vector<std::string> rackOrder;
    std::map<std::string, std::vector<std::size_t>> byRack;
    for (std::size_t i : cand) {
        if (!byRack.count(m_nodes[i].rack))
            rackOrder.push_back(m_nodes[i].rack);
        byRack[m_nodes[i].rack].push_back(i);
    }
    std::optional<StsPlacement> best;
    std::tuple<int, int> bestKey{0, 0};
    for (const std::string &rack : rackOrder) {
        std::vector<std::size_t> nodes = byRack[rack];
        int free = 0;
        for (std::size_t i : nodes)
            free += freeOf(i);
        if (free < c.gpus)
            continue;
        largestFirst(nodes);
        StsPlacement at = take(nodes);
        int used = 0;
        for (const auto &[i, n] : at.parts)
            used += freeOf(i);
        const std::tuple<int, int> key{int(at.parts.size()), used - c.gpus};
        if (!best || key < bestKey) {
            best = at;
            bestKey = key;
        }
    }
    if (best)
        return best;
    // No rack holds it: the racks with the most free GPUs first, largest nodes first.
    std::vector<std::string> racks = rackOrder;
    std::map<std::string, int> rackFree;
    for (const auto &[rack, nodes] : byRack)
        for (std::size_t i : nodes)
            rackFree[rack] += freeOf(i);
    std::stable_sort(racks.begin(), racks.end(), [&](const std::string &a, const std::string &b) {
        return rackFree[a] > rackFree[b];
    });
    std::vector<std::size_t> order;
    for (const std::string &rack : racks) {
        std::vector<std::size_t> nodes = byRack[rack];
        largestFirst(nodes);
        order.insert(order.end(), nodes.begin(), nodes.end());
    }
    return take(order);
}

std::optional<StsPlacement> GpuPool::place(const StsConfig &c, StsSplit split)
{
    if (c.shared()) {
        // Already shared GPUs first: the least room that fits.
        std::optional<StsPlacement> best;
        double bestRoom = 2;
        for (std::size_t i = 0; i < m_nodes.size(); ++i) {
            const NodeState &n = m_nodes[i];
            if (n.gpuType != c.gpuType)
                continue;
            for (std::size_t g = 0; g < n.sharedFree.size(); ++g)
                if (n.sharedUsers[g] > 0 && n.sharedFree[g] + kPoolEps >= c.fraction &&
                    n.sharedFree[g] < bestRoom) {
                    bestRoom = n.sharedFree[g];
                    best = StsPlacement{i, int(g), {}};
                }
        }
        if (best) {
            reserve(c, *best);
            return best;
        }
    }
    const int need = c.shared() ? 1 : c.gpus;
    if (m_tieOrder == StsTieOrder::Authors && !c.shared()) {
        if (auto first = authorsFirstFit(c.gpuType, need)) {
            StsPlacement at{*first, -1, {}};
            reserve(c, at);
            authorsTook(*first);
            return at;
        }
        if (split == StsSplit::None)
            return std::nullopt;
    }
    std::optional<std::size_t> node;
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const NodeState &n = m_nodes[i];
        if (n.gpuType == c.gpuType && n.freeWhole >= need &&
            (!node || n.freeWhole < m_nodes[*node].freeWhole))
            node = i;
    }
    if (!node) {
        if (c.shared() || split == StsSplit::None)
            return std::nullopt;
        auto at = splitPlacement(c, split);
        if (at)
            reserve(c, *at);
        return at;
    }
    StsPlacement at{*node, -1, {}};
    if (c.shared()) {
        NodeState &n = m_nodes[*node];
        // Reuse an idle shared slot if one exists, else open a new one.
        int slot = -1;
        for (std::size_t g = 0; g < n.sharedUsers.size(); ++g)
            if (n.sharedUsers[g] == 0) {
                slot = int(g);
                break;
            }
        if (slot < 0) {
            n.sharedFree.push_back(1.0);
            n.sharedUsers.push_back(0);
            slot = int(n.sharedFree.size()) - 1;
        }
        at.sharedGpu = slot;
    }
    reserve(c, at);
    return at;
}

bool GpuPool::fits(const StsConfig &c) const
{
    if (!c.shared() && m_split != StsSplit::None) {
        int free = 0;
        for (const NodeState &n : m_nodes)
            if (n.gpuType == c.gpuType)
                free += n.freeWhole;
        return free >= c.gpus;
    }
    for (const NodeState &n : m_nodes) {
        if (n.gpuType != c.gpuType)
            continue;
        if (n.freeWhole >= (c.shared() ? 1 : c.gpus))
            return true;
        if (c.shared())
            for (std::size_t g = 0; g < n.sharedFree.size(); ++g)
                if (n.sharedUsers[g] > 0 && n.sharedFree[g] + kPoolEps >= c.fraction)
                    return true;
    }
    return false;
}

bool GpuPool::reserve(const StsConfig &c, const StsPlacement &at)
{
    if (!at.parts.empty()) {
        int total = 0;
        for (const auto &[i, n] : at.parts) {
            if (i >= m_nodes.size() || m_nodes[i].gpuType != c.gpuType || n < 1 ||
                m_nodes[i].freeWhole < n || c.shared())
                return false;
            total += n;
        }
        if (total != c.gpus)
            return false;
        for (const auto &[i, n] : at.parts)
            m_nodes[i].freeWhole -= n;
        return true;
    }
    if (at.node >= m_nodes.size())
        return false;
    NodeState &n = m_nodes[at.node];
    if (n.gpuType != c.gpuType)
        return false;
    if (!c.shared()) {
        if (n.freeWhole < c.gpus)
            return false;
        n.freeWhole -= c.gpus;
        return true;
    }
    if (at.sharedGpu < 0)
        return false;
    const std::size_t g = std::size_t(at.sharedGpu);
    while (n.sharedFree.size() <= g) {
        n.sharedFree.push_back(1.0);
        n.sharedUsers.push_back(0);
    }
    if (n.sharedUsers[g] == 0) {
        if (n.freeWhole < 1)
            return false;
        n.freeWhole -= 1;
        n.sharedFree[g] = 1.0;
    }
    if (n.sharedFree[g] + kPoolEps < c.fraction) {
        if (n.sharedUsers[g] == 0)
            n.freeWhole += 1;
        return false;
    }
    n.sharedFree[g] -= c.fraction;
    n.sharedUsers[g] += 1;
    return true;
}

void GpuPool::release(const StsConfig &c, const StsPlacement &at)
{
    if (!at.parts.empty()) {
        for (const auto &[i, n] : at.parts)
            m_nodes[i].freeWhole += n;
        return;
    }
    NodeState &n = m_nodes[at.node];
    if (!c.shared()) {
        n.freeWhole += c.gpus;
        return;
    }
    const std::size_t g = std::size_t(at.sharedGpu);
    n.sharedFree[g] += c.fraction;
    n.sharedUsers[g] -= 1;
    if (n.sharedUsers[g] == 0) {
        n.sharedFree[g] = 1.0;
        n.freeWhole += 1;
    }
}

int GpuPool::busyGpus(std::size_t node) const
{
    // A shared GPU with slices left its node's free whole GPUs when its first slice came.
    return m_nodes[node].gpus - m_nodes[node].freeWhole;
}

std::string GpuPool::describe(const StsPlacement &at) const
{
    if (at.parts.empty())
        return at.node < m_nodes.size() ? m_nodes[at.node].id : std::string();
    std::string out;
    for (const auto &[i, n] : at.parts)
        out += (out.empty() ? "" : "+") + m_nodes[i].id + ":" + std::to_string(n);
    return out;
}

int GpuPool::freeGpus(const std::string &gpuType) const
{
    int free = 0;
    for (const NodeState &n : m_nodes)
        if (n.gpuType == gpuType)
            free += n.freeWhole;
    return free;
}

} // namespace cb
