#include "io/export/kubernetes_job_exporter.h"

#include "io/export/kubernetes_names.h"
#include "io/export/yaml_text.h"

namespace cb {

Result<ExportResult> KubernetesJobExporter::exportPlacement(const Scenario &scenario,
                                                            const Placement &placement,
                                                            const ExportOptions &options) const
{
    if (!options.kubernetesNamespace.empty() &&
        !KubernetesNames::isDns1123Label(options.kubernetesNamespace))
        return Problems{{"--namespace", "\"" + options.kubernetesNamespace +
                                            "\" is not a valid Kubernetes namespace (at most 63 "
                                            "lowercase letters, digits and '-', starting and "
                                            "ending with a letter or digit)"}};
    auto resolved = resolvePlacement(scenario, placement);
    if (!resolved)
        return resolved.problems();
    const KubernetesNodeNames nodes(scenario.cluster);
    std::vector<std::string> ids;
    for (const PlacedJob &j : resolved.value())
        ids.push_back(j.job->id);
    const std::vector<std::string> names = KubernetesNames::jobNames(ids);

    ExportResult result;
    result.files = setupFiles(scenario, resolved.value(), options, result.warnings);
    SharedWarnings shared;
    for (std::size_t i = 0; i < resolved->size(); ++i) {
        const PlacedJob &job = resolved.value()[i];
        const JobContext context{scenario, job, names[i], options, nodes, shared};
        const auto objects = jobObjects(context);
        result.files.push_back(
            {names[i] + ".yaml", jobHeader(context, objects) + YamlText::documents(objects)});
    }
    for (std::string &w : shared.said())
        result.warnings.push_back(std::move(w));
    std::vector<const Job *> jobs;
    for (const PlacedJob &j : resolved.value())
        jobs.push_back(j.job);
    for (std::string &w : KubernetesObjects::imageWarnings(jobs, options))
        result.warnings.push_back(std::move(w));
    if (std::string w = shellOperatorWarning(jobs, name()); !w.empty())
        result.warnings.push_back(std::move(w));
    if (std::string w = torchrunWarning(resolved.value(), name()); !w.empty())
        result.warnings.push_back(std::move(w));
    if (std::string w = fractionalGpuWarning(resolved.value(), name(), "nvidia.com/gpu");
        !w.empty())
        result.warnings.push_back(std::move(w));
    if (std::string w = jobsWarning(placement.waiting, "is waiting (not placed); not exported",
                                    "are waiting (not placed); not exported");
        !w.empty())
        result.warnings.push_back(std::move(w));
    return result;
}

} // namespace cb
