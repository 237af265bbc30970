#include "io/export/kubernetes_job_exporter.h"

#include "io/export/kubernetes_names.h"
#include "io/export/yaml_text.h"

namespace cb {

Result<ExportResult> KubernetesJobExporter::exportPlacement(const Scenario &scenario,
                                                            const Placement &placement,
                                                            const ExportOptions &options) const
{
    auto resolved = resolvePlacement(scenario, placement);
    if (!resolved)
        return resolved.problems();
    std::vector<std::string> ids;
    for (const PlacedJob &j : resolved.value())
        ids.push_back(j.job->id);
    const std::vector<std::string> names = KubernetesNames::jobNames(ids);

    ExportResult result;
    for (std::size_t i = 0; i < resolved->size(); ++i) {
        const PlacedJob &job = resolved.value()[i];
        const JobContext context{scenario, job, names[i], options};
        const auto objects = jobObjects(context, result.warnings);
        result.files.push_back({names[i] + ".yaml", YamlText::documents(objects)});
    }
    if (std::string w = fractionalGpuWarning(resolved.value(), name(), "nvidia.com/gpu");
        !w.empty())
        result.warnings.push_back(std::move(w));
    for (const std::string &id : placement.waiting)
        result.warnings.push_back("job \"" + id + "\" is waiting (not placed); not exported");
    return result;
}

} // namespace cb
