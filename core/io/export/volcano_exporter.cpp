#include "io/export/volcano_exporter.h"

#include "io/export/kubernetes_objects.h"
#include "io/export/switch_tiers.h"

namespace cb {

using Json = nlohmann::ordered_json;

std::string VolcanoJobExporter::description() const
{
    return "Volcano Job (batch.volcano.sh/v1alpha1), one task per placed task, gang";
}

std::vector<Json> VolcanoJobExporter::jobObjects(const JobContext &ctx) const
{
    const Job &job = *ctx.job.job;
    const std::string image = KubernetesObjects::image(job, ctx.options);
    auto address = [&](const PlacedTask &t) {
        return ctx.name + "-" + t.taskName() + "-0." + ctx.name;
    };

    Json tasks = Json::array();
    for (const PlacedTask &t : ctx.job.tasks) {
        Json podSpec = Json::object();
        podSpec["affinity"] = KubernetesObjects::hostnameAffinity(
            {ctx.nodes.hostname(t.node)});
        podSpec["restartPolicy"] = "Never";
        // (a Volcano Job has no deadline of its own: each of its pods gets the job's)
        if (const auto deadline = KubernetesObjects::activeDeadlineSeconds(job))
            podSpec["activeDeadlineSeconds"] = *deadline;
        podSpec["containers"] = Json::array({KubernetesObjects::container(
            KubernetesObjects::containerName(job.kind), image, job,
            KubernetesObjects::trainingEnv(ctx.job, t, address),
            KubernetesObjects::portName(job.kind), KubernetesObjects::port(job.kind),
            KubernetesObjects::resources(t.cpus, t.memoryGiB, t.gpus))});
        Json templ = Json::object();
        templ["metadata"] =
            Json{{"labels", KubernetesObjects::labels(ctx.name, toString(t.role), t.indexInRole)}};
        templ["spec"] = podSpec;
        Json task = Json::object();
        task["name"] = t.taskName();
        task["replicas"] = 1;
        task["template"] = templ;
        tasks.push_back(task);
    }

    Json obj = Json::object();
    obj["apiVersion"] = "batch.volcano.sh/v1alpha1";
    obj["kind"] = "Job";
    obj["metadata"] = KubernetesObjects::metadata(ctx.name, KubernetesObjects::labels(ctx.name),
                                                  job, ctx.options);
    Json spec = Json::object();
    spec["minAvailable"] = ctx.job.gangMinAvailable();
    // The tier that holds the placement: Volcano keeps the gang inside one HyperNode of that
    // tier (the exact nodes come from the affinities above).
    const std::vector<std::string> nodes = ctx.job.nodes();
    if (nodes.size() > 1)
        if (const int tier = SwitchTiers(ctx.scenario.cluster).commonTier(nodes); tier > 0)
            spec["networkTopology"] = Json{{"mode", "hard"}, {"highestTierAllowed", tier}};
    spec["schedulerName"] = "volcano";
    spec["queue"] = "default";
    spec["plugins"] = Json{{"env", Json::array()}, {"svc", Json::array()}};
    spec["policies"] = Json::array({Json{{"event", "PodEvicted"}, {"action", "RestartJob"}}});
    spec["tasks"] = tasks;
    obj["spec"] = spec;
    return {obj};
}

} // namespace cb
