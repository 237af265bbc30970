#include "io/import/topograph_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/format_detection.h"
#include "io/import/hostlist.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/text_fields.h"
#include "io/import/yaml_expansion.h"
#include "util/text.h"

#include <yaml-cpp/yaml.h>

#include <functional>
#include <map>
#include <set>

namespace cb {

namespace {

int topoLineOf(const YAML::Node &n)
{
    return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

std::string topoScalarOf(const YAML::Node &n)
{
    return n && n.IsScalar() ? n.Scalar() : std::string();
}

struct SwitchInfo
{
    int line = 0;
    std::vector<std::string> children;
    std::map<std::string, std::string> labels;
    std::vector<std::string> nodeExprs; ///< hostlists of nodes right under it (v0.5)
    std::vector<std::string> blocks;    ///< capacity blocks under it (v0.1)
};

struct BlockInfo
{
    int line = 0;
    std::string leaf; ///< v1: the switch it hangs from
    std::vector<std::string> nodeExprs;
    std::string domain;  ///< NVLink domain
    std::string gpuType; ///< v0.1 type
    std::map<std::string, std::string> labels;
};

struct Model
{
    std::string schema;
    std::map<std::string, SwitchInfo> switches;
    std::vector<std::string> order; ///< switch names in file order
    std::map<std::string, BlockInfo> blocks;
    std::vector<std::string> blockOrder;
};

// The child `key` of a map, or an undefined node (yaml-cpp throws when a missing key is
// looked into further).
YAML::Node at(const YAML::Node &n, const char *key)
{
    if (!n || !n.IsMap())
        return YAML::Node(YAML::NodeType::Undefined);
    for (const auto &kv : n)
        if (kv.first.IsScalar() && kv.first.Scalar() == key)
            return kv.second;
    return YAML::Node(YAML::NodeType::Undefined);
}

std::vector<std::string> stringList(const YAML::Node &n)
{
    std::vector<std::string> out;
    if (n && n.IsSequence())
        for (const YAML::Node &v : n)
            out.push_back(topoScalarOf(v));
    else if (n && n.IsScalar())
        out.push_back(n.Scalar());
    return out;
}

std::map<std::string, std::string> stringMap(const YAML::Node &n)
{
    std::map<std::string, std::string> out;
    if (n && n.IsMap())
        for (const auto &kv : n)
            out[kv.first.Scalar()] = topoScalarOf(kv.second);
    return out;
}

// v0.x metadata: region, availability_zone, group -> the labels topograph writes.
std::map<std::string, std::string> metadataLabels(const YAML::Node &n)
{
    std::map<std::string, std::string> out;
    for (const auto &[k, v] : stringMap(n)) {
        if (k == "region")
            out["topology.kubernetes.io/region"] = v;
        else if (k == "availability_zone")
            out["topology.kubernetes.io/zone"] = v;
        else
            out["topograph.nvidia.com/" + k] = v;
    }
    return out;
}

SwitchInfo &addSwitch(Model &m, const std::string &name, int line)
{
    auto [it, fresh] = m.switches.try_emplace(name);
    if (fresh) {
        it->second.line = line;
        m.order.push_back(name);
    }
    return it->second;
}

void readModel(const YAML::Node &doc, Model &m)
{
    const YAML::Node switches = at(doc, "switches");
    const YAML::Node blocks = at(doc, "blocks");
    const YAML::Node cbs = at(doc, "capacity_blocks");
    if (switches && switches.IsSequence()) {
        m.schema = "v0.1-0.3 (lists of switches and capacity blocks)";
        for (const YAML::Node &s : switches) {
            SwitchInfo &info = addSwitch(m, topoScalarOf(at(s, "name")), topoLineOf(s));
            info.children = stringList(at(s, "switches"));
            info.labels = metadataLabels(at(s, "metadata"));
            info.blocks = stringList(at(s, "capacity_blocks"));
        }
        if (cbs && cbs.IsSequence())
            for (const YAML::Node &b : cbs) {
                const std::string name = topoScalarOf(at(b, "name"));
                BlockInfo &info = m.blocks[name];
                m.blockOrder.push_back(name);
                info.line = topoLineOf(b);
                info.nodeExprs = stringList(at(b, "nodes"));
                info.domain = topoScalarOf(at(b, "nvlink"));
                info.gpuType = topoScalarOf(at(b, "type"));
            }
        return;
    }
    if (switches && switches.IsMap())
        for (const auto &kv : switches) {
            SwitchInfo &info = addSwitch(m, kv.first.Scalar(), topoLineOf(kv.first));
            const YAML::Node &s = kv.second;
            info.children = stringList(at(s, "switches"));
            auto labels = stringMap(at(s, "labels"));
            auto meta = metadataLabels(at(s, "metadata"));
            labels.insert(meta.begin(), meta.end());
            info.labels = labels;
            info.nodeExprs = stringList(at(s, "nodes"));
        }
    if (blocks && blocks.IsSequence()) {
        m.schema = "v1 (switches and blocks)";
        int k = 0;
        for (const YAML::Node &b : blocks) {
            const std::string name = "block" + std::to_string(k++);
            BlockInfo &info = m.blocks[name];
            m.blockOrder.push_back(name);
            info.line = topoLineOf(b);
            info.leaf = topoScalarOf(at(b, "switch"));
            info.nodeExprs = stringList(at(b, "nodes"));
            info.labels = stringMap(at(b, "labels"));
            for (const auto &[k2, v] : stringMap(at(b, "annotations")))
                if (k2.ends_with("/domain"))
                    info.domain = v;
                else
                    info.labels[k2] = v;
        }
    } else if (cbs && cbs.IsMap()) {
        m.schema = "v0.4-0.5 (maps of switches and capacity blocks)";
        for (const auto &kv : cbs) {
            const std::string name = kv.first.Scalar();
            BlockInfo &info = m.blocks[name];
            m.blockOrder.push_back(name);
            info.line = topoLineOf(kv.first);
            info.nodeExprs = stringList(at(kv.second, "nodes"));
            info.domain = topoScalarOf(at(at(kv.second, "attributes"), "nvlink"));
        }
    } else if (m.schema.empty()) {
        m.schema = "v0.4-0.5 (maps of switches)";
    }
}

} // namespace

FormatMatch TopographImporter::detect(const ImportSample &sample) const
{
    const std::string &h = sample.head;
    if (detection::yamlKey(h, "switches") &&
        (detection::yamlKey(h, "blocks") || detection::yamlKey(h, "capacity_blocks")))
        return {3, "YAML with switches and blocks (a topograph model)"};
    return {};
}

Result<ImportReport> TopographImporter::read(const std::vector<ImportInput> &inputs,
                                             const ImportOptions &options) const
{
    const ImportInput &in = inputs.front();
    ImportReport report;
    report.format = name();
    auto text = in.wholeUtf8Text();
    if (!text)
        return text.problems();
    if (auto ok = checkYamlExpansion(text.value(), in.name); !ok)
        return ok.problems();
    Model m;
    try {
        const YAML::Node doc = YAML::Load(text.value());
        if (!doc.IsMap() || !at(doc, "switches"))
            return Result<ImportReport>::failure(in.name, "expected a topograph model (a map with "
                                                          "switches and blocks)");
        readModel(doc, m);
    } catch (const YAML::Exception &e) {
        return Result<ImportReport>::failure(in.name + ":" + std::to_string(e.mark.line + 1),
                                             "column " + std::to_string(e.mark.column + 1) + ": " +
                                                 e.msg);
    }
    in.done();
    const auto at = [&](int line) { return in.name + ":" + std::to_string(line); };
    // v1 leaves named only by their block.
    for (const std::string &b : m.blockOrder)
        if (!m.blocks[b].leaf.empty())
            addSwitch(m, m.blocks[b].leaf, m.blocks[b].line);
    // Parents: each switch at most one.
    std::map<std::string, std::string> parent;
    // By index and by value: a child named only here is appended to m.order meanwhile.
    for (std::size_t i = 0; i < m.order.size(); ++i) {
        const std::string s = m.order[i];
        SwitchInfo &info = m.switches[s];
        for (const std::string &child : info.children) {
            if (child.empty())
                return Result<ImportReport>::failure(at(info.line),
                                                     "switch " + s + " lists an empty child");
            if (!m.switches.count(child))
                addSwitch(m, child, info.line); // a child named only here is a switch
            if (auto p = parent.find(child); p != parent.end())
                return Result<ImportReport>::failure(
                    at(info.line), "switch " + child + " has two parents, " + p->second + " and " +
                                       s + " (a tree has one)");
            parent[child] = s;
        }
    }
    // No cycles: walk up from each switch.
    for (const std::string &s : m.order) {
        std::set<std::string> seen;
        std::string cur = s;
        while (parent.count(cur)) {
            if (!seen.insert(cur).second)
                return Result<ImportReport>::failure(at(m.switches[s].line),
                                                     "switch " + s + " is in a cycle of switches");
            cur = parent[cur];
        }
    }
    // Nodes: from the blocks (v1: under their leaf; v0.1: under the switch that lists the
    // block) and from switches' own node lists (v0.5, whose blocks only add the NVLink domain).
    struct Placed
    {
        std::string sw;
        std::string domain;
        std::string gpuType;
        std::map<std::string, std::string> labels;
        int line;
    };
    std::map<std::string, Placed> nodes;
    std::vector<std::string> nodeOrder;
    std::map<std::string, std::string> blockSwitch; // v0.1: block -> switch
    for (const std::string &s : m.order)
        for (const std::string &b : m.switches[s].blocks) {
            if (!m.blocks.count(b))
                return Result<ImportReport>::failure(
                    at(m.switches[s].line), "switch " + s + " lists unknown capacity block " + b);
            blockSwitch[b] = s;
        }
    auto place = [&](const std::string &expr, int line, const std::string &sw,
                     const BlockInfo *block) -> Status {
        auto names = expandHostlist(expr);
        if (!names)
            return Status::failure(at(line),
                                   "nodes " + importtext::shown(expr) + ": " + names.error());
        for (const std::string &n : names.value()) {
            auto it = nodes.find(n);
            if (it != nodes.end()) {
                if (!sw.empty() && !it->second.sw.empty() && it->second.sw != sw)
                    return Status::failure(at(line), "node " + n + " is under two switches, " +
                                                         it->second.sw + " and " + sw);
                if (sw.empty() || it->second.sw.empty()) {
                    if (!sw.empty())
                        it->second.sw = sw;
                    if (block && it->second.domain.empty())
                        it->second.domain = block->domain;
                    continue;
                }
                if (block)
                    return Status::failure(at(line), "node " + n + " is in two blocks");
                continue;
            }
            Placed p{sw, block ? block->domain : "", block ? block->gpuType : "",
                     block ? block->labels : std::map<std::string, std::string>{}, line};
            nodes.emplace(n, p);
            nodeOrder.push_back(n);
        }
        return Ok{};
    };
    for (const std::string &s : m.order)
        for (const std::string &expr : m.switches[s].nodeExprs)
            if (auto ok = place(expr, m.switches[s].line, s, nullptr); !ok)
                return ok.problems();
    for (const std::string &b : m.blockOrder) {
        const BlockInfo &info = m.blocks[b];
        std::string sw = info.leaf;
        if (sw.empty())
            if (auto it = blockSwitch.find(b); it != blockSwitch.end())
                sw = it->second;
        if (info.nodeExprs.empty()) {
            report.assume(in.name + ": block " + b + " (line " + std::to_string(info.line) +
                          ") lists no node");
            continue;
        }
        for (const std::string &expr : info.nodeExprs)
            if (auto ok = place(expr, info.line, sw, &info); !ok)
                return ok.problems();
    }
    if (nodes.empty())
        return Result<ImportReport>::failure(in.name, "no node in any block or switch");

    Cluster c;
    std::set<std::string> nodeIds(nodeOrder.begin(), nodeOrder.end());
    std::map<std::string, std::string> switchId; // name -> id (renamed if a node has it)
    for (const std::string &s : m.order) {
        std::string id = s;
        while (nodeIds.count(id))
            id += "_";
        switchId[s] = id;
    }
    std::map<std::string, bool> hasNodes;
    for (const auto &[n, p] : nodes)
        if (!p.sw.empty())
            hasNodes[p.sw] = true;
    // A switch is a leaf when it holds nodes, or when no switch hangs below it (a rack
    // whose nodes are all gone is still a rack, not a spine).
    std::set<std::string> hasChild;
    for (const auto &[child, up] : parent)
        hasChild.insert(up);
    std::vector<std::string> roots;
    for (const std::string &s : m.order) {
        const bool leaf = hasNodes.count(s) > 0 || !hasChild.count(s);
        c.switches.push_back({switchId[s], leaf ? "leaf" : parent.count(s) ? "spine" : "core"});
        if (parent.count(s))
            addImportLink(c, switchId[s], switchId[parent[s]], false);
        else
            roots.push_back(s);
    }
    std::size_t loose = 0, typed = 0;
    const NodeTemplate &t = options.nodeTemplate;
    for (const std::string &name : nodeOrder) {
        const Placed &p = nodes[name];
        Node n;
        n.id = name;
        n.gpus = 8;
        n.cpus = 64;
        n.memoryGiB = 512;
        n.gpuType = !options.gpuType.empty() ? options.gpuType
                    : !p.gpuType.empty()     ? p.gpuType
                                             : std::string(kUnknownGpuType);
        typed += options.gpuType.empty() && !p.gpuType.empty();
        applyNodeTemplate(t, n);
        // Labels of the switches above, the nearer winning; then the block's own.
        std::vector<std::string> path;
        for (std::string s = p.sw; !s.empty(); s = parent.count(s) ? parent[s] : "")
            path.push_back(s);
        for (auto it = path.rbegin(); it != path.rend(); ++it)
            for (const auto &[k, v] : m.switches[*it].labels)
                n.labels[k] = v;
        for (const auto &[k, v] : p.labels)
            n.labels[k] = v;
        if (!p.domain.empty())
            n.labels["accelerator.topograph.run/domain"] = p.domain;
        n.labels["kubernetes.io/hostname"] = name;
        n.rack = p.sw.empty() ? std::string() : switchId[p.sw];
        c.nodes.push_back(n);
        if (p.sw.empty())
            ++loose;
        else
            addImportLink(c, name, switchId[p.sw], true);
    }
    if (roots.size() > 1 || loose > 0) {
        std::string core = "core";
        while (nodeIds.count(core) || switchId.count(core))
            core += "_";
        c.switches.push_back({core, "core"});
        for (const std::string &r : roots)
            addImportLink(c, switchId[r], core, false);
        for (const std::string &name : nodeOrder)
            if (nodes[name].sw.empty())
                addImportLink(c, name, core, true);
        report.assume(std::to_string(roots.size()) + " top switches" +
                      (loose ? " and " + std::to_string(loose) + " nodes under no switch" : "") +
                      " joined by one switch \"" + core + "\"");
    }
    report.assume(in.name + ": topograph model, schema " + m.schema + ": " +
                  counted(long(m.order.size()), "switch", "switches") + ", " +
                  counted(long(c.nodes.size()), "node"));
    report.assume(
        "the model does not say what a node holds: each of the " + std::to_string(c.nodes.size()) +
        " nodes has " +
        (t.empty() ? std::string("8 GPUs, 64 CPUs and 512 GiB; --node-template gives "
                                 "them")
                   : "the node template (" + t.source + "): " + t.toString()) +
        (typed ? "; GPU type from the capacity block's type for " + std::to_string(typed) + " nodes"
               : std::string()));
    std::size_t domains = 0;
    for (const Node &n : c.nodes)
        domains += n.labels.count("accelerator.topograph.run/domain");
    if (domains > 0)
        report.assume(std::to_string(domains) +
                      " nodes carry an NVLink domain (label accelerator.topograph.run/domain): "
                      "NVLink between nodes is not modelled");
    reportLinkDefaults(report);
    addMissingGpuTypes(c, report);
    report.cluster = std::move(c);
    return report;
}

} // namespace cb
