#pragma once
// Turns trace rows into jobs the same way for every trace format, so the mapping is
// documented once:
// - Times: each time column's format is detected or named (time_column.h); jobs are sorted
//   by submit time (stable; reported when the input was not sorted) and rebased so the first
//   submission is at 0 s (reported, with its date when the trace gives dates).
// - Tasks: a job of G GPUs split over W workers (W from the trace, else W = G) is an
//   all-reduce job of W workers with G/W GPUs each; a job of one task is a single job; a job
//   with no GPU is a single CPU task. A fraction of one GPU stays a fraction.
// - CPU and memory: the trace's job totals split evenly over the tasks; when absent,
//   1 CPU and 2 GiB per task (reported).
// - Model: a known model name gives its parameter count (model_catalog.h); otherwise the
//   default profile (ImportOptions::defaultModel), reported with the number of jobs and
//   every unrecognised name.
// - Length: iterations from the trace when given (with duration / iterations as the time per
//   iteration when both are given); else duration / ImportOptions::secondsPerIteration;
//   else ImportOptions::defaultIterations. Each case is reported with its job count.
// - Pending jobs (never started) kept by ImportOptions::pending wait from their submit time
//   with the default length (reported).
// Rows are turned into jobs as they are added, so a trace is held once, as jobs.

#include "io/import/import_report.h"
#include "io/import/importer.h"
#include "io/import/time_column.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace cb {

/// One job as a trace describes it, before the common mapping.
struct TraceRecord
{
    std::string file;
    int line = 0;
    std::string id; ///< empty: "<format>-<line>"
    std::string name;
    double submitSeconds = 0; ///< in the trace's own time base
    int gpus = 0;
    double gpuFraction = 1.0;        ///< below 1 only with gpus == 1
    std::string gpuType;             ///< required GPU type, if the trace says
    int workers = 0;                 ///< tasks the trace says the job used; 0 = one per GPU
    std::optional<double> cpus;      ///< job total
    std::optional<double> memoryGiB; ///< job total
    std::optional<double> durationSeconds;
    std::optional<long long> iterations;
    int localBatch = 0; ///< samples per GPU per iteration, when the trace says (0: not)
    std::string model;  ///< the trace's model or application name, may be empty
    int priority = 0;
    std::optional<double> dueSeconds; ///< same time base as submitSeconds
    /// Measured seconds per iteration by cluster GPU type name (Gavel throughputs).
    std::map<std::string, double> secondsByGpuType;
    /// Never started (pending): kept only under PendingJobs::Wait, with the default length.
    bool pending = false;
    /// Task groups as the trace gives them (roles, per-task resources); when set they are
    /// used as they are, with `kind`, instead of the GPU-count mapping above.
    std::vector<TaskGroup> groups;
    JobKind kind = JobKind::Single;
};

class TraceBuilder
{
public:
    TraceBuilder(std::string format, ImportOptions options);

    /// Maps the record to a job at once (ids deduplicated in file order: a repeated id is
    /// skipped in `report`, naming the first line).
    void add(TraceRecord record, ImportReport &report);
    std::size_t size() const { return m_jobs.size(); }
    /// Tells the builder an input of `bytes` is coming, so it reserves room for its jobs at
    /// once (a row takes 32 bytes or more): growing a vector of millions of jobs would hold
    /// them twice while it moves them. Untouched reserved memory costs nothing.
    void expectBytes(std::size_t bytes);
    /// A time column the trace used, for the report (once per column; its description
    /// says how it was read).
    void noteTimeColumn(const TimeColumn &column);

    /// Sorts and rebases the jobs into `report` (jobs, jobOrigins, assumptions).
    void finish(ImportReport &report);

private:
    std::string m_format;
    ImportOptions m_options;
    std::vector<Job> m_jobs;
    std::vector<ImportOrigin> m_origins;
    std::unordered_map<std::string, int> m_firstLine;
    std::vector<std::string> m_files;
    std::map<std::string, std::string> m_timeNotes; // column -> description
    bool m_absoluteTimes = false;
    // Counts for the report.
    std::size_t m_defaultModel = 0, m_fromDuration = 0, m_defaultLength = 0;
    std::size_t m_defaultResources = 0, m_multiWorker = 0, m_pending = 0, m_measured = 0;
    std::map<std::string, std::string> m_aliasNotes;
    std::map<std::string, std::size_t> m_unknownNames;
};

} // namespace cb
