#pragma once

#include "io/import/importer.h"

namespace cb {

/// SenseTime Helios / AcmeTrace job CSV: job_id, user, vc, gpu_num, cpu_num, node_num,
/// state, submit_time, start_time, end_time, duration, queue[, gpu_time]. Times are either
/// "YYYY-MM-DD HH:MM:SS" or seconds. Required: job_id, gpu_num, submit_time; the duration is
/// the duration column, else end_time - start_time. node_num gives the worker count.
class HeliosImporter : public Importer
{
public:
    std::string name() const override { return "helios"; }
    std::string description() const override
    {
        return "Helios / AcmeTrace job CSV (job_id, vc, gpu_num, cpu_num, node_num, "
               "submit_time, start_time, end_time, duration, ...)";
    }
    Produces produces() const override { return Produces::Jobs; }
    std::pair<int, int> fileCount() const override { return {1, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
