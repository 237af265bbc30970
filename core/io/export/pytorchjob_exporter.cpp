#include "io/export/pytorchjob_exporter.h"

#include "io/export/kubeflow_replicas.h"
#include "io/export/kubernetes_objects.h"

namespace cb {

using Json = nlohmann::ordered_json;

std::string PyTorchJobExporter::description() const
{
    return "Kubeflow PyTorchJob (kubeflow.org/v1); Master + Workers pinned to node sets";
}

std::vector<Json> PyTorchJobExporter::jobObjects(const JobContext &ctx) const
{
    const Job &job = *ctx.job.job;
    const std::string image = KubernetesObjects::image(job, ctx.options);
    if (job.kind == JobKind::ParameterServer)
        KubeflowReplicas::sayPsRolesLost(
            ctx, name(), "PyTorchJob has only Master and Worker roles",
            "its first task is the Master and all others, parameter servers included, are Workers",
            "the first task of each is the Master and all others, parameter servers included, "
            "are Workers");

    KubeflowReplicas::Group master{"Master", {&ctx.job.tasks.front()}};
    KubeflowReplicas::Group workers{"Worker", {}};
    for (std::size_t i = 1; i < ctx.job.tasks.size(); ++i)
        workers.tasks.push_back(&ctx.job.tasks[i]);

    KubeflowReplicas::Container container;
    container.name = "pytorch";
    container.portName = "pytorchjob-port";
    container.port = KubernetesObjects::kTorchPort;
    Json specs = Json::object();
    specs["Master"] = KubeflowReplicas::replicaSpec(ctx, name(), master, container, image);
    if (!workers.tasks.empty())
        specs["Worker"] = KubeflowReplicas::replicaSpec(ctx, name(), workers, container, image);

    Json obj = Json::object();
    obj["apiVersion"] = "kubeflow.org/v1";
    obj["kind"] = "PyTorchJob";
    obj["metadata"] = KubernetesObjects::metadata(ctx.name, KubernetesObjects::labels(ctx.name),
                                                  job, ctx.options);
    Json spec = Json::object();
    spec["runPolicy"] = KubeflowReplicas::runPolicy(ctx.job.gangMinAvailable(), job);
    spec["pytorchReplicaSpecs"] = specs;
    obj["spec"] = spec;
    return {obj};
}

} // namespace cb
