#include "io/import/trace_builder.h"
#include "util/text.h"

#include "io/import/model_catalog.h"
#include "io/import/text_fields.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cb {

using importtext::formatNumber;

TraceBuilder::TraceBuilder(std::string format, ImportOptions options)
    : m_format(std::move(format)), m_options(std::move(options))
{}

void TraceBuilder::expectBytes(std::size_t bytes)
{
    const std::size_t rows = bytes / 32 + 16;
    m_jobs.reserve(m_jobs.size() + rows);
    m_origins.reserve(m_origins.size() + rows);
}

void TraceBuilder::noteTimeColumn(const TimeColumn &column)
{
    const std::string d = column.describe();
    if (d.empty())
        return;
    m_timeNotes.emplace(column.column(), d);
    const TimeFormat f = column.format();
    m_absoluteTimes = m_absoluteTimes || f == TimeFormat::DateTime ||
                      f == TimeFormat::EpochSeconds || f == TimeFormat::EpochMillis;
}

void TraceBuilder::add(TraceRecord r, ImportReport &report)
{
    std::size_t fileNo = 0;
    while (fileNo < m_files.size() && m_files[fileNo] != r.file)
        ++fileNo;
    if (fileNo == m_files.size())
        m_files.push_back(r.file);
    // Generated ids name the line, and the file's position for the second file on.
    if (r.id.empty())
        r.id = m_format + "-" + (fileNo > 0 ? "f" + std::to_string(fileNo + 1) + "-" : "") +
               std::to_string(r.line);
    auto [it, fresh] = m_firstLine.emplace(r.id, r.line);
    if (!fresh) {
        report.skip(r.file, r.line,
                    "duplicate job id " + importtext::shown(r.id) + " (first at line " +
                        std::to_string(it->second) + ")",
                    "duplicate job id");
        return;
    }

    Job job;
    job.id = r.id;
    job.name = r.name.empty() ? r.id : r.name;
    job.submitSeconds = r.submitSeconds;
    job.dueSeconds = r.dueSeconds;
    job.priority = r.priority;
    if (!r.groups.empty()) {
        job.kind = r.kind;
        job.tasks = std::move(r.groups);
    } else {
        int workers = r.gpus > 0 ? r.gpus : 1;
        if (r.workers > 0 && r.gpus > 0 && r.gpus % r.workers == 0)
            workers = r.workers;
        const int gpusPerTask = r.gpus > 0 ? r.gpus / workers : 0;
        TaskGroup g;
        g.replicas = workers;
        g.gpus = gpusPerTask;
        if (gpusPerTask == 1 && r.gpuFraction > 0 && r.gpuFraction < 1)
            g.gpuFraction = r.gpuFraction;
        g.gpuType = gpusPerTask > 0 ? r.gpuType : std::string();
        if (!r.cpus && !r.memoryGiB)
            ++m_defaultResources;
        g.cpus = r.cpus && *r.cpus > 0 ? *r.cpus / workers : 1.0;
        g.memoryGiB = r.memoryGiB && *r.memoryGiB > 0 ? *r.memoryGiB / workers : 2.0;
        if (workers == 1) {
            job.kind = JobKind::Single;
            g.role = TaskRole::Single;
        } else {
            job.kind = JobKind::AllReduce;
            g.role = TaskRole::Worker;
            ++m_multiWorker;
        }
        job.tasks.push_back(std::move(g));
    }

    auto known = r.model.empty() ? std::nullopt : findKnownModel(r.model);
    if (known) {
        job.model.name = known->name;
        job.model.parameterBytes = known->parameterBytes();
        if (!known->note.empty())
            m_aliasNotes[known->note] = known->name;
    } else {
        ++m_defaultModel;
        if (!r.model.empty())
            ++m_unknownNames[r.model];
        const auto fallback = findKnownModel(m_options.defaultModel);
        job.model.name = fallback ? fallback->name : m_options.defaultModel;
        job.model.parameterBytes = fallback ? fallback->parameterBytes() : 0;
    }
    if (r.pending) {
        ++m_pending;
        job.model.computeSecondsPerIteration = m_options.secondsPerIteration;
        job.model.iterations = m_options.defaultIterations;
    } else if (r.iterations && *r.iterations > 0) {
        job.model.iterations = *r.iterations;
        job.model.computeSecondsPerIteration = r.durationSeconds && *r.durationSeconds > 0
                                                   ? *r.durationSeconds / double(*r.iterations)
                                                   : m_options.secondsPerIteration;
    } else if (r.durationSeconds) {
        ++m_fromDuration;
        job.model.computeSecondsPerIteration = m_options.secondsPerIteration;
        const double its = *r.durationSeconds / m_options.secondsPerIteration;
        // Beyond the format's range the job is left out later with its line (the
        // scenario limits); saturate here rather than overflow.
        job.model.iterations =
            its >= 9e18 ? std::int64_t(9e18) : std::max<long long>(1, std::llround(its));
    } else {
        ++m_defaultLength;
        job.model.computeSecondsPerIteration = m_options.secondsPerIteration;
        job.model.iterations = m_options.defaultIterations;
    }
    if (!r.secondsByGpuType.empty()) {
        ++m_measured;
        job.model.computeSecondsByGpuType = std::move(r.secondsByGpuType);
    }
    job.model.localBatch = r.localBatch;
    m_jobs.push_back(std::move(job));
    m_origins.push_back({report.fileIndex(r.file), r.line});
}

void TraceBuilder::finish(ImportReport &report)
{
    m_firstLine = {}; // frees its buckets too
    for (const auto &[column, note] : m_timeNotes)
        report.assume(note);
    if (m_jobs.empty())
        return;

    // Sort by submit time, stably, in place: a permutation applied by cycles, so the jobs
    // are never held twice.
    bool sorted = true;
    for (std::size_t i = 1; i < m_jobs.size() && sorted; ++i)
        if (m_jobs[i].submitSeconds < m_jobs[i - 1].submitSeconds) {
            sorted = false;
            report.assume("rows are not in submit-time order (first out of order: " +
                          report.files[std::size_t(m_origins[i].file)] + ":" +
                          std::to_string(m_origins[i].line) +
                          "): jobs sorted by submit time, ties kept in file order");
        }
    if (!sorted) {
        std::vector<std::uint32_t> order(m_jobs.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return m_jobs[a].submitSeconds < m_jobs[b].submitSeconds;
        });
        // order[i] is the index of the job that goes to position i.
        std::vector<bool> done(order.size(), false);
        for (std::size_t start = 0; start < order.size(); ++start) {
            if (done[start])
                continue;
            std::size_t i = start;
            Job held = std::move(m_jobs[start]);
            ImportOrigin heldOrigin = m_origins[start];
            while (true) {
                done[i] = true;
                const std::size_t from = order[i];
                if (from == start) {
                    m_jobs[i] = std::move(held);
                    m_origins[i] = heldOrigin;
                    break;
                }
                m_jobs[i] = std::move(m_jobs[from]);
                m_origins[i] = m_origins[from];
                i = from;
            }
        }
    }
    const double origin = m_jobs.front().submitSeconds;
    for (Job &j : m_jobs) {
        j.submitSeconds -= origin;
        if (j.dueSeconds)
            j.dueSeconds = std::max(j.submitSeconds, *j.dueSeconds - origin);
    }
    report.assume("times rebased: the first submission (" +
                  (m_absoluteTimes ? importtext::formatDateTime(origin) + " UTC"
                                   : formatNumber(origin) + " s in the trace's time base") +
                  ") is at 0 s");

    if (m_defaultModel > 0) {
        const auto fallback = findKnownModel(m_options.defaultModel);
        std::string msg = "no known model size for " + counted(m_defaultModel, "job") +
                          ": default profile " + m_options.defaultModel;
        if (fallback)
            msg += " (" + formatNumber(fallback->parameters / 1e6) + "M parameters, " +
                   std::to_string(fallback->parameterBytes()) + " bytes in fp32)";
        msg += " assumed";
        report.assume(msg);
        // (a note of its own: one line in a report, not a clause that wraps like a new one)
        if (!m_unknownNames.empty()) {
            std::string names = "model names not in the catalogue, given that default profile:";
            std::size_t shown = 0;
            for (const auto &[n, count] : m_unknownNames) {
                if (++shown > 12) {
                    names += " and " + std::to_string(m_unknownNames.size() - 12) + " more";
                    break;
                }
                names += " " + importtext::shown(n) + " (" + counted(count, "job") + ")" +
                         (findModelSizeNote(n).empty() ? "" : ": " + findModelSizeNote(n));
            }
            report.assume(names);
        }
    }
    for (const auto &[note, name] : m_aliasNotes)
        report.assume(note);
    if (m_fromDuration > 0)
        report.assume("no iteration count for " + counted(m_fromDuration, "job") +
                      ": duration mapped to iterations at " +
                      formatNumber(m_options.secondsPerIteration) +
                      " s per iteration on the reference GPU");
    if (m_defaultLength > 0)
        report.assume("no duration or iteration count for " + counted(m_defaultLength, "job") +
                      ": " + std::to_string(m_options.defaultIterations) + " iterations at " +
                      formatNumber(m_options.secondsPerIteration) + " s each assumed");
    if (m_pending > 0)
        report.assume(counted(m_pending, "job") + " never started (pending): kept waiting from " +
                      "their submit time (--pending wait), with the default length of " +
                      std::to_string(m_options.defaultIterations) + " iterations at " +
                      formatNumber(m_options.secondsPerIteration) + " s each");
    if (m_defaultResources > 0)
        report.assume("no CPU or memory request for " + counted(m_defaultResources, "job") +
                      ": 1 CPU and 2 GiB per task assumed");
    if (m_multiWorker > 0)
        report.assume(counted(m_multiWorker, "job") +
                      " with several workers imported as data-parallel all-reduce jobs "
                      "(one worker per GPU unless the trace gives the worker count)");
    report.jobs = std::move(m_jobs);
    report.jobOrigins = std::move(m_origins);
    m_jobs.clear();
    m_origins.clear();
}

} // namespace cb
