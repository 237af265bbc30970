#pragma once

#include "io/import/importer.h"

namespace cb {

/// Tiresias cluster spec CSV (SymbioticLab/Tiresias simulator/cluster_spec.csv, n32g4.csv,
/// ...): one data row num_switch, num_node_p_switch, num_gpu_p_node, num_cpu_p_node,
/// mem_p_node. It becomes num_switch switches of num_node_p_switch nodes under one core
/// switch.
///
/// What the format does not say, and what is assumed (each stated in the report): the GPU
/// model (--gpu-type, else "unknown-gpu"), link speeds (100 Gbit/s to a node, 400 between
/// switches), and the memory unit: mem_p_node is read as GiB (Tiresias calls it GB).
/// More than one data row is refused, as Tiresias's own run_sim.py refuses it.
class TiresiasClusterImporter : public Importer
{
public:
    std::string name() const override { return "tiresias-cluster"; }
    std::string description() const override
    {
        return "Tiresias cluster spec CSV (num_switch, num_node_p_switch, num_gpu_p_node, ...)";
    }
    Produces produces() const override { return Produces::Cluster; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
