#pragma once
// GPU type entries for imported clusters. A source names a GPU its own way
// ("NVIDIA-A100-SXM4-80GB", "V100M32", "titanxp"); the name is kept as the type's key, and
// memory and board power come from the model the GPU catalogue (model/gpu_catalog.h)
// recognises in it. Unknown names get stated defaults (16 GiB, 50 W idle, 250 W busy).
// Relative speed stays 1.0 for every type (a trace or cluster file does not say it); price
// stays 0.

#include "io/import/import_report.h"
#include "model/cluster.h"

#include <string>

namespace cb {

/// The entry for a GPU named `name`, and whether the catalogue recognised the model.
GpuType importedGpuType(const std::string &name, bool *recognised = nullptr);

/// Adds an entry for every GPU type used by a node and not yet in the cluster's list of GPU
/// types, in name order; reports which were recognised and which got defaults.
void addMissingGpuTypes(Cluster &cluster, ImportReport &report);

} // namespace cb
