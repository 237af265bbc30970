#include "io/export/mpijob_exporter.h"

#include "io/export/kubeflow_replicas.h"
#include "io/export/kubernetes_objects.h"

#include <algorithm>

namespace cb {

using Json = nlohmann::ordered_json;

std::string MpiJobExporter::description() const
{
    return "MPIJob (kubeflow.org/v2beta1); launcher + workers pinned to their node set";
}

std::vector<Json> MpiJobExporter::jobObjects(const JobContext &ctx,
                                             std::vector<std::string> &warnings) const
{
    const Job &job = *ctx.job.job;
    const std::string image = KubernetesObjects::image(job, ctx.options, warnings);
    if (job.kind == JobKind::ParameterServer)
        warnings.push_back(name() + ": job \"" + job.id +
                           "\" is a parameter-server job, but MPIJob has only MPI workers: all "
                           "its tasks, parameter servers included, become Workers; use "
                           "--format tfjob, volcano or k8s-pods to keep the roles");

    KubeflowReplicas::Group workers{"Worker", {}};
    int slots = 1;
    for (const PlacedTask &t : ctx.job.tasks) {
        workers.tasks.push_back(&t);
        slots = std::max(slots, t.gpus);
    }
    const int np = int(ctx.job.tasks.size()) * slots;

    Json launcherContainer = Json::object();
    launcherContainer["name"] = "mpi-launcher";
    launcherContainer["image"] = image;
    Json command = Json::array({"mpirun", "-np", std::to_string(np)});
    for (const std::string &arg : job.command)
        command.push_back(arg);
    if (!job.command.empty())
        launcherContainer["command"] = command;
    launcherContainer["resources"] = KubernetesObjects::resources(1, 1, 0);
    Json launcherTemplate = Json::object();
    launcherTemplate["metadata"] =
        Json{{"labels", KubernetesObjects::labels(ctx.name, "launcher")}};
    launcherTemplate["spec"] = Json{{"containers", Json::array({launcherContainer})}};
    Json launcher = Json::object();
    launcher["replicas"] = 1;
    launcher["restartPolicy"] = "OnFailure";
    launcher["template"] = launcherTemplate;

    KubeflowReplicas::Container container;
    container.name = "mpi-worker";
    container.withCommand = false;
    Json specs = Json::object();
    specs["Launcher"] = launcher;
    specs["Worker"] =
        KubeflowReplicas::replicaSpec(ctx, name(), workers, container, image, warnings);

    Json obj = Json::object();
    obj["apiVersion"] = "kubeflow.org/v2beta1";
    obj["kind"] = "MPIJob";
    obj["metadata"] = KubernetesObjects::metadata(ctx.name, KubernetesObjects::labels(ctx.name),
                                                  job, ctx.options);
    Json spec = Json::object();
    spec["slotsPerWorker"] = slots;
    spec["runPolicy"] = KubeflowReplicas::runPolicy(ctx.job.gangMinAvailable() + 1);
    spec["mpiReplicaSpecs"] = specs;
    obj["spec"] = spec;
    return {obj};
}

} // namespace cb
