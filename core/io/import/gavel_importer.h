#pragma once

#include "io/import/importer.h"

namespace cb {

/// Gavel traces (stanford-futuredata/gavel scheduler/traces), tab-separated, no header.
/// 10 fields: job_type, command, working_directory, num_steps_arg, needs_data_dir,
/// total_steps, scale_factor, priority_weight, SLO, arrival_time. The older 7-field layout:
/// job_type, command, num_steps_arg, needs_data_dir, total_steps, arrival_time,
/// scale_factor. The layout is taken from each file's first row. scale_factor is the GPU
/// count, total_steps the iterations, arrival_time the submit time in seconds.
class GavelImporter : public Importer
{
public:
    std::string name() const override { return "gavel"; }
    std::vector<std::string> readsOptions() const override { return {"throughputs"}; }
    std::string description() const override
    {
        return "Gavel trace, tab-separated without header (10- or 7-field layout)";
    }
    Produces produces() const override { return Produces::Jobs; }
    std::pair<int, int> fileCount() const override { return {1, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
