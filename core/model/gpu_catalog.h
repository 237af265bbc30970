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

/// What a GPU name from elsewhere (a Kubernetes label, a Slurm gres type, a trace column:
/// "NVIDIA-A100-SXM4-80GB", "V100M32", "a100", "GTX 1080Ti", "titanxp") says about the board.
struct GpuRecognition
{
    bool recognised = false;
    /// The catalogue entry of the model, when the catalogue has it (else nullptr: a model
    /// known only by its datasheet, such as A30 or P40).
    const GpuCatalogEntry *entry = nullptr;
    std::string model;       ///< the recognised model ("A100-80GB", "A30"); empty if not
    double memoryGiB = 0;    ///< datasheet memory per GPU
    double busyWatts = 0;    ///< datasheet board power per GPU
    double idleWatts = 0;
    /// Training speed against a V100: the catalogue's, or for a model known only by its
    /// datasheet, scaled from its generation's catalogue entry by peak throughput.
    double relativeSpeed = 1;
    /// A MIG instance ("...-MIG-1g.5gb"): its profile ("1g.5gb"), its compute slices and
    /// those of the whole GPU (7; 4 on an A30). Its memory is the profile's, and its speed
    /// and power its slices' share of the whole GPU's (`model`'s).
    std::string migProfile{};
    int migSlices = 0;
    int migSlicesOfGpu = 0;
};

/// Recognises a GPU name: a catalogue name or product label (any case), else the model whose
/// name appears in it once case, blanks and punctuation are dropped (most specific first, so
/// "A100-SXM4-80GB" is the 80 GB A100 and a bare "A100" the 40 GB one). Dual-GPU boards
/// (K80, M60) count per GPU, as in the catalogue. A name with a MIG profile
/// ("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", as NVIDIA's GPU feature discovery labels an instance)
/// is that slice of the model.
GpuRecognition recogniseGpu(const std::string &name);

} // namespace cb
