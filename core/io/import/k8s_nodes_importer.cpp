#include "io/import/k8s_nodes_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/k8s_quantity.h"
#include "io/import/text_fields.h"

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

struct Counters
{
    std::size_t untyped = 0, fromCapacity = 0, gpuFromLabel = 0;
};

void readNode(const YAML::Node &doc, const std::string &file, Cluster &c,
              std::set<std::string> &ids, ImportReport &report, Counters &k)
{
    const int line = lineOf(doc);
    const std::string kind = scalar(child(doc, "kind"));
    if (!kind.empty() && kind != "Node") {
        report.skip(file, line, "a " + kind + " object, not a Node");
        return;
    }
    Node n;
    n.id = scalar(child(child(doc, "metadata"), "name"));
    if (n.id.empty()) {
        report.skip(file, line, "Node without metadata.name");
        return;
    }
    if (ids.count(n.id)) {
        report.skip(file, line, "duplicate node \"" + n.id + "\"");
        return;
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
                        "status.capacity");
        return;
    }
    const auto cpu = parseK8sQuantity(scalar(res["cpu"]));
    const auto mem = parseK8sQuantity(scalar(res["memory"]));
    if (!cpu || *cpu <= 0) {
        report.skip(file, lineOf(res),
                    "node \"" + n.id +
                        "\": cpu: expected a quantity such "
                        "as \"8\" or \"7500m\", found \"" +
                        scalar(res["cpu"]) + "\"");
        return;
    }
    if (!mem || *mem <= 0) {
        report.skip(file, lineOf(res),
                    "node \"" + n.id +
                        "\": memory: expected a quantity "
                        "such as \"64Gi\", found \"" +
                        scalar(res["memory"]) + "\"");
        return;
    }
    n.cpus = *cpu;
    n.memoryGiB = *mem / 1073741824.0;
    std::string gpuText;
    for (const char *key : {"nvidia.com/gpu", "amd.com/gpu", "alibabacloud.com/gpu-count"})
        if (gpuText.empty())
            gpuText = scalar(res[key]);
    if (gpuText.empty() && n.labels.count("nvidia.com/gpu.count")) {
        gpuText = n.labels["nvidia.com/gpu.count"];
        ++k.gpuFromLabel;
    }
    if (!gpuText.empty()) {
        const auto g = importtext::parseInteger(gpuText);
        if (!g || *g < 0 || *g > 1024) {
            report.skip(file, lineOf(res),
                        "node \"" + n.id +
                            "\": GPU count: expected a "
                            "whole number, found \"" +
                            gpuText + "\"");
            return;
        }
        n.gpus = int(*g);
    }
    if (n.gpus > 0) {
        for (const char *key : {"clusterbench.io/gpu-type", "nvidia.com/gpu.product",
                                "alibabacloud.com/gpu-card-model",
                                "cloud.google.com/gke-accelerator"})
            if (n.gpuType.empty() && n.labels.count(key))
                n.gpuType = n.labels[key];
        if (n.gpuType.empty()) {
            n.gpuType = "unknown-gpu";
            ++k.untyped;
        }
    }
    for (const auto &[key, value] : n.labels) {
        const std::string last = importtext::lower(key.substr(key.find_last_of('/') + 1));
        if ((last == "rack" || last == "block") && n.rack.empty())
            n.rack = value;
    }
    // Written by `clusterbench export --format k8s-nodes`.
    if (auto it = n.labels.find("clusterbench.io/partition"); it != n.labels.end())
        n.partition = it->second;
    ids.insert(n.id);
    c.nodes.push_back(std::move(n));
}

void collect(const YAML::Node &doc, const std::string &file, Cluster &c, std::set<std::string> &ids,
             ImportReport &report, Counters &k)
{
    if (!doc || doc.IsNull())
        return;
    if (doc.IsSequence()) {
        for (const YAML::Node &item : doc)
            collect(item, file, c, ids, report, k);
        return;
    }
    if (!doc.IsMap()) {
        report.skip(file, lineOf(doc), "expected a Node object or a list of them");
        return;
    }
    const YAML::Node items = doc["items"];
    if (items && items.IsSequence()) {
        for (const YAML::Node &item : items)
            collect(item, file, c, ids, report, k);
        return;
    }
    readNode(doc, file, c, ids, report, k);
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

std::string zoneOf(const Node &n)
{
    for (const char *key :
         {"topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone"})
        if (auto it = n.labels.find(key); it != n.labels.end() && !it->second.empty())
            return it->second;
    return {};
}

// Rack switches under zone switches under one core switch, from the labels.
void buildTopology(Cluster &c, ImportReport &report)
{
    bool any = false;
    for (const Node &n : c.nodes)
        any = any || !n.rack.empty() || !zoneOf(n).empty();
    if (!any) {
        linkAllNodesToOneSwitch(c, report, "no zone, rack or block labels");
        return;
    }
    std::set<std::string> switchIds;
    auto addSwitch = [&](const std::string &id, const char *tier) {
        if (switchIds.insert(id).second)
            c.switches.push_back({id, tier});
    };
    std::set<std::pair<std::string, std::string>> linked;
    auto link = [&](const std::string &a, const std::string &b, bool host) {
        if (linked.insert({a, b}).second)
            addImportLink(c, a, b, host);
    };
    std::vector<std::string> tops; // switches or nodes that hang from the core
    std::set<std::string> topSet;
    auto top = [&](const std::string &id) {
        if (topSet.insert(id).second)
            tops.push_back(id);
    };
    const std::vector<Node> nodes = c.nodes;
    for (const Node &n : nodes) {
        const std::string zone = zoneOf(n);
        std::string up;
        if (!n.rack.empty()) {
            const std::string rack = "rack-" + n.rack;
            addSwitch(rack, "tor");
            link(n.id, rack, true);
            up = rack;
        }
        if (!zone.empty()) {
            const std::string zs = "zone-" + zone;
            addSwitch(zs, "aggregation");
            if (up.empty())
                link(n.id, zs, true);
            else
                link(up, zs, false);
            up = zs;
        }
        top(up.empty() ? n.id : up);
    }
    if (tops.size() > 1) {
        addSwitch("core", "core");
        for (const std::string &t : tops)
            link(t, "core", !switchIds.count(t));
    }
    report.assume("topology from zone and rack/block labels: a switch per rack under a "
                  "switch per zone" +
                  std::string(tops.size() > 1 ? " under one core switch" : ""));
    reportLinkDefaults(report);
}

} // namespace

Result<ImportReport> K8sNodesImporter::read(const std::vector<ImportInput> &inputs,
                                            const ImportOptions &) const
{
    ImportReport report;
    report.format = name();
    Cluster c;
    std::set<std::string> ids;
    Counters k;
    for (const ImportInput &in : inputs) {
        std::string text = in.text;
        importtext::stripBom(text);
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
                collect(d, in.name, c, ids, report, k);
        } catch (const YAML::Exception &e) {
            return Result<ImportReport>::failure(in.name + ":" + std::to_string(e.mark.line + 1),
                                                 e.msg);
        }
        in.done();
    }
    if (c.nodes.empty())
        return Result<ImportReport>::failure(inputs.front().name, "no Node could be imported");
    report.assume("node resources from status.allocatable (what the scheduler may use); "
                  "capacity where allocatable is absent (" +
                  std::to_string(k.fromCapacity) + " nodes)");
    if (k.gpuFromLabel > 0)
        report.assume(std::to_string(k.gpuFromLabel) + " nodes list no GPU resource: GPU count "
                                                       "from the nvidia.com/gpu.count label");
    if (k.untyped > 0)
        report.assume(std::to_string(k.untyped) + " GPU nodes carry no GPU product label: GPU "
                                                  "type \"unknown-gpu\"");
    addMissingGpuTypes(c, report);
    gpuMemoryFromLabels(c, report);
    buildTopology(c, report);
    report.cluster = std::move(c);
    return report;
}

} // namespace cb
