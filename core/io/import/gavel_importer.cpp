#include "io/import/gavel_importer.h"

#include "io/import/csv_rows.h"
#include "io/import/gavel_throughputs.h"
#include "io/import/text_fields.h"
#include "io/import/trace_builder.h"
#include "model/gpu_catalog.h"

#include <cmath>
#include <set>

namespace cb {

namespace {

const std::vector<std::string> kTen = {
    "job_type",    "command",      "working_directory", "num_steps_arg", "needs_data_dir",
    "total_steps", "scale_factor", "priority_weight",   "SLO",           "arrival_time"};
const std::vector<std::string> kSeven = {"job_type",       "command",     "num_steps_arg",
                                         "needs_data_dir", "total_steps", "arrival_time",
                                         "scale_factor"};

// "ResNet-50 (batch size 64)" -> 64; 0 when the name gives none.
int batchOf(const std::string &jobType)
{
    const auto at = jobType.find("(batch size ");
    if (at == std::string::npos)
        return 0;
    const auto v =
        importtext::parseInteger(jobType.substr(at + 12, jobType.find(')', at) - at - 12));
    return v && *v > 0 && *v < 100000000 ? int(*v) : 0;
}

// Gavel trains the CIFAR-10 ResNet-18, not ImageNet's.
std::string modelOf(const std::string &jobType)
{
    if (jobType.starts_with("ResNet-18"))
        return "resnet18-cifar10";
    return jobType;
}

} // namespace

FormatMatch GavelImporter::detect(const ImportSample &sample) const
{
    const auto row = [&] {
        const auto first = sample.head.substr(0, sample.head.find('\n'));
        return importtext::split(first, '\t');
    }();
    if (row.size() != 10 && row.size() != 7)
        return {};
    const std::string &type = row[0];
    const bool named =
        type.find("(batch size") != std::string::npos || type == "A3C" || type == "CycleGAN";
    const std::size_t steps = row.size() == 10 ? 5 : 4;
    if (!importtext::parseInteger(importtext::trim(row[steps])))
        return {};
    return {named ? 3 : 2, std::to_string(row.size()) + " tab-separated fields, job type " +
                               importtext::shown(type)};
}

Result<ImportReport> GavelImporter::read(const std::vector<ImportInput> &inputs,
                                         const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    GavelThroughputs throughputs = GavelThroughputs::builtin();
    if (!options.throughputsFile.empty()) {
        ImportInput file;
        file.name = options.throughputsFile;
        file.path = options.throughputsFile;
        auto text = file.wholeText();
        if (!text)
            return text.problems();
        auto read = GavelThroughputs::fromJson(text.value(), options.throughputsFile);
        if (!read)
            return read.problems();
        throughputs = std::move(read.value());
    }
    // Gavel's worker types as catalogue GPU models ("v100" -> "V100").
    std::vector<std::pair<std::string, std::string>> workers;
    for (const std::string &w : throughputs.workers()) {
        const GpuRecognition r = recogniseGpu(w);
        workers.emplace_back(w, r.recognised ? r.model : w);
    }
    TraceBuilder builder(name(), options);
    std::size_t sevenFieldFiles = 0, withSlo = 0, measured = 0, zero = 0;
    std::set<std::string> unmeasured, oneGpuOnly;
    for (const ImportInput &in : inputs) {
        // Commands contain quotes and commas; fields are split on tabs only.
        auto csv = openCsvInputWithColumns(in, {}, '\t', false);
        if (!csv)
            return csv.problems();
        if (!csv->pending)
            return Result<ImportReport>::failure(in.name, "the file has no rows");
        const std::size_t width = csv->pending->fields.size();
        if (width != 10 && width != 7)
            return Result<ImportReport>::failure(
                in.name + ":" + std::to_string(csv->pending->line),
                "expected 10 tab-separated fields (job_type ... arrival_time) or the older 7, "
                "found " +
                    std::to_string(width));
        sevenFieldFiles += width == 7;
        csv->columns = CsvColumns(in.name, width == 10 ? kTen : kSeven);
        TimeColumn arrival("arrival_time", options.timeFormats);
        builder.expectBytes(in.size());
        const Status read = forEachCsvRow(csv.value(), report, [&](CsvRowReader &r) {
            TraceRecord rec;
            rec.file = in.name;
            rec.line = r.line();
            rec.name = r.text("job_type");
            rec.model = modelOf(rec.name);
            const long long steps = r.integer("total_steps", 1, 1000000000000LL);
            const int scale = int(r.integer("scale_factor", 1, 100000));
            const auto t = arrival.read(r);
            if (!t && r.ok())
                r.fail("column arrival_time is empty (expected a number)");
            else if (t && *t < 0 && r.ok()) // (a job before the trace began: a broken row)
                r.fail("column arrival_time: expected seconds from the trace's start, 0 or more, "
                       "found \"" +
                       r.text("arrival_time") + "\"");
            rec.submitSeconds = t.value_or(0);
            if (width == 10) {
                rec.priority = int(std::lround(r.number("priority_weight", 0, 1e6)));
                if (r.number("SLO", -1e15, 1e15) >= 0)
                    ++withSlo;
            }
            if (!r.ok())
                return;
            rec.gpus = scale;
            rec.localBatch = batchOf(rec.name);
            // Gavel counts the steps of all workers: each data-parallel iteration is one
            // step on each of the job's GPUs.
            rec.iterations = std::max<long long>(1, (steps + scale - 1) / scale);
            bool any = false;
            for (const auto &[worker, model] : workers) {
                const auto v = throughputs.find(worker, rec.name, scale);
                if (!v)
                    continue;
                if (*v <= 0) {
                    ++zero;
                    continue;
                }
                rec.secondsByGpuType[model] = double(scale) / *v;
                any = true;
            }
            if (!any && scale > 1) {
                // Measured on one GPU only (a table without scale factors, or a job type Gavel
                // does not distribute): each data-parallel iteration takes one GPU's step
                // time, and the network model adds the exchange between the GPUs.
                for (const auto &[worker, model] : workers)
                    if (const auto v = throughputs.find(worker, rec.name, 1); v && *v > 0) {
                        rec.secondsByGpuType[model] = 1.0 / *v;
                        any = true;
                    }
                if (any)
                    oneGpuOnly.insert(rec.name + " at scale " + std::to_string(scale));
            }
            if (any) {
                ++measured;
                // The reference GPU (relative speed 1) is the V100.
                if (auto v100 = rec.secondsByGpuType.find("V100");
                    v100 != rec.secondsByGpuType.end())
                    rec.durationSeconds = v100->second * double(*rec.iterations);
            } else {
                unmeasured.insert(rec.name + " at scale " + std::to_string(scale));
            }
            builder.add(std::move(rec), report);
        });
        builder.noteTimeColumn(arrival);
        if (!read)
            return read.problems();
    }
    builder.finish(report);
    if (sevenFieldFiles > 0)
        report.assume(std::to_string(sevenFieldFiles) +
                      " file(s) in the older 7-field layout "
                      "(job_type, command, num_steps_arg, needs_data_dir, total_steps, "
                      "arrival_time, scale_factor)");
    // (priority_weight only where a file has the 10-field layout: the 7 fields have none)
    const bool anyTenFields = sevenFieldFiles < inputs.size();
    report.assume(std::string("scale_factor read as the job's GPU count; total_steps counts the "
                              "steps of all its GPUs, so a job runs total_steps / scale_factor "
                              "data-parallel iterations") +
                  (anyTenFields ? "; priority_weight rounded to the job priority" : ""));
    if (measured > 0) {
        std::string types;
        for (const auto &[worker, model] : workers)
            types += (types.empty() ? "" : ", ") + model;
        report.assume(std::to_string(measured) + " jobs run at Gavel's measured throughputs (" +
                      throughputs.source() + ") on " + types +
                      ": scale_factor / steps-per-second seconds per iteration; GPU types "
                      "not measured scale the V100 time by their relative speed. Gavel "
                      "measured multi-GPU jobs on one server, so their communication is in "
                      "those times, and the network model adds its own when a job spans "
                      "nodes");
    }
    if (zero > 0)
        report.assume(std::to_string(zero) +
                      " job/GPU-type pairs have a measured throughput of 0 in Gavel's table "
                      "(the job does not fit that GPU): that GPU type runs them at its "
                      "relative speed instead");
    if (!oneGpuOnly.empty()) {
        std::string list;
        for (const std::string &u : oneGpuOnly)
            list += (list.empty() ? "" : "; ") + u;
        report.assume("measured on one GPU only: " + list +
                      ": each iteration takes the one-GPU step time (1 / steps-per-second), "
                      "the network model adding the exchange between the job's GPUs");
    }
    if (!unmeasured.empty()) {
        std::string list;
        for (const std::string &u : unmeasured)
            list += (list.empty() ? "" : "; ") + u;
        report.assume("no measured throughput for " + list +
                      ": those jobs run at the reference time per iteration (--seconds-per-"
                      "iteration)");
    }
    if (withSlo > 0)
        report.assume("SLO values of " + std::to_string(withSlo) +
                      " jobs not imported (no due date is derived from them)");
    return report;
}

} // namespace cb
