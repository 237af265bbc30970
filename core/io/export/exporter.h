#pragma once
// The interface every placement exporter implements (one class per target format), and the
// plain values it exchanges with the GUI, the CLI and the tests.

#include "model/scenario.h"
#include "model/placement.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace cb {

/// One file an exporter produces: a path relative to the output folder and its content.
struct ExportedFile
{
    std::string path;
    std::string content;
    bool executable = false; ///< a script (chmod +x)
    bool operator==(const ExportedFile &) const = default;
};

/// Files plus what the target could not express exactly. A warning never means a constraint
/// was dropped silently: it names what was relaxed and the exact alternative.
struct ExportResult
{
    std::vector<ExportedFile> files;
    std::vector<std::string> warnings;
};

struct ExportOptions
{
    /// How Kubernetes pods are pinned to their node: spec.nodeName (binds directly, bypasses
    /// the scheduler) or a required node affinity on kubernetes.io/hostname.
    enum class Pinning { NodeName, NodeAffinity };
    Pinning pinning = Pinning::NodeName;
    /// metadata.namespace of every Kubernetes object; empty leaves it to kubectl.
    std::string kubernetesNamespace;
    /// Container image for jobs without one; empty picks a default per job kind.
    std::string defaultImage;
    /// slurm-cluster: write topology.conf as BlockName lines grouped by rack (topology/block,
    /// Slurm 23.11 or later) instead of the switch tree.
    bool slurmBlocks = false;
};

class Exporter
{
public:
    virtual ~Exporter() = default;
    /// Registry key used by the CLI: "k8s-pods", "tfjob", "slurm", ...
    virtual std::string name() const = 0;
    /// One line for help texts and the GUI's format list.
    virtual std::string description() const = 0;
    /// False for exporters of the cluster alone (slurm-cluster), which ignore the placement.
    virtual bool needsPlacement() const { return true; }
    /// Builds every file in memory; nothing is written. Problems name the job, task or node
    /// that cannot be exported and why.
    virtual Result<ExportResult> exportPlacement(const Scenario &scenario,
                                                 const Placement &placement,
                                                 const ExportOptions &options) const = 0;
};

} // namespace cb
