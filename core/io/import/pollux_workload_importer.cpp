#include "io/import/pollux_workload_importer.h"

#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/trace_builder.h"

namespace cb {

FormatMatch PolluxWorkloadImporter::detect(const ImportSample &sample) const
{
    const auto row = detection::firstRow(sample.head);
    if (detection::hasAll(row, {"name", "time", "application", "num_replicas"}))
        return {3, "header " + detection::headerText(row)};
    return {};
}

Result<ImportReport> PolluxWorkloadImporter::read(const std::vector<ImportInput> &inputs,
                                                  const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder(name(), options);
    for (const ImportInput &in : inputs) {
        TimeColumn time("time", options.timeFormats);
        builder.expectBytes(in.size());
        const Status read = readCsvInput(
            in, {"name", "time", "application", "num_replicas"}, report, [&](CsvRowReader &r) {
                TraceRecord rec;
                rec.file = in.name;
                rec.line = r.line();
                rec.id = r.text("name");
                if (rec.id.empty())
                    r.fail("column name is empty");
                rec.name = rec.id;
                const auto t = time.read(r);
                if (!t && r.ok())
                    r.fail("column time is empty (expected a number)");
                rec.submitSeconds = t.value_or(0);
                rec.model = r.text("application");
                rec.gpus = int(r.integer("num_replicas", 1, 100000));
                rec.workers = rec.gpus;
                // Pollux's batch_size is the job's total: each replica takes its share.
                if (r.hasColumn("batch_size") && r.ok())
                    if (long long b = r.integer("batch_size", 1, 100000000, 0); b > 0)
                        rec.localBatch = int((b + rec.gpus - 1) / rec.gpus);
                if (r.ok())
                    builder.add(std::move(rec), report);
            });
        builder.noteTimeColumn(time);
        if (!read)
            return read.problems();
    }
    builder.finish(report);
    report.assume("num_replicas read as the GPU count, one worker per GPU; batch_size split "
                  "evenly over them (rounded up) as the local batch, which only a measured "
                  "step-time model (pollux-throughput) reads");
    return report;
}

} // namespace cb
