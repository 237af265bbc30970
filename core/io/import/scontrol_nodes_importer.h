#pragma once

#include "io/import/importer.h"

namespace cb {

/// `scontrol show node` output: one record per node starting at "NodeName=", Key=Value
/// pairs over indented lines (values with blanks, such as OS= or Reason=, run to the next
/// pair). Per node: CPUTot (else CPUs), RealMemory (MiB), Gres=gpu[:type]:N[(S:..)],
/// AvailableFeatures (labels "slurm.feature/<name>"), Partitions (the first). No topology:
/// one switch links all nodes (stated).
class ScontrolNodesImporter : public Importer
{
public:
    std::string name() const override { return "scontrol-nodes"; }
    std::string description() const override { return "Slurm `scontrol show node` output"; }
    Produces produces() const override { return Produces::Cluster; }
    std::pair<int, int> fileCount() const override { return {1, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
