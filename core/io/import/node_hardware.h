#pragma once
// What one-node hardware descriptions (NCCL topology XML, hwloc XML) say about a node, before
// it becomes a cluster: GPUs with their model and links, NICs, CPUs, memory. Shared so both
// formats turn GPUs, NVLink and PCIe into a node's GPU interconnect the same way:
// - GPUs linked to an NVSwitch are one NVLink domain; GPUs linked to each other form domains
//   of GPUs all linked pairwise; the bandwidth between two tasks on the node is the smallest
//   NVLink bandwidth between two GPUs of a domain (through the switch: a GPU's total).
// - No NVLink: PCIe, at the smallest GPU link's speed.
// - NICs' speeds add up to the node's link to its switch.

#include "io/import/import_report.h"
#include "io/import/node_template.h"
#include "model/cluster.h"

#include <optional>
#include <string>
#include <vector>

namespace cb {

struct HardwareGpu
{
    std::string busId;
    std::string model;       ///< recognised model name, or ""
    int sm = 0;              ///< compute capability x10 (NCCL), 0 if unknown
    double pcieGbps = 0;     ///< its PCIe link, per direction; 0 if unknown
    double nvswitchGBps = 0; ///< NVLink bandwidth to NVSwitches, GB/s per direction
    std::vector<std::pair<int, double>> peers; ///< NVLink to other GPUs: (index, GB/s)
    bool nvlinkKnown = false; ///< the file says what NVLink the GPU has (maybe none)
    /// A training framework's stack reaches it (CUDA, NVML, ROCm SMI), not only OpenCL.
    bool trainingStack = true;
};

struct NodeHardware
{
    std::string name; ///< host name if the file gives one
    std::vector<HardwareGpu> gpus;
    std::vector<std::pair<std::string, double>> nics; ///< (name, Gbit/s; 0 if unknown)
    std::optional<double> cpus;
    std::optional<double> memoryGiB;
    int nvswitches = 0; ///< NVSwitches the file names (NCCL merges them; informative)
};

/// NVLink bandwidth per link and direction in GB/s for a compute capability (sm x10): 20 for
/// P100 (60), 25 for V100, A100 and H100 (70, 80, 90), 14.0625 for sm 86, 50 for B200 (100);
/// NVIDIA's NVLink figures per generation. 0 when unknown.
double nvlinkGBpsPerLink(int sm);

/// A PCIe link's bandwidth per direction in Gbit/s from "16.0 GT/s PCIe" and the width (0 is
/// read as 16, as NCCL does); 128b/130b encoding from 8 GT/s up, 8b/10b below. nullopt when
/// the speed is not written.
std::optional<double> pcieGbps(const std::string &speed, int width);

/// The GPU model of an NVIDIA PCI device id ("0x20b0" -> "A100-SXM4-40GB"), or "".
std::string gpuModelOfPciDevice(const std::string &deviceId);

/// A node name from a file's name when the file names no host: the base name without its
/// extension, lower case, other characters as '-' ("DGX_A100.xml" -> "dgx-a100"); "node" if
/// nothing is left.
std::string nodeBaseFromFileName(const std::string &path);

/// Turns `hw` into `count` identical nodes named `base` (or base-0, base-1, ...) on one
/// switch, with `options` filling what the file does not say (--gpu-type, --node-template);
/// everything assumed goes to `report`. Without a GPU in the file or the template, the nodes
/// are CPU-only (and said so).
void addHardwareNodes(const NodeHardware &hw, const std::string &file, const std::string &base,
                      int count, const std::string &gpuTypeOption, const NodeTemplate &nodeTemplate,
                      Cluster &cluster, ImportReport &report);

} // namespace cb
