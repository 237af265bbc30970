#pragma once

#include "io/import/importer.h"

namespace cb {

/// Alibaba PAI 2020 (alibaba/clusterdata cluster-trace-gpu-v2020), CSV tables without a
/// header, told apart by their field count:
/// - machine_spec (5): machine, gpu_type, cap_cpu, cap_mem (GB), cap_gpu -> the cluster;
/// - job (6): job_name, inst_id, user, status, start_time, end_time -> submit times;
/// - task (10): job_name, task_name, inst_num, status, start_time, end_time, plan_cpu
///   (100 = one core), plan_mem (GB), plan_gpu (100 = one GPU), gpu_type -> the jobs: one
///   task group per task row, role from task_name (ps, worker, chief, evaluator; others are
///   workers); a job with a ps group is a parameter-server job.
class AlibabaPai2020Importer : public Importer
{
public:
    std::string name() const override { return "alibaba-pai2020"; }
    std::string description() const override
    {
        return "Alibaba PAI 2020 tables without header: machine_spec, job and/or task";
    }
    Produces produces() const override { return Produces::ClusterAndJobs; }
    std::pair<int, int> fileCount() const override { return {1, 3}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
