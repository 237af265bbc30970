#pragma once

#include "io/import/importer.h"

namespace cb {

/// Slurm configuration files, any of slurm.conf, gres.conf and topology.conf, told apart by
/// content (SwitchName/BlockName lines: topology.conf; Name= or AutoDetect= keys: gres.conf;
/// else slurm.conf).
/// - slurm.conf NodeName lines (hostlists, NodeName=DEFAULT): CPUs, else Boards x Sockets x
///   CoresPerSocket x ThreadsPerCore; RealMemory (MiB; Slurm's default 1 MiB when absent);
///   Gres=gpu[:type]:N (a key repeated on one line: the last value, as Slurm does); Feature(s)
///   as labels "slurm.feature/<name>" = "true". PartitionName lines set each node's
///   partition (its first).
/// - gres.conf: Name=gpu lines give GPU types to slurm.conf nodes whose Gres names none;
///   without slurm.conf, NodeName lines define the nodes and the GPUs (distinct File devices,
///   else Count).
/// - topology.conf: tree (SwitchName, Switches, Nodes) or block (BlockName, Nodes) layout as
///   switches and links; without it one switch links all nodes (stated).
class SlurmConfImporter : public Importer
{
public:
    std::string name() const override { return "slurm"; }
    std::vector<std::string> readsOptions() const override { return {"node-template"}; }
    std::string description() const override
    {
        return "Slurm slurm.conf, gres.conf and/or topology.conf (tree or block)";
    }
    Produces produces() const override { return Produces::Cluster; }
    std::pair<int, int> fileCount() const override { return {1, 3}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
