#include "io/import/tiresias_cluster_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/text_fields.h"
#include "util/text.h"

namespace cb {

namespace {
const std::vector<std::string> kColumns = {"num_switch", "num_node_p_switch", "num_gpu_p_node",
                                           "num_cpu_p_node", "mem_p_node"};
}

FormatMatch TiresiasClusterImporter::detect(const ImportSample &sample) const
{
    const auto row = detection::firstRow(sample.head);
    if (detection::hasAll(row, {"num_switch", "num_node_p_switch", "num_gpu_p_node"}))
        return {3, "header " + detection::headerText(row)};
    return {};
}

Result<ImportReport> TiresiasClusterImporter::read(const std::vector<ImportInput> &inputs,
                                                   const ImportOptions &options) const
{
    const ImportInput &in = inputs.front();
    ImportReport report;
    report.format = name();
    auto csv = openCsvInput(in, kColumns);
    if (!csv)
        return csv.problems();
    struct Spec
    {
        long long switches, nodes, gpus;
        double cpus, memory;
        int line;
    };
    std::vector<Spec> specs;
    const Status read = forEachCsvRow(csv.value(), report, [&](CsvRowReader &r) {
        Spec s{};
        s.switches = r.integer("num_switch", 1, 10000);
        s.nodes = r.integer("num_node_p_switch", 1, 100000);
        s.gpus = r.integer("num_gpu_p_node", 0, 4096);
        s.cpus = r.number("num_cpu_p_node", 1, 1e6);
        s.memory = r.number("mem_p_node", 1, 1e9);
        s.line = r.line();
        if (r.ok() && s.switches * s.nodes > 1000000)
            r.fail("num_switch x num_node_p_switch is more than 10^6 nodes");
        if (r.ok())
            specs.push_back(s);
    });
    if (!read)
        return read.problems();
    if (report.rowsRead > 1)
        return Result<ImportReport>::failure(
            in.name, "a cluster spec has one data row (Tiresias's run_sim.py asserts it), found " +
                         std::to_string(report.rowsRead));
    if (specs.empty()) {
        if (!report.skipped.empty())
            return Result<ImportReport>::failure(in.name + ":" +
                                                     std::to_string(report.skipped.front().line),
                                                 report.skipped.front().message);
        return Result<ImportReport>::failure(in.name, "no data row after the header");
    }
    const Spec &s = specs.front();
    Cluster c;
    const std::string gpuType = unnamedGpuType(options.gpuType);
    for (long long i = 0; i < s.switches; ++i) {
        const std::string sw = "switch" + std::to_string(i);
        c.switches.push_back({sw, "tor"});
        for (long long j = 0; j < s.nodes; ++j) {
            Node n;
            n.id = "node" + std::to_string(i) + "-" + std::to_string(j);
            n.gpus = int(s.gpus);
            n.gpuType = s.gpus > 0 ? gpuType : std::string();
            n.cpus = s.cpus;
            n.memoryGiB = s.memory;
            n.rack = sw;
            n.labels["kubernetes.io/hostname"] = n.id;
            c.nodes.push_back(n);
            addImportLink(c, n.id, sw, true);
        }
    }
    if (s.switches > 1) {
        c.switches.push_back({"core", "core"});
        for (long long i = 0; i < s.switches; ++i)
            addImportLink(c, "switch" + std::to_string(i), "core", false);
    }
    report.assume(in.name + ":" + std::to_string(s.line) + ": " +
                  counted(s.switches, "switch", "switches") + " x " + counted(s.nodes, "node") +
                  " of " + counted(s.gpus, "GPU") + ", " + importtext::formatNumber(s.cpus) +
                  " CPUs and " + importtext::formatNumber(s.memory) +
                  " GiB (mem_p_node read as GiB)" +
                  (s.switches > 1 ? ", switches under one core switch" : ""));
    if (s.gpus > 0)
        report.assume("the spec names no GPU model: " +
                      (options.gpuType.empty() ? std::string("\"unknown-gpu\" (--gpu-type names "
                                                             "it)")
                                               : options.gpuType + " (--gpu-type)"));
    reportLinkDefaults(report);
    addMissingGpuTypes(c, report);
    report.cluster = std::move(c);
    return report;
}

} // namespace cb
