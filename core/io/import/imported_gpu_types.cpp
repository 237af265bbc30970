#include "io/import/imported_gpu_types.h"

#include "model/gpu_catalog.h"

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
    std::string unknown, known;
    for (const std::string &name : needed) {
        bool ok = false;
        cluster.gpuTypes.push_back(importedGpuType(name, &ok));
        std::string &list = ok ? known : unknown;
        list += (list.empty() ? "" : ", ") + name;
        if (ok)
            list += " (" + recogniseGpu(name).model + ")";
    }
    if (!known.empty())
        report.assume("GPU types " + known +
                      ": memory and power from the GPU catalogue (vendor datasheets), "
                      "relative speed 1.0, price 0");
    if (!unknown.empty())
        report.assume("GPU types not in the catalogue: " + unknown +
                      ": default entry (16 GiB, 50 W idle, 250 W busy, relative speed 1.0, "
                      "price 0)");
}

} // namespace cb
