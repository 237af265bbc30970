#include "io/import/trace_builder.h"

#include "io/import/model_catalog.h"
#include "io/import/text_fields.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace cb {

using importtext::formatNumber;

TraceBuilder::TraceBuilder(std::string format, ImportOptions options)
    : m_format(std::move(format)), m_options(std::move(options))
{}

namespace {

std::string plural(std::size_t n, const char *word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

void TraceBuilder::finish(ImportReport &report)
{
    // Unique ids first, in file order, so "first seen" means what a reader expects.
    std::vector<TraceRecord> records;
    std::map<std::string, int> firstLine;
    std::map<std::string, std::size_t> fileIndex;
    for (const TraceRecord &r : m_records)
        fileIndex.emplace(r.file, fileIndex.size());
    for (TraceRecord &r : m_records) {
        // Generated ids name the line, and the file's position when there are several.
        if (r.id.empty())
            r.id = m_format + "-" +
                   (fileIndex.size() > 1 ? "f" + std::to_string(fileIndex[r.file] + 1) + "-"
                                         : std::string()) +
                   std::to_string(r.line);
        auto [it, fresh] = firstLine.emplace(r.id, r.line);
        if (!fresh) {
            report.skip(r.file, r.line,
                        "duplicate job id \"" + r.id + "\" (first at line " +
                            std::to_string(it->second) + ")");
            continue;
        }
        records.push_back(std::move(r));
    }
    m_records.clear();
    if (records.empty())
        return;

    for (std::size_t i = 1; i < records.size(); ++i)
        if (records[i].submitSeconds < records[i - 1].submitSeconds) {
            report.assume("rows are not in submit-time order (first out of order: " +
                          records[i].file + ":" + std::to_string(records[i].line) +
                          "): jobs sorted by submit time, ties kept in file order");
            break;
        }
    std::stable_sort(records.begin(), records.end(),
                     [](const TraceRecord &a, const TraceRecord &b) {
                         return a.submitSeconds < b.submitSeconds;
                     });
    const double origin = records.front().submitSeconds;
    report.assume("times rebased: the first submission (" + formatNumber(origin) +
                  " s in the trace's time base) is at 0 s");

    std::size_t defaultModel = 0, fromDuration = 0, defaultLength = 0, defaultResources = 0;
    std::size_t multiWorker = 0;
    std::map<std::string, std::string> aliasNotes;
    std::set<std::string> unknownNames;
    const auto fallback = findKnownModel(m_options.defaultModel);
    for (const TraceRecord &r : records) {
        Job job;
        job.id = r.id;
        job.name = r.name.empty() ? r.id : r.name;
        job.submitSeconds = r.submitSeconds - origin;
        if (r.dueSeconds)
            job.dueSeconds = std::max(job.submitSeconds, *r.dueSeconds - origin);
        job.priority = r.priority;

        if (!r.groups.empty()) {
            job.kind = r.kind;
            job.tasks = r.groups;
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
                ++defaultResources;
            g.cpus = r.cpus && *r.cpus > 0 ? *r.cpus / workers : 1.0;
            g.memoryGiB = r.memoryGiB && *r.memoryGiB > 0 ? *r.memoryGiB / workers : 2.0;
            if (workers == 1) {
                job.kind = JobKind::Single;
                g.role = TaskRole::Single;
            } else {
                job.kind = JobKind::AllReduce;
                g.role = TaskRole::Worker;
                ++multiWorker;
            }
            job.tasks.push_back(g);
        }

        auto known = r.model.empty() ? std::nullopt : findKnownModel(r.model);
        if (known) {
            job.model.name = known->name;
            job.model.parameterBytes = known->parameterBytes();
            if (!known->note.empty())
                aliasNotes[known->note] = known->name;
        } else {
            ++defaultModel;
            if (!r.model.empty())
                unknownNames.insert(r.model);
            job.model.name = fallback ? fallback->name : m_options.defaultModel;
            job.model.parameterBytes = fallback ? fallback->parameterBytes() : 0;
        }
        if (r.iterations && *r.iterations > 0) {
            job.model.iterations = *r.iterations;
            job.model.computeSecondsPerIteration = r.durationSeconds && *r.durationSeconds > 0
                                                       ? *r.durationSeconds / double(*r.iterations)
                                                       : m_options.secondsPerIteration;
        } else if (r.durationSeconds) {
            ++fromDuration;
            job.model.computeSecondsPerIteration = m_options.secondsPerIteration;
            job.model.iterations = std::max<long long>(
                1, std::llround(*r.durationSeconds / m_options.secondsPerIteration));
        } else {
            ++defaultLength;
            job.model.computeSecondsPerIteration = m_options.secondsPerIteration;
            job.model.iterations = m_options.defaultIterations;
        }
        job.model.localBatch = r.localBatch;
        report.jobs.push_back(std::move(job));
        report.jobOrigins.push_back({r.file, r.line, r.id});
    }

    if (defaultModel > 0) {
        std::string msg = "no known model size for " + plural(defaultModel, "job") +
                          ": default profile " + m_options.defaultModel;
        if (fallback)
            msg += " (" + formatNumber(fallback->parameters / 1e6) + "M parameters, " +
                   std::to_string(fallback->parameterBytes()) + " bytes in fp32)";
        msg += " assumed";
        if (!unknownNames.empty()) {
            msg += "; unrecognised model names:";
            std::size_t shown = 0;
            for (const std::string &n : unknownNames) {
                if (++shown > 8) {
                    msg += " ...";
                    break;
                }
                msg += " \"" + n + "\"";
            }
        }
        report.assume(msg);
    }
    for (const auto &[note, name] : aliasNotes)
        report.assume(note);
    if (fromDuration > 0)
        report.assume("no iteration count for " + plural(fromDuration, "job") +
                      ": duration mapped to iterations at " +
                      formatNumber(m_options.secondsPerIteration) +
                      " s per iteration on the reference GPU");
    if (defaultLength > 0)
        report.assume("no duration or iteration count for " + plural(defaultLength, "job") + ": " +
                      std::to_string(m_options.defaultIterations) + " iterations at " +
                      formatNumber(m_options.secondsPerIteration) + " s each assumed");
    if (defaultResources > 0)
        report.assume("no CPU or memory request for " + plural(defaultResources, "job") +
                      ": 1 CPU and 2 GiB per task assumed");
    if (multiWorker > 0)
        report.assume(plural(multiWorker, "job") +
                      " with several workers imported as data-parallel all-reduce jobs "
                      "(one worker per GPU unless the trace gives the worker count)");
}

} // namespace cb
