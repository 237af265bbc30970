#include "io/export/jobset_exporter.h"

#include "io/export/kubeflow_replicas.h"
#include "io/export/kubernetes_objects.h"

#include <map>

namespace cb {

using Json = nlohmann::ordered_json;

std::string JobSetExporter::description() const
{
    return "JobSet (jobset.x-k8s.io/v1alpha2), one replicated Indexed Job per role";
}

Json JobSetExporter::jobSet(const JobContext &ctx, const std::string &format,
                            const std::map<TaskRole, Json> &podAnnotations,
                            const std::map<TaskRole, Json> &nodeSelectors)
{
    const Job &job = *ctx.job.job;
    const std::string image = KubernetesObjects::image(job, ctx.options);
    // Stable pod hostnames: <jobset>-<replicated job>-<job index>-<pod index>.<subdomain>.
    auto address = [&](const PlacedTask &t) {
        return ctx.name + "-" + toString(t.role) + "-0-" + std::to_string(t.indexInRole) + "." +
               ctx.name;
    };
    std::map<std::string, std::vector<std::string>> tfCluster;
    for (const PlacedTask &t : ctx.job.tasks)
        if (t.role != TaskRole::Evaluator)
            tfCluster[tfConfigRole(t.role)].push_back(address(t) + ":" +
                                                std::to_string(KubernetesObjects::kTfPort));
    std::string tfClusterJson;
    {
        Json c = Json::object();
        for (const auto &[role, hosts] : tfCluster)
            c[role] = hosts;
        tfClusterJson = c.dump();
    }

    Json replicated = Json::array();
    for (TaskRole role : ctx.job.roles()) {
        const std::vector<const PlacedTask *> tasks = ctx.job.tasksOfRole(role);
        KubeflowReplicas::Container container;
        container.name = KubernetesObjects::containerName(job.kind);
        container.portName = KubernetesObjects::portName(job.kind);
        container.port = KubernetesObjects::port(job.kind);
        if (job.kind == JobKind::AllReduce) {
            container.env = {{"MASTER_ADDR", address(ctx.job.tasks.front())},
                             {"MASTER_PORT", std::to_string(KubernetesObjects::kTorchPort)},
                             {"WORLD_SIZE", std::to_string(ctx.job.tasks.size())},
                             {"CLUSTERBENCH_RANK_OFFSET", std::to_string(tasks.front()->rank)}};
            // torchrun: the pod's node rank is not known in the template, so its agents
            // meet at the first task's pod by c10d rendezvous, which numbers them itself.
            const std::string master = address(ctx.job.tasks.front());
            for (auto &kv : KubernetesObjects::torchrunEnv(ctx.job, master))
                if (kv.first != "PET_MASTER_ADDR" && kv.first != "PET_MASTER_PORT")
                    container.env.push_back(std::move(kv));
            container.env.emplace_back("PET_RDZV_BACKEND", "c10d");
            container.env.emplace_back(
                "PET_RDZV_ENDPOINT", master + ":" + std::to_string(KubernetesObjects::kTorchPort));
        } else if (job.kind == JobKind::ParameterServer) {
            container.env = {{"CLUSTERBENCH_TF_CLUSTER", tfClusterJson},
                             {"CLUSTERBENCH_TASK_TYPE", tfConfigRole(role)}};
        }
        Json spec =
            KubeflowReplicas::replicaSpec(ctx, format, {toString(role), tasks}, container, image);
        Json pod = spec["template"];
        pod["spec"]["restartPolicy"] = "Never";
        if (auto it = nodeSelectors.find(role); it != nodeSelectors.end() && !it->second.empty())
            pod["spec"]["nodeSelector"] = it->second;
        if (auto it = podAnnotations.find(role); it != podAnnotations.end() && !it->second.empty())
            pod["metadata"]["annotations"] = it->second;
        Json jobSpec = Json::object();
        jobSpec["parallelism"] = int(tasks.size());
        jobSpec["completions"] = int(tasks.size());
        jobSpec["completionMode"] = "Indexed";
        if (const auto deadline = KubernetesObjects::activeDeadlineSeconds(job))
            jobSpec["activeDeadlineSeconds"] = *deadline;
        jobSpec["backoffLimit"] = 0;
        jobSpec["template"] = pod;
        Json rj = Json::object();
        rj["name"] = toString(role);
        rj["replicas"] = 1;
        rj["template"] = Json{{"spec", jobSpec}};
        replicated.push_back(rj);
    }

    Json obj = Json::object();
    obj["apiVersion"] = "jobset.x-k8s.io/v1alpha2";
    obj["kind"] = "JobSet";
    obj["metadata"] = KubernetesObjects::metadata(ctx.name, KubernetesObjects::labels(ctx.name),
                                                  job, ctx.options);
    Json spec = Json::object();
    spec["network"] = Json{{"enableDNSHostnames", true}};
    spec["failurePolicy"] = Json{{"maxRestarts", 0}};
    spec["replicatedJobs"] = replicated;
    obj["spec"] = spec;
    return obj;
}

std::vector<Json> JobSetExporter::jobObjects(const JobContext &ctx) const
{
    return {jobSet(ctx, name(), {}, {})};
}

} // namespace cb
