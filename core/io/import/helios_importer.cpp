#include "io/import/helios_importer.h"

#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/text_fields.h"
#include "io/import/trace_builder.h"

namespace cb {

FormatMatch HeliosImporter::detect(const ImportSample &sample) const
{
    const auto row = detection::firstRow(sample.head);
    if (detection::hasAll(row, {"job_id", "gpu_num", "submit_time"}))
        return {3, "header " + detection::headerText(row)};
    return {};
}

Result<ImportReport> HeliosImporter::read(const std::vector<ImportInput> &inputs,
                                          const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder(name(), options);
    std::size_t cpuOnly = 0, pending = 0;
    for (const ImportInput &in : inputs) {
        TimeColumn submit("submit_time", options.timeFormats);
        builder.expectBytes(in.size());
        TimeColumn start("start_time", options.timeFormats);
        TimeColumn end("end_time", options.timeFormats);
        auto csv = openCsvInput(in, {"job_id", "gpu_num", "submit_time"});
        if (!csv)
            return csv.problems();
        const bool hasStart = csv->columns.hasColumn("start_time");
        const Status read = forEachCsvRow(csv.value(), report, [&](CsvRowReader &r) {
            TraceRecord rec;
            rec.file = in.name;
            rec.line = r.line();
            rec.id = r.text("job_id");
            if (rec.id.empty())
                r.fail("column job_id is empty");
            rec.name = rec.id;
            rec.gpus = int(r.integer("gpu_num", 0, 100000));
            if (r.hasColumn("cpu_num"))
                if (double c = r.number("cpu_num", 0, 1e7, 0.0); c > 0)
                    rec.cpus = c;
            if (r.hasColumn("node_num"))
                rec.workers = int(r.integer("node_num", 0, 100000, 0));
            const auto s = submit.read(r);
            if (!s && r.ok())
                r.fail("column submit_time is empty");
            rec.submitSeconds = s.value_or(0);
            const auto st = start.read(r);
            const auto en = end.read(r);
            if (r.hasColumn("duration") && !r.text("duration").empty())
                rec.durationSeconds = r.number("duration", 0, 1e15);
            else if (st && en && *en >= *st)
                rec.durationSeconds = *en - *st;
            if (!r.ok())
                return;
            if (hasStart && !st && (!rec.durationSeconds || *rec.durationSeconds <= 0)) {
                // Never started: no start time, and no duration or one of 0 (Helios writes a
                // cancelled job's as 0).
                if (options.pending == PendingJobs::Skip) {
                    r.leaveOut("job " + importtext::shown(rec.id) +
                                   " never started (no start_time): left out (--pending wait "
                                   "keeps it)",
                               "never started (pending): left out, --pending wait keeps them");
                    return;
                }
                rec.pending = true;
                ++pending;
            }
            cpuOnly += rec.gpus == 0;
            builder.add(std::move(rec), report);
        });
        for (const TimeColumn *c : {&submit, &start, &end})
            builder.noteTimeColumn(*c);
        if (!read)
            return read.problems();
    }
    builder.finish(report);
    if (cpuOnly > 0)
        report.assume(std::to_string(cpuOnly) + " jobs request no GPU: imported as single CPU "
                                                "tasks");
    report.assume("node_num read as the worker count when it divides gpu_num; user, vc, "
                  "state and queue not modelled");
    return report;
}

} // namespace cb
