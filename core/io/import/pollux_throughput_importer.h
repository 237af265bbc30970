#pragma once

#include "io/import/importer.h"

namespace cb {

/// Pollux (petuum/adaptdl simulator/traces/<application>/) measured step times of one model:
/// placements.csv (placement, local_bsz, step_time, sync_time), where placement's digits are
/// the replicas (GPUs) on each node in ring order ("12": one node with 1, the next with 2),
/// and scalability.csv (num_nodes, num_replicas, local_bsz, step_time, sync_time). One or
/// both files; each file's kind is read from its header. They become one StepTimeTable
/// (model/step_time_table.h, where the lookup rule is) for the model profile named by
/// ImportOptions::model, else by the file names ("cifar10_placements.csv" or
/// "cifar10/placements.csv": application cifar10, which the model catalogue maps to the
/// profile resnet18).
///
/// Documented results: a missing column, a file of neither kind, or no usable row at all is
/// a failure naming the file and line (nothing imported). A row with a bad or out-of-range
/// number (step time not positive, sync time negative or above the step time, local batch
/// not a positive integer, a placement that is not digits 1-9) is skipped with its line. Two
/// rows with the same key (placement after normalising to its smallest rotation, or nodes
/// and replicas, with local batch) are a failure naming both lines: which one is right is
/// not guessed. CRLF, a byte-order mark, no final newline and row order do not matter.
class PolluxThroughputImporter : public Importer
{
public:
    std::string name() const override { return "pollux-throughput"; }
    std::vector<std::string> readsOptions() const override { return {"model"}; }
    std::string description() const override
    {
        return "Pollux measured step times (placements.csv, scalability.csv) of one model";
    }
    Produces produces() const override { return Produces::ModelData; }
    std::pair<int, int> fileCount() const override { return {1, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
