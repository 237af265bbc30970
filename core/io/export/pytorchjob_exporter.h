#pragma once
// pytorchjob: Kubeflow PyTorchJob (kubeflow.org/v1) for all-reduce jobs: rank 0 is the Master
// replica, every other task a Worker; the operator sets MASTER_ADDR, WORLD_SIZE and RANK.
// Workers on several nodes are pinned to their node set only (see KubeflowReplicas).

#include "io/export/kubernetes_job_exporter.h"

namespace cb {

class PyTorchJobExporter : public KubernetesJobExporter
{
public:
    std::string name() const override { return "pytorchjob"; }
    std::string description() const override;

protected:
    std::vector<nlohmann::ordered_json> jobObjects(const JobContext &context) const override;
};

} // namespace cb
