#include "stochastic/gpu_pool.h"

namespace cb {

namespace {
constexpr double kEps = 1e-9;
}

void GpuPool::addNode(std::string id, std::string gpuType, int gpus)
{
    NodeState n;
    n.id = std::move(id);
    n.gpuType = std::move(gpuType);
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

std::optional<StsPlacement> GpuPool::place(const StsConfig &c)
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
                if (n.sharedUsers[g] > 0 && n.sharedFree[g] + kEps >= c.fraction &&
                    n.sharedFree[g] < bestRoom) {
                    bestRoom = n.sharedFree[g];
                    best = StsPlacement{i, int(g)};
                }
        }
        if (best) {
            reserve(c, *best);
            return best;
        }
    }
    const int need = c.shared() ? 1 : c.gpus;
    std::optional<std::size_t> node;
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const NodeState &n = m_nodes[i];
        if (n.gpuType == c.gpuType && n.freeWhole >= need &&
            (!node || n.freeWhole < m_nodes[*node].freeWhole))
            node = i;
    }
    if (!node)
        return std::nullopt;
    StsPlacement at{*node, -1};
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
    for (const NodeState &n : m_nodes) {
        if (n.gpuType != c.gpuType)
            continue;
        if (n.freeWhole >= (c.shared() ? 1 : c.gpus))
            return true;
        if (c.shared())
            for (std::size_t g = 0; g < n.sharedFree.size(); ++g)
                if (n.sharedUsers[g] > 0 && n.sharedFree[g] + kEps >= c.fraction)
                    return true;
    }
    return false;
}

bool GpuPool::reserve(const StsConfig &c, const StsPlacement &at)
{
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
    if (n.sharedFree[g] + kEps < c.fraction) {
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

int GpuPool::freeGpus(const std::string &gpuType) const
{
    int free = 0;
    for (const NodeState &n : m_nodes)
        if (n.gpuType == gpuType)
            free += n.freeWhole;
    return free;
}

} // namespace cb
