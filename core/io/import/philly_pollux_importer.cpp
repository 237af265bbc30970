#include "io/import/philly_pollux_importer.h"

#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/trace_builder.h"

namespace cb {

FormatMatch PhillyPolluxImporter::detect(const ImportSample &sample) const
{
    const auto row = detection::firstRow(sample.head);
    if (detection::hasAll(row, {"timestamp", "duration", "num_gpus"}))
        return {3, "header " + detection::headerText(row)};
    return {};
}

Result<ImportReport> PhillyPolluxImporter::read(const std::vector<ImportInput> &inputs,
                                                const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder("philly", options);
    for (const ImportInput &in : inputs) {
        TimeColumn submit("timestamp", options.timeFormats);
        builder.expectBytes(in.size());
        const Status read =
            readCsvInput(in, {"timestamp", "duration", "num_gpus"}, report, [&](CsvRowReader &r) {
                TraceRecord rec;
                rec.file = in.name;
                rec.line = r.line();
                const auto t = submit.read(r);
                if (!t && r.ok())
                    r.fail("column timestamp is empty (expected a time)");
                rec.submitSeconds = t.value_or(0);
                rec.durationSeconds = r.number("duration", 0, 1e15);
                rec.gpus = int(r.integer("num_gpus", 0, 100000));
                if (r.ok())
                    builder.add(std::move(rec), report);
            });
        builder.noteTimeColumn(submit);
        if (!read)
            return read.problems();
    }
    builder.finish(report);
    report.assume("gpu_time (duration x num_gpus) and cluster (the Philly virtual cluster) are "
                  "not modelled; the trace names no model");
    return report;
}

} // namespace cb
