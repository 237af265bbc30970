#include "io/import/gavel_importer.h"

#include "io/import/trace_builder.h"

#include <cmath>

namespace cb {

Result<ImportReport> GavelImporter::read(const std::vector<ImportInput> &inputs,
                                         const ImportOptions &options) const
{
    static const std::vector<std::string> kTen = {
        "job_type",    "command",      "working_directory", "num_steps_arg", "needs_data_dir",
        "total_steps", "scale_factor", "priority_weight",   "SLO",           "arrival_time"};
    static const std::vector<std::string> kSeven = {
        "job_type",    "command",      "num_steps_arg", "needs_data_dir",
        "total_steps", "arrival_time", "scale_factor"};
    ImportReport report;
    report.format = name();
    TraceBuilder builder(name(), options);
    std::size_t sevenFieldFiles = 0, withSlo = 0;
    for (const ImportInput &in : inputs) {
        // Commands contain quotes and commas; fields are split on tabs only.
        auto probe = CsvReader('\t', false).read(in.text, in.name);
        if (!probe)
            return probe.problems();
        if (probe->empty())
            return Result<ImportReport>::failure(in.name, "the file has no rows");
        const std::size_t width = probe->front().fields.size();
        if (width != 10 && width != 7)
            return Result<ImportReport>::failure(
                in.name + ":" + std::to_string(probe->front().line),
                "expected 10 tab-separated fields (job_type ... arrival_time) or the older 7, "
                "found " +
                    std::to_string(width));
        sevenFieldFiles += width == 7;
        auto table = CsvTable::withColumns(in.text, in.name, width == 10 ? kTen : kSeven, '\t',
                                           false, in.progress);
        if (!table)
            return table.problems();
        forEachCsvRow(table.value(), report, [&](CsvRowReader &r) {
            TraceRecord rec;
            rec.file = in.name;
            rec.line = r.line();
            rec.name = r.text("job_type");
            rec.model = rec.name;
            rec.iterations = r.integer("total_steps", 1, 1000000000000LL);
            rec.gpus = int(r.integer("scale_factor", 1, 100000));
            rec.submitSeconds = r.number("arrival_time", 0, 1e15);
            if (width == 10) {
                rec.priority = int(std::lround(r.number("priority_weight", 0, 1e6)));
                if (r.number("SLO", -1e15, 1e15) >= 0)
                    ++withSlo;
            }
            if (r.ok())
                builder.add(std::move(rec));
        });
    }
    builder.finish(report);
    if (sevenFieldFiles > 0)
        report.assume(std::to_string(sevenFieldFiles) +
                      " file(s) in the older 7-field layout "
                      "(job_type, command, num_steps_arg, needs_data_dir, total_steps, "
                      "arrival_time, scale_factor)");
    report.assume("scale_factor read as the job's GPU count; priority_weight rounded to the "
                  "job priority");
    if (withSlo > 0)
        report.assume("SLO values of " + std::to_string(withSlo) +
                      " jobs not imported (no due date is derived from them)");
    return report;
}

} // namespace cb
