#pragma once

#include "io/import/importer.h"

namespace cb {

/// NVIDIA topograph's simulation model YAML (tests/models/*.yaml, the *-sim providers), in
/// its three schemas, told apart by their shape:
/// - v1.0+: `switches: {NAME: {labels, switches: [children]}}` and `blocks: [{switch: LEAF,
///   nodes: [hostlists], annotations}]` (a leaf may be named only by its block);
/// - v0.4-0.5: `switches: {NAME: {metadata: {region|availability_zone|group}, switches,
///   nodes}}` and `capacity_blocks: {NAME: {nodes, attributes: {nvlink}}}`;
/// - v0.1-0.3: `switches: [{name, metadata, switches, capacity_blocks: [NAME]}]` and
///   `capacity_blocks: [{name, type, nvlink, nodes}]`.
/// Switches become switches (several roots join under one core switch), nodes hang from the
/// leaf switch of their block; each node inherits the labels of the switches above it
/// (the nearer one winning), and its NVLink domain (annotation accelerator.topology.test/
/// domain, or the capacity block's nvlink) is kept as the label accelerator.topograph.run/
/// domain. Refused, naming the line: a switch with two parents, a node under two switches, a
/// cycle, an unknown switch, YAML alias bombs.
///
/// What the format does not say, and what is assumed (each stated in the report): the nodes'
/// GPUs (topograph's renderer takes a --gpus flag; v0.1's block type is the only hint): each
/// node holds 8 GPUs of --gpu-type (else the block type, else "unknown-gpu"), 64 CPUs and
/// 512 GiB unless --node-template says otherwise; link speeds (100 Gbit/s to a node,
/// 400 Gbit/s between switches); NVLink between nodes is not modelled.
class TopographImporter : public Importer
{
public:
    std::string name() const override { return "topograph"; }
    std::vector<std::string> readsOptions() const override { return {"node-template"}; }
    std::string description() const override
    {
        return "NVIDIA topograph model YAML (switches, blocks / capacity blocks; v0.1 to v1)";
    }
    Produces produces() const override { return Produces::Cluster; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
