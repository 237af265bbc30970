#include "io/export/tfjob_exporter.h"

#include "io/export/kubeflow_replicas.h"
#include "io/export/kubernetes_objects.h"

#include <algorithm>

namespace cb {

using Json = nlohmann::ordered_json;

std::string TfJobExporter::description() const
{
    return "Kubeflow TFJob (kubeflow.org/v1); roles pinned to node sets";
}

std::vector<Json> TfJobExporter::jobObjects(const JobContext &ctx) const
{
    const Job &job = *ctx.job.job;
    const std::string image = KubernetesObjects::image(job, ctx.options);

    std::vector<KubeflowReplicas::Group> groups;
    auto add = [&](const std::string &type, TaskRole role) {
        KubeflowReplicas::Group g{type, {}};
        for (const PlacedTask &t : ctx.job.tasks)
            if (t.role == role)
                g.tasks.push_back(&t);
        if (!g.tasks.empty())
            groups.push_back(std::move(g));
    };
    add("Chief", TaskRole::Chief);
    add("PS", TaskRole::Ps);
    add("Worker", TaskRole::Worker);
    add("Evaluator", TaskRole::Evaluator);
    // Single tasks carry no TensorFlow role; they run as the (only) worker.
    if (auto it = std::find_if(groups.begin(), groups.end(),
                               [](const auto &g) { return g.replicaType == "Worker"; });
        it == groups.end())
        add("Worker", TaskRole::Single);

    KubeflowReplicas::Container container;
    container.name = "tensorflow";
    container.portName = "tfjob-port";
    container.port = KubernetesObjects::kTfPort;
    Json specs = Json::object();
    for (const KubeflowReplicas::Group &g : groups)
        specs[g.replicaType] = KubeflowReplicas::replicaSpec(ctx, name(), g, container, image);

    Json obj = Json::object();
    obj["apiVersion"] = "kubeflow.org/v1";
    obj["kind"] = "TFJob";
    obj["metadata"] = KubernetesObjects::metadata(ctx.name, KubernetesObjects::labels(ctx.name),
                                                  job, ctx.options);
    Json spec = Json::object();
    spec["runPolicy"] = KubeflowReplicas::runPolicy(ctx.job.gangMinAvailable(), job);
    spec["tfReplicaSpecs"] = specs;
    obj["spec"] = spec;
    return {obj};
}

} // namespace cb
