#pragma once
// GPU occupancy of the STS data centre during one scheduling pass: whole GPUs per node and
// shared GPUs split into slices. Placement is best fit: the node of the right type with the
// fewest free GPUs that still fit; a slice goes first to an already shared GPU of that type
// with the least room that fits, else to a fresh GPU on the best-fit node.
// Multi-node (off unless a split mode is set): a whole-GPU configuration that fits no single
// node may be split over several nodes of its type. BestFit splits as a GPU-by-GPU best fit
// would (fullest nodes first, racks ignored); Network keeps the job in one rack on the fewest
// nodes (largest free first), ties to the least GPUs left over on the nodes it uses, and only
// spans racks when no rack can hold it.

#include "stochastic/sts_configuration.h"

#include <optional>
#include <string>
#include <vector>

namespace cb {

struct StsPlacement
{
    std::size_t node = 0;
    int sharedGpu = -1; ///< index of the shared GPU on the node for slices, else -1
    /// Multi-node placements: (node, GPUs there) for every node used, `node` first;
    /// empty when the configuration sits on `node` alone.
    std::vector<std::pair<std::size_t, int>> parts;

    int nodeCount() const { return parts.empty() ? 1 : int(parts.size()); }
    bool operator==(const StsPlacement &) const = default;
};

enum class StsSplit {
    None,    ///< one node per configuration (the authors' placement)
    BestFit, ///< split over the fullest nodes first, racks ignored
    Network, ///< split within one rack over the fewest nodes, then across racks
};

/// Which of several best-fit nodes (the same free GPUs) a whole-GPU configuration takes.
enum class StsTieOrder {
    Index,   ///< the first in node order (ours)
    /// As the STS authors' simulator (ai-sprint-eu-project/GPUScheduler, Nodes_map): a list
    /// per GPU type sorted by (free GPUs, node id as a string: "n10" before "n2") whenever
    /// GPUs are freed; a node that takes a job moves in front of the nodes with as many free
    /// GPUs as it has left (most recently used first); the first node that fits wins.
    Authors,
};

class GpuPool
{
public:
    struct NodeState
    {
        std::string id;
        std::string gpuType;
        std::string rack;                  ///< switch / rack group ("" = one shared group)
        double nicGbps = 0;                ///< node uplink, for multi-node traffic (0: none)
        int gpus = 0;
        int freeWhole = 0;                 ///< GPUs neither allocated nor shared
        std::vector<double> sharedFree;    ///< per shared GPU: the fraction still free
        std::vector<int> sharedUsers;      ///< per shared GPU: slices placed on it
    };

    void addNode(std::string id, std::string gpuType, int gpus, std::string rack = {},
                 double nicGbps = 0);
    /// How configurations that fit no single node are placed by place(c); None by default.
    void setSplit(StsSplit split) { m_split = split; }
    StsSplit split() const { return m_split; }
    void setTieOrder(StsTieOrder order) { m_tieOrder = order; }
    StsTieOrder tieOrder() const { return m_tieOrder; }
    const std::vector<NodeState> &nodes() const { return m_nodes; }
    /// Frees everything.
    void clear();

    /// Best-fit placement of `c`, or nothing when it does not fit anywhere; a whole-GPU
    /// configuration that fits no single node is split as split() says.
    std::optional<StsPlacement> place(const StsConfig &c);
    /// The same with an explicit split mode (StsSplit::None: single node only).
    std::optional<StsPlacement> place(const StsConfig &c, StsSplit split);
    /// Whether `c` would fit (without placing it).
    bool fits(const StsConfig &c) const;
    /// Re-takes a known placement (a job that keeps running); false if it no longer fits.
    bool reserve(const StsConfig &c, const StsPlacement &at);
    /// Gives a placement back.
    void release(const StsConfig &c, const StsPlacement &at);
    /// GPUs busy on a node: whole GPUs allocated plus shared GPUs with at least one slice.
    int busyGpus(std::size_t node) const;
    /// Where a placement is: the node id, or "a:2+b:1" (GPUs per node) when split.
    std::string describe(const StsPlacement &at) const;
    /// Free whole GPUs of a type over all nodes.
    int freeGpus(const std::string &gpuType) const;

private:
    std::optional<StsPlacement> splitPlacement(const StsConfig &c, StsSplit split) const;

    /// StsTieOrder::Authors: the first node in the authors' list order that fits `need`.
    std::optional<std::size_t> authorsFirstFit(const std::string &gpuType, int need);
    void authorsTook(std::size_t node);

    std::vector<NodeState> m_nodes;
    StsSplit m_split = StsSplit::None;
    StsTieOrder m_tieOrder = StsTieOrder::Index;
    /// Authors' order: every node, each GPU type's nodes in their list order; the free whole
    /// GPUs per node after the last placement (more now: GPUs were freed, so re-sort).
    std::vector<std::size_t> m_order;
    std::vector<int> m_freeAtLastPlace;
};

} // namespace cb
