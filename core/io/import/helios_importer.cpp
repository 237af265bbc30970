#include "io/import/helios_importer.h"

#include "io/import/text_fields.h"
#include "io/import/trace_builder.h"

namespace cb {

namespace {

// A time field: a date-time or a number of seconds. Empty gives nullopt without a problem.
std::optional<double> timeField(CsvRowReader &r, const std::string &column)
{
    const std::string t = r.text(column);
    if (t.empty())
        return std::nullopt;
    if (auto v = importtext::parseDateTime(t))
        return v;
    if (auto v = importtext::parseNumber(t))
        return v;
    r.fail("column " + column + ": expected a date-time or seconds, found \"" + t + "\"");
    return std::nullopt;
}

} // namespace

Result<ImportReport> HeliosImporter::read(const std::vector<ImportInput> &inputs,
                                          const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder(name(), options);
    std::size_t cpuOnly = 0;
    for (const ImportInput &in : inputs) {
        const Status read =
            readCsvInput(in, {"job_id", "gpu_num", "submit_time"}, report, [&](CsvRowReader &r) {
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
                const auto submit = timeField(r, "submit_time");
                if (!submit && r.ok())
                    r.fail("column submit_time is empty");
                rec.submitSeconds = submit.value_or(0);
                if (r.hasColumn("duration") && !r.text("duration").empty()) {
                    rec.durationSeconds = r.number("duration", 0, 1e15);
                } else {
                    const auto start = timeField(r, "start_time");
                    const auto end = timeField(r, "end_time");
                    if (start && end && *end >= *start)
                        rec.durationSeconds = *end - *start;
                }
                if (!r.ok())
                    return;
                cpuOnly += rec.gpus == 0;
                builder.add(std::move(rec));
            });
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
