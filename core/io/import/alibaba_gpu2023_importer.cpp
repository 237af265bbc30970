#include "io/import/alibaba_gpu2023_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/trace_builder.h"

#include <set>

namespace cb {

namespace {

Status readNodes(const CsvTable &t, ImportReport &report)
{
    Cluster c;
    std::set<std::string> ids;
    std::size_t untyped = 0;
    forEachCsvRow(t, report, [&](CsvRowReader &r) {
        Node n;
        n.id = r.text("sn");
        if (n.id.empty())
            r.fail("column sn is empty");
        else if (ids.count(n.id))
            r.fail("duplicate node \"" + n.id + "\"");
        n.cpus = r.number("cpu_milli", 1, 1e9) / 1000.0;
        n.memoryGiB = r.number("memory_mib", 1, 1e12) / 1024.0;
        n.gpus = int(r.integer("gpu", 0, 1024));
        n.gpuType = n.gpus > 0 ? r.text("model") : std::string();
        if (!r.ok())
            return;
        if (n.gpus > 0 && n.gpuType.empty()) {
            n.gpuType = "unknown-gpu";
            ++untyped;
        }
        if (!n.gpuType.empty())
            n.labels["alibabacloud.com/gpu-card-model"] = n.gpuType;
        n.labels["kubernetes.io/hostname"] = n.id;
        ids.insert(n.id);
        c.nodes.push_back(std::move(n));
    });
    if (c.nodes.empty())
        return Status::failure(t.file(), "no node rows could be imported");
    if (untyped > 0)
        report.assume(std::to_string(untyped) + " GPU nodes name no model: GPU type "
                                                "\"unknown-gpu\"");
    addMissingGpuTypes(c, report);
    linkAllNodesToOneSwitch(c, report, "the node list has no topology");
    report.cluster = std::move(c);
    return Ok{};
}

void readPods(const CsvTable &t, TraceBuilder &builder, ImportReport &report, std::size_t &shared,
              std::size_t &anyOf, std::size_t &cpuOnly)
{
    forEachCsvRow(t, report, [&](CsvRowReader &r) {
        TraceRecord rec;
        rec.file = t.file();
        rec.line = r.line();
        rec.id = r.text("name");
        if (rec.id.empty())
            r.fail("column name is empty");
        rec.name = rec.id;
        rec.cpus = r.number("cpu_milli", 0, 1e9, 0.0) / 1000.0;
        rec.memoryGiB = r.number("memory_mib", 0, 1e12, 0.0) / 1024.0;
        rec.gpus = int(r.integer("num_gpu", 0, 1024, 0));
        const double milli = r.number("gpu_milli", 0, 1e6, 0.0);
        rec.workers = 1;
        rec.submitSeconds = r.number("creation_time", 0, 1e15);
        const double scheduled = r.number("scheduled_time", 0, 1e15, -1.0);
        const double deleted = r.number("deletion_time", 0, 1e15, -1.0);
        if (!r.ok())
            return;
        if (rec.gpus == 1 && milli > 0 && milli < 1000) {
            rec.gpuFraction = milli / 1000.0;
            ++shared;
        }
        const std::string spec = r.text("gpu_spec");
        if (!spec.empty()) {
            if (spec.find('|') == std::string::npos)
                rec.gpuType = spec;
            else
                ++anyOf;
        }
        if (scheduled >= 0 && deleted >= scheduled)
            rec.durationSeconds = deleted - scheduled;
        cpuOnly += rec.gpus == 0;
        builder.add(std::move(rec));
    });
}

} // namespace

Result<ImportReport> AlibabaGpu2023Importer::read(const std::vector<ImportInput> &inputs,
                                                  const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder(name(), options);
    bool haveNodes = false, havePods = false;
    std::size_t shared = 0, anyOf = 0, cpuOnly = 0;
    for (const ImportInput &in : inputs) {
        auto probe = CsvTable::withHeader(in.text, in.name, {});
        if (!probe)
            return probe.problems();
        const bool isNodes = probe->hasColumn("sn");
        auto table = openCsvInput(
            in, isNodes ? std::vector<std::string>{"sn", "cpu_milli", "memory_mib", "gpu", "model"}
                        : std::vector<std::string>{"name", "cpu_milli", "memory_mib", "num_gpu",
                                                   "gpu_milli", "creation_time"});
        if (!table)
            return table.problems();
        if ((isNodes && haveNodes) || (!isNodes && havePods))
            return Result<ImportReport>::failure(
                in.name, std::string("a second ") + (isNodes ? "node" : "pod") +
                             " file; give one node CSV and/or one pod CSV");
        if (isNodes) {
            haveNodes = true;
            if (auto s = readNodes(table.value(), report); !s)
                return s.problems();
        } else {
            havePods = true;
            readPods(table.value(), builder, report, shared, anyOf, cpuOnly);
        }
    }
    builder.finish(report);
    if (shared > 0)
        report.assume(std::to_string(shared) + " pods share a GPU (gpu_milli < 1000): GPU "
                                               "fraction gpu_milli/1000");
    if (anyOf > 0)
        report.assume(std::to_string(anyOf) + " pods accept several GPU types (gpu_spec "
                                              "A|B): no GPU-type requirement kept");
    if (cpuOnly > 0)
        report.assume(std::to_string(cpuOnly) + " pods request no GPU: imported as single "
                                                "CPU tasks");
    if (havePods)
        report.assume("pod duration = deletion_time - scheduled_time; qos and pod_phase not "
                      "modelled");
    return report;
}

} // namespace cb
