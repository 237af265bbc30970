#include "io/import/philly_pollux_importer.h"

#include "io/import/trace_builder.h"

namespace cb {

Result<ImportReport> PhillyPolluxImporter::read(const std::vector<ImportInput> &inputs,
                                                const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder("philly", options);
    for (const ImportInput &in : inputs) {
        const Status read = readCsvInput(
            in, {"timestamp", "duration", "num_gpus"}, report, [&](CsvRowReader &r) {
                TraceRecord rec;
                rec.file = in.name;
                rec.line = r.line();
                rec.submitSeconds = r.number("timestamp", 0, 1e15);
                rec.durationSeconds = r.number("duration", 0, 1e15);
                rec.gpus = int(r.integer("num_gpus", 0, 100000));
                if (r.ok())
                    builder.add(std::move(rec));
            });
        if (!read)
            return read.problems();
    }
    builder.finish(report);
    return report;
}

} // namespace cb
