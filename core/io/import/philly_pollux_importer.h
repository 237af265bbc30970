#pragma once

#include "io/import/importer.h"

namespace cb {

/// Microsoft Philly as processed by Pollux (adaptdl simulator/traces): timestamp (s),
/// duration (s), num_gpus, gpu_time, cluster. Job ids are "philly-<line>".
class PhillyPolluxImporter : public Importer
{
public:
    std::string name() const override { return "philly-pollux"; }
    std::string description() const override
    {
        return "Philly trace as processed by Pollux (timestamp, duration, num_gpus, gpu_time, "
               "cluster)";
    }
    Produces produces() const override { return Produces::Jobs; }
    std::pair<int, int> fileCount() const override { return {1, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
