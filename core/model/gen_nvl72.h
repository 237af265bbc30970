#pragma once
// Rack-scale NVLink clusters: GB200 NVL72 racks, each one multi-node NVLink domain of 18
// compute trays (nodes) x 4 GPUs, on a rail-optimised scale-out fabric (NIC r of every tray
// of a scalable unit to that unit's rail leaf r, every rail leaf to every spine), or for
// comparison HGX H100 racks, whose NVLink domains end at the 8-GPU node.
//
// GB200 NVL72 figures (NVIDIA GB200 NVL72 product page, nvidia.com/en-us/data-center/
// gb200-nvl72, and the NVIDIA DGX GB200 user guide, docs.nvidia.com/dgx/dgxgb200-user-guide,
// "Hardware"): 72 Blackwell GPUs and 36 Grace CPUs per rack in 18 1RU compute trays of
// 2 Grace CPUs and 4 GPUs, 9 NVLink switch trays; fifth-generation NVLink 1.8 TB/s per GPU
// bidirectional, i.e. 900 GB/s = 7,200 Gbit/s per direction (130 TB/s per rack); Grace: 72
// Arm Neoverse V2 cores and up to 480 GB LPDDR5X each (17 TB per rack), so 144 cores and
// 960 GB = 894 GiB per tray; scale-out: 4 ConnectX-7 400 Gb/s InfiniBand NICs per tray (one
// per GPU); about 120 kW per rack (DGX GB200 datasheet), spread over the trays: a tray's
// base draw is 120 kW / 18 minus its 4 GPUs at busy power. A DGX SuperPOD scalable unit is
// 8 racks (576 GPUs).
// HGX H100 figures (NVIDIA DGX H100 datasheet): 8 H100 SXM5 on NVSwitch (900 GB/s NVLink 4
// per GPU bidirectional), 2 Xeon Platinum 8480C (112 cores), 2 TB RAM, 8 ConnectX-7 400 Gb/s
// compute NICs, 10.2 kW maximum; 4 systems per rack. HGX H200 (NVIDIA DGX H200 datasheet): the
// same system with 8 H200 (141 GB HBM3e each, 1,128 GB in all), also 10.2 kW maximum.

#include "model/cluster.h"
#include "model/gen_host.h"
#include "util/result.h"

namespace cb {

struct Nvl72Params
{
    enum class Variant {
        Gb200Nvl72, ///< one 72-GPU multi-node NVLink domain per rack
        HgxH100,    ///< 8-GPU nodes, the NVLink domain is the node
        HgxH200,    ///< the same with H200 GPUs (141 GB HBM3e)
    };
    Variant variant = Variant::Gb200Nvl72;
    int racks = 1;
    int nodesPerRack = 18;     ///< compute trays (HGX: 4 systems)
    int nicsPerNode = 4;       ///< scale-out NICs (rails) per node (HGX: 8)
    double nicGbps = 400;      ///< per NIC and direction
    int racksPerUnit = 8;      ///< racks sharing one set of rail leaves (a scalable unit)
    int spines = 2;            ///< 0 allowed with a single unit
    double oversubscription = 1.0;
    double latencyUs = 1.0;    ///< scale-out link latency
    /// Multi-node NVLink bandwidth per GPU and direction (Gbit/s); 0 = the GPU type's.
    double nvlinkGbps = 0;
    double rackKw = 120;       ///< rack draw at full load (HGX: 4 x 10.2 kW)
    HostParams host = {4, "GB200", 144, 894, 0, "gb200", "gb200"};
};

/// Defaults of a variant (GB200 NVL72, HGX H100 or HGX H200) for the parameters above.
Nvl72Params nvl72Defaults(Nvl72Params::Variant variant);

/// Nodes rack by rack (rack = "nvl72-RR" or "rack-RR", label clusterbench.io/rack); for
/// GB200, one NvlinkDomain per rack named like the rack with every tray of it; switches
/// su-U-rail-R (tier "leaf") and spine-S as in generateDgx.
Result<Cluster> generateNvl72(const Nvl72Params &params);

} // namespace cb
