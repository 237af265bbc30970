#pragma once
// The mutable load of a cluster while scheduling, as a structure of arrays so that scoring
// every node is a few tight loops over contiguous doubles (no allocation, no strings).

#include "model/cluster.h"

#include <string>
#include <vector>

namespace cb {

class ClusterState
{
public:
    explicit ClusterState(const Cluster &cluster);

    int nodeCount() const { return int(m_cpuCap.size()); }

    // Per node, indexed by node index (cluster order).
    const double *cpuCap() const { return m_cpuCap.data(); }
    const double *cpuUsed() const { return m_cpuUsed.data(); }
    const double *memCap() const { return m_memCap.data(); }
    const double *memUsed() const { return m_memUsed.data(); }
    const double *gpuCap() const { return m_gpuCap.data(); }
    /// GPUs with nothing on them.
    const double *gpuFreeWhole() const { return m_gpuFreeWhole.data(); }
    /// Whole-GPU equivalents in use (sum of fractions).
    const double *gpuUsed() const { return m_gpuUsedSum.data(); }
    /// Largest free fraction on one GPU of the node (0 without GPUs).
    const double *gpuMaxFree() const { return m_gpuMaxFree.data(); }
    /// Index into gpuTypeNames(), -1 for nodes without GPUs.
    const int *gpuTypeId() const { return m_gpuTypeId.data(); }
    const std::vector<std::string> &gpuTypeNames() const { return m_gpuTypeNames; }
    int gpuTypeIndex(const std::string &name) const;

    /// Used fraction of GPU `g` of node `n`.
    double gpuSlotUsed(int n, int g) const { return m_slotUsed[slot(n, g)]; }
    /// NVLink domain of GPU `g` on node `n`, -1 when not in one.
    int nvlinkDomain(int n, int g) const { return m_slotDomain[slot(n, g)]; }
    int nvlinkDomainCount(int n) const { return m_domainCount[std::size_t(n)]; }

    /// Whether a task fits the node's free resources now (GPU type and labels not checked).
    bool fits(int n, double cpus, double memGiB, int gpus, double fraction) const;
    /// Why it does not fit, or empty.
    std::string whyNotFit(int n, double cpus, double memGiB, int gpus, double fraction) const;

    /// GPU slots a task would get: whole GPUs packed into the fullest NVLink domain that can
    /// hold them all (else lowest indices); a fraction goes to the most used GPU that still has
    /// room (best fit), a fresh GPU only when no shared one fits. Empty for CPU tasks.
    std::vector<int> chooseGpus(int n, int gpus, double fraction) const;
    /// Whether `gpus` whole free GPUs fit inside one NVLink domain; `partlyUsed` tells whether
    /// the best such domain already has busy GPUs.
    bool fitsOneNvlinkDomain(int n, int gpus, bool *partlyUsed) const;

    void bind(int n, double cpus, double memGiB, const std::vector<int> &gpuSlots,
              double fraction);
    void unbind(int n, double cpus, double memGiB, const std::vector<int> &gpuSlots,
                double fraction);

private:
    std::size_t slot(int n, int g) const { return std::size_t(m_slotOffset[std::size_t(n)] + g); }
    void refreshGpuSummary(int n);

    std::vector<double> m_cpuCap, m_cpuUsed, m_memCap, m_memUsed;
    std::vector<double> m_gpuCap, m_gpuFreeWhole, m_gpuUsedSum, m_gpuMaxFree;
    std::vector<int> m_gpuTypeId;
    std::vector<std::string> m_gpuTypeNames;
    std::vector<int> m_slotOffset;
    std::vector<double> m_slotUsed;
    std::vector<int> m_slotDomain;
    std::vector<int> m_domainCount;
};

} // namespace cb
