#include "io/export/mpijob_exporter.h"

#include "io/export/kubeflow_replicas.h"
#include "io/export/kubernetes_objects.h"
#include "util/command_line.h"

#include <algorithm>

namespace cb {

namespace {

/// What a command launches when it starts processes itself: "torchrun" (also python -m
/// torch.distributed.run or .launch), "deepspeed", "horovodrun", "accelerate", "mpirun" or
/// "mpiexec"; empty for a plain program.
std::string processStarterOf(const std::vector<std::string> &command)
{
    const std::string base = programName(command);
    if (base.empty())
        return {};
    for (const char *l : {"torchrun", "deepspeed", "horovodrun", "accelerate", "mpirun", "mpiexec"})
        if (base == l)
            return l;
    if (base.starts_with("python"))
        for (std::size_t i = 1; i + 1 < command.size(); ++i)
            if (command[i] == "-m" && (command[i + 1] == "torch.distributed.run" ||
                                       command[i + 1] == "torch.distributed.launch"))
                return "torchrun";
    return {};
}

} // namespace

using Json = nlohmann::ordered_json;

std::string MpiJobExporter::description() const
{
    return "MPIJob (kubeflow.org/v2beta1); launcher + workers pinned to their node set";
}

std::vector<Json> MpiJobExporter::jobObjects(const JobContext &ctx) const
{
    const Job &job = *ctx.job.job;
    const std::string image = KubernetesObjects::image(job, ctx.options);
    if (job.kind == JobKind::ParameterServer)
        KubeflowReplicas::sayPsRolesLost(
            ctx, name(), "MPIJob has only MPI workers",
            "all its tasks, parameter servers included, become Workers",
            "all their tasks, parameter servers included, become Workers");

    KubeflowReplicas::Group workers{"Worker", {}};
    int slots = 1;
    for (const PlacedTask &t : ctx.job.tasks) {
        workers.tasks.push_back(&t);
        slots = std::max(slots, t.gpus);
    }
    // mpirun starts one process per GPU slot, unless the job's command launches its own
    // process per GPU (torchrun and the like: one per worker then, or slots x slots would
    // run) or is an MPI launch already (used as it is).
    const std::string starter = processStarterOf(job.command);
    const bool ownMpirun = starter == "mpirun" || starter == "mpiexec";
    const bool spawnsPerGpu = !ownMpirun && !starter.empty();
    const int np = int(ctx.job.tasks.size()) * (spawnsPerGpu ? 1 : slots);
    if (spawnsPerGpu && slots > 1)
        ctx.shared.add(name() + ": {n} jobs run a launcher that starts a process per GPU "
                                "itself: mpirun starts one per worker, not one per GPU slot",
                       name() + ": job \"" + job.id + "\" runs " + starter +
                           ", which starts a process per GPU itself: mpirun starts one per "
                           "worker (-np " +
                           std::to_string(np) + "), not one per GPU slot",
                       "\"" + job.id + "\" (" + starter + ", -np " + std::to_string(np) + ")");

    Json launcherContainer = Json::object();
    launcherContainer["name"] = "mpi-launcher";
    launcherContainer["image"] = image;
    Json command = ownMpirun ? Json::array() : Json::array({"mpirun", "-np", std::to_string(np)});
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
    specs["Worker"] = KubeflowReplicas::replicaSpec(ctx, name(), workers, container, image);

    Json obj = Json::object();
    obj["apiVersion"] = "kubeflow.org/v2beta1";
    obj["kind"] = "MPIJob";
    obj["metadata"] = KubernetesObjects::metadata(ctx.name, KubernetesObjects::labels(ctx.name),
                                                  job, ctx.options);
    Json spec = Json::object();
    spec["slotsPerWorker"] = slots;
    spec["runPolicy"] = KubeflowReplicas::runPolicy(ctx.job.gangMinAvailable() + 1, job);
    spec["mpiReplicaSpecs"] = specs;
    obj["spec"] = spec;
    return {obj};
}

} // namespace cb
