#pragma once
// What an importer produced and what it had to decide on the way: the cluster or the jobs,
// every input row it skipped (with file and line), and every assumption it made.

#include "model/cluster.h"
#include "model/job.h"
#include "model/step_time_table.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb {

/// A place in an input file and what happened there. line 0 means the whole file.
struct ImportNote
{
    std::string file;
    int line = 0;
    std::string message;

    /// "file:12: message" (or "file: message" for line 0).
    std::string toString() const;
    bool operator==(const ImportNote &) const = default;
};

struct ImportReport
{
    std::string format;                   ///< registry name of the importer that ran
    std::optional<Cluster> cluster;       ///< set by cluster importers
    std::vector<Job> jobs;                ///< set by trace importers, in submit order
    std::vector<ImportNote> jobOrigins;   ///< parallel to jobs: where each job came from
    std::vector<ImportNote> skipped;      ///< rows not imported, with the reason
    std::vector<std::string> assumptions; ///< defaults chosen where the input said nothing
    /// Measured step-time tables by model profile name (pollux-throughput).
    std::map<std::string, StepTimeTable> stepTimeModels{};

    void skip(const std::string &file, int line, std::string reason);
    void assume(std::string what);

    /// Human-readable report, one item per line: counts, skipped rows, assumptions.
    std::string toText() const;
    nlohmann::ordered_json toJson() const;
};

} // namespace cb
