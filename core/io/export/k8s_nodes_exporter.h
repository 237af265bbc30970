#pragma once
// k8s-nodes: the modelled cluster as a Kubernetes Node list, in the shape
// `kubectl get nodes -o json` prints ({"apiVersion": "v1", "kind": "List", "items": [Node...]}),
// so the cluster can be stood up as virtual nodes (KWOK, knavigator) or compared with a real
// one, and read back by the k8s-nodes importer. No placement needed. File: nodes.json.
//
// Each Node carries, in status.capacity and status.allocatable (the same values): cpu (whole
// cores, or millicores), memory (Gi, Mi, or bytes when not a whole MiB) and nvidia.com/gpu;
// and as labels: the node's own labels, kubernetes.io/hostname, clusterbench.io/gpu-type (the
// GPU type name, "none" on nodes without GPUs; also nvidia.com/gpu.product unless the node
// has that label),
// nvidia.com/gpu.count and nvidia.com/gpu.memory (MiB, as NVIDIA's GPU feature discovery
// labels them), clusterbench.io/rack, clusterbench.io/partition and, for every tier of
// switches above the node (switch_tiers.h), clusterbench.io/switch-tier-N = that switch.
// A Node list cannot carry switches, links, bandwidths, NVLink domains, node power or the GPU
// type's speed, power and price: importing it back rebuilds the network from the rack labels
// (a switch per rack under one core switch) and GPU details from the catalogue.

#include "io/export/exporter.h"

namespace cb {

class K8sNodesExporter : public Exporter
{
public:
    std::string name() const override { return "k8s-nodes"; }
    std::string description() const override;
    bool needsPlacement() const override { return false; }
    Result<ExportResult> exportPlacement(const Scenario &scenario, const Placement &placement,
                                         const ExportOptions &options) const override;

    /// "32", or "7500m" for fractions (rounded up to whole millicores).
    static std::string cpuQuantity(double cpus);
    /// "256Gi", "1536Mi", or a whole number of bytes when not a whole MiB.
    static std::string memoryQuantity(double gib);
};

} // namespace cb
