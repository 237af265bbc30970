#include "io/import/pollux_throughput_importer.h"

#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/model_catalog.h"

#include <map>

namespace cb {

namespace {

std::string baseName(const std::string &path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The application a Pollux trace file belongs to: "cifar10_placements.csv" -> "cifar10",
// ".../cifar10/placements.csv" -> "cifar10"; empty when the name says nothing.
std::string applicationOf(const std::string &path)
{
    std::string base = baseName(path);
    if (auto dot = base.rfind('.'); dot != std::string::npos)
        base.resize(dot);
    for (const char *kind : {"placements", "scalability"}) {
        const std::string k = kind;
        if (base == k) {
            const auto slash = path.find_last_of('/');
            if (slash == std::string::npos || slash == 0)
                return {};
            return baseName(path.substr(0, slash));
        }
        if (base.size() > k.size() + 1 && base.compare(base.size() - k.size(), k.size(), k) == 0 &&
            (base[base.size() - k.size() - 1] == '_' || base[base.size() - k.size() - 1] == '-'))
            return base.substr(0, base.size() - k.size() - 1);
    }
    return {};
}

} // namespace

FormatMatch PolluxThroughputImporter::detect(const ImportSample &sample) const
{
    const auto row = detection::firstRow(sample.head);
    if (detection::hasAll(row, {"placement", "local_bsz", "step_time"}) ||
        detection::hasAll(row, {"num_nodes", "num_replicas", "local_bsz", "step_time"}))
        return {3, "step-time header " + detection::headerText(row)};
    return {};
}

Result<ImportReport> PolluxThroughputImporter::read(const std::vector<ImportInput> &inputs,
                                                    const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    StepTimeTable table;
    std::string application;
    std::map<std::string, std::string> firstAt; // key -> "file:line"
    std::size_t rotatedCount = 0;
    for (const ImportInput &in : inputs) {
        // The header says which file this is.
        auto probe = openCsvInput(in, {});
        if (!probe)
            return probe.problems();
        const bool placements = probe->columns.hasColumn("placement");
        const bool scalability =
            probe->columns.hasColumn("num_nodes") || probe->columns.hasColumn("num_replicas");
        if (placements == scalability)
            return Result<ImportReport>::failure(
                in.name + ":1", std::string("expected the header of placements.csv (placement, "
                                            "local_bsz, step_time, sync_time) or of "
                                            "scalability.csv (num_nodes, num_replicas, "
                                            "local_bsz, step_time, sync_time)") +
                                    (placements ? ", found columns of both" : ""));
        const std::vector<std::string> required =
            placements
                ? std::vector<std::string>{"placement", "local_bsz", "step_time", "sync_time"}
                : std::vector<std::string>{"num_nodes", "num_replicas", "local_bsz", "step_time",
                                           "sync_time"};
        if (auto ok = probe->columns.require(required, probe->headerLine); !ok)
            return ok.problems();
        if (application.empty())
            application = applicationOf(in.name);
        Problems duplicates;
        const Status read = forEachCsvRow(probe.value(), report, [&](CsvRowReader &r) {
            StepTimePoint pt;
            if (placements) {
                const std::string text = r.text("placement");
                for (char c : text) {
                    if (c < '1' || c > '9') {
                        r.fail("column placement: expected digits 1-9 (GPUs per node), found \"" +
                               text + "\"");
                        break;
                    }
                    pt.placement.push_back(c - '0');
                }
                if (text.empty())
                    r.fail("column placement is empty");
                const std::vector<int> normal = normalisePlacement(pt.placement);
                if (r.ok() && normal != pt.placement) {
                    ++rotatedCount;
                    pt.placement = normal;
                }
                pt.nodes = int(pt.placement.size());
                for (int c : pt.placement)
                    pt.replicas += c;
            } else {
                pt.nodes = int(r.integer("num_nodes", 1, 100000));
                pt.replicas = int(r.integer("num_replicas", 1, 1000000));
                if (r.ok() && pt.replicas < pt.nodes)
                    r.fail("num_replicas " + std::to_string(pt.replicas) + " is below num_nodes " +
                           std::to_string(pt.nodes) + " (each node holds at least one replica)");
            }
            pt.localBatch = int(r.integer("local_bsz", 1, 100000000));
            pt.stepSeconds = r.number("step_time", 0, 1e9);
            pt.syncSeconds = r.number("sync_time", 0, 1e9);
            if (r.ok() && pt.stepSeconds <= 0)
                r.fail("column step_time: must be positive, found " + r.text("step_time"));
            if (r.ok() && pt.syncSeconds > pt.stepSeconds)
                r.fail("column sync_time: " + r.text("sync_time") + " is above the step time " +
                       r.text("step_time") + " (the step includes the sync)");
            if (!r.ok())
                return;
            const std::string where = in.name + ":" + std::to_string(r.line());
            auto [it, fresh] = firstAt.emplace(stepTimeKey(pt), where);
            if (!fresh) {
                duplicates.push_back(
                    {where, "duplicate point (" + it->first + "), first given at " + it->second});
                return;
            }
            table.points.push_back(std::move(pt));
        });
        if (!read)
            return read.problems();
        if (!duplicates.empty())
            return duplicates;
        table.source += (table.source.empty() ? "Pollux " : ", ") + baseName(in.name);
    }
    if (table.points.empty())
        return Result<ImportReport>::failure(
            inputs.front().name,
            "no usable row: nothing to import" +
                (report.skippedCount > 0 ? " (" + report.skippedSummary() + ")" : std::string()));

    std::string model = options.model;
    if (model.empty()) {
        if (application.empty())
            return Result<ImportReport>::failure(
                inputs.front().name,
                "the file names do not say which model this is (expected APP_placements.csv or "
                "APP/placements.csv): name the model profile with --model");
        const auto known = findKnownModel(application);
        model = known ? known->name : application;
        report.assume("measured step times attached to model profile \"" + model +
                      "\" (from the file name: application " + application +
                      (known && !known->note.empty() ? "; " + known->note : "") + ")");
    }
    if (rotatedCount > 0)
        report.assume(std::to_string(rotatedCount) +
                      " placements written in another rotation read as their smallest "
                      "rotation (a ring has no first node)");
    report.assume("step_time read as the whole iteration, sync_time included; the simulator "
                  "uses it for jobs of model \"" +
                  model + "\" instead of compute plus modelled communication");
    report.stepTimeModels[model] = std::move(table);
    return report;
}

} // namespace cb
