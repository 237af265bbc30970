#pragma once
// GPU occupancy of the STS data centre during one scheduling pass: whole GPUs per node and
// shared GPUs split into slices. Placement is best fit: the node of the right type with the
// fewest free GPUs that still fit; a slice goes first to an already shared GPU of that type
// with the least room that fits, else to a fresh GPU on the best-fit node.

#include "stochastic/sts_configuration.h"

#include <optional>
#include <string>
#include <vector>

namespace cb {

struct StsPlacement
{
    std::size_t node = 0;
    int sharedGpu = -1; ///< index of the shared GPU on the node for slices, else -1
};

class GpuPool
{
public:
    struct NodeState
    {
        std::string id;
        std::string gpuType;
        int gpus = 0;
        int freeWhole = 0;                 ///< GPUs neither allocated nor shared
        std::vector<double> sharedFree;    ///< per shared GPU: the fraction still free
        std::vector<int> sharedUsers;      ///< per shared GPU: slices placed on it
    };

    void addNode(std::string id, std::string gpuType, int gpus);
    const std::vector<NodeState> &nodes() const { return m_nodes; }
    /// Frees everything.
    void clear();

    /// Best-fit placement of `c`, or nothing when it does not fit anywhere.
    std::optional<StsPlacement> place(const StsConfig &c);
    /// Whether `c` would fit (without placing it).
    bool fits(const StsConfig &c) const;
    /// Re-takes a known placement (a job that keeps running); false if it no longer fits.
    bool reserve(const StsConfig &c, const StsPlacement &at);
    /// Gives a placement back.
    void release(const StsConfig &c, const StsPlacement &at);
    /// GPUs busy on a node: whole GPUs allocated plus shared GPUs with at least one slice.
    int busyGpus(std::size_t node) const;
    /// Free whole GPUs of a type over all nodes.
    int freeGpus(const std::string &gpuType) const;

private:
    std::vector<NodeState> m_nodes;
};

} // namespace cb
