#include "model/node_labels.h"

#include "model/gpu_catalog.h"

#include <cmath>

namespace cb {

namespace {

const char *const kHostname = "kubernetes.io/hostname";
const char *const kGpuCount = "nvidia.com/gpu.count";
const char *const kGpuProduct = "nvidia.com/gpu.product";
const char *const kGpuMemory = "nvidia.com/gpu.memory";
const char *const kRack = "clusterbench.io/rack";

/// Sets `key` to `now` (removes it when `now` is empty) when it held `was`; a value of the
/// user's stays.
void follow(Node &node, const char *key, const std::string &was, const std::string &now)
{
    auto it = node.labels.find(key);
    if (it == node.labels.end() || it->second != was)
        return;
    if (now.empty())
        node.labels.erase(it);
    else
        it->second = now;
}

} // namespace

void syncNodeLabels(Node &node, const Node &before, const Cluster &cluster)
{
    follow(node, kHostname, before.id, node.id);
    follow(node, kRack, before.rack, node.rack);
    // GPU labels describe the GPUs: they go with the last GPU and follow count and type.
    const bool hadGpuLabels = node.labels.count(kGpuCount) || node.labels.count(kGpuProduct);
    if (node.gpus <= 0) {
        for (const char *key : {kGpuCount, kGpuProduct, kGpuMemory})
            node.labels.erase(key);
        return;
    }
    if (!hadGpuLabels)
        return;
    if (node.labels.count(kGpuCount))
        node.labels[kGpuCount] = std::to_string(node.gpus);
    if (node.gpuType == before.gpuType)
        return;
    const GpuCatalogEntry *entry = findGpuCatalogEntry(node.gpuType);
    if (entry)
        node.labels[kGpuProduct] = entry->product;
    else
        node.labels.erase(kGpuProduct);
    if (const GpuType *type = cluster.gpuType(node.gpuType))
        node.labels[kGpuMemory] =
            std::to_string(static_cast<long long>(std::llround(type->memoryGiB * 1024)));
    else
        node.labels.erase(kGpuMemory);
}

} // namespace cb
