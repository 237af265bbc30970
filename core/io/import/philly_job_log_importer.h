#pragma once

#include "io/import/importer.h"

namespace cb {

/// Microsoft Philly cluster_job_log (msr-fiddle/philly-traces): a JSON list of jobs (a single
/// job object is accepted too) with jobid, vc, user, status, submitted_time and attempts
/// [{start_time, end_time, detail[{ip, gpus[]}]}]. GPUs and workers come from the last
/// attempt (GPUs listed over its machines, one worker per machine); the duration is the sum
/// of the attempts' run times. Jobs that never ran (no attempt with GPUs) are skipped.
class PhillyJobLogImporter : public Importer
{
public:
    std::string name() const override { return "philly"; }
    std::string description() const override
    {
        return "Philly cluster_job_log JSON (jobid, submitted_time, attempts[detail[gpus]])";
    }
    Produces produces() const override { return Produces::Jobs; }
    std::pair<int, int> fileCount() const override { return {1, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
