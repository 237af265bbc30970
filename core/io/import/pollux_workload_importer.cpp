#include "io/import/pollux_workload_importer.h"

#include "io/import/trace_builder.h"

namespace cb {

Result<ImportReport> PolluxWorkloadImporter::read(const std::vector<ImportInput> &inputs,
                                                  const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder(name(), options);
    for (const ImportInput &in : inputs) {
        auto table =
            CsvTable::withHeader(in.text, in.name, {"name", "time", "application", "num_replicas"});
        if (!table)
            return table.problems();
        reportBadRows(table.value(), report);
        for (const CsvRow &row : table->rows()) {
            CsvRowReader r(table.value(), row);
            TraceRecord rec;
            rec.file = in.name;
            rec.line = row.line;
            rec.id = r.text("name");
            if (rec.id.empty())
                r.fail("column name is empty");
            rec.name = rec.id;
            rec.submitSeconds = r.number("time", 0, 1e15);
            rec.model = r.text("application");
            rec.gpus = int(r.integer("num_replicas", 1, 100000));
            rec.workers = rec.gpus;
            if (!r.ok()) {
                report.skip(in.name, row.line, r.error());
                continue;
            }
            builder.add(std::move(rec));
        }
    }
    builder.finish(report);
    report.assume("num_replicas read as the GPU count, one worker per GPU; batch_size not "
                  "modelled");
    return report;
}

} // namespace cb
