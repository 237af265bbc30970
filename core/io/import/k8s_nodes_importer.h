#pragma once

#include "io/import/importer.h"

namespace cb {

/// Kubernetes Node objects: `kubectl get nodes -o yaml` or `-o json` (a List / NodeList with
/// items), a multi-document YAML stream of Nodes, or a sequence of Nodes; read with yaml-cpp
/// for both syntaxes. Per node: metadata.name; status.allocatable (else capacity) cpu
/// ("8", "7500m"), memory ("64Gi", "65536Ki", "1e9"), GPUs (nvidia.com/gpu, amd.com/gpu,
/// alibabacloud.com/gpu-count, else the nvidia.com/gpu.count label); GPU type from the
/// labels nvidia.com/gpu.product, alibabacloud.com/gpu-card-model or
/// cloud.google.com/gke-accelerator. Topology from topology.kubernetes.io/zone and any label
/// whose last part is "rack" or "block": rack switches under zone switches under a core
/// switch; without such labels, one switch links all nodes (stated).
class K8sNodesImporter : public Importer
{
public:
    std::string name() const override { return "k8s-nodes"; }
    std::string description() const override
    {
        return "Kubernetes Node list (kubectl get nodes -o yaml|json, or Node documents)";
    }
    Produces produces() const override { return Produces::Cluster; }
    std::pair<int, int> fileCount() const override { return {1, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
