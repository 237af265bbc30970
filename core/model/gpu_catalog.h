#pragma once
// A catalogue of real GPU models with their memory, power, intra-node bandwidth and an
// indicative cloud price, so generators and sample scenarios start from realistic numbers.
// Sources are listed beside each entry in gpu_catalog.cpp.

#include "model/cluster.h"

#include <string>
#include <vector>

namespace cb {

struct GpuCatalogEntry
{
    GpuType type;            ///< name is the catalogue key ("A100-80GB", "K80", ...)
    std::string product;     ///< value of the nvidia.com/gpu.product node label
    double nvlinkGbps = 0;   ///< NVLink bandwidth per GPU and direction; 0 = PCIe only
    double pcieGbps = 128;   ///< host PCIe bandwidth per direction (Gen3 x16 = 128)
};

/// Every catalogue entry, in a fixed order (oldest GPUs first).
const std::vector<GpuCatalogEntry> &gpuCatalog();

/// The entry with this name, or nullptr.
const GpuCatalogEntry *findGpuCatalogEntry(const std::string &name);

/// "A100-40GB, A100-80GB, ..." for error messages and --help.
std::string gpuCatalogNames();

} // namespace cb
