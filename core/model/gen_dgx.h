#pragma once
// DGX-style GPU clusters with a rail-optimised fabric: every node has 8 GPUs in one NVLink
// domain and several compute NICs; NIC r of every node in a scalable unit connects to that
// unit's rail leaf r, and every rail leaf connects to every spine. Traffic between nodes of
// one unit stays on a rail (node - leaf - node); units reach each other through the spines.

#include "model/cluster.h"
#include "model/gen_host.h"
#include "util/result.h"

namespace cb {

/// Defaults describe a DGX A100 (NVIDIA DGX A100 user guide / datasheet): 8 x A100 80 GB on
/// NVSwitch (600 GB/s NVLink per GPU), 2 x AMD EPYC 7742 (128 cores), 2 TB RAM, 8 x 200 Gb/s
/// HDR InfiniBand compute NICs, 6.5 kW maximum system power.
struct DgxParams
{
    int nodes = 4;
    int nicsPerNode = 8;       ///< rails
    double nicGbps = 200;      ///< per NIC and direction
    int nodesPerUnit = 32;     ///< nodes sharing one set of rail leaves (a scalable unit)
    int spines = 2;            ///< 0 allowed with a single unit
    double oversubscription = 1.0; ///< rail-leaf downlink / uplink bandwidth
    double latencyUs = 1.0;
    /// NVLink bandwidth per GPU and direction; 0 = the GPU type's catalogue value.
    double nvlinkGbps = 0;
    HostParams host = {8, "A100-80GB", 128, 2048, 3300, "dgx", "dgx"};
};

/// Switches su-U-rail-R (tier "leaf") and spine-S; nodes in unit order, rack = "su-U".
/// Bisection within one unit (even node count) = nodes/2 * nicsPerNode * nicGbps.
Result<Cluster> generateDgx(const DgxParams &params);

} // namespace cb
