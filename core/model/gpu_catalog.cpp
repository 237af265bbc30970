#include "model/gpu_catalog.h"

namespace cb {

// Sources and conventions (checked against the vendors' public pages; approximate where noted):
// - memory and busy watts: NVIDIA product datasheets (board TDP). K80 and M60 boards carry two
//   GPUs; clouds (Azure NC/NV series, and the STS authors' GPU-cost.csv) sell one of the two as
//   "1 GPU", so these entries are per GPU: 12 GiB / 150 W (K80 = GK210), 8 GiB / 150 W (M60).
// - idle watts: typical nvidia-smi readings of an idle, allocated board; approximate.
// - relative speed: rough training throughput relative to a V100 (ResNet-50 class workloads,
//   mixed precision where the GPU supports it); order-of-magnitude only, meant for jobs that
//   have no measured per-type step times.
// - price per GPU-hour: K80 and M60 from the STS authors' GPU-cost.csv (Azure NC6 0.56 and
//   NV6 0.62); GTX1080Ti and QuadroP600 from the same file's in-house servers (price of the
//   server divided by its GPUs); the others are Google Cloud on-demand list prices per GPU
//   (us-central1, 2023-2024; H100 is the a3-highgpu-8g price divided by 8).
// - NVLink: per GPU and direction (V100 300 GB/s, A100 600 GB/s, H100 900 GB/s total
//   bidirectional); PCIe x16 per direction: Gen3 128, Gen4 256, Gen5 512 Gbit/s (nominal).
const std::vector<GpuCatalogEntry> &gpuCatalog()
{
    static const std::vector<GpuCatalogEntry> catalog = {
        // name, memory GiB, relative speed, idle W, busy W, price/h; product; NVLink; PCIe
        {{"K80", 12, 0.15, 25, 150, 0.56}, "Tesla-K80", 0, 128},
        {{"M60", 8, 0.15, 25, 150, 0.62}, "Tesla-M60", 0, 128},
        {{"QuadroP600", 2, 0.05, 5, 40, 0.055}, "Quadro-P600", 0, 128},
        {{"GTX1080Ti", 11, 0.55, 10, 250, 0.14125}, "NVIDIA-GeForce-GTX-1080-Ti", 0, 128},
        {{"P100", 16, 0.5, 30, 250, 1.46}, "Tesla-P100-PCIE-16GB", 0, 128},
        {{"V100", 32, 1.0, 40, 300, 2.48}, "Tesla-V100-SXM2-32GB", 1200, 128},
        {{"T4", 16, 0.3, 10, 70, 0.35}, "Tesla-T4", 0, 128},
        {{"A100-40GB", 40, 2.2, 50, 400, 2.933908}, "NVIDIA-A100-SXM4-40GB", 2400, 256},
        {{"A100-80GB", 80, 2.2, 50, 400, 3.92828}, "NVIDIA-A100-SXM4-80GB", 2400, 256},
        {{"L4", 24, 0.6, 15, 72, 0.56004}, "NVIDIA-L4", 0, 256},
        {{"H100-80GB", 80, 4.0, 70, 700, 11.06125}, "NVIDIA-H100-80GB-HBM3", 3600, 512},
    };
    return catalog;
}

const GpuCatalogEntry *findGpuCatalogEntry(const std::string &name)
{
    for (const GpuCatalogEntry &e : gpuCatalog())
        if (e.type.name == name)
            return &e;
    return nullptr;
}

std::string gpuCatalogNames()
{
    std::string names;
    for (const GpuCatalogEntry &e : gpuCatalog())
        names += (names.empty() ? "" : ", ") + e.type.name;
    return names;
}

} // namespace cb
