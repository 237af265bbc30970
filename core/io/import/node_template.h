#pragma once
// What a node holds, for topology formats that name nodes but not their contents.

#include "model/cluster.h"
#include "util/result.h"

#include <optional>
#include <string>

namespace cb {

/// Node specifications for topology formats that name nodes but not what is in them
/// (topology.conf, topology.yaml, topograph, SimGrid): unset fields keep the format's own
/// value or the stated default.
struct NodeTemplate
{
    std::optional<double> cpus;
    std::optional<double> memoryGiB;
    std::optional<int> gpus;
    std::string gpuType;
    /// The GPU interconnect inside the node (a template taken from an NCCL or hwloc file).
    std::optional<GpuInterconnect> interconnect;
    /// Where it came from, for the report: "--node-template" or the node file's name.
    std::string source = "--node-template";
    /// Reads "gpus=8,gpu-type=H100,cpus=96,memory-gib=1024" (any subset, any order).
    static Result<NodeTemplate> parse(const std::string &spec);
    bool empty() const { return !cpus && !memoryGiB && !gpus && gpuType.empty() && !interconnect; }
    std::string toString() const;
};

/// Sets the fields `t` gives on `n`; a node without GPUs has no GPU type.
void applyNodeTemplate(const NodeTemplate &t, Node &n);

} // namespace cb
