#pragma once
// mpijob: MPIJob (kubeflow.org/v2beta1, mpi-operator v0.8) for Horovod-style all-reduce: one
// Worker replica per task, pinned to the workers' node set (see KubeflowReplicas), with
// slotsPerWorker = GPUs per task; a Launcher replica (not part of the placement, 1 CPU and
// 1 GiB, unpinned) runs "mpirun -np N COMMAND".

#include "io/export/kubernetes_job_exporter.h"

namespace cb {

class MpiJobExporter : public KubernetesJobExporter
{
public:
    std::string name() const override { return "mpijob"; }
    std::string description() const override;

protected:
    std::vector<nlohmann::ordered_json> jobObjects(const JobContext &context) const override;
};

} // namespace cb
