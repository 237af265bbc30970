#include "io/import/importer_registry.h"

#include "io/import/alibaba_gpu2023_importer.h"
#include "io/import/alibaba_pai2020_importer.h"
#include "io/import/csv_mapping_importer.h"
#include "io/import/gavel_importer.h"
#include "io/import/helios_gpu_count_importer.h"
#include "io/import/helios_importer.h"
#include "io/import/hwloc_importer.h"
#include "io/import/k8s_nodes_importer.h"
#include "io/import/nccl_topology_importer.h"
#include "io/import/philly_job_log_importer.h"
#include "io/import/philly_pollux_importer.h"
#include "io/import/pollux_throughput_importer.h"
#include "io/import/pollux_workload_importer.h"
#include "io/import/scontrol_nodes_importer.h"
#include "io/import/simgrid_platform_importer.h"
#include "io/import/slurm_conf_importer.h"
#include "io/import/tiresias_cluster_importer.h"
#include "io/import/tiresias_importer.h"
#include "io/import/topograph_importer.h"

#include <algorithm>
#include <filesystem>
#include <memory>

namespace cb {

const std::vector<const Importer *> &importers()
{
    static const K8sNodesImporter k8sNodes;
    static const SlurmConfImporter slurm;
    static const ScontrolNodesImporter scontrol;
    static const AlibabaGpu2023Importer alibabaGpu2023;
    static const AlibabaPai2020Importer alibabaPai2020;
    static const PhillyJobLogImporter philly;
    static const PhillyPolluxImporter phillyPollux;
    static const PolluxWorkloadImporter pollux;
    static const PolluxThroughputImporter polluxThroughput;
    static const HeliosImporter helios;
    static const HeliosGpuCountImporter heliosGpus;
    static const GavelImporter gavel;
    static const TiresiasImporter tiresias;
    static const CsvMappingImporter csvMapping;
    static const NcclTopologyImporter ncclTopo;
    static const HwlocImporter hwloc;
    static const SimgridPlatformImporter simgrid;
    static const TopographImporter topograph;
    static const TiresiasClusterImporter tiresiasCluster;
    static const std::vector<const Importer *> all = {
        &k8sNodes,       &slurm,     &scontrol,        &ncclTopo,   &hwloc,
        &simgrid,        &topograph, &tiresiasCluster, &heliosGpus, &alibabaGpu2023,
        &alibabaPai2020, &philly,    &phillyPollux,    &pollux,     &polluxThroughput,
        &helios,         &gavel,     &tiresias,        &csvMapping,
    };
    return all;
}

const Importer *findImporter(const std::string &format)
{
    for (const Importer *i : importers())
        if (i->name() == format)
            return i;
    return nullptr;
}

Result<ImportSample> sampleFile(const std::string &path)
{
    ImportInput in;
    in.name = path;
    in.path = path;
    auto head = in.head(64 * 1024);
    if (!head)
        return head.problems();
    ImportSample s{path, std::move(head.value())};
    if (s.head.compare(0, 3, "\xEF\xBB\xBF") == 0)
        s.head.erase(0, 3);
    return s;
}

const Importer *detectFormat(const ImportSample &sample, FormatMatch *match)
{
    const Importer *best = nullptr;
    FormatMatch bestMatch;
    for (const Importer *i : importers()) {
        const FormatMatch m = i->detect(sample);
        if (m.score > bestMatch.score) {
            best = i;
            bestMatch = m;
        }
    }
    if (match)
        *match = bestMatch;
    return bestMatch.score >= 2 ? best : nullptr;
}

Result<ImportReport> importFiles(const Importer &importer, const std::vector<std::string> &paths)
{
    static const ImportOptions defaults;
    return importFiles(importer, paths, defaults);
}

Result<ImportReport> importFiles(const Importer &importer, const std::vector<std::string> &paths,
                                 const ImportOptions &options)
{
    const auto [lo, hi] = importer.fileCount();
    const int n = int(paths.size());
    if (n < lo || (hi > 0 && n > hi)) {
        std::string want = hi == lo  ? std::to_string(lo)
                           : hi == 0 ? "at least " + std::to_string(lo)
                                     : std::to_string(lo) + " to " + std::to_string(hi);
        return Result<ImportReport>::failure(importer.name(), "expected " + want + " input file" +
                                                                  (want == "1" ? "" : "s") +
                                                                  ", got " + std::to_string(n));
    }
    std::vector<ImportInput> inputs;
    std::size_t total = 0;
    for (const std::string &p : paths) {
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec))
            return Result<ImportReport>::failure(p, "is a directory, expected a file");
        const auto size = std::filesystem::file_size(p, ec);
        if (ec)
            return Result<ImportReport>::failure(p, "cannot open: " + ec.message());
        ImportInput in;
        in.name = p;
        in.path = p;
        in.fileSize = std::size_t(size);
        total += in.fileSize;
        inputs.push_back(std::move(in));
    }
    if (options.progress) {
        // Each input's bytes, offset by the inputs before it; never backwards.
        auto done = std::make_shared<std::size_t>(0);
        std::size_t before = 0;
        for (ImportInput &in : inputs) {
            in.progress = [&options, done, before, total](std::size_t bytes) {
                *done = std::max(*done, before + bytes);
                options.progress(*done, total);
            };
            before += in.size();
        }
    }
    auto report = importer.read(inputs, options);
    if (report && options.progress)
        options.progress(total, total);
    return report;
}

} // namespace cb
