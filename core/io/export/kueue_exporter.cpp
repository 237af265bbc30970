#include "io/export/kueue_exporter.h"

#include "io/export/jobset_exporter.h"
#include "io/export/kubernetes_names.h"
#include "io/export/kubernetes_objects.h"
#include "io/export/shell_text.h"
#include "io/export/switch_tiers.h"
#include "io/export/yaml_text.h"

#include <algorithm>
#include <map>
#include <set>

namespace cb {

using Json = nlohmann::ordered_json;

namespace {

const char *const kQueue = "clusterbench";
const char *const kTopology = "clusterbench";
const char *const kHostname = "kubernetes.io/hostname";
const char *const kGpuTypeLabel = "clusterbench.io/gpu-type";

/// The value of clusterbench.io/gpu-type on a node (as k8s-nodes writes it).
std::string gpuTypeLabel(const Node &n)
{
    return n.gpus > 0 ? KubernetesNames::labelValue(n.gpuType) : std::string("none");
}

/// What one role (pod set) asks Kueue for.
struct PodSetTopology
{
    bool required = true;
    std::string level;  ///< node label; empty: no annotation
    std::string domain; ///< the placement's domain at that level (switch id or node), if one
    std::size_t nodes = 0;
};

PodSetTopology podSetTopology(const SwitchTiers &tiers, const std::vector<std::string> &nodes)
{
    PodSetTopology p;
    p.nodes = nodes.size();
    if (nodes.size() == 1) {
        p.level = kHostname;
        p.domain = nodes.front();
        return p;
    }
    if (const int t = tiers.commonTier(nodes); t > 0) {
        p.level = SwitchTiers::labelKey(t);
        p.domain = tiers.chain(nodes.front())[t - 1]->switchId;
        return p;
    }
    if (tiers.depth() > 0) {
        p.required = false;
        p.level = SwitchTiers::labelKey(tiers.depth());
    }
    return p;
}

std::vector<std::string> roleNodes(const PlacedJob &job, TaskRole role)
{
    std::vector<std::string> nodes;
    for (const PlacedTask *t : job.tasksOfRole(role))
        if (std::find(nodes.begin(), nodes.end(), t->node) == nodes.end())
            nodes.push_back(t->node);
    return nodes;
}

} // namespace

std::string KueueExporter::description() const
{
    return "Kueue (v1beta2) Topology, ResourceFlavors, queues, and a JobSet per job with "
           "podset topology annotations";
}

std::vector<Json> KueueExporter::jobObjects(const JobContext &ctx) const
{
    const SwitchTiers tiers(ctx.scenario.cluster);
    std::map<TaskRole, Json> annotations, selectors;
    for (TaskRole role : ctx.job.roles()) {
        const std::vector<std::string> nodes = roleNodes(ctx.job, role);
        const PodSetTopology p = podSetTopology(tiers, nodes);
        Json a = Json::object();
        if (!p.level.empty())
            a[p.required ? "kueue.x-k8s.io/podset-required-topology"
                         : "kueue.x-k8s.io/podset-preferred-topology"] = p.level;
        annotations[role] = a;
        std::set<std::string> types;
        for (const std::string &n : nodes)
            types.insert(gpuTypeLabel(*ctx.scenario.cluster.node(n)));
        Json sel = Json::object();
        if (types.size() == 1)
            sel[kGpuTypeLabel] = *types.begin();
        else
            ctx.shared.add(name() + ": {n} job roles run on nodes of different GPU types, so "
                                    "their pods select no flavor; Kueue may assign a flavor whose "
                                    "nodes are not the placed ones",
                           name() + ": job \"" + ctx.job.job->id + "\" " + toString(role) +
                               ": its nodes have different GPU types, so its pods select no "
                               "flavor; Kueue may assign a flavor whose nodes are not the "
                               "placed ones",
                           "\"" + ctx.job.job->id + "\" " + toString(role));
        selectors[role] = sel;
    }
    Json obj = JobSetExporter::jobSet(ctx, name(), annotations, selectors);
    obj["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] = kQueue;
    obj["spec"]["suspend"] = true;
    return {obj};
}

std::string KueueExporter::jobHeader(const JobContext &ctx, const std::vector<Json> &) const
{
    const SwitchTiers tiers(ctx.scenario.cluster);
    std::string s = "# Kueue topology-aware scheduling for job \"" +
                    YamlText::comment(ctx.job.job->id) + "\" (apply 00-kueue-setup.yaml first).\n";
    bool anyPreferred = false;
    for (TaskRole role : ctx.job.roles()) {
        const std::vector<std::string> nodes = roleNodes(ctx.job, role);
        const PodSetTopology p = podSetTopology(tiers, nodes);
        s += "#   " + std::string(toString(role)) + " (" + std::to_string(nodes.size()) + " node" +
             (nodes.size() == 1 ? "" : "s") + "): ";
        if (p.level.empty())
            s += "no topology level (the cluster has no switch tiers)\n";
        else if (p.required)
            s += "required: one " + p.level + " domain (the placement's is " +
                 YamlText::comment(p.domain) + ")\n";
        else {
            s += "preferred only: one " + p.level +
                 " domain (no single switch holds the placement's nodes)\n";
            anyPreferred = true;
        }
    }
    s += "# Guaranteed: Kueue admits the job whole or not at all, each role's pods inside one\n"
         "#   domain of its level; the required kubernetes.io/hostname affinity keeps them on\n"
         "#   the placement's nodes.\n"
         "# Not guaranteed: which domain Kueue picks (it picks the domain, not the node), that\n"
         "#   the roles share one domain, how many pods of a role land on each of its nodes";
    s += anyPreferred ? ", and the preferred levels above.\n" : ".\n";
    return s;
}

std::vector<ExportedFile> KueueExporter::setupFiles(const Scenario &scenario,
                                                    const std::vector<PlacedJob> &,
                                                    const ExportOptions &options,
                                                    std::vector<std::string> &warnings) const
{
    const Cluster &c = scenario.cluster;
    const SwitchTiers tiers(c);
    std::vector<Json> docs;

    Json levels = Json::array();
    for (int t = tiers.depth(); t >= 1; --t)
        levels.push_back(Json{{"nodeLabel", SwitchTiers::labelKey(t)}});
    levels.push_back(Json{{"nodeLabel", kHostname}});
    Json labels = Json{{"app.kubernetes.io/managed-by", "clusterbench"}};
    Json topology = Json::object();
    topology["apiVersion"] = "kueue.x-k8s.io/v1beta2";
    topology["kind"] = "Topology";
    topology["metadata"] = Json{{"name", kTopology}, {"labels", labels}};
    topology["spec"] = Json{{"levels", levels}};
    docs.push_back(topology);

    // One flavor per GPU type label, in first-seen order, with the nodes' total resources.
    struct Flavor
    {
        std::string label;
        double cpus = 0, memoryGiB = 0;
        long long gpus = 0;
    };
    std::vector<Flavor> flavors;
    for (const Node &n : c.nodes) {
        const std::string l = gpuTypeLabel(n);
        auto it = std::find_if(flavors.begin(), flavors.end(),
                               [&](const Flavor &f) { return f.label == l; });
        if (it == flavors.end()) {
            flavors.push_back({l});
            it = flavors.end() - 1;
        }
        it->cpus += n.cpus;
        it->memoryGiB += n.memoryGiB;
        it->gpus += n.gpus;
    }
    std::vector<std::string> wanted;
    for (const Flavor &f : flavors)
        wanted.push_back(f.label == "none" ? "cpu-nodes" : "gpu-" + KubernetesNames::sanitize(f.label));
    const std::vector<std::string> flavorNames = KubernetesNames::jobNames(wanted);
    Json cqFlavors = Json::array();
    for (std::size_t i = 0; i < flavors.size(); ++i) {
        Json rf = Json::object();
        rf["apiVersion"] = "kueue.x-k8s.io/v1beta2";
        rf["kind"] = "ResourceFlavor";
        rf["metadata"] = Json{{"name", flavorNames[i]}, {"labels", labels}};
        rf["spec"] = Json{{"nodeLabels", {{kGpuTypeLabel, flavors[i].label}}},
                          {"topologyName", kTopology}};
        docs.push_back(rf);
        Json res = Json::array();
        res.push_back(Json{{"name", "cpu"},
                           {"nominalQuota", KubernetesObjects::cpuQuantity(flavors[i].cpus)}});
        res.push_back(
            Json{{"name", "memory"},
                 {"nominalQuota", KubernetesObjects::memoryQuantity(flavors[i].memoryGiB)}});
        res.push_back(
            Json{{"name", "nvidia.com/gpu"}, {"nominalQuota", std::to_string(flavors[i].gpus)}});
        cqFlavors.push_back(Json{{"name", flavorNames[i]}, {"resources", res}});
    }
    Json group = Json::object();
    group["coveredResources"] = Json::array({"cpu", "memory", "nvidia.com/gpu"});
    group["flavors"] = cqFlavors;
    Json cq = Json::object();
    cq["apiVersion"] = "kueue.x-k8s.io/v1beta2";
    cq["kind"] = "ClusterQueue";
    cq["metadata"] = Json{{"name", kQueue}, {"labels", labels}};
    cq["spec"] = Json{{"namespaceSelector", Json::object()},
                      {"resourceGroups", Json::array({group})}};
    docs.push_back(cq);
    Json lq = Json::object();
    lq["apiVersion"] = "kueue.x-k8s.io/v1beta2";
    lq["kind"] = "LocalQueue";
    Json lqMeta = Json::object();
    lqMeta["name"] = kQueue;
    lqMeta["namespace"] =
        options.kubernetesNamespace.empty() ? std::string("default") : options.kubernetesNamespace;
    lqMeta["labels"] = labels;
    lq["metadata"] = lqMeta;
    lq["spec"] = Json{{"clusterQueue", kQueue}};
    docs.push_back(lq);

    std::string header = "# Kueue setup generated by ClusterBench (format kueue) from scenario \"" +
                         YamlText::comment(scenario.name) + "\".\n"
                         "# The Topology's levels are node labels: label the nodes as the "
                         "k8s-nodes export does\n# (clusterbench.io/switch-tier-N, "
                         "clusterbench.io/gpu-type) before applying.\n";
    warnings.push_back(
        "kueue: Kueue picks the topology domain, not the node: each role is kept inside one "
        "domain of the level its placement needs (required), or only preferably when no "
        "switch holds its nodes; the pods' hostname affinity keeps them on the placed node "
        "set; each job file's header says which");
    return {{"00-kueue-setup.yaml", header + YamlText::documents(docs)}};
}

} // namespace cb
