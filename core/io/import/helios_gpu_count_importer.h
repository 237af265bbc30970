#pragma once

#include "io/import/importer.h"

namespace cb {

/// SenseTime Helios cluster_gpu_number.csv: one row per day, "date" (YYYY-MM-DD), one column
/// of GPUs per virtual cluster (vc...), and "total". One day of it becomes the cluster: each
/// virtual cluster is a partition of 8-GPU nodes (every count in the released files is a
/// multiple of 8; a remainder becomes one smaller node, and is reported), named VC-NN.
/// The day is ImportOptions::date, else the last day in the file.
/// Rows are checked one by one and skipped with their line: a date that does not parse or
/// repeats, a count that is not a whole number >= 0, a total that differs from the sum.
/// Rows out of date order are used in date order, and reported.
/// Not in the file, so stated in the report: CPUs, memory and GPU model of the nodes, and the
/// network (one switch per virtual cluster under one core switch).
class HeliosGpuCountImporter : public Importer
{
public:
    static constexpr int kGpusPerNode = 8;
    static constexpr double kCpusPerNode = 64;
    static constexpr double kMemoryGiBPerNode = 512;

    std::string name() const override { return "helios-gpus"; }
    std::vector<std::string> readsOptions() const override { return {"date"}; }
    std::string description() const override
    {
        return "Helios cluster_gpu_number.csv (daily GPUs per virtual cluster): one day as "
               "the cluster, a partition per virtual cluster (--date, default the last day)";
    }
    Produces produces() const override { return Produces::Cluster; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
