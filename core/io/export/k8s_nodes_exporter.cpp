#include "io/export/k8s_nodes_exporter.h"

#include "io/export/kubernetes_names.h"
#include "io/export/kubernetes_node_names.h"
#include "io/export/switch_tiers.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>

namespace cb {

namespace {

bool isWhole(double v)
{
    return std::fabs(v - std::round(v)) < 1e-9;
}

} // namespace

std::string K8sNodesExporter::description() const
{
    return "the cluster as a Kubernetes Node list (kubectl get nodes -o json)";
}

std::string K8sNodesExporter::cpuQuantity(double cpus)
{
    if (isWhole(cpus))
        return std::to_string((long long)std::llround(cpus));
    return std::to_string((long long)std::ceil(cpus * 1000.0 - 1e-6)) + "m";
}

std::string K8sNodesExporter::memoryQuantity(double gib)
{
    const double mib = gib * 1024.0;
    if (isWhole(mib)) {
        const long long m = std::llround(mib);
        return m % 1024 == 0 ? std::to_string(m / 1024) + "Gi" : std::to_string(m) + "Mi";
    }
    return std::to_string((long long)std::llround(gib * 1073741824.0));
}

Result<ExportResult> K8sNodesExporter::exportPlacement(const Scenario &scenario, const Placement &,
                                                       const ExportOptions &) const
{
    using Json = nlohmann::ordered_json;
    Json items = Json::array();
    const Cluster &c = scenario.cluster;
    const KubernetesNodeNames names(c);
    const SwitchTiers tiers(c);
    std::vector<std::string> renamed, relabelled;
    for (std::size_t i = 0; i < c.nodes.size(); ++i) {
        const Node &n = c.nodes[i];
        // Names and label values Kubernetes would refuse become valid ones derived from them
        // (the same rule the placement exporters pin pods with); the originals stay in
        // annotations, so nothing is lost.
        std::map<std::string, std::string> annotations;
        if (names.renamed(n.id)) {
            annotations["clusterbench.io/node-id"] = n.id;
            renamed.push_back("\"" + n.id + "\" as " + names.name(n.id));
        }
        std::map<std::string, std::string> labels;
        bool labelsChanged = false;
        for (const auto &[key, value] : n.labels) {
            if (!KubernetesNames::isLabelKey(key)) {
                labelsChanged = true;
                continue;
            }
            const std::string v = KubernetesNames::labelValue(value);
            labelsChanged = labelsChanged || v != value;
            labels[key] = v;
        }
        if (labelsChanged) {
            annotations["clusterbench.io/labels"] = Json(n.labels).dump();
            relabelled.push_back(names.name(n.id));
        }
        labels["kubernetes.io/hostname"] = names.hostname(n.id);
        auto label = [&](const std::string &key, const std::string &value) {
            labels[key] = KubernetesNames::labelValue(value);
            if (labels[key] != value)
                annotations[key] = value; // clusterbench.io/rack etc. keep the original
        };
        if (n.gpus > 0) {
            // The type's name for ClusterBench; the product label only where the node has
            // none (a node's own product label, as GPU feature discovery wrote it, stays).
            label("clusterbench.io/gpu-type", n.gpuType);
            if (!labels.count("nvidia.com/gpu.product"))
                labels["nvidia.com/gpu.product"] = labels["clusterbench.io/gpu-type"];
            labels["nvidia.com/gpu.count"] = std::to_string(n.gpus);
            if (const GpuType *t = c.gpuType(n.gpuType); t && isWhole(t->memoryGiB * 1024.0))
                labels["nvidia.com/gpu.memory"] = std::to_string(std::llround(t->memoryGiB * 1024));
        } else {
            labels["clusterbench.io/gpu-type"] = "none"; // the kueue export's CPU flavor
        }
        if (!n.rack.empty())
            label("clusterbench.io/rack", n.rack);
        if (!n.partition.empty())
            label("clusterbench.io/partition", n.partition);
        // The node's switch at every tier (what Kueue's Topology levels and the HyperNodes
        // of the volcano-hypernodes export select on); names are valid label values.
        for (const SwitchTier *t : tiers.chain(n.id))
            labels[SwitchTiers::labelKey(t->tier)] = t->name;
        Json resources = Json::object();
        resources["cpu"] = cpuQuantity(n.cpus);
        resources["memory"] = memoryQuantity(n.memoryGiB);
        if (n.gpus > 0)
            resources["nvidia.com/gpu"] = std::to_string(n.gpus);
        Json node = Json::object();
        node["apiVersion"] = "v1";
        node["kind"] = "Node";
        node["metadata"] = {{"name", names.name(n.id)}, {"labels", Json(labels)}};
        if (!annotations.empty())
            node["metadata"]["annotations"] = Json(annotations);
        node["spec"] = Json::object();
        node["status"] = {{"allocatable", resources}, {"capacity", resources}};
        items.push_back(std::move(node));
    }
    Json list = Json::object();
    list["apiVersion"] = "v1";
    list["items"] = std::move(items);
    list["kind"] = "List";
    list["metadata"] = {{"resourceVersion", ""}};
    ExportResult result;
    // ASCII only: DEL and other controls in names escaped (\u007f), so that YAML readers
    // (kubectl reads JSON as YAML too) take it as well as JSON ones.
    result.files.push_back({"nodes.json", list.dump(4, ' ', true) + "\n"});
    auto listed = [](const std::vector<std::string> &items) {
        std::string out;
        for (std::size_t i = 0; i < items.size() && i < 5; ++i)
            out += (i ? ", " : "") + items[i];
        if (items.size() > 5)
            out += ", ... (" + std::to_string(items.size() - 5) + " more)";
        return out;
    };
    if (!renamed.empty())
        result.warnings.push_back(
            "k8s-nodes: " + std::to_string(renamed.size()) +
            " node ids are not valid Kubernetes node names; exported under names derived from "
            "them, the id kept in the annotation clusterbench.io/node-id: " + listed(renamed));
    if (!relabelled.empty())
        result.warnings.push_back(
            "k8s-nodes: labels of " + std::to_string(relabelled.size()) +
            " nodes are not valid Kubernetes labels; invalid keys are left out and invalid "
            "values replaced by derived ones, all of them kept in the annotation "
            "clusterbench.io/labels: " + listed(relabelled));
    if (!c.switches.empty())
        result.warnings.push_back(
            "k8s-nodes: a Node list has no switches or links: the " +
            std::to_string(c.switches.size()) + " switches and " + std::to_string(c.links.size()) +
            " links are not exported; nodes keep their rack as the label clusterbench.io/rack and "
            "their switch at each tier as clusterbench.io/switch-tier-N");
    return result;
}

} // namespace cb
