#include "io/export/exporter_registry.h"

#include "io/export/jobset_exporter.h"
#include "io/export/k8s_nodes_exporter.h"
#include "io/export/kueue_exporter.h"
#include "io/export/mpijob_exporter.h"
#include "io/export/pods_exporter.h"
#include "io/export/pytorchjob_exporter.h"
#include "io/export/slurm_batch_exporter.h"
#include "io/export/slurm_cluster_exporter.h"
#include "io/export/tfjob_exporter.h"
#include "io/export/volcano_exporter.h"
#include "io/export/volcano_hypernodes_exporter.h"

namespace cb {

const std::vector<const Exporter *> &ExporterRegistry::all()
{
    static const PodsExporter pods;
    static const TfJobExporter tfjob;
    static const PyTorchJobExporter pytorchjob;
    static const MpiJobExporter mpijob;
    static const VolcanoJobExporter volcano;
    static const SlurmBatchExporter slurm;
    static const SlurmClusterExporter slurmCluster;
    static const K8sNodesExporter k8sNodes;
    static const VolcanoHyperNodesExporter hyperNodes;
    static const JobSetExporter jobset;
    static const KueueExporter kueue;
    static const std::vector<const Exporter *> exporters = {
        &pods, &tfjob, &pytorchjob, &mpijob, &volcano, &slurm, &slurmCluster, &k8sNodes,
        &hyperNodes, &jobset, &kueue};
    return exporters;
}

const Exporter *ExporterRegistry::find(const std::string &name)
{
    for (const Exporter *e : all())
        if (e->name() == name)
            return e;
    return nullptr;
}

std::string ExporterRegistry::names()
{
    std::string s;
    for (const Exporter *e : all())
        s += (s.empty() ? "" : ", ") + e->name();
    return s;
}

} // namespace cb
