#include "io/import/imported_gpu_types.h"

#include "io/import/text_fields.h"
#include "model/gpu_catalog.h"
#include "util/text.h"

#include <algorithm>
#include <set>

namespace cb {

GpuType importedGpuType(const std::string &name, bool *recognised)
{
    GpuType t;
    t.name = name;
    const GpuRecognition r = recogniseGpu(name);
    if (r.recognised) {
        t.memoryGiB = r.memoryGiB;
        t.busyWatts = r.busyWatts;
        t.idleWatts = r.idleWatts;
        t.relativeSpeed = r.relativeSpeed;
    } else {
        t.memoryGiB = 16;
        t.busyWatts = 250;
        t.idleWatts = 50;
    }
    if (recognised)
        *recognised = r.recognised;
    return t;
}

void addMissingGpuTypes(Cluster &cluster, ImportReport &report)
{
    std::set<std::string> needed;
    for (const Node &n : cluster.nodes)
        if (n.gpus > 0 && !cluster.gpuType(n.gpuType))
            needed.insert(n.gpuType);
    std::string unknown, known, datasheet, mig;
    for (const std::string &name : needed) {
        bool ok = false;
        cluster.gpuTypes.push_back(importedGpuType(name, &ok));
        const GpuRecognition r = recogniseGpu(name);
        if (ok && r.migSlices > 0) {
            mig += (mig.empty() ? "" : ", ") + name + " (" + std::to_string(r.migSlices) +
                   " of the " + std::to_string(r.migSlicesOfGpu) + " compute slices of an " +
                   r.model + ": " + numberText(cluster.gpuTypes.back().memoryGiB, 3) +
                   " GiB, relative speed " + numberText(r.relativeSpeed, 3) + ", " +
                   numberText(r.busyWatts, 3) + " W busy)";
            continue;
        }
        std::string &list = !ok ? unknown : r.entry ? known : datasheet;
        list += (list.empty() ? "" : ", ") + name;
        if (ok && r.entry)
            list += " (" + r.model + ", relative speed " +
                    importtext::formatNumber(r.entry->type.relativeSpeed) + ")";
        else if (ok)
            list += " (" + r.model + ", relative speed " +
                    importtext::formatNumber(r.relativeSpeed) + ")";
    }
    if (!mig.empty())
        report.assume("GPU types " + mig +
                      ": MIG instances, each counted as a GPU with its profile's memory and its "
                      "slices' share of the whole GPU's speed and power (from the GPU "
                      "catalogue), price 0");
    if (!known.empty())
        report.assume("GPU types " + known +
                      ": memory, power and relative speed from the GPU catalogue (vendor "
                      "datasheets; speeds relative to a V100), price 0");
    if (!datasheet.empty())
        report.assume("GPU types " + datasheet +
                      ": memory and power from the vendor's datasheet; not in the GPU "
                      "catalogue, so the relative speed is scaled from its generation's "
                      "catalogue entry by the datasheets' peak throughput (dense BF16, FP32 "
                      "before tensor cores), price 0");
    if (!unknown.empty()) {
        // What helps: --gpu-type for GPUs the source does not name; for a model it names that
        // the catalogue does not know (Alibaba's "G2"), its entry in the scenario.
        const bool placeholder = needed.count(kUnknownGpuType) > 0;
        const bool named = unknown != std::string(kUnknownGpuType);
        std::string help;
        if (placeholder)
            help += "--gpu-type names the model of GPUs a source does not name";
        if (named)
            help += std::string(placeholder ? "; " : "") +
                    "a model the source names keeps its name: give its memory, power and "
                    "relative speed in the scenario's cluster.gpu_types";
        report.assume("GPU types not in the catalogue: " + unknown +
                      ": default entry (16 GiB, 50 W idle, 250 W busy, relative speed 1.0, "
                      "price 0); " +
                      help);
    }
}

std::string unnamedGpuType(const std::string &gpuTypeOption)
{
    return gpuTypeOption.empty() ? std::string(kUnknownGpuType) : gpuTypeOption;
}

void reportUnusedGpuType(const Cluster &cluster, const std::string &gpuType, ImportReport &report)
{
    if (gpuType.empty())
        return;
    const bool used = std::any_of(cluster.nodes.begin(), cluster.nodes.end(), [&](const Node &n) {
        return n.gpus > 0 && n.gpuType == gpuType;
    });
    if (!used)
        report.assume("--gpu-type " + gpuType +
                      " not used: the input names the model of every GPU node");
}

} // namespace cb
