#pragma once
// Turns trace rows into jobs the same way for every trace format, so the mapping is
// documented once:
// - Times: rows are sorted by submit time (stable; reported when the input was not sorted)
//   and rebased so the first submission is at 0 s (reported).
// - Tasks: a job of G GPUs split over W workers (W from the trace, else W = G) is an
//   all-reduce job of W workers with G/W GPUs each; a job of one task is a single job; a job
//   with no GPU is a single CPU task. A fraction of one GPU stays a fraction.
// - CPU and memory: the trace's job totals split evenly over the tasks; when absent,
//   1 CPU and 2 GiB per task (reported).
// - Model: a known model name gives its parameter count (model_catalog.h); otherwise the
//   default profile (ImportOptions::defaultModel), reported with the number of jobs.
// - Length: iterations from the trace when given (with duration / iterations as the time per
//   iteration when both are given); else duration / ImportOptions::secondsPerIteration;
//   else ImportOptions::defaultIterations. Each case is reported with its job count.

#include "io/import/csv_rows.h"
#include "io/import/import_report.h"
#include "io/import/importer.h"

#include <optional>
#include <string>
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
    std::string model; ///< the trace's model or application name, may be empty
    int priority = 0;
    std::optional<double> dueSeconds; ///< same time base as submitSeconds
    /// Task groups as the trace gives them (roles, per-task resources); when set they are
    /// used as they are, with `kind`, instead of the GPU-count mapping above.
    std::vector<TaskGroup> groups;
    JobKind kind = JobKind::Single;
};

class TraceBuilder
{
public:
    TraceBuilder(std::string format, ImportOptions options);

    void add(TraceRecord record) { m_records.push_back(std::move(record)); }
    std::size_t size() const { return m_records.size(); }

    /// Builds the jobs into `report` (jobs, jobOrigins, skipped duplicates, assumptions).
    void finish(ImportReport &report);

private:
    std::string m_format;
    ImportOptions m_options;
    std::vector<TraceRecord> m_records;
};

} // namespace cb
