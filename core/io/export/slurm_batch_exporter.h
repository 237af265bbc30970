#pragma once
// slurm: one batch script per placed job ("<job-name>.sbatch") that places every task on its
// node. Every task is its own job step (srun --nodelist=NODE --nodes=1 --ntasks=1 --exact,
// with its CPUs, memory and GPUs), started in the background; the script waits for all.
//
// The allocation: a parameter-server job whose PS tasks and other tasks sit on disjoint node
// sets is a heterogeneous job (component 0 = PS nodes, "#SBATCH hetjob", component 1 = the
// rest; steps use --het-group). Any other job (roles sharing nodes, all-reduce, single) is one
// allocation over the union of its nodes, because Slurm refuses heterogeneous components
// whose node lists overlap. A component asks for the same share on each of its nodes: exact
// when its nodes host identical tasks (--ntasks-per-node), otherwise the largest node's share
// on every node (warned); if that share does not fit some node, the component is split into
// one component per node, which is always exact.
//
// Topology: a component on several nodes asks for --switches=K, K being the leaf switches
// its nodes sit under (the --nodelist already fixes the nodes; this keeps a resubmission
// without it as compact). With ExportOptions::slurmBlocks (topology/block clusters), also
// --segment=S: S is the largest size that cuts the component's nodes into whole segments,
// each inside one rack block (the greatest common divisor of the per-block node counts),
// written only when S > 1 and S fits the base block. --segment came with topology/block's
// segments (newer than Slurm 22.05, whose sbatch refuses it), so it is off by default.
//
// Shell safety: user data (job id, command, environment values) reaches the script only
// single-quoted (ShellText::quote) or in comments with control characters removed; #SBATCH
// lines carry only sanitised names and numbers.

#include "io/export/exporter.h"

namespace cb {

class SlurmBatchExporter : public Exporter
{
public:
    std::string name() const override { return "slurm"; }
    std::string description() const override;
    Result<ExportResult> exportPlacement(const Scenario &scenario, const Placement &placement,
                                         const ExportOptions &options) const override;
};

} // namespace cb
