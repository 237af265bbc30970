#pragma once
// GPU type entries for imported clusters. A source names a GPU its own way
// ("NVIDIA-A100-SXM4-80GB", "V100M32", "titanxp"); the name is kept as the type's key, and
// memory, board power and relative speed come from the model the GPU catalogue
// (model/gpu_catalog.h) recognises in it. Models known only by their datasheet (A30, P40, ...)
// get their memory and power and relative speed 1.0; unknown names get stated defaults
// (16 GiB, 50 W idle, 250 W busy, relative speed 1.0). Price stays 0: an imported cluster
// is the user's own.

#include "io/import/import_report.h"
#include "model/cluster.h"

#include <string>

namespace cb {

/// The name importers give GPUs whose model the source does not say.
inline constexpr const char *kUnknownGpuType = "unknown-gpu";

/// The entry for a GPU named `name`, and whether the catalogue recognised the model.
GpuType importedGpuType(const std::string &name, bool *recognised = nullptr);

/// Adds an entry for every GPU type used by a node and not yet in the cluster's list of GPU
/// types, in name order; reports which were recognised and which got defaults.
void addMissingGpuTypes(Cluster &cluster, ImportReport &report);

/// The type for GPUs whose model the source does not say: --gpu-type when given, else
/// kUnknownGpuType.
std::string unnamedGpuType(const std::string &gpuTypeOption);

/// Reports when --gpu-type was given but no node took it (every model was named).
void reportUnusedGpuType(const Cluster &cluster, const std::string &gpuType, ImportReport &report);

} // namespace cb
