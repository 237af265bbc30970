#pragma once
// tfjob: Kubeflow TFJob (kubeflow.org/v1). One replica spec per role (PS, Worker, Chief,
// Evaluator); the operator sets TF_CONFIG. A role on several nodes is pinned to its node set
// only (see KubeflowReplicas); gang scheduling through runPolicy.schedulingPolicy.

#include "io/export/kubernetes_job_exporter.h"

namespace cb {

class TfJobExporter : public KubernetesJobExporter
{
public:
    std::string name() const override { return "tfjob"; }
    std::string description() const override;

protected:
    std::vector<nlohmann::ordered_json> jobObjects(const JobContext &context) const override;
};

} // namespace cb
