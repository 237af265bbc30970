#pragma once
// volcano-hypernodes: the cluster's switch tiers as Volcano HyperNodes
// (topology.volcano.sh/v1alpha1, Volcano 1.12+), for network-topology-aware scheduling. No
// placement needed. File: hypernodes.yaml. A tier-1 HyperNode per switch linked to nodes,
// its members the Nodes by exact name (the same names the other Kubernetes exports use);
// a tier-k HyperNode per switch above, its members the tier k-1 HyperNodes below it. The
// tiers are a strict tree (switch_tiers.h): a switch with several parents is counted under
// the first, so Volcano sees each node in one HyperNode per tier. The volcano export's jobs
// then carry networkTopology {mode: hard, highestTierAllowed: T}, T being the lowest tier
// whose one HyperNode holds all the job's nodes.

#include "io/export/exporter.h"

namespace cb {

class VolcanoHyperNodesExporter : public Exporter
{
public:
    std::string name() const override { return "volcano-hypernodes"; }
    std::string description() const override;
    bool needsPlacement() const override { return false; }
    Result<ExportResult> exportPlacement(const Scenario &scenario, const Placement &placement,
                                         const ExportOptions &options) const override;
};

} // namespace cb
