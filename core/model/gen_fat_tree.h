#pragma once
// k-ary fat-trees (Al-Fares et al., SIGCOMM 2008): k pods, each with k/2 edge and k/2
// aggregation switches, (k/2)^2 core switches, k/2 hosts per edge switch, k^3/4 hosts in all,
// every link the same capacity: full bisection bandwidth k^3/8 * linkGbps. With more hosts
// per edge switch than its k/2 uplinks (hostsPerEdge > k/2) the edge tier is oversubscribed
// hostsPerEdge : k/2, as large clusters are built: k = 32 with 32 hosts per edge gives 16,384.

#include "model/cluster.h"
#include "model/gen_host.h"
#include "util/result.h"

namespace cb {

struct FatTreeParams
{
    int k = 4;              ///< switch radix; even, 2..64 (k = 16 gives 1,024 hosts)
    int hostsPerEdge = 0;   ///< hosts under each edge switch; 0: k/2 (full bisection), up to 256
    double linkGbps = 100;  ///< every link, per direction
    double latencyUs = 1.0;
    HostParams host;
};

/// Switches pod-P-edge-E, pod-P-agg-A, core-C (tiers "edge", "aggregation", "core");
/// aggregation switch A of every pod connects to core switches A*k/2 .. A*k/2 + k/2 - 1.
/// Hosts in tree order (pod 0 edge 0 first); rack = edge switch, label clusterbench.io/pod.
Result<Cluster> generateFatTree(const FatTreeParams &params);

} // namespace cb
