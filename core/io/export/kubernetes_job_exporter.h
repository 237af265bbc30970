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
    };

    Result<ExportResult> exportPlacement(const Scenario &scenario, const Placement &placement,
                                         const ExportOptions &options) const final;

protected:
    /// The objects of one job, in the order they are written. Warnings say what the target
    /// cannot express and what to use instead.
    virtual std::vector<nlohmann::ordered_json>
    jobObjects(const JobContext &context, std::vector<std::string> &warnings) const = 0;
};

} // namespace cb
