#include "io/import/alibaba_gpu2023_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/text_fields.h"
#include "io/import/trace_builder.h"

#include <set>

namespace cb {

namespace {

const std::vector<std::string> kNodeColumns = {"sn", "cpu_milli", "memory_mib", "gpu", "model"};
const std::vector<std::string> kPodColumns = {"name", "cpu_milli", "memory_mib", "num_gpu",
                                              "gpu_milli"};

Status readNodes(CsvInput &t, ImportReport &report, const ImportOptions &options)
{
    Cluster c;
    std::set<std::string> ids;
    std::size_t untyped = 0;
    const Status read = forEachCsvRow(t, report, [&](CsvRowReader &r) {
        Node n;
        n.id = r.text("sn");
        if (n.id.empty())
            r.fail("column sn is empty");
        else if (ids.count(n.id))
            r.fail("duplicate node " + importtext::shown(n.id), "duplicate node");
        n.cpus = r.number("cpu_milli", 1, 1e9) / 1000.0;
        n.memoryGiB = r.number("memory_mib", 1, 1e12) / 1024.0;
        n.gpus = int(r.integer("gpu", 0, 1024));
        n.gpuType = n.gpus > 0 ? r.text("model") : std::string();
        if (!r.ok())
            return;
        if (n.gpus > 0 && n.gpuType.empty()) {
            n.gpuType = unnamedGpuType(options.gpuType);
            ++untyped;
        }
        if (!n.gpuType.empty())
            n.labels["alibabacloud.com/gpu-card-model"] = n.gpuType;
        n.labels["kubernetes.io/hostname"] = n.id;
        ids.insert(n.id);
        c.nodes.push_back(std::move(n));
    });
    if (!read)
        return read;
    if (c.nodes.empty())
        return Status::failure(t.columns.file(), "no node rows could be imported");
    if (untyped > 0)
        report.assume(std::to_string(untyped) + " GPU nodes name no model: GPU type " +
                      unnamedGpuType(options.gpuType));
    addMissingGpuTypes(c, report);
    linkAllNodesToOneSwitch(c, report, "the node list has no topology");
    report.cluster = std::move(c);
    return Ok{};
}

struct PodCounts
{
    std::size_t shared = 0, anyOf = 0, cpuOnly = 0, pending = 0, untimed = 0, noEnd = 0;
    std::size_t tinyShare = 0;
};

Status readPods(CsvInput &t, TraceBuilder &builder, ImportReport &report,
                const ImportOptions &options, PodCounts &k)
{
    const bool timed = t.columns.hasColumn("creation_time");
    TimeColumn created("creation_time", options.timeFormats);
    TimeColumn scheduled("scheduled_time", options.timeFormats);
    TimeColumn deleted("deletion_time", options.timeFormats);
    const Status read = forEachCsvRow(t, report, [&](CsvRowReader &r) {
        TraceRecord rec;
        rec.file = t.columns.file();
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
        std::optional<double> start, end;
        if (timed) {
            const auto c = created.read(r);
            if (!c && r.ok())
                r.fail("column creation_time is empty (expected a time)");
            rec.submitSeconds = c.value_or(0);
            start = scheduled.read(r);
            end = deleted.read(r);
        }
        if (!r.ok())
            return;
        if (rec.gpus == 1 && milli > 0 && milli < 1000) {
            rec.gpuFraction = milli / 1000.0;
            ++k.shared;
            if (rec.gpuFraction < 0.01) {
                // Below the scenario format's smallest share: one per cent of a GPU.
                rec.gpuFraction = 0.01;
                ++k.tinyShare;
            }
        }
        const std::string spec = r.text("gpu_spec");
        if (!spec.empty()) {
            if (spec.find('|') == std::string::npos)
                rec.gpuType = spec;
            else
                ++k.anyOf;
        }
        if (timed && !start) {
            const std::string phase = r.text("pod_phase");
            if (options.pending == PendingJobs::Skip) {
                r.leaveOut("pod " + importtext::shown(rec.id) + " never started (" +
                               (phase.empty() ? std::string("no scheduled_time")
                                              : phase + ", no scheduled_time") +
                               "): left out (--pending wait keeps it)",
                           "never started (pending): left out, --pending wait keeps them");
                return;
            }
            rec.pending = true;
            ++k.pending;
        } else if (timed && end && *end >= *start) {
            rec.durationSeconds = *end - *start;
        } else if (timed) {
            ++k.noEnd;
        } else {
            ++k.untimed;
        }
        k.cpuOnly += rec.gpus == 0;
        builder.add(std::move(rec), report);
    });
    builder.noteTimeColumn(created);
    builder.noteTimeColumn(scheduled);
    builder.noteTimeColumn(deleted);
    return read;
}

} // namespace

FormatMatch AlibabaGpu2023Importer::detect(const ImportSample &sample) const
{
    const auto row = detection::firstRow(sample.head);
    if (detection::hasAll(row, kNodeColumns))
        return {3, "node list header " + detection::headerText(row)};
    if (detection::hasAll(row, kPodColumns))
        return {3, "pod list header " + detection::headerText(row)};
    return {};
}

Result<ImportReport> AlibabaGpu2023Importer::read(const std::vector<ImportInput> &inputs,
                                                  const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder(name(), options);
    bool haveNodes = false, havePods = false;
    PodCounts k;
    for (const ImportInput &in : inputs) {
        auto probe = openCsvInput(in, {});
        if (!probe)
            return probe.problems();
        const bool isNodes = probe->columns.hasColumn("sn");
        if (auto ok =
                probe->columns.require(isNodes ? kNodeColumns : kPodColumns, probe->headerLine);
            !ok)
            return ok.problems();
        if ((isNodes && haveNodes) || (!isNodes && havePods))
            return Result<ImportReport>::failure(
                in.name, std::string("a second ") + (isNodes ? "node" : "pod") +
                             " file; give one node CSV and/or one pod CSV");
        if (isNodes) {
            haveNodes = true;
            if (auto s = readNodes(probe.value(), report, options); !s)
                return s.problems();
        } else {
            havePods = true;
            builder.expectBytes(in.size());
            if (auto s = readPods(probe.value(), builder, report, options, k); !s)
                return s.problems();
        }
    }
    builder.finish(report);
    if (k.shared > 0)
        report.assume(std::to_string(k.shared) + " pods share a GPU (gpu_milli < 1000): GPU "
                                                 "fraction gpu_milli/1000");
    if (k.tinyShare > 0)
        report.assume(std::to_string(k.tinyShare) +
                      " pods ask for less than 10 gpu_milli: given 1 % of a GPU, the "
                      "scenario format's smallest share");
    if (k.anyOf > 0)
        report.assume(std::to_string(k.anyOf) + " pods accept several GPU types (gpu_spec "
                                                "A|B): no GPU-type requirement kept");
    if (k.cpuOnly > 0)
        report.assume(std::to_string(k.cpuOnly) + " pods request no GPU: imported as single "
                                                  "CPU tasks");
    if (k.untimed > 0)
        report.assume(std::to_string(k.untimed) +
                      " pods come from a pod list without time columns (creation_time, "
                      "scheduled_time, deletion_time): all submitted at 0 s, each with the "
                      "default length");
    if (k.noEnd > 0)
        report.assume(std::to_string(k.noEnd) +
                      " pods have no deletion_time after their scheduled_time: default length");
    if (havePods && k.untimed == 0)
        report.assume("pod duration = deletion_time - scheduled_time; qos and pod_phase not "
                      "modelled");
    return report;
}

} // namespace cb
