#pragma once
// The modelled cluster: GPU type catalogue, nodes, switches and the links between them.
// Units: memory in GiB, link capacity in Gbit/s per direction, latency in microseconds,
// power in watts, prices in currency units per hour.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb {

struct GpuType
{
    std::string name;            ///< catalogue key, e.g. "V100", "K80"
    double memoryGiB = 16;       ///< device memory
    double relativeSpeed = 1.0;  ///< throughput relative to the reference GPU (1.0)
    double idleWatts = 50;       ///< draw when allocated to nobody
    double busyWatts = 250;      ///< draw when training
    double pricePerHour = 0;     ///< cloud list price per GPU-hour (0 if unknown)
    bool operator==(const GpuType &) const = default;
};

/// How GPUs inside one node talk to each other.
struct GpuInterconnect
{
    enum class Kind { Pcie, Nvlink };
    Kind kind = Kind::Pcie;
    /// Bandwidth between two tasks on this node (GPU to GPU, or through host memory): the bus
    /// bandwidth of a collective among the node's GPUs, in Gbit/s per GPU and direction.
    double bandwidthGbps = 128;
    /// Latency of one collective step between two GPUs of this node, in microseconds.
    double latencyUs = 0;
    /// Groups of GPU indices fully connected by NVLink; empty for PCIe-only nodes.
    std::vector<std::vector<int>> nvlinkDomains;
    bool operator==(const GpuInterconnect &) const = default;
};

struct Node
{
    std::string id;        ///< hostname; unique among nodes and switches
    double cpus = 1;       ///< CPU cores
    double memoryGiB = 1;
    int gpus = 0;
    std::string gpuType;   ///< key into Cluster::gpuTypes; empty when gpus == 0
    std::map<std::string, std::string> labels;
    std::string partition; ///< Slurm partition / node pool
    std::string rack;      ///< rack or block name, used for grouping and topology.conf
    double baseWatts = 0;  ///< node draw without its GPUs
    GpuInterconnect interconnect;
    bool operator==(const Node &) const = default;
};

struct Switch
{
    std::string id;
    std::string tier; ///< free text: "leaf", "spine", "edge", "aggregation", "core", "tor"
    bool operator==(const Switch &) const = default;
};

/// A full-duplex link; the capacity holds in each direction independently.
struct Link
{
    std::string a;
    std::string b;
    double capacityGbps = 10;
    double latencyUs = 1;
    /// Most that one flow (one connection of one job) may carry, Gbit/s; 0 = no limit. Clouds
    /// cap single flows below the NIC's rate (AWS: 5 Gbit/s outside a cluster placement group).
    double flowCapGbps = 0;
    bool operator==(const Link &) const = default;
};

/// A multi-node (rack-scale) NVLink domain: GPUs of several nodes joined by NVLink switches,
/// e.g. a GB200 NVL72 rack (18 compute trays x 4 GPUs = 72 GPUs). Traffic between two nodes
/// of one domain runs over the domain, before the scale-out fabric: it loads no link (NIC
/// or switch) of the cluster. Every GPU of the member nodes is in the domain.
struct NvlinkDomain
{
    std::string id;                 ///< unique among domains, e.g. the rack name
    std::vector<std::string> nodes; ///< member node ids, at least two
    /// Bandwidth per GPU and direction, Gbit/s (NVLink 5: 900 GB/s = 7,200 Gbit/s).
    double bandwidthGbps = 7200;
    /// Latency of one collective step between two GPUs of the domain, microseconds.
    double latencyUs = 0;
    bool operator==(const NvlinkDomain &) const = default;
};

/// A Slurm partition's own settings (its nodes name it: Node::partition), as slurm.conf gives
/// them, so that a cluster read from one is written back with them.
struct Partition
{
    std::string name;
    std::optional<double> maxTimeSeconds; ///< MaxTime; empty: INFINITE
    bool isDefault = false;               ///< Default=YES: jobs without -p go here
    bool operator==(const Partition &) const = default;
};

struct Cluster
{
    std::vector<GpuType> gpuTypes;
    std::vector<Node> nodes;
    std::vector<Switch> switches;
    std::vector<Link> links;
    std::vector<NvlinkDomain> nvlinkDomains; ///< multi-node domains; nodes in at most one
    std::vector<Partition> partitions;       ///< settings of the nodes' partitions, if known

    const GpuType *gpuType(const std::string &name) const;
    const Node *node(const std::string &id) const;
    std::optional<std::size_t> nodeIndex(const std::string &id) const;
    int totalGpus() const;
    /// GPU count per GPU type name, in name order.
    std::map<std::string, int> gpusByType() const;
    /// Index into nvlinkDomains of every node (cluster order), -1 outside any multi-node
    /// domain. A node listed twice keeps its first domain (validation reports it).
    std::vector<int> nvlinkDomainOfNodes() const;
    bool operator==(const Cluster &) const = default;
};

} // namespace cb
