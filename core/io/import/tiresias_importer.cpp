#include "io/import/tiresias_importer.h"

#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/trace_builder.h"

namespace cb {

FormatMatch TiresiasImporter::detect(const ImportSample &sample) const
{
    const auto row = detection::firstRow(sample.head);
    if (detection::hasAll(row, {"job_id", "num_gpu", "submit_time"}))
        return {3, "header " + detection::headerText(row)};
    return {};
}

Result<ImportReport> TiresiasImporter::read(const std::vector<ImportInput> &inputs,
                                            const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder(name(), options);
    for (const ImportInput &in : inputs) {
        TimeColumn submit("submit_time", options.timeFormats);
        builder.expectBytes(in.size());
        const Status read =
            readCsvInput(in, {"job_id", "num_gpu", "submit_time"}, report, [&](CsvRowReader &r) {
                TraceRecord rec;
                rec.file = in.name;
                rec.line = r.line();
                rec.id = r.text("job_id");
                if (rec.id.empty())
                    r.fail("column job_id is empty");
                rec.gpus = int(r.integer("num_gpu", 0, 1000000));
                const auto t = submit.read(r);
                if (!t && r.ok())
                    r.fail("column submit_time is empty (expected a number)");
                rec.submitSeconds = t.value_or(0);
                if (r.hasColumn("iterations"))
                    if (long long it = r.integer("iterations", 0, 1000000000000000LL, 0); it > 0)
                        rec.iterations = it;
                if (r.hasColumn("duration"))
                    if (double d = r.number("duration", 0, 1e15, -1.0); d >= 0)
                        rec.durationSeconds = d;
                rec.model = r.text("model_name");
                rec.name = rec.model.empty() ? rec.id : rec.model + "-" + rec.id;
                if (r.ok())
                    builder.add(std::move(rec), report);
            });
        builder.noteTimeColumn(submit);
        if (!read)
            return read.problems();
    }
    builder.finish(report);
    return report;
}

} // namespace cb
