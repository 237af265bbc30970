#pragma once
// kueue: the placement for Kueue's topology-aware scheduling (Kueue's v1beta2 API). Files:
//   00-kueue-setup.yaml  (sorts first; no job file can have this name) a Topology "clusterbench" whose levels are the node labels of the
//                     switch tiers (clusterbench.io/switch-tier-D ... -1, as the k8s-nodes
//                     export labels the nodes) then kubernetes.io/hostname; one
//                     ResourceFlavor per GPU type (nodeLabels clusterbench.io/gpu-type; CPU
//                     nodes "none") with topologyName; a ClusterQueue "clusterbench" whose
//                     quotas are the cluster's cpu, memory and nvidia.com/gpu per flavor; a
//                     LocalQueue "clusterbench" in the namespace (or "default").
//   <job>.yaml        the job as a JobSet (see jobset_exporter.h) labelled
//                     kueue.x-k8s.io/queue-name, suspended until Kueue admits it, each role's
//                     pods annotated with the level the placement needs:
//                     kueue.x-k8s.io/podset-required-topology at the lowest level one of whose
//                     domains holds all the role's nodes (hostname for one node, else the
//                     switch tier), or podset-preferred-topology at the top tier when no
//                     switch holds them all.
// What Kueue guarantees and what it only prefers is written in each job file's header and
// in a warning: Kueue admits a job whole (gang) and keeps each role inside one domain of its
// level, but it picks the domain, not the node; the pods' required hostname affinity (the
// placement's node set) is what keeps them on the placed nodes.

#include "io/export/kubernetes_job_exporter.h"

namespace cb {

class KueueExporter : public KubernetesJobExporter
{
public:
    std::string name() const override { return "kueue"; }
    std::string description() const override;

protected:
    std::vector<nlohmann::ordered_json> jobObjects(const JobContext &context) const override;
    std::string jobHeader(const JobContext &context,
                          const std::vector<nlohmann::ordered_json> &objects) const override;
    std::vector<ExportedFile> setupFiles(const Scenario &scenario,
                                         const std::vector<PlacedJob> &jobs,
                                         const ExportOptions &options,
                                         std::vector<std::string> &warnings) const override;
};

} // namespace cb
