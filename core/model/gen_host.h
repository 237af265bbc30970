#pragma once
// What every generated host looks like, and the small pieces the cluster generators share:
// naming, parameter checks, adding catalogue GPU types, building a labelled host node.

#include "model/cluster.h"
#include "model/gpu_catalog.h"
#include "util/result.h"

#include <string>

namespace cb {

/// One generated host (server). GPU type names come from the catalogue (gpu_catalog.h).
struct HostParams
{
    int gpus = 8;
    std::string gpuType = "A100-40GB";
    double cpus = 64;
    double memoryGiB = 512;
    double baseWatts = 400;         ///< server draw without its GPUs
    std::string prefix = "node";    ///< hostnames are prefix-000, prefix-001, ...
    std::string partition = "gpu";
};

namespace gen {

/// "prefix-007": index zero-padded to the width of count - 1 (at least one digit).
std::string indexedName(const std::string &prefix, int index, int count);

/// Appends a problem to `p` unless lo <= value <= hi; `what` describes the expectation.
void checkInt(Problems &p, const char *name, long long value, long long lo, long long hi,
              const std::string &what = {});
void checkNumber(Problems &p, const char *name, double value, double lo, double hi,
                 const std::string &what = {});
/// Checks the host part of a generator's parameters (gpu type known, sizes positive, ...).
void checkHost(Problems &p, const HostParams &host);

/// Adds the catalogue entry `name` to the cluster's GPU types once.
void addGpuType(Cluster &cluster, const std::string &name);

/// A host node with labels kubernetes.io/hostname, nvidia.com/gpu.product, nvidia.com/gpu.count,
/// nvidia.com/gpu.memory (MiB) and clusterbench.io/rack; NVLink-capable GPU types get one
/// NVLink domain of all the node's GPUs, the others a PCIe interconnect.
Node makeHost(const HostParams &host, const std::string &id, const std::string &rack);

/// A full-duplex link.
Link makeLink(const std::string &a, const std::string &b, double gbps, double latencyUs);

} // namespace gen
} // namespace cb
