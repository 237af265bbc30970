#pragma once
// jobset: a JobSet (jobset.x-k8s.io/v1alpha2) per placed job, one replicated job per role
// (ps, worker, chief, evaluator, single) with replicas 1 and an Indexed batch Job of as many
// pods as the role has tasks (parallelism = completions). Pods of a role share one template,
// so they are pinned to the role's node set (required kubernetes.io/hostname In), not each
// to its own node; how many land on each node is the scheduler's (warned, as for the
// Kubeflow formats; volcano and k8s-pods place every task exactly).
// JobSet gives every pod a stable hostname "<jobset>-<role>-0-<index>.<jobset>" (headless
// Service, enableDNSHostnames), so peers are written out: all-reduce jobs get MASTER_ADDR
// (the first task's pod), MASTER_PORT, WORLD_SIZE and CLUSTERBENCH_RANK_OFFSET (the role's
// first rank: RANK = offset + JOB_COMPLETION_INDEX, which Kubernetes sets in Indexed Jobs);
// parameter-server jobs get CLUSTERBENCH_TF_CLUSTER (TF_CONFIG's "cluster" part) and
// CLUSTERBENCH_TASK_TYPE, the task index being JOB_COMPLETION_INDEX. failurePolicy
// maxRestarts 0; JobSet starts the whole set at once (gang semantics come from a queue such
// as Kueue: see the kueue export).

#include "io/export/kubernetes_job_exporter.h"

namespace cb {

class JobSetExporter : public KubernetesJobExporter
{
public:
    std::string name() const override { return "jobset"; }
    std::string description() const override;

    /// The JobSet object of one job. `podAnnotations` (role -> annotations) go on each role's
    /// pod template; `nodeSelector` (role -> labels) too, when not empty.
    static nlohmann::ordered_json
    jobSet(const JobContext &ctx, const std::string &format,
           const std::map<TaskRole, nlohmann::ordered_json> &podAnnotations,
           const std::map<TaskRole, nlohmann::ordered_json> &nodeSelectors);

protected:
    std::vector<nlohmann::ordered_json> jobObjects(const JobContext &context) const override;
};

} // namespace cb
