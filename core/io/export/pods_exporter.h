#pragma once
// k8s-pods: plain v1 Pods plus one headless v1 Service per job. Works on any cluster.
// Each pod is pinned exactly (spec.nodeName, or a required kubernetes.io/hostname affinity
// with ExportOptions::Pinning::NodeAffinity) and gets the peer environment it needs
// (TF_CONFIG, or MASTER_ADDR/MASTER_PORT/WORLD_SIZE/RANK), addressed through the Service as
// "<pod>.<job>".

#include "io/export/kubernetes_job_exporter.h"

namespace cb {

class PodsExporter : public KubernetesJobExporter
{
public:
    std::string name() const override { return "k8s-pods"; }
    std::string description() const override;

protected:
    std::vector<nlohmann::ordered_json> jobObjects(const JobContext &context) const override;
};

} // namespace cb
