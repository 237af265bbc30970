#include "io/export/kubeflow_replicas.h"

#include "io/export/kubernetes_objects.h"
#include "util/text.h"

#include <algorithm>

namespace cb {

KubeflowReplicas::Json KubeflowReplicas::replicaSpec(const KubernetesJobExporter::JobContext &ctx,
                                                     const std::string &format, const Group &group,
                                                     const Container &container,
                                                     const std::string &image)
{
    const Job &job = *ctx.job.job;
    std::vector<std::string> hostnames;
    std::vector<std::string> nodes;
    double cpus = 0, memory = 0;
    int gpus = 0;
    bool sameResources = true;
    for (const PlacedTask *t : group.tasks) {
        if (std::find(nodes.begin(), nodes.end(), t->node) == nodes.end())
            nodes.push_back(t->node);
        const std::string h = ctx.nodes.hostname(t->node);
        if (std::find(hostnames.begin(), hostnames.end(), h) == hostnames.end())
            hostnames.push_back(h);
        const PlacedTask *first = group.tasks.front();
        sameResources = sameResources && t->cpus == first->cpus &&
                        t->memoryGiB == first->memoryGiB && t->gpus == first->gpus;
        cpus = std::max(cpus, t->cpus);
        memory = std::max(memory, t->memoryGiB);
        gpus = std::max(gpus, t->gpus);
    }
    std::sort(hostnames.begin(), hostnames.end());
    std::sort(nodes.begin(), nodes.end());
    const std::string role = "\"" + job.id + "\" " + group.replicaType;
    if (nodes.size() > 1) {
        std::string list;
        for (const std::string &n : nodes)
            list += (list.empty() ? "" : ", ") + n;
        const std::string exact = "; use --format volcano or k8s-pods for exact placement";
        ctx.shared.add(
            format +
                ": replicas of {n} job roles run on several nodes but share one "
                "pod template per role ({list}), so each role is pinned to its node set, "
                "not each replica to its own node (how many land on each node is "
                "up to the scheduler)" +
                exact,
            format + ": job " + role + ": " + std::to_string(group.tasks.size()) + " replicas on " +
                std::to_string(nodes.size()) + " nodes (" + list +
                ") share one pod template, so they are pinned to that node set, not "
                "each to its own node (how many land on each node is up to the "
                "scheduler)" +
                exact,
            role + " (" + counted(int(group.tasks.size()), "replica") + " on " + list + ")");
    }
    if (!sameResources) {
        const std::string largest = "cpu " + KubernetesObjects::cpuQuantity(cpus) + ", memory " +
                                    KubernetesObjects::memoryQuantity(memory) + ", " +
                                    counted(gpus, "GPU");
        ctx.shared.add(format + ": the replicas of {n} job roles differ in resources; each "
                                "replica requests its role's largest",
                       format + ": job " + role +
                           ": replicas differ in resources; each requests the largest (" + largest +
                           ")",
                       role + " (" + largest + ")");
    }

    Job shown = job;
    if (!container.withCommand)
        shown.command.clear();
    std::string lowerType = group.replicaType;
    std::transform(lowerType.begin(), lowerType.end(), lowerType.begin(),
                   [](char c) { return char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });

    Json templ = Json::object();
    Json meta = Json::object();
    meta["labels"] = KubernetesObjects::labels(ctx.name, lowerType);
    templ["metadata"] = meta;
    Json spec = Json::object();
    spec["affinity"] = KubernetesObjects::hostnameAffinity(hostnames);
    spec["containers"] = Json::array({KubernetesObjects::container(
        container.name, image, shown, container.env, container.portName, container.port,
        KubernetesObjects::resources(cpus, memory, gpus))});
    templ["spec"] = spec;

    Json r = Json::object();
    r["replicas"] = int(group.tasks.size());
    r["restartPolicy"] = "OnFailure";
    r["template"] = templ;
    return r;
}

void KubeflowReplicas::sayPsRolesLost(const KubernetesJobExporter::JobContext &ctx,
                                      const std::string &format, const std::string &target,
                                      const std::string &one, const std::string &many)
{
    const std::string keep = "; use --format tfjob, volcano or k8s-pods to keep the roles";
    const std::string &id = ctx.job.job->id;
    ctx.shared.add(format + ": {n} jobs are parameter-server jobs ({list}), but " + target + ": " +
                       many + keep,
                   format + ": job \"" + id + "\" is a parameter-server job, but " + target + ": " +
                       one + keep,
                   "\"" + id + "\"");
}

KubeflowReplicas::Json KubeflowReplicas::runPolicy(int gang, const Job &job)
{
    Json scheduling = Json::object();
    scheduling["minAvailable"] = gang;
    Json run = Json::object();
    run["cleanPodPolicy"] = "Running";
    if (const auto deadline = KubernetesObjects::activeDeadlineSeconds(job))
        run["activeDeadlineSeconds"] = *deadline;
    run["schedulingPolicy"] = scheduling;
    return run;
}

} // namespace cb
