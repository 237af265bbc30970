#pragma once
// The cluster's switch tiers as a strict tree, for the Kubernetes topology exports (Volcano
// HyperNodes, Kueue Topology levels, node labels): tier 1 holds the switches linked to
// nodes, tier k+1 the switches one hop above tier k (as in slurm_topology.h). A switch
// with several parents (a fat-tree's edge under every aggregation switch of its pod) is
// counted under the first one in scenario order, so every node has one ancestor per tier
// and every tier partitions the nodes below it; a parent left without children is dropped.
// Nodes linked to no switch have no tiers. Names are valid Kubernetes object names and label
// values (KubernetesNames::jobNames over the switch ids: kept when valid, else derived).

#include "model/cluster.h"

#include <map>
#include <string>
#include <vector>

namespace cb {

struct SwitchTier
{
    std::string switchId;
    std::string name;                   ///< DNS-1035 label, unique
    int tier = 1;
    std::vector<std::string> nodes;     ///< tier 1: node ids
    std::vector<std::string> children;  ///< tier > 1: switch ids one tier down
    bool operator==(const SwitchTier &) const = default;
};

class SwitchTiers
{
public:
    explicit SwitchTiers(const Cluster &cluster);

    /// By tier, scenario order within a tier.
    const std::vector<SwitchTier> &switches() const { return m_switches; }
    int depth() const { return m_depth; }
    /// The node's switch at tiers 1..depth (shorter when the tree above it ends earlier;
    /// empty for a node linked to no switch).
    const std::vector<const SwitchTier *> &chain(const std::string &nodeId) const;
    /// The lowest tier whose one switch holds every node of `nodeIds`, or 0 when some node
    /// has no tiers or they share no switch. One node gives tier 1.
    int commonTier(const std::vector<std::string> &nodeIds) const;
    /// Node label key of a tier: "clusterbench.io/switch-tier-1", ...
    static std::string labelKey(int tier);

private:
    std::vector<SwitchTier> m_switches;
    std::map<std::string, std::vector<const SwitchTier *>> m_chains;
    int m_depth = 0;
};

} // namespace cb
