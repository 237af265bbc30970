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
        auto table = CsvTable::withHeader(in.text, in.name, {"timestamp", "duration", "num_gpus"});
        if (!table)
            return table.problems();
        reportBadRows(table.value(), report);
        for (const CsvRow &row : table->rows()) {
            CsvRowReader r(table.value(), row);
            TraceRecord rec;
            rec.file = in.name;
            rec.line = row.line;
            rec.submitSeconds = r.number("timestamp", 0, 1e15);
            rec.durationSeconds = r.number("duration", 0, 1e15);
            rec.gpus = int(r.integer("num_gpus", 0, 100000));
            if (!r.ok()) {
                report.skip(in.name, row.line, r.error());
                continue;
            }
            builder.add(std::move(rec));
        }
    }
    builder.finish(report);
    return report;
}

} // namespace cb
