#pragma once
// GPU type entries for imported clusters. A source names a GPU its own way
// ("NVIDIA-A100-SXM4-80GB", "V100M32", "titanxp"); the name is kept as the catalogue key and
// memory and board power come from the vendor datasheet of the recognised model. Unknown
// names get stated defaults (16 GiB, 250 W busy). Relative speed stays 1.0 for every type
// (a trace or cluster file does not say it); price stays 0.

#include "io/import/import_report.h"
#include "model/cluster.h"

#include <string>

namespace cb {

/// The catalogue entry for a GPU named `name`, and whether the model was recognised.
GpuType importedGpuType(const std::string &name, bool *recognised = nullptr);

/// Adds a catalogue entry for every GPU type used by a node and not yet in the cluster's
/// catalogue, in name order; reports the entries made with defaults.
void addMissingGpuTypes(Cluster &cluster, ImportReport &report);

} // namespace cb
