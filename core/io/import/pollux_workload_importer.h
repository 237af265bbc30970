#pragma once

#include "io/import/importer.h"

namespace cb {

/// Pollux (petuum/adaptdl simulator/workloads*) workload CSV: name, time (s),
/// application, num_replicas, batch_size. num_replicas is the GPU count, one per worker.
/// The trace gives no job length: Pollux runs each application to its own target, so the
/// default iteration count is used and reported.
class PolluxWorkloadImporter : public Importer
{
public:
    std::string name() const override { return "pollux"; }
    std::string description() const override
    {
        return "Pollux workload CSV (name, time, application, num_replicas, batch_size)";
    }
    Produces produces() const override { return Produces::Jobs; }
    std::pair<int, int> fileCount() const override { return {1, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
