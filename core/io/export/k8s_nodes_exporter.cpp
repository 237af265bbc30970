#include "io/export/k8s_nodes_exporter.h"

#include "io/export/kubernetes_names.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>

namespace cb {

namespace {

bool isWhole(double v)
{
    return std::fabs(v - std::round(v)) < 1e-9;
}

/// A DNS-1123 subdomain: what a Node's metadata.name must be.
bool isNodeName(const std::string &s)
{
    if (s.empty() || s.size() > 253)
        return false;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t dot = s.find('.', start);
        const std::string part =
            s.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!KubernetesNames::isDns1123Label(part))
            return false;
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return true;
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
    Problems problems;
    Json items = Json::array();
    const Cluster &c = scenario.cluster;
    for (std::size_t i = 0; i < c.nodes.size(); ++i) {
        const Node &n = c.nodes[i];
        const std::string at = "/cluster/nodes/" + std::to_string(i);
        if (!isNodeName(n.id)) {
            problems.push_back({at + "/id", "\"" + n.id +
                                                "\" cannot be a Kubernetes node name (lowercase "
                                                "letters, digits, '-' and '.')"});
            continue;
        }
        std::map<std::string, std::string> labels = n.labels;
        labels.emplace("kubernetes.io/hostname", n.id); // keeps a hostname label the node has
        auto label = [&](const std::string &key, const std::string &value, const char *field) {
            if (!KubernetesNames::isLabelValue(value))
                problems.push_back({at + "/" + field, "\"" + value +
                                                          "\" cannot be a Kubernetes label "
                                                          "value (63 of [A-Za-z0-9._-])"});
            labels[key] = value;
        };
        if (n.gpus > 0) {
            // The type's name for ClusterBench; the product label only where the node has
            // none (a node's own product label, as GPU feature discovery wrote it, stays).
            label("clusterbench.io/gpu-type", n.gpuType, "gpuType");
            if (!labels.count("nvidia.com/gpu.product"))
                labels["nvidia.com/gpu.product"] = labels["clusterbench.io/gpu-type"];
            labels["nvidia.com/gpu.count"] = std::to_string(n.gpus);
            if (const GpuType *t = c.gpuType(n.gpuType); t && isWhole(t->memoryGiB * 1024.0))
                labels["nvidia.com/gpu.memory"] = std::to_string(std::llround(t->memoryGiB * 1024));
        }
        if (!n.rack.empty())
            label("clusterbench.io/rack", n.rack, "rack");
        if (!n.partition.empty())
            label("clusterbench.io/partition", n.partition, "partition");
        Json resources = Json::object();
        resources["cpu"] = cpuQuantity(n.cpus);
        resources["memory"] = memoryQuantity(n.memoryGiB);
        if (n.gpus > 0)
            resources["nvidia.com/gpu"] = std::to_string(n.gpus);
        Json node = Json::object();
        node["apiVersion"] = "v1";
        node["kind"] = "Node";
        node["metadata"] = {{"name", n.id}, {"labels", Json(labels)}};
        node["spec"] = Json::object();
        node["status"] = {{"allocatable", resources}, {"capacity", resources}};
        items.push_back(std::move(node));
    }
    if (!problems.empty())
        return problems;
    Json list = Json::object();
    list["apiVersion"] = "v1";
    list["items"] = std::move(items);
    list["kind"] = "List";
    list["metadata"] = {{"resourceVersion", ""}};
    ExportResult result;
    result.files.push_back({"nodes.json", list.dump(4) + "\n"});
    if (!c.switches.empty())
        result.warnings.push_back(
            "k8s-nodes: a Node list has no switches or links: the " +
            std::to_string(c.switches.size()) + " switches and " + std::to_string(c.links.size()) +
            " links are not exported; nodes keep their rack as the label clusterbench.io/rack");
    return result;
}

} // namespace cb
