#include "io/export/pods_exporter.h"

#include "io/export/kubernetes_objects.h"

namespace cb {

using Json = nlohmann::ordered_json;

std::string PodsExporter::description() const
{
    return "Kubernetes Pods + headless Service per job, each pod pinned to its node";
}

std::vector<Json> PodsExporter::jobObjects(const JobContext &ctx) const
{
    const Job &job = *ctx.job.job;
    const std::string image = KubernetesObjects::image(job, ctx.options);
    auto podName = [&](const PlacedTask &t) { return ctx.name + "-" + t.taskName(); };
    auto address = [&](const PlacedTask &t) { return podName(t) + "." + ctx.name; };

    std::vector<Json> objects;
    Json service = Json::object();
    service["apiVersion"] = "v1";
    service["kind"] = "Service";
    service["metadata"] = KubernetesObjects::metadata(ctx.name, KubernetesObjects::labels(ctx.name),
                                                      job, ctx.options);
    Json spec = Json::object();
    spec["clusterIP"] = "None";
    spec["publishNotReadyAddresses"] = true;
    spec["selector"] = Json{{"clusterbench.io/job", ctx.name}};
    if (const int port = KubernetesObjects::port(job.kind); port > 0) {
        Json p = Json::object();
        p["name"] = KubernetesObjects::portName(job.kind);
        p["port"] = port;
        p["targetPort"] = port;
        spec["ports"] = Json::array({p});
    }
    service["spec"] = spec;
    objects.push_back(service);

    for (const PlacedTask &t : ctx.job.tasks) {
        Json pod = Json::object();
        pod["apiVersion"] = "v1";
        pod["kind"] = "Pod";
        pod["metadata"] = KubernetesObjects::metadata(
            podName(t), KubernetesObjects::labels(ctx.name, toString(t.role), t.indexInRole), job,
            ctx.options);
        Json podSpec = Json::object();
        podSpec["hostname"] = podName(t);
        podSpec["subdomain"] = ctx.name;
        if (ctx.options.pinning == ExportOptions::Pinning::NodeName)
            podSpec["nodeName"] = ctx.nodes.name(t.node);
        else
            podSpec["affinity"] = KubernetesObjects::hostnameAffinity({ctx.nodes.hostname(t.node)});
        podSpec["restartPolicy"] = "Never";
        if (const auto deadline = KubernetesObjects::activeDeadlineSeconds(job))
            podSpec["activeDeadlineSeconds"] = *deadline;
        podSpec["containers"] = Json::array({KubernetesObjects::container(
            KubernetesObjects::containerName(job.kind), image, job,
            KubernetesObjects::trainingEnv(ctx.job, t, address),
            KubernetesObjects::portName(job.kind), KubernetesObjects::port(job.kind),
            KubernetesObjects::resources(t.cpus, t.memoryGiB, t.gpus))});
        pod["spec"] = podSpec;
        objects.push_back(pod);
    }
    return objects;
}

} // namespace cb
