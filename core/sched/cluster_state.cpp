#include "sched/cluster_state.h"
#include "util/text.h"

#include <algorithm>
#include <sstream>

namespace cb {

namespace {

constexpr double kGpuEps = 1e-9;

} // namespace

ClusterState::ClusterState(const Cluster &cluster)
{
    const std::size_t n = cluster.nodes.size();
    m_cpuCap.resize(n);
    m_cpuUsed.assign(n, 0.0);
    m_memCap.resize(n);
    m_memUsed.assign(n, 0.0);
    m_gpuCap.resize(n);
    m_gpuFreeWhole.resize(n);
    m_gpuUsedSum.assign(n, 0.0);
    m_gpuMaxFree.resize(n);
    m_gpuTypeId.resize(n);
    m_slotOffset.resize(n + 1);
    m_domainCount.resize(n);
    for (const GpuType &t : cluster.gpuTypes)
        m_gpuTypeNames.push_back(t.name);
    int offset = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Node &node = cluster.nodes[i];
        m_cpuCap[i] = node.cpus;
        m_memCap[i] = node.memoryGiB;
        m_gpuCap[i] = node.gpus;
        m_gpuFreeWhole[i] = node.gpus;
        m_gpuMaxFree[i] = node.gpus > 0 ? 1.0 : 0.0;
        m_gpuTypeId[i] = node.gpus > 0 ? gpuTypeIndex(node.gpuType) : -1;
        if (node.gpus > 0 && m_gpuTypeId[i] < 0) { // not in the catalogue: still a type
            m_gpuTypeNames.push_back(node.gpuType);
            m_gpuTypeId[i] = int(m_gpuTypeNames.size()) - 1;
        }
        m_slotOffset[i] = offset;
        offset += node.gpus;
    }
    m_slotOffset[n] = offset;
    m_slotUsed.assign(std::size_t(offset), 0.0);
    m_slotDomain.assign(std::size_t(offset), -1);
    for (std::size_t i = 0; i < n; ++i) {
        const auto &domains = cluster.nodes[i].interconnect.nvlinkDomains;
        m_domainCount[i] = int(domains.size());
        for (std::size_t d = 0; d < domains.size(); ++d)
            for (int g : domains[d])
                if (g >= 0 && g < cluster.nodes[i].gpus)
                    m_slotDomain[slot(int(i), g)] = int(d);
    }
}

int ClusterState::gpuTypeIndex(const std::string &name) const
{
    for (std::size_t i = 0; i < m_gpuTypeNames.size(); ++i)
        if (m_gpuTypeNames[i] == name)
            return int(i);
    return -1;
}

bool ClusterState::fits(int n, double cpus, double memGiB, int gpus, double fraction) const
{
    const auto i = std::size_t(n);
    if (m_cpuUsed[i] + cpus > m_cpuCap[i] + kGpuEps ||
        m_memUsed[i] + memGiB > m_memCap[i] + kGpuEps)
        return false;
    if (gpus <= 0)
        return true;
    if (fraction < 1.0)
        return m_gpuMaxFree[i] + kGpuEps >= fraction;
    return m_gpuFreeWhole[i] >= gpus;
}

std::string ClusterState::whyNotFit(int n, double cpus, double memGiB, int gpus,
                                    double fraction) const
{
    const auto i = std::size_t(n);
    if (m_cpuUsed[i] + cpus > m_cpuCap[i] + kGpuEps)
        return "needs " + numberText(cpus) + " CPUs, " + numberText(m_cpuCap[i] - m_cpuUsed[i]) +
               " of " + numberText(m_cpuCap[i]) + " free";
    if (m_memUsed[i] + memGiB > m_memCap[i] + kGpuEps)
        return "needs " + numberText(memGiB) + " GiB, " + numberText(m_memCap[i] - m_memUsed[i]) +
               " of " + numberText(m_memCap[i]) + " GiB free";
    if (gpus > 0 && fraction < 1.0 && m_gpuMaxFree[i] + kGpuEps < fraction)
        return "needs " + numberText(fraction) + " of a GPU, largest free share is " +
               numberText(m_gpuMaxFree[i]);
    if (gpus > 0 && fraction >= 1.0 && m_gpuFreeWhole[i] < gpus)
        return "needs " + std::to_string(gpus) + " free GPU" + (gpus > 1 ? "s" : "") + ", " +
               numberText(m_gpuFreeWhole[i]) + " of " + numberText(m_gpuCap[i]) + " free";
    return {};
}

bool ClusterState::fitsOneNvlinkDomain(int n, int gpus, bool *partlyUsed) const
{
    const int domains = m_domainCount[std::size_t(n)];
    bool found = false, partly = false;
    for (int d = 0; d < domains; ++d) {
        int free = 0, busy = 0;
        for (int g = 0; g < int(m_gpuCap[std::size_t(n)]); ++g)
            if (m_slotDomain[slot(n, g)] == d)
                (m_slotUsed[slot(n, g)] <= kGpuEps ? free : busy) += 1;
        if (free >= gpus) {
            found = true;
            partly = partly || busy > 0;
        }
    }
    if (partlyUsed)
        *partlyUsed = partly;
    return found;
}

std::vector<int> ClusterState::chooseGpus(int n, int gpus, double fraction) const
{
    std::vector<int> out;
    const int count = int(m_gpuCap[std::size_t(n)]);
    if (gpus <= 0)
        return out;
    if (fraction < 1.0) {
        int best = -1;
        double bestUsed = -1;
        for (int g = 0; g < count; ++g) {
            const double used = m_slotUsed[slot(n, g)];
            // Best fit: the most used GPU that still has room; ties to the lower index.
            if (used + fraction <= 1.0 + kGpuEps && used > bestUsed) {
                best = g;
                bestUsed = used;
            }
        }
        if (best >= 0)
            out.push_back(best);
        return out;
    }
    // Whole GPUs: the NVLink domain with the fewest free GPUs that still holds them all.
    int bestDomain = -1, bestFree = 1 << 30;
    for (int d = 0; d < m_domainCount[std::size_t(n)]; ++d) {
        int free = 0;
        for (int g = 0; g < count; ++g)
            if (m_slotDomain[slot(n, g)] == d && m_slotUsed[slot(n, g)] <= kGpuEps)
                ++free;
        if (free >= gpus && free < bestFree) {
            bestDomain = d;
            bestFree = free;
        }
    }
    for (int g = 0; g < count && int(out.size()) < gpus; ++g)
        if (m_slotUsed[slot(n, g)] <= kGpuEps &&
            (bestDomain < 0 || m_slotDomain[slot(n, g)] == bestDomain))
            out.push_back(g);
    if (int(out.size()) < gpus)
        out.clear();
    return out;
}

void ClusterState::refreshGpuSummary(int n)
{
    const auto i = std::size_t(n);
    double freeWhole = 0, used = 0, maxFree = 0;
    for (int g = 0; g < int(m_gpuCap[i]); ++g) {
        const double u = m_slotUsed[slot(n, g)];
        used += u;
        if (u <= kGpuEps)
            freeWhole += 1;
        maxFree = std::max(maxFree, 1.0 - u);
    }
    m_gpuFreeWhole[i] = freeWhole;
    m_gpuUsedSum[i] = used;
    m_gpuMaxFree[i] = maxFree;
}

void ClusterState::bind(int n, double cpus, double memGiB, const std::vector<int> &gpuSlots,
                        double fraction)
{
    const auto i = std::size_t(n);
    m_cpuUsed[i] += cpus;
    m_memUsed[i] += memGiB;
    if (gpuSlots.empty())
        return;
    for (int g : gpuSlots)
        m_slotUsed[slot(n, g)] += std::min(1.0, fraction);
    refreshGpuSummary(n);
}

void ClusterState::unbind(int n, double cpus, double memGiB, const std::vector<int> &gpuSlots,
                          double fraction)
{
    const auto i = std::size_t(n);
    m_cpuUsed[i] -= cpus;
    m_memUsed[i] -= memGiB;
    if (gpuSlots.empty())
        return;
    for (int g : gpuSlots)
        m_slotUsed[slot(n, g)] = std::max(0.0, m_slotUsed[slot(n, g)] - std::min(1.0, fraction));
    refreshGpuSummary(n);
}

} // namespace cb
