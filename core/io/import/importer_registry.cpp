#include "io/import/importer_registry.h"

#include "io/file_io.h"
#include "io/import/alibaba_gpu2023_importer.h"
#include "io/import/alibaba_pai2020_importer.h"
#include "io/import/csv_mapping_importer.h"
#include "io/import/gavel_importer.h"
#include "io/import/helios_gpu_count_importer.h"
#include "io/import/helios_importer.h"
#include "io/import/k8s_nodes_importer.h"
#include "io/import/philly_job_log_importer.h"
#include "io/import/philly_pollux_importer.h"
#include "io/import/pollux_workload_importer.h"
#include "io/import/scontrol_nodes_importer.h"
#include "io/import/slurm_conf_importer.h"
#include "io/import/pollux_throughput_importer.h"
#include "io/import/tiresias_importer.h"

#include <algorithm>
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
    static const std::vector<const Importer *> all = {
        &k8sNodes, &slurm,  &scontrol, &heliosGpus, &alibabaGpu2023, &alibabaPai2020, &philly,
        &phillyPollux, &pollux, &polluxThroughput, &helios, &gavel, &tiresias, &csvMapping,
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
                                                                  (hi == 1 ? "" : "s") + ", got " +
                                                                  std::to_string(n));
    }
    std::vector<ImportInput> inputs;
    std::size_t total = 0;
    for (const std::string &p : paths) {
        auto text = readTextFile(p);
        if (!text)
            return text.problems();
        total += text->size();
        inputs.push_back({p, std::move(text.value()), {}});
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
            before += in.text.size();
        }
    }
    auto report = importer.read(inputs, options);
    if (report && options.progress)
        options.progress(total, total);
    return report;
}

} // namespace cb
