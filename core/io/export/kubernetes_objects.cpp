#include "io/export/kubernetes_objects.h"
#include "io/export/placed_job.h"
#include "io/scenario_json.h"

#include <algorithm>
#include <cmath>

namespace cb {

std::string tfConfigRole(TaskRole role)
{
    return role == TaskRole::Single ? "worker" : toString(role);
}

std::optional<std::int64_t> KubernetesObjects::activeDeadlineSeconds(const Job &job)
{
    if (!job.timeLimitSeconds || !std::isfinite(*job.timeLimitSeconds))
        return std::nullopt;
    // (at least 1: Kubernetes wants a positive integer)
    return std::max<std::int64_t>(1, std::int64_t(std::ceil(*job.timeLimitSeconds)));
}

std::string KubernetesObjects::cpuQuantity(double cpus)
{
    const double milli = std::ceil(cpus * 1000.0 - 1e-6);
    const long long m = (long long)milli;
    if (m % 1000 == 0)
        return std::to_string(m / 1000);
    return std::to_string(m) + "m";
}

std::string KubernetesObjects::memoryQuantity(double gib)
{
    const long long mib = (long long)std::ceil(gib * 1024.0 - 1e-6);
    if (mib % 1024 == 0)
        return std::to_string(mib / 1024) + "Gi";
    return std::to_string(mib) + "Mi";
}

KubernetesObjects::Json KubernetesObjects::resources(double cpus, double memoryGiB, int gpus)
{
    Json requests = Json::object();
    requests["cpu"] = cpuQuantity(cpus);
    requests["memory"] = memoryQuantity(memoryGiB);
    Json limits = Json::object();
    limits["memory"] = memoryQuantity(memoryGiB);
    if (gpus > 0) {
        requests["nvidia.com/gpu"] = std::to_string(gpus);
        limits["nvidia.com/gpu"] = std::to_string(gpus);
    }
    Json r = Json::object();
    r["limits"] = limits;
    r["requests"] = requests;
    return r;
}

KubernetesObjects::Json
KubernetesObjects::hostnameAffinity(const std::vector<std::string> &hostnames)
{
    Json expr = Json::object();
    expr["key"] = "kubernetes.io/hostname";
    expr["operator"] = "In";
    expr["values"] = hostnames;
    Json term = Json::object();
    term["matchExpressions"] = Json::array({expr});
    Json required = Json::object();
    required["nodeSelectorTerms"] = Json::array({term});
    Json nodeAffinity = Json::object();
    nodeAffinity["requiredDuringSchedulingIgnoredDuringExecution"] = required;
    Json affinity = Json::object();
    affinity["nodeAffinity"] = nodeAffinity;
    return affinity;
}

KubernetesObjects::Json KubernetesObjects::labels(const std::string &jobName,
                                                  const std::string &replicaType, int index)
{
    Json l = Json::object();
    l["app.kubernetes.io/managed-by"] = "clusterbench";
    l["clusterbench.io/job"] = jobName;
    l["training.kubeflow.org/job-name"] = jobName;
    if (!replicaType.empty())
        l["training.kubeflow.org/replica-type"] = replicaType;
    if (!replicaType.empty() && index >= 0)
        l["training.kubeflow.org/replica-index"] = std::to_string(index);
    return l;
}

KubernetesObjects::Json KubernetesObjects::metadata(const std::string &name, const Json &labels,
                                                    const Job &job, const ExportOptions &options)
{
    Json m = Json::object();
    m["name"] = name;
    if (!options.kubernetesNamespace.empty())
        m["namespace"] = options.kubernetesNamespace;
    m["labels"] = labels;
    Json annotations = Json::object();
    annotations["clusterbench.io/job-id"] = job.id;
    m["annotations"] = annotations;
    return m;
}

std::string KubernetesObjects::image(const Job &job, const ExportOptions &options)
{
    if (!job.image.empty())
        return job.image;
    if (!options.defaultImage.empty())
        return options.defaultImage;
    return job.kind == JobKind::ParameterServer ? "tensorflow/tensorflow:2.15.0-gpu"
                                                : "pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime";
}

std::vector<std::string> KubernetesObjects::imageWarnings(const std::vector<const Job *> &jobs,
                                                          const ExportOptions &options)
{
    // Job ids by image, each image in the order its first job comes.
    using ByImage = std::vector<std::pair<std::string, std::vector<std::string>>>;
    auto add = [](ByImage &groups, const std::string &image, const std::string &id) {
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const auto &g) { return g.first == image; });
        if (it == groups.end())
            groups.push_back({image, {id}});
        else
            it->second.push_back(id);
    };
    ByImage defaulted, noCommand;
    for (const Job *job : jobs) {
        const std::string chosen = image(*job, options);
        if (job->image.empty())
            add(defaulted, chosen, job->id);
        if (job->command.empty())
            add(noCommand, chosen, job->id);
    }
    std::vector<std::string> warnings;
    for (const auto &[chosen, ids] : defaulted)
        warnings.push_back(jobsWarning(ids, "has no container image; using \"" + chosen + "\"",
                                       "have no container image; each uses \"" + chosen + "\""));
    for (const auto &[chosen, ids] : noCommand)
        warnings.push_back(
            jobsWarning(ids, "has no command; its containers run the image's own (" + chosen + ")",
                        "have no command; their containers run the image's own (" + chosen + ")"));
    return warnings;
}

KubernetesObjects::Json
KubernetesObjects::container(const std::string &name, const std::string &image, const Job &job,
                             const std::vector<std::pair<std::string, std::string>> &env,
                             const std::string &portName, int port, const Json &resources)
{
    Json c = Json::object();
    c["name"] = name;
    c["image"] = image;
    if (!job.command.empty())
        c["command"] = job.command;
    if (!env.empty()) {
        Json e = Json::array();
        for (const auto &[k, v] : env)
            e.push_back(Json{{"name", k}, {"value", v}});
        c["env"] = e;
    }
    if (port > 0) {
        Json p = Json::object();
        p["name"] = portName;
        p["containerPort"] = port;
        c["ports"] = Json::array({p});
    }
    c["resources"] = resources;
    return c;
}

std::string
KubernetesObjects::tfConfig(const std::map<std::string, std::vector<std::string>> &cluster,
                            const std::string &taskType, int index)
{
    Json doc = Json::object();
    Json c = Json::object();
    for (const auto &[role, hosts] : cluster)
        c[role] = hosts;
    doc["cluster"] = c;
    Json task = Json::object();
    task["type"] = taskType;
    task["index"] = index;
    doc["task"] = task;
    return doc.dump();
}

std::vector<std::pair<std::string, std::string>>
KubernetesObjects::trainingEnv(const PlacedJob &job, const PlacedTask &task,
                               const std::function<std::string(const PlacedTask &)> &address,
                               const std::function<int(const PlacedTask &)> &tfPort)
{
    std::vector<std::pair<std::string, std::string>> env;
    if (job.job->kind == JobKind::ParameterServer) {
        std::map<std::string, std::vector<std::string>> cluster;
        for (const PlacedTask &t : job.tasks)
            if (t.role != TaskRole::Evaluator)
                cluster[tfConfigRole(t.role)].push_back(address(t) + ":" +
                                                  std::to_string(tfPort ? tfPort(t) : kTfPort));
        env.emplace_back("TF_CONFIG", tfConfig(cluster, tfConfigRole(task.role), task.indexInRole));
    } else if (job.job->kind == JobKind::AllReduce) {
        env.emplace_back("MASTER_ADDR", address(job.tasks.front()));
        env.emplace_back("MASTER_PORT", std::to_string(kTorchPort));
        env.emplace_back("WORLD_SIZE", std::to_string(job.tasks.size()));
        env.emplace_back("RANK", std::to_string(task.rank));
        for (auto &kv : torchrunEnv(job, address(job.tasks.front())))
            env.push_back(std::move(kv));
        env.emplace_back("PET_NODE_RANK", std::to_string(task.rank));
    }
    return env;
}

std::vector<std::pair<std::string, std::string>>
KubernetesObjects::torchrunEnv(const PlacedJob &job, const std::string &masterAddress)
{
    // torchrun reads each of its flags from PET_<FLAG> when the flag is not given (as the
    // PyTorchJob operator sets them): one node per task, a process per GPU of the task.
    const int gpus = job.tasks.empty() ? 0 : job.tasks.front().gpus;
    return {{"PET_NNODES", std::to_string(job.tasks.size())},
            {"PET_NPROC_PER_NODE", std::to_string(std::max(gpus, 1))},
            {"PET_MASTER_ADDR", masterAddress},
            {"PET_MASTER_PORT", std::to_string(kTorchPort)}};
}

std::string KubernetesObjects::containerName(JobKind kind)
{
    return kind == JobKind::ParameterServer ? "tensorflow"
           : kind == JobKind::AllReduce     ? "pytorch"
                                            : "main";
}

std::string KubernetesObjects::portName(JobKind kind)
{
    return kind == JobKind::ParameterServer ? "tfjob-port"
           : kind == JobKind::AllReduce     ? "pytorchjob-port"
                                            : std::string();
}

int KubernetesObjects::port(JobKind kind)
{
    return kind == JobKind::ParameterServer ? kTfPort : kind == JobKind::AllReduce ? kTorchPort : 0;
}

} // namespace cb
