#include "io/import/helios_gpu_count_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/text_fields.h"
#include "io/import/trace_builder.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace cb {

namespace {

struct Day
{
    std::string date;
    int line = 0;
    std::vector<long long> gpus; // per virtual cluster, in column order
};

bool isDate(const std::string &s)
{
    return s.size() == 10 && importtext::parseDateTime(s + " 00:00:00").has_value();
}

std::string nodeName(const std::string &vc, int index)
{
    char digits[16];
    std::snprintf(digits, sizeof digits, "%03d", index);
    return vc + "-" + digits;
}

} // namespace

FormatMatch HeliosGpuCountImporter::detect(const ImportSample &sample) const
{
    const auto row = detection::firstRow(sample.head);
    if (!row.empty() && row.front() == "date" && row.size() >= 2 &&
        (detection::hasAll(row, {"total"}) || row[1].starts_with("vc")))
        return {3, "header " + detection::headerText(row) + " (GPUs per virtual cluster per day)"};
    return {};
}

Result<ImportReport> HeliosGpuCountImporter::read(const std::vector<ImportInput> &inputs,
                                                  const ImportOptions &options) const
{
    const ImportInput &in = inputs.front();
    ImportReport report;
    report.format = name();
    auto table = openCsvInput(in, {"date"});
    if (!table)
        return table.problems();
    std::vector<std::string> vcs;
    for (const std::string &c : table->columns.columns())
        if (c != "date" && c != "total")
            vcs.push_back(c);
    if (vcs.empty())
        return Result<ImportReport>::failure(in.name + ":1",
                                             "no virtual cluster column beside date and total");
    if (!options.date.empty() && !isDate(options.date))
        return Result<ImportReport>::failure("--date", "expected a day as YYYY-MM-DD, found \"" +
                                                           options.date + "\"");

    std::map<std::string, Day> days; // by date
    std::string previous;
    std::size_t outOfOrder = 0;
    const bool hasTotal = table->columns.hasColumn("total");
    const Status read = forEachCsvRow(table.value(), report, [&](CsvRowReader &r) {
        Day d;
        d.date = r.text("date");
        d.line = r.line();
        if (!isDate(d.date))
            r.fail("column date: expected YYYY-MM-DD, found " + importtext::shown(d.date),
                   "column date: expected YYYY-MM-DD");
        long long sum = 0;
        for (const std::string &vc : vcs) {
            d.gpus.push_back(r.integer(vc, 0, 1000000));
            sum += d.gpus.back();
        }
        if (r.ok() && hasTotal) {
            const long long total = r.integer("total", 0, 100000000);
            if (r.ok() && total != sum)
                r.fail("column total: " + std::to_string(total) +
                           " differs from the sum of the virtual clusters, " + std::to_string(sum),
                       "column total differs from the sum of the virtual clusters");
        }
        if (r.ok() && days.count(d.date))
            r.fail("date " + d.date + " again (first on line " + std::to_string(days[d.date].line) +
                       ")",
                   "a date given twice");
        if (!r.ok())
            return;
        if (!previous.empty() && d.date < previous)
            ++outOfOrder;
        previous = std::max(previous, d.date);
        days.emplace(d.date, std::move(d));
    });
    if (!read)
        return read.problems();
    if (days.empty())
        return Result<ImportReport>::failure(
            in.name,
            "no usable day in the file" +
                (report.skippedCount > 0 ? " (" + report.skippedSummary() + ")" : std::string()));
    if (outOfOrder > 0)
        report.assume(std::to_string(outOfOrder) +
                      " rows are out of date order: days are taken in date order");

    const Day *day = &days.rbegin()->second;
    if (!options.date.empty()) {
        auto it = days.find(options.date);
        if (it == days.end())
            return Result<ImportReport>::failure(
                in.name, "no usable row for --date " + options.date + " (the file covers " +
                             days.begin()->first + " to " + days.rbegin()->first + ")");
        day = &it->second;
    } else {
        report.assume("the cluster as on " + day->date +
                      ", the last day in the file (--date "
                      "picks another)");
    }

    Cluster c;
    const GpuType gpu = importedGpuType(unnamedGpuType(options.gpuType));
    c.gpuTypes.push_back(gpu);
    std::size_t partial = 0, emptyVcs = 0;
    for (std::size_t v = 0; v < vcs.size(); ++v) {
        long long left = day->gpus[v];
        if (left == 0)
            ++emptyVcs;
        const std::string sw = "switch-" + vcs[v];
        bool any = false;
        for (int i = 0; left > 0; ++i) {
            Node n;
            n.id = nodeName(vcs[v], i);
            n.gpus = int(std::min<long long>(left, kGpusPerNode));
            partial += n.gpus < kGpusPerNode;
            left -= n.gpus;
            n.gpuType = gpu.name;
            n.cpus = kCpusPerNode;
            n.memoryGiB = kMemoryGiBPerNode;
            n.partition = vcs[v];
            n.rack = vcs[v];
            if (!any)
                c.switches.push_back({sw, "tor"});
            any = true;
            c.nodes.push_back(n);
            addImportLink(c, n.id, sw, true);
        }
    }
    if (c.nodes.empty())
        return Result<ImportReport>::failure(in.name + ":" + std::to_string(day->line),
                                             day->date + " lists no GPU");
    if (c.switches.size() > 1) {
        c.switches.push_back({"core", "core"});
        for (std::size_t i = 0; i + 1 < c.switches.size(); ++i)
            addImportLink(c, c.switches[i].id, "core", false);
    }
    report.assume(std::to_string(c.nodes.size()) + " nodes of " + std::to_string(kGpusPerNode) +
                  " GPUs each, a partition and a switch per virtual cluster under one core "
                  "switch" +
                  (partial ? " (" + std::to_string(partial) +
                                 " nodes hold the remainder of a count that is not a "
                                 "multiple of " +
                                 std::to_string(kGpusPerNode) + ")"
                           : std::string()));
    if (emptyVcs > 0)
        report.assume(std::to_string(emptyVcs) + " virtual clusters have no GPU on " + day->date +
                      ": no nodes");
    report.assume("the file gives GPU counts only: GPU type " +
                  (options.gpuType.empty() ? "\"unknown-gpu\" (16 GiB, 250 W; --gpu-type names "
                                             "the model)"
                                           : gpu.name + " (--gpu-type)") +
                  ", " + importtext::formatNumber(kCpusPerNode) + " CPUs and " +
                  importtext::formatNumber(kMemoryGiBPerNode) + " GiB per node");
    reportLinkDefaults(report);
    report.cluster = std::move(c);
    return report;
}

} // namespace cb
