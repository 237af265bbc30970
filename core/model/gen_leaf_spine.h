#pragma once
// Two-tier leaf-spine (folded Clos) clusters: hosts hang off leaf switches, every leaf connects
// to every spine. Node order follows the tree (all hosts of leaf 0, then leaf 1, ...), so
// Topology::bisectionGbps splits the leaves in half and is exact for an even leaf count.

#include "model/cluster.h"
#include "model/gen_host.h"
#include "util/result.h"

namespace cb {

struct LeafSpineParams
{
    int leaves = 4;
    int spines = 2;                ///< 0 only with a single leaf
    int hostsPerLeaf = 8;
    /// Host bandwidth into a leaf divided by the leaf's uplink bandwidth (3 means 3:1).
    /// Each leaf-spine link gets hostsPerLeaf * hostLinkGbps / (oversubscription * spines).
    double oversubscription = 1.0;
    double hostLinkGbps = 100;     ///< per direction
    double latencyUs = 1.0;        ///< per link
    HostParams host;
};

/// Switches leaf-0.., spine-0..; hosts prefix-000..; rack = the host's leaf switch.
/// Bisection (even leaf count) = leaves/2 * min(hostsPerLeaf * hostLinkGbps, leaf uplink).
Result<Cluster> generateLeafSpine(const LeafSpineParams &params);

} // namespace cb
