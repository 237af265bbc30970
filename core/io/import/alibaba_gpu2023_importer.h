#pragma once

#include "io/import/importer.h"

namespace cb {

/// Alibaba GPU cluster trace 2023 (alibaba/clusterdata cluster-trace-gpu-v2023), one or both
/// CSV files, told apart by their header:
/// - nodes: sn, cpu_milli, memory_mib, gpu, model -> the cluster (one switch, stated);
/// - pods: name, cpu_milli, memory_mib, num_gpu, gpu_milli, gpu_spec, qos, pod_phase,
///   creation_time, deletion_time, scheduled_time -> one single-task job per pod; gpu_milli
///   below 1000 on a one-GPU pod is a shared GPU fraction; a gpu_spec naming one type is a
///   GPU-type requirement; the duration is deletion_time - scheduled_time.
class AlibabaGpu2023Importer : public Importer
{
public:
    std::string name() const override { return "alibaba-gpu2023"; }
    std::string description() const override
    {
        return "Alibaba GPU 2023 node CSV and/or pod CSV (openb_node_list, openb_pod_list)";
    }
    Produces produces() const override { return Produces::ClusterAndJobs; }
    std::pair<int, int> fileCount() const override { return {1, 2}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
