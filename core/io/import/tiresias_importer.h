#pragma once

#include "io/import/importer.h"

namespace cb {

/// Tiresias simulator job CSV (SymbioticLab/Tiresias simulator/*.csv): job_id, num_gpu,
/// submit_time (s), iterations, model_name, duration (s), interval (ignored).
class TiresiasImporter : public Importer
{
public:
    std::string name() const override { return "tiresias"; }
    std::string description() const override
    {
        return "Tiresias job CSV (job_id, num_gpu, submit_time, iterations, model_name, "
               "duration, interval)";
    }
    Produces produces() const override { return Produces::Jobs; }
    std::pair<int, int> fileCount() const override { return {1, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
