#pragma once
// volcano: Volcano Job (batch.volcano.sh/v1alpha1) with one Volcano task per placed task, so
// every pod is pinned exactly (required kubernetes.io/hostname affinity on its one node;
// spec.nodeName is never used because it would bypass Volcano's gang scheduling).
// minAvailable = all tasks (with the job's min_available: its other tasks and that many
// workers); plugins env and svc give VK_TASK_INDEX and a headless Service named after the
// job, so peers are "<job>-<task>-0.<job>" and TF_CONFIG or MASTER_ADDR/RANK are written out
// per task. A job on several nodes under one switch of some
// tier gets networkTopology {mode: hard, highestTierAllowed: that tier} (the HyperNodes of
// the volcano-hypernodes export, which must be applied first).

#include "io/export/kubernetes_job_exporter.h"

namespace cb {

class VolcanoJobExporter : public KubernetesJobExporter
{
public:
    std::string name() const override { return "volcano"; }
    std::string description() const override;

protected:
    std::vector<nlohmann::ordered_json> jobObjects(const JobContext &context) const override;
};

} // namespace cb
