#include "io/import/k8s_nodes_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/k8s_quantity.h"
#include "io/import/text_fields.h"
#include "io/import/yaml_expansion.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <map>
#include <set>

namespace cb {

namespace {

int lineOf(const YAML::Node &n)
{
    return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

std::string scalar(const YAML::Node &n)
{
    return n && n.IsScalar() ? n.Scalar() : std::string();
}

YAML::Node child(const YAML::Node &n, const char *key)
{
    return n && n.IsMap() ? n[key] : YAML::Node();
}

/// The line of `key`'s value in a map, else the map's own.
int lineOf(const YAML::Node &map, const char *key)
{
    const YAML::Node value = child(map, key);
    return value && value.Mark().line >= 0 ? lineOf(value) : lineOf(map);
}

struct Counters
{
    std::size_t untyped = 0, fromCapacity = 0, gpuFromLabel = 0;
    /// Nodes whose memory is below a GiB (a quantity without a unit is bytes), the first named.
    std::size_t tinyMemory = 0;
    std::string firstTiny;
};

void readNode(const YAML::Node &doc, const std::string &file, Cluster &c,
              std::set<std::string> &ids, ImportReport &report, Counters &k,
              const ImportOptions &options)
{
    const int line = lineOf(doc);
    const std::string kind = scalar(child(doc, "kind"));
    if (!kind.empty() && kind != "Node") {
        report.skip(file, line, "a " + kind + " object, not a Node", "not a Node object");
        return;
    }
    if (kind.empty() && !child(doc, "metadata")) {
        report.skip(file, line, "not a Kubernetes Node: no kind and no metadata",
                    "not a Node object");
        return;
    }
    Node n;
    n.id = scalar(child(child(doc, "metadata"), "name"));
    if (n.id.empty()) {
        report.skip(file, line, "Node without metadata.name");
        return;
    }
    if (ids.count(n.id)) {
        report.skip(file, line, "duplicate node \"" + n.id + "\"", "duplicate node");
        return;
    }
    // A cordoned node (kubectl cordon) or one not Ready takes no new pod.
    if (!options.keepUnavailableNodes) {
        std::string why;
        if (scalar(child(child(doc, "spec"), "unschedulable")) == "true")
            why = "cordoned (spec.unschedulable)";
        const YAML::Node conditions = child(child(doc, "status"), "conditions");
        if (why.empty() && conditions && conditions.IsSequence())
            for (const YAML::Node &cond : conditions)
                if (cond.IsMap() && scalar(child(cond, "type")) == "Ready" &&
                    scalar(child(cond, "status")) != "True")
                    why = "not Ready (its Ready condition is " +
                          importtext::shown(scalar(child(cond, "status"))) + ")";
        if (!why.empty()) {
            report.skip(file, line,
                        "node " + importtext::shown(n.id) + " is " + why +
                            ": it takes no new pod; --keep-unavailable-nodes keeps it",
                        "cordoned or not Ready (takes no new pod)");
            return;
        }
    }
    const YAML::Node labels = child(child(doc, "metadata"), "labels");
    if (labels && labels.IsMap())
        for (const auto &kv : labels)
            n.labels[kv.first.Scalar()] = scalar(kv.second);
    const YAML::Node status = child(doc, "status");
    // Note: YAML::Node::operator= writes through to the node; choose with reset().
    YAML::Node res;
    const YAML::Node allocatable = child(status, "allocatable");
    if (allocatable && allocatable.IsMap()) {
        res.reset(allocatable);
    } else {
        const YAML::Node capacity = child(status, "capacity");
        if (capacity && capacity.IsMap()) {
            res.reset(capacity);
            ++k.fromCapacity;
        }
    }
    if (!res || !res.IsMap()) {
        report.skip(file, line,
                    "node \"" + n.id +
                        "\" has no status.allocatable or "
                        "status.capacity",
                    "Node without status.allocatable or status.capacity");
        return;
    }
    const auto cpu = parseK8sQuantity(scalar(res["cpu"]));
    const auto mem = parseK8sQuantity(scalar(res["memory"]));
    if (!cpu || *cpu <= 0) {
        report.skip(file, lineOf(res, "cpu"),
                    "node \"" + n.id +
                        "\": cpu: expected a quantity such "
                        "as \"8\" or \"7500m\", found \"" +
                        scalar(res["cpu"]) + "\"");
        return;
    }
    if (!mem || *mem <= 0) {
        report.skip(file, lineOf(res, "memory"),
                    "node \"" + n.id +
                        "\": memory: expected a quantity "
                        "such as \"64Gi\", found \"" +
                        scalar(res["memory"]) + "\"");
        return;
    }
    n.cpus = *cpu;
    n.memoryGiB = *mem / 1073741824.0;
    if (n.memoryGiB < 1 && k.tinyMemory++ == 0)
        k.firstTiny = n.id + ": " + scalar(res["memory"]);
    std::string gpuText;
    int gpuLine = lineOf(res);
    for (const char *key : {"nvidia.com/gpu", "amd.com/gpu", "alibabacloud.com/gpu-count"})
        if (gpuText.empty()) {
            gpuText = scalar(res[key]);
            gpuLine = lineOf(res, key);
        }
    if (gpuText.empty() && n.labels.count("nvidia.com/gpu.count")) {
        gpuText = n.labels["nvidia.com/gpu.count"];
        gpuLine = lineOf(labels, "nvidia.com/gpu.count");
        ++k.gpuFromLabel;
    }
    if (!gpuText.empty()) {
        const auto g = importtext::parseInteger(gpuText);
        if (!g || *g < 0 || *g > 1024) {
            report.skip(file, gpuLine,
                        "node \"" + n.id +
                            "\": GPU count: expected a whole number from 0 to 1024, found \"" +
                            gpuText + "\"");
            return;
        }
        n.gpus = int(*g);
    }
    if (n.gpus > 0) {
        for (const char *key :
             {"clusterbench.io/gpu-type", "nvidia.com/gpu.product",
              "alibabacloud.com/gpu-card-model", "cloud.google.com/gke-accelerator"})
            if (n.gpuType.empty() && n.labels.count(key))
                n.gpuType = n.labels[key];
        if (n.gpuType.empty()) {
            n.gpuType = unnamedGpuType(options.gpuType);
            ++k.untyped;
        }
    }
    // Generic rack and block labels ("example.com/rack", "cloud.provider.com/topology-
    // block"); the cloud's own block labels have their tiers in buildTopology.
    for (const auto &[key, value] : n.labels) {
        if (key.starts_with("cloud.google.com/gce-topology"))
            continue;
        const std::string last = importtext::lower(key.substr(key.find_last_of('/') + 1));
        if ((last.ends_with("rack") || last.ends_with("block")) && n.rack.empty())
            n.rack = value;
    }
    // Written by `clusterbench export --format k8s-nodes`.
    if (auto it = n.labels.find("clusterbench.io/partition"); it != n.labels.end())
        n.partition = it->second;
    ids.insert(n.id);
    c.nodes.push_back(std::move(n));
}

void collect(const YAML::Node &doc, const std::string &file, Cluster &c, std::set<std::string> &ids,
             ImportReport &report, Counters &k, const ImportOptions &options)
{
    if (!doc || doc.IsNull())
        return;
    if (doc.IsSequence()) {
        for (const YAML::Node &item : doc)
            collect(item, file, c, ids, report, k, options);
        return;
    }
    if (!doc.IsMap()) {
        report.skip(file, lineOf(doc), "expected a Node object or a list of them");
        return;
    }
    const YAML::Node items = doc["items"];
    if (items && items.IsSequence()) {
        for (const YAML::Node &item : items)
            collect(item, file, c, ids, report, k, options);
        return;
    }
    readNode(doc, file, c, ids, report, k, options);
}

// NVIDIA's GPU feature discovery labels each GPU node with nvidia.com/gpu.memory (MiB per
// GPU). Where every node of a GPU type agrees, that beats the catalogue's datasheet figure.
void gpuMemoryFromLabels(Cluster &c, ImportReport &report)
{
    std::map<std::string, std::set<std::string>> values; // GPU type -> label values seen
    std::set<std::string> unlabelled;
    for (const Node &n : c.nodes) {
        if (n.gpus <= 0)
            continue;
        auto it = n.labels.find("nvidia.com/gpu.memory");
        if (it == n.labels.end())
            unlabelled.insert(n.gpuType);
        else
            values[n.gpuType].insert(it->second);
    }
    std::string used;
    for (GpuType &t : c.gpuTypes) {
        auto it = values.find(t.name);
        if (it == values.end() || it->second.size() != 1 || unlabelled.count(t.name))
            continue;
        const auto mib = importtext::parseNumber(*it->second.begin());
        if (!mib || *mib <= 0)
            continue;
        t.memoryGiB = *mib / 1024.0;
        used += (used.empty() ? "" : ", ") + t.name;
    }
    if (!used.empty())
        report.assume("GPU memory of " + used + " from the nodes' nvidia.com/gpu.memory label");
}

// Topology labels, coarse to fine. A node's switches are the tiers it has labels for. GKE's
// host label names the physical host: when every node has its own, it is no switch.
struct Tier
{
    const char *label;  ///< label key, or "" for the rack/block fallback
    const char *prefix; ///< switch id prefix
    const char *tier;   ///< Switch::tier
};

constexpr Tier kTiers[] = {
    {"topology.kubernetes.io/region", "region", "region"},
    {"topology.kubernetes.io/zone", "zone", "aggregation"},
    {"topology.k8s.aws/network-node-layer-1", "layer1", "network-node-layer-1"},
    {"topology.k8s.aws/network-node-layer-2", "layer2", "network-node-layer-2"},
    {"topology.k8s.aws/network-node-layer-3", "layer3", "network-node-layer-3"},
    {"topology.k8s.aws/network-node-layer-4", "layer4", "network-node-layer-4"},
    {"cloud.google.com/gce-topology-block", "block", "block"},
    {"cloud.google.com/gce-topology-subblock", "subblock", "subblock"},
    {"cloud.google.com/gce-topology-host", "host", "host"},
    {"network.topology.nvidia.com/core", "core", "core"},
    {"network.topology.nvidia.com/spine", "spine", "spine"},
    {"network.topology.nvidia.com/leaf", "leaf", "leaf"},
    {"fabric.topograph.run/tier-3", "tier3", "tier-3"},
    {"fabric.topograph.run/tier-2", "tier2", "tier-2"},
    {"fabric.topograph.run/tier-1", "tier1", "tier-1"},
    {"fabric.topograph.run/tier-0", "tier0", "tier-0"},
    {"", "rack", "tor"},
};

// The deprecated zone and region labels stand in for the current ones.
std::string tierValue(const Node &n, const Tier &t)
{
    if (!*t.label)
        return n.rack;
    if (auto it = n.labels.find(t.label); it != n.labels.end() && !it->second.empty())
        return it->second;
    const std::string key = t.label;
    if (key == "topology.kubernetes.io/zone" || key == "topology.kubernetes.io/region") {
        const std::string old =
            "failure-domain.beta.kubernetes.io/" + key.substr(key.find('/') + 1);
        if (auto it = n.labels.find(old); it != n.labels.end())
            return it->second;
    }
    return {};
}

void buildTopology(Cluster &c, ImportReport &report)
{
    constexpr std::size_t kTierCount = sizeof kTiers / sizeof kTiers[0];
    // Which tiers are used, and by how many distinct values.
    std::vector<std::map<std::string, int>> values(kTierCount);
    for (const Node &n : c.nodes)
        for (std::size_t t = 0; t < kTierCount; ++t)
            if (const std::string v = tierValue(n, kTiers[t]); !v.empty())
                ++values[t][v];
    std::vector<std::size_t> used;
    std::string usedNames, dropped;
    for (std::size_t t = 0; t < kTierCount; ++t) {
        if (values[t].empty())
            continue;
        bool shared = false;
        for (const auto &[v, count] : values[t])
            shared = shared || count > 1;
        const std::string label = *kTiers[t].label ? kTiers[t].label : "rack/block labels";
        if (!shared && c.nodes.size() > 1 &&
            std::string(kTiers[t].label) == "cloud.google.com/gce-topology-host") {
            dropped += (dropped.empty() ? "" : ", ") + label;
            continue;
        }
        used.push_back(t);
        usedNames += (usedNames.empty() ? "" : " > ") + label;
    }
    if (used.empty()) {
        linkAllNodesToOneSwitch(c, report,
                                "no topology labels (zone, rack, block, network "
                                "layers)");
        return;
    }
    std::set<std::string> switchIds;
    std::map<std::string, std::string> parentOf; // switch id -> parent id ("" = top)
    std::set<std::pair<std::string, std::string>> linked;
    auto link = [&](const std::string &a, const std::string &b, bool host) {
        if (linked.insert({a, b}).second)
            addImportLink(c, a, b, host);
    };
    std::vector<std::string> tops; // switches or nodes under nothing
    std::set<std::string> topSet;
    std::set<std::string> nodeIds;
    for (const Node &n : c.nodes)
        nodeIds.insert(n.id);
    const std::vector<Node> nodes = c.nodes;
    for (const Node &n : nodes) {
        std::string parent; // the switch above, coarse to fine
        for (std::size_t t : used) {
            const std::string v = tierValue(n, kTiers[t]);
            if (v.empty())
                continue;
            std::string id = std::string(kTiers[t].prefix) + "-" + v;
            // Values are opaque and may repeat under different parents (a rack name inside
            // each block): such a switch is named after its parent too.
            if (auto it = parentOf.find(id); it != parentOf.end() && it->second != parent)
                id = parent + "." + id;
            while (nodeIds.count(id))
                id += "_";
            if (switchIds.insert(id).second) {
                c.switches.push_back({id, kTiers[t].tier});
                parentOf[id] = parent;
                if (parent.empty()) {
                    if (topSet.insert(id).second)
                        tops.push_back(id);
                } else {
                    link(id, parent, false);
                }
            }
            parent = id;
        }
        if (parent.empty()) {
            if (topSet.insert(n.id).second)
                tops.push_back(n.id);
        } else {
            link(n.id, parent, true);
        }
    }
    if (tops.size() > 1) {
        std::string core = "core";
        while (switchIds.count(core) || nodeIds.count(core))
            core += "_";
        c.switches.push_back({core, "core"});
        for (const std::string &t : tops)
            link(t, core, !switchIds.count(t));
    }
    report.assume("topology from node labels, a switch per value of each level: " + usedNames +
                  (tops.size() > 1 ? ", under one core switch" : "") +
                  "; nodes without a level's label hang from the level above");
    if (!dropped.empty())
        report.assume("GKE host labels differ on every node (one node per host): not used as "
                      "switches");
    std::size_t accelerator = 0;
    for (const Node &n : c.nodes)
        for (const char *key : {"network.topology.nvidia.com/accelerator",
                                "accelerator.topograph.run/domain", "nvidia.com/gpu.clique"})
            accelerator += n.labels.count(key);
    if (accelerator > 0)
        report.assume("NVLink domain labels on " + std::to_string(accelerator) +
                      " nodes kept as labels: NVLink between nodes is not modelled");
    reportLinkDefaults(report);
}

} // namespace

FormatMatch K8sNodesImporter::detect(const ImportSample &sample) const
{
    const std::string &h = sample.head;
    const char c = detection::firstSignificant(h);
    const bool json = c == '{' || c == '[';
    // A NodeList (what `kubectl get nodes -o json` and the API's /api/v1/nodes return): its
    // items carry no kind of their own.
    const bool nodeList = json ? h.find("\"kind\": \"NodeList\"") != std::string::npos ||
                                     h.find("\"kind\":\"NodeList\"") != std::string::npos
                               : h.find("kind: NodeList") != std::string::npos;
    if (nodeList)
        return {3, "a Kubernetes NodeList"};
    const bool node = json ? h.find("\"kind\": \"Node\"") != std::string::npos ||
                                 h.find("\"kind\":\"Node\"") != std::string::npos
                           : h.find("kind: Node") != std::string::npos;
    if (node)
        return {3, "Kubernetes Node objects (kind: Node)"};
    const bool list = json ? h.find("\"kind\": \"List\"") != std::string::npos
                           : h.find("kind: List") != std::string::npos;
    if (list && (detection::yamlKey(h, "items") || detection::jsonKey(h, "items")))
        return {2, "a Kubernetes List"};
    return {};
}

Result<ImportReport> K8sNodesImporter::read(const std::vector<ImportInput> &inputs,
                                            const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    Cluster c;
    std::set<std::string> ids;
    Counters k;
    for (const ImportInput &in : inputs) {
        auto read = in.wholeUtf8Text();
        if (!read)
            return read.problems();
        std::string text = std::move(read.value());
        importtext::stripBom(text);
        if (auto ok = checkYamlExpansion(text, in.name); !ok)
            return ok.problems();
        std::vector<YAML::Node> docs;
        try {
            docs = YAML::LoadAll(text);
        } catch (const YAML::Exception &e) {
            return Result<ImportReport>::failure(in.name + ":" + std::to_string(e.mark.line + 1),
                                                 "column " + std::to_string(e.mark.column + 1) +
                                                     ": " + e.msg);
        }
        try {
            for (const YAML::Node &d : docs)
                collect(d, in.name, c, ids, report, k, options);
        } catch (const YAML::Exception &e) {
            return Result<ImportReport>::failure(in.name + ":" + std::to_string(e.mark.line + 1),
                                                 e.msg);
        }
        in.done();
    }
    if (c.nodes.empty()) {
        if (report.skippedCount == 0)
            return Result<ImportReport>::failure(inputs.front().name,
                                                 "no Node could be imported");
        // Every Node left out: the import reports nothing usable, with each one's reason.
        report.cluster = Cluster{};
        return report;
    }
    report.assume("node resources from status.allocatable (what the scheduler may use); "
                  "capacity where allocatable is absent (" +
                  std::to_string(k.fromCapacity) + " nodes)");
    if (k.tinyMemory > 0)
        report.assume(std::to_string(k.tinyMemory) +
                      (k.tinyMemory == 1 ? " node gives" : " nodes give") +
                      " memory below 1 GiB (" + k.firstTiny +
                      "), in which no training job fits: a quantity without a unit is bytes "
                      "(\"512Gi\" is 512 GiB)");
    if (k.gpuFromLabel > 0)
        report.assume(std::to_string(k.gpuFromLabel) + " nodes list no GPU resource: GPU count "
                                                       "from the nvidia.com/gpu.count label");
    if (k.untyped > 0)
        report.assume(std::to_string(k.untyped) +
                      (k.untyped == 1 ? " GPU node carries" : " GPU nodes carry") +
                      " no GPU product label: GPU type " + unnamedGpuType(options.gpuType));
    addMissingGpuTypes(c, report);
    gpuMemoryFromLabels(c, report);
    buildTopology(c, report);
    report.cluster = std::move(c);
    return report;
}

} // namespace cb
