#pragma once
// slurm-cluster: the modelled cluster as Slurm configuration, so a what-if can be stood up
// for real (no placement needed). Files:
//   slurm.conf    GresTypes, one NodeName line per node (CPUs, RealMemory in MB,
//                 Gres=gpu:TYPE:N with the GPU type lowercased), one PartitionName line per
//                 node partition, then "all" over every node (Default=YES). Include these
//                 lines in a full slurm.conf.
//   gres.conf     NodeName=HOSTLIST Name=gpu Type=TYPE File=/dev/nvidia[0-N], one line per
//                 GPU type and count
//   topology.conf the switch tree (topology/tree): a switch linked to nodes lists them
//                 (Nodes=), a switch above lists the switches one level below it (Switches=);
//                 nodes linked to no switch hang off a switch "cb-unattached"; several
//                 top switches (racks linked directly) are joined under "cb-root", since
//                 Slurm cannot allocate a job across separate trees.
//                 With ExportOptions::slurmBlocks: BlockName=RACK Nodes=... lines and
//                 BlockSizes= (topology/block, Slurm 23.11 or later; see slurm_topology.h).
//   topology.yaml with slurmBlocks only, for Slurm 25.05+: the same tree as topology "tree"
//                 and the blocks as topology "block", the cluster default. Slurm reads
//                 topology.yaml instead of topology.conf when both exist.

#include "io/export/exporter.h"

namespace cb {

class SlurmClusterExporter : public Exporter
{
public:
    std::string name() const override { return "slurm-cluster"; }
    std::string description() const override;
    bool needsPlacement() const override { return false; }
    Result<ExportResult> exportPlacement(const Scenario &scenario, const Placement &placement,
                                         const ExportOptions &options) const override;
};

} // namespace cb
