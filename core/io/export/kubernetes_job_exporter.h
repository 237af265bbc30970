#pragma once
// Common frame of the Kubernetes exporters: resolves the placement, names every job
// (KubernetesNames), and writes one "<job-name>.yaml" file per placed job holding the
// objects a concrete exporter builds for it.

#include "io/export/exporter.h"
#include "io/export/kubernetes_node_names.h"
#include "io/export/placed_job.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cb {

class KubernetesJobExporter : public Exporter
{
public:
    struct JobContext
    {
        const Scenario &scenario;
        const PlacedJob &job;
        std::string name; ///< DNS-1035 label, unique among the exported jobs
        const ExportOptions &options;
        const KubernetesNodeNames &nodes; ///< node names and hostname labels to pin to
        SharedWarnings &shared;           ///< warnings many jobs may share, said once at the end
    };

    Result<ExportResult> exportPlacement(const Scenario &scenario, const Placement &placement,
                                         const ExportOptions &options) const final;

protected:
    /// The objects of one job, in the order they are written. Warnings (to `context.shared`)
    /// say what the target cannot express and what to use instead.
    virtual std::vector<nlohmann::ordered_json> jobObjects(const JobContext &context) const = 0;
    /// Comment lines written above a job's objects (each line starting with "# "), e.g. what
    /// the target guarantees of the placement and what it only prefers. Default: none.
    virtual std::string jobHeader(const JobContext &, const std::vector<nlohmann::ordered_json> &)
        const
    {
        return {};
    }
    /// Files besides the per-job ones (cluster-wide objects such as queues), written first.
    virtual std::vector<ExportedFile> setupFiles(const Scenario &, const std::vector<PlacedJob> &,
                                                 const ExportOptions &,
                                                 std::vector<std::string> &) const
    {
        return {};
    }
};

} // namespace cb
