#pragma once
// What an importer produced and what it had to decide on the way: the cluster or the jobs,
// every input row it left out (with file and line, grouped by reason), and every assumption
// it made. The counts say what was read and, once the scenario is written, what was written.

#include "model/cluster.h"
#include "model/job.h"
#include "model/step_time_table.h"

#include <nlohmann/json.hpp>

#include <cstddef>
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
    /// The kind of problem, without the row's own values ("column num_gpu: expected an
    /// integer"); reports group skipped rows by it. Empty: the message is the reason.
    std::string reason{};

    /// "file:12: message" (or "file: message" for line 0).
    std::string toString() const;
    const std::string &group() const { return reason.empty() ? message : reason; }
    bool operator==(const ImportNote &) const = default;
};

/// Where a job came from: an index into ImportReport::files and the line.
struct ImportOrigin
{
    int file = -1;
    int line = 0;
    bool operator==(const ImportOrigin &) const = default;
};

/// Skipped rows of one reason: how many, and the first few.
struct SkipGroup
{
    std::string reason;
    std::size_t count = 0;
    std::vector<ImportNote> first; ///< at most ImportReport::kFirstPerGroup, one per line
    bool moreLines = false;        ///< rows of the group on lines not in `first`
};

struct ImportReport
{
    /// Notes kept in `skipped` (the count goes on beyond it).
    static constexpr std::size_t kMaxListed = 10000;
    /// Rows listed per reason in the summary.
    static constexpr std::size_t kFirstPerGroup = 8;

    std::string format;             ///< registry name of the importer that ran
    std::vector<std::string> files; ///< the inputs, for ImportOrigin::file
    std::optional<Cluster> cluster; ///< set by cluster importers
    std::vector<Job> jobs;          ///< set by trace importers, in submit order
    /// Parallel to jobs: where each job came from (after addImportedJobs: parallel to the
    /// jobs it added).
    std::vector<ImportOrigin> jobOrigins;
    std::vector<ImportNote> skipped;      ///< rows not imported (the first kMaxListed)
    std::size_t skippedCount = 0;         ///< all rows not imported
    std::vector<SkipGroup> skipGroups;    ///< by reason, in order of first appearance
    std::vector<std::string> assumptions; ///< defaults chosen where the input said nothing
    /// Measured step-time tables by model profile name (pollux-throughput).
    std::map<std::string, StepTimeTable> stepTimeModels{};
    /// Data rows (or records) the importer read, kept or not.
    std::size_t rowsRead = 0;

    /// Set once the scenario is written: the file and what it holds.
    std::string out{};
    std::size_t jobsWritten = 0; ///< jobs this import added (and, once out is set, wrote)
    std::size_t jobsBefore = 0;  ///< jobs of the scenario they were added to (--append-to)
    std::size_t nodesWritten = 0;

    /// Leaves a row out: `message` says why with the row's values; `reason` (if given) is the
    /// same without them, for grouping.
    void skip(const std::string &file, int line, std::string message, std::string reason = {});
    void assume(std::string what);
    /// Index of `file` in `files` (added when new).
    int fileIndex(const std::string &file);
    /// "file:line" of job i.
    ImportNote origin(std::size_t job) const;
    /// Adds another report's notes, assumptions and counts (not its jobs or cluster).
    void merge(const ImportReport &other);

    /// Human-readable report: the counts, skipped rows grouped by reason with their first
    /// lines, the assumptions. `allSkipped` lists every skipped row kept instead.
    std::string toText(bool allSkipped = false) const;
    /// For an input none of whose rows could be used: how many were skipped and the first
    /// one's place and reason ("3 rows skipped; the first: f.csv:2: column date: expected
    /// YYYY-MM-DD, found ..."), or empty when none was.
    std::string skippedSummary() const;
    nlohmann::ordered_json toJson() const;

private:
    std::map<std::string, std::size_t> m_groupIndex;
};

} // namespace cb
