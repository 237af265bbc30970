#include "io/import/slurm_conf_importer.h"

#include "io/export/slurm_names.h"
#include "io/import/cluster_links.h"
#include "io/import/format_detection.h"
#include "io/import/hostlist.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/slurm_config_text.h"
#include "io/import/slurm_topology_yaml.h"
#include "io/import/text_fields.h"
#include "io/scenario_limits.h"
#include "util/text.h"

#include <algorithm>
#include <map>
#include <set>

namespace cb {

namespace {

using Lines = std::vector<SlurmConfigLine>;

struct Files
{
    const ImportInput *conf = nullptr, *gres = nullptr, *topology = nullptr;
    Lines confLines, gresLines, topoLines;
};

enum class Kind { Conf, Gres, Topology };

Kind classify(const Lines &lines)
{
    for (const SlurmConfigLine &l : lines) {
        const std::string &k = l.firstKey();
        if (k == "switchname" || k == "blockname" || k == "blocksizes" || k == "ringname")
            return Kind::Topology;
    }
    for (const SlurmConfigLine &l : lines)
        if (l.has("name") || l.has("autodetect"))
            return Kind::Gres;
    return Kind::Conf;
}

std::string where(const ImportInput &in, int line)
{
    return in.name + ":" + std::to_string(line);
}

// GPU devices a gres.conf line gives each of its nodes: distinct device files, else Count.
struct GresGpus
{
    std::string type;
    std::set<std::string> files;
    long long count = 0;
    long long total() const { return files.empty() ? count : (long long)files.size(); }
};

struct Builder
{
    Cluster cluster;
    std::map<std::string, std::size_t> index;
    ImportReport &report;
    /// Nodes whose NodeName line gives no RealMemory, and no CPUs (nor sockets, boards,
    /// cores or threads to count them from): a node template fills these in.
    std::set<std::string> noMemory, noCpus;

    explicit Builder(ImportReport &r) : report(r) {}

    Node &ensure(const std::string &id)
    {
        auto it = index.find(id);
        if (it != index.end())
            return cluster.nodes[it->second];
        Node n;
        n.id = id;
        n.cpus = 1;
        n.memoryGiB = 1.0 / 1024.0;
        index.emplace(id, cluster.nodes.size());
        cluster.nodes.push_back(n);
        return cluster.nodes.back();
    }
};

Status readSlurmConf(const ImportInput &in, const Lines &lines, Builder &b)
{
    std::map<std::string, std::string> defaults;
    std::size_t multiType = 0;
    for (const SlurmConfigLine &l : lines) {
        const std::string &k = l.firstKey();
        if (k == "nodename") {
            const std::string names = l.value("nodename");
            std::map<std::string, std::string> p = defaults;
            for (const auto &[key, value] : l.pairs)
                p[key] = value;
            if (importtext::lower(names) == "default") {
                defaults = p;
                defaults.erase("nodename");
                continue;
            }
            for (const char *key : {"gres", "cpus", "realmemory", "feature", "features"})
                if (l.count(key) > 1)
                    b.report.assume(where(in, l.line) + ": " + key + " is given " +
                                    std::to_string(l.count(key)) +
                                    " times; the last value is "
                                    "used, as Slurm does");
            auto hosts = expandHostlist(names);
            if (!hosts)
                return Status::failure(where(in, l.line), "NodeName: " + hosts.error());
            // A line left out leaves out every node it defines: said with the line's reason.
            const std::string leftOut = hosts->size() == 1
                                            ? std::string()
                                            : "; the line's " + std::to_string(hosts->size()) +
                                                  " nodes (" + names + ") are left out";
            // (keys are read lower-cased; a message spells them as slurm.conf does)
            auto num = [&](const char *key, const char *spelled, double fallback, bool &bad) {
                auto it = p.find(key);
                if (it == p.end() || it->second.empty())
                    return fallback;
                auto v = importtext::parseNumber(it->second);
                if (!v || *v <= 0) {
                    bad = true;
                    b.report.skip(in.name, l.line,
                                  std::string(spelled) +
                                      ": expected a positive "
                                      "number, found \"" +
                                      it->second + "\"" + leftOut);
                    return fallback;
                }
                return *v;
            };
            bool bad = false;
            const double sockets =
                num("sockets", "Sockets",
                    num("socketsperboard", "SocketsPerBoard", 1, bad) *
                        num("boards", "Boards", 1, bad),
                    bad);
            const double cores = num("corespersocket", "CoresPerSocket", 1, bad);
            const double threads = num("threadspercore", "ThreadsPerCore", 1, bad);
            const double cpus = num("cpus", "CPUs", sockets * cores * threads, bad);
            bool noCpus = true;
            for (const char *key : {"cpus", "sockets", "socketsperboard", "boards",
                                    "corespersocket", "threadspercore"})
                noCpus = noCpus && !p.count(key);
            const bool noMemory = !p.count("realmemory");
            const double memMiB = num("realmemory", "RealMemory", 1, bad);
            std::vector<SlurmGres> gres;
            if (p.count("gres")) {
                std::string err;
                auto g = parseSlurmGres(p["gres"], &err);
                if (!g) {
                    b.report.skip(in.name, l.line, "Gres: " + err + leftOut);
                    bad = true;
                } else {
                    gres = *g;
                }
            }
            if (bad)
                continue;
            long long gpus = 0;
            std::string type, types;
            for (const SlurmGres &g : gres) {
                if (g.name != "gpu")
                    continue;
                gpus += g.count; // each at most kMaxGresCount: no overflow
                if (type.empty())
                    type = g.type;
                types += (types.empty() ? "" : ", ") + (g.type.empty() ? "gpu" : g.type) + ":" +
                         std::to_string(g.count);
            }
            if (gpus > limits::kMaxGpusPerNode) {
                b.report.skip(in.name, l.line,
                              "Gres: " + std::to_string(gpus) + " GPUs on one node (" + names +
                                  "); a node holds at most " +
                                  std::to_string(limits::kMaxGpusPerNode),
                              "Gres: more GPUs than a node can hold");
                continue;
            }
            if (types.find(',') != std::string::npos)
                ++multiType;
            for (const std::string &h : hosts.value()) {
                if (b.index.count(h)) {
                    b.report.skip(in.name, l.line,
                                  "node \"" + h +
                                      "\" is defined again; the "
                                      "first definition is kept",
                                  "node defined again (the first definition kept)");
                    continue;
                }
                Node &n = b.ensure(h);
                n.cpus = cpus;
                n.memoryGiB = memMiB / 1024.0;
                n.gpus = int(gpus);
                n.gpuType = type;
                if (noMemory)
                    b.noMemory.insert(h);
                if (noCpus)
                    b.noCpus.insert(h);
                std::string features = p.count("features") ? p["features"] : p["feature"];
                for (const std::string &f : importtext::split(features, ','))
                    if (!importtext::trim(f).empty())
                        n.labels["slurm.feature/" + importtext::trim(f)] = "true";
                if (types.find(',') != std::string::npos)
                    n.labels["slurm.gres/gpu"] = types;
            }
        }
    }
    if (multiType > 0)
        b.report.assume(std::to_string(multiType) +
                        " NodeName lines list several GPU types; "
                        "a node holds one type in this model: all its GPUs take the first "
                        "listed type (the full list is kept in the label slurm.gres/gpu)");
    // Partitions, after all nodes are known: their nodes, and their own settings (MaxTime,
    // Default), kept so that an export writes them back (PartitionName=DEFAULT gives later
    // lines' MaxTime).
    std::size_t inSeveral = 0;
    std::optional<double> defaultMaxTime;
    for (const SlurmConfigLine &l : lines) {
        if (l.firstKey() != "partitionname")
            continue;
        const std::string part = l.value("partitionname");
        std::optional<double> maxTime = defaultMaxTime;
        if (l.has("maxtime")) {
            auto parsed = SlurmNames::parseTime(l.value("maxtime"));
            if (!parsed)
                return Status::failure(where(in, l.line), "MaxTime: " + parsed.error());
            maxTime = parsed.value();
        }
        if (importtext::lower(part) == "default") {
            defaultMaxTime = maxTime;
            continue;
        }
        if (!l.has("nodes"))
            continue;
        if (std::none_of(b.cluster.partitions.begin(), b.cluster.partitions.end(),
                         [&](const Partition &p) { return p.name == part; })) {
            bool isDefault = importtext::lower(l.value("default")) == "yes";
            if (isDefault && std::any_of(b.cluster.partitions.begin(), b.cluster.partitions.end(),
                                         [](const Partition &p) { return p.isDefault; })) {
                // (Slurm takes the last Default=YES; the first is kept here, and said)
                b.report.assume(where(in, l.line) + ": partition " + part +
                                " is a second Default=YES; the first default partition is kept");
                isDefault = false;
            }
            b.cluster.partitions.push_back({part, maxTime, isDefault});
        }
        std::vector<std::string> members;
        if (importtext::lower(l.value("nodes")) == "all") {
            for (const Node &n : b.cluster.nodes)
                members.push_back(n.id);
        } else {
            auto hosts = expandHostlist(l.value("nodes"));
            if (!hosts)
                return Status::failure(where(in, l.line), "Nodes: " + hosts.error());
            members = hosts.value();
        }
        for (const std::string &m : members) {
            auto it = b.index.find(m);
            if (it == b.index.end()) {
                b.report.skip(in.name, l.line,
                              "partition " + part + " names unknown node \"" + m + "\"",
                              "partition names an unknown node");
                continue;
            }
            Node &n = b.cluster.nodes[it->second];
            if (n.partition.empty())
                n.partition = part;
            else if (n.partition != part)
                ++inSeveral;
        }
    }
    if (inSeveral > 0)
        b.report.assume(std::to_string(inSeveral) +
                        " node memberships in further partitions "
                        "not kept: a node's partition is the first listing it");
    return Ok{};
}

Status readGres(const ImportInput &in, const Lines &lines, Builder &b, bool haveConf)
{
    std::map<std::string, std::map<std::string, GresGpus>> perNode; // node -> type -> gpus
    std::string globalType;
    std::size_t global = 0, ignored = 0;
    std::set<std::string> otherNames;
    for (const SlurmConfigLine &l : lines) {
        if (!l.has("name")) {
            ++ignored; // AutoDetect and other lines without a GRES
            continue;
        }
        const std::string name = importtext::lower(l.value("name"));
        if (name != "gpu") {
            otherNames.insert(name);
            continue;
        }
        GresGpus g;
        g.type = l.value("type");
        if (l.has("file")) {
            auto files = expandHostlist(l.value("file"));
            if (!files)
                return Status::failure(where(in, l.line), "File: " + files.error());
            g.files.insert(files->begin(), files->end());
        }
        if (l.has("count")) {
            auto c = importtext::parseInteger(l.value("count"));
            if (!c || *c < 0 || *c > limits::kMaxGpusPerNode) {
                b.report.skip(in.name, l.line,
                              "Count: expected a whole number, found \"" + l.value("count") + "\"",
                              "Count: expected a whole number");
                continue;
            }
            if (g.files.empty())
                g.count = *c;
        } else if (g.files.empty()) {
            g.count = 1;
        }
        if (!l.has("nodename")) {
            ++global;
            if (globalType.empty())
                globalType = g.type;
            continue;
        }
        auto hosts = expandHostlist(l.value("nodename"));
        if (!hosts)
            return Status::failure(where(in, l.line), "NodeName: " + hosts.error());
        for (const std::string &h : hosts.value()) {
            if (haveConf && !b.index.count(h)) {
                b.report.skip(in.name, l.line, "node \"" + h + "\" is not in slurm.conf",
                              "gres.conf node not in slurm.conf");
                continue;
            }
            GresGpus &acc = perNode[h][g.type];
            acc.type = g.type;
            acc.files.insert(g.files.begin(), g.files.end());
            acc.count = std::min<long long>(acc.count + g.count, limits::kMaxGpusPerNode + 1);
        }
    }
    if (!otherNames.empty()) {
        std::string names;
        for (const std::string &n : otherNames)
            names += (names.empty() ? "" : ", ") + n;
        b.report.assume("gres.conf GRES other than gpu not modelled: " + names);
    }
    if (ignored > 0)
        b.report.assume(std::to_string(ignored) + " gres.conf lines without Name= (AutoDetect) "
                                                  "ignored: GPU counts come from File/Count");
    if (global > 0)
        b.report.assume(std::to_string(global) +
                        " gres.conf lines name no NodeName: they "
                        "describe whichever node reads the file, so they only give a GPU "
                        "type to nodes that have none" +
                        std::string(haveConf ? "" : " and define no node"));
    std::size_t disagree = 0; // nodes where slurm.conf's count is kept over gres.conf's
    std::string disagreeShown;  // the first three of them
    for (auto &[host, byType] : perNode) {
        Node &n = b.ensure(host);
        if (haveConf) {
            long long devices = 0;
            for (const auto &[type, g] : byType)
                devices += g.total();
            if (devices != n.gpus && ++disagree <= 3)
                disagreeShown += (disagreeShown.empty() ? "" : "; ") + host + " " +
                                 std::to_string(devices) + " in gres.conf, " +
                                 std::to_string(n.gpus) + " in slurm.conf";
            if (n.gpus > 0 && n.gpuType.empty())
                for (const auto &[type, g] : byType)
                    if (!type.empty()) {
                        n.gpuType = type;
                        break;
                    }
            continue;
        }
        // gres.conf alone: GPU devices of every line for this node, merged by device file.
        long long total = 0;
        for (const auto &[type, g] : byType) {
            total += g.total();
            if (n.gpuType.empty())
                n.gpuType = type;
        }
        if (total > limits::kMaxGpusPerNode) {
            b.report.skip(in.name, 0,
                          "node " + importtext::shown(host) + ": " + std::to_string(total) +
                              " GPUs in gres.conf; a node holds at most " +
                              std::to_string(limits::kMaxGpusPerNode) + ": no GPUs kept",
                          "more GPUs than a node can hold");
            total = 0;
        }
        n.gpus = int(total);
    }
    if (!haveConf && !perNode.empty())
        b.report.assume("gres.conf read without slurm.conf: a node's GPUs are its distinct "
                        "device files (File) over all lines naming it, else the sum of Count");
    for (Node &n : b.cluster.nodes)
        if (n.gpus > 0 && n.gpuType.empty() && !globalType.empty())
            n.gpuType = globalType;
    if (disagree > 0)
        b.report.assume(std::to_string(disagree) + (disagree == 1 ? " node has" : " nodes have") +
                        " other GPU counts in gres.conf than Gres= in slurm.conf (" +
                        disagreeShown + (disagree > 3 ? "; ..." : "") +
                        "): slurm.conf's are used; Slurm drains a node whose gres.conf devices "
                        "fall short of its Gres=");
    return Ok{};
}

Status readTopology(const ImportInput &in, const Lines &allLines, Builder &b, bool haveNodes)
{
    // One topology plugin at a time: a file with tree and block (or ring) lines, such as the
    // man page's example of all three, is read as its tree.
    bool tree = false, block = false;
    std::size_t rings = 0;
    for (const SlurmConfigLine &l : allLines) {
        tree = tree || l.firstKey() == "switchname";
        block = block || l.firstKey() == "blockname" || l.firstKey() == "blocksizes";
        rings += l.firstKey() == "ringname";
    }
    Lines lines;
    for (const SlurmConfigLine &l : allLines)
        if (!(tree && (l.firstKey() == "blockname" || l.firstKey() == "blocksizes")))
            lines.push_back(l);
    if (tree && block)
        b.report.assume(in.name + " has tree (SwitchName) and block (BlockName) lines; a "
                                  "cluster uses one topology plugin: the tree is used, the "
                                  "blocks are not");
    if (rings > 0)
        b.report.assume(in.name + ": " + std::to_string(rings) +
                        " RingName lines (topology/ring) are not modelled");
    Cluster &c = b.cluster;
    // child switch -> its parent switches (several in a fat-tree: an aggregation switch
    // sits under every core switch it links to)
    std::map<std::string, std::vector<std::string>> parentsOf;
    std::map<std::string, std::size_t> namedAt; // child switch -> the first line naming it
    std::vector<std::string> switches;
    std::set<std::string> switchSet;
    std::map<std::string, std::vector<std::string>> nodeSwitch; // node -> its leaf switches
    std::vector<std::string> blocks;
    bool linkSpeed = false;
    auto addSwitch = [&](const std::string &id, const char *tier) {
        if (switchSet.insert(id).second) {
            switches.push_back(id);
            c.switches.push_back({id, tier});
        }
    };
    auto attach = [&](const SlurmConfigLine &l, const std::string &sw) -> Status {
        auto hosts = expandHostlist(l.value("nodes"));
        if (!hosts)
            return Status::failure(where(in, l.line), "Nodes: " + hosts.error());
        for (const std::string &h : hosts.value()) {
            if (haveNodes && !b.index.count(h)) {
                b.report.skip(in.name, l.line,
                              "node \"" + h +
                                  "\" is not defined by the "
                                  "other files",
                              "node not defined by slurm.conf or gres.conf");
                continue;
            }
            std::vector<std::string> &under = nodeSwitch[h];
            if (std::find(under.begin(), under.end(), sw) != under.end()) {
                b.report.skip(in.name, l.line,
                              "node \"" + h + "\" is listed twice under switch " + sw,
                              "node listed twice under one switch");
                continue;
            }
            // A node under several switches (a rail-optimized fabric: one NIC per rail) is
            // linked to each; its rack is the first.
            if (under.empty())
                b.ensure(h).rack = sw;
            under.push_back(sw);
        }
        return Ok{};
    };
    for (const SlurmConfigLine &l : lines) {
        const std::string &k = l.firstKey();
        linkSpeed = linkSpeed || l.has("linkspeed");
        if (k == "switchname") {
            const std::string sw = l.value("switchname");
            addSwitch(sw, l.has("nodes") ? "leaf" : "spine");
            if (l.has("nodes"))
                if (auto s = attach(l, sw); !s)
                    return s;
            if (l.has("switches")) {
                auto children = expandHostlist(l.value("switches"));
                if (!children)
                    return Status::failure(where(in, l.line), "Switches: " + children.error());
                for (const std::string &ch : children.value()) {
                    namedAt.emplace(ch, l.line);
                    auto &parents = parentsOf[ch];
                    if (std::find(parents.begin(), parents.end(), sw) == parents.end())
                        parents.push_back(sw);
                }
            }
        } else if (k == "blockname") {
            const std::string bl = l.value("blockname");
            addSwitch(bl, "block");
            blocks.push_back(bl);
            if (l.has("nodes"))
                if (auto s = attach(l, bl); !s)
                    return s;
        } else if (k != "blocksizes" && k != "ringname") {
            // (a line cut short, "SwitchNam", or a misspelt keyword: said, never dropped
            // silently)
            b.report.skip(in.name, l.line,
                          "\"" + k +
                              "\" is not a topology.conf line (expected SwitchName=, "
                              "BlockName= or BlockSizes=)",
                          "not a topology.conf line");
        }
    }
    for (const auto &[child, parents] : parentsOf)
        if (!switchSet.count(child))
            return Status::failure(where(in, namedAt[child]),
                                   "switch " + parents.front() + " lists unknown switch \"" +
                                       child + "\" (no SwitchName=" + child + " line)");
    // Every node under its switches, every switch under its parent.
    std::size_t multiHomed = 0;
    for (const Node &n : std::vector<Node>(c.nodes)) {
        const auto under = nodeSwitch.find(n.id);
        if (under == nodeSwitch.end())
            continue;
        for (const std::string &sw : under->second)
            addImportLink(c, n.id, sw, true);
        multiHomed += under->second.size() > 1 ? 1 : 0;
    }
    if (multiHomed > 0)
        b.report.assume(counted(multiHomed, "node is", "nodes are") +
                        " under several leaf switches (a rail-optimized fabric): each is linked "
                        "to every one, and a flow takes one shortest path between its nodes");
    std::vector<std::string> roots;
    for (const std::string &s : switches) {
        if (parentsOf.count(s))
            for (const std::string &parent : parentsOf[s])
                addImportLink(c, s, parent, false);
        else
            roots.push_back(s);
    }
    std::vector<std::string> loose;
    for (const Node &n : c.nodes)
        if (!nodeSwitch.count(n.id) || nodeSwitch[n.id].empty())
            loose.push_back(n.id);
    if (roots.size() + loose.size() > 1) {
        std::string top = blocks.empty() ? "root" : "block-spine";
        while (switchSet.count(top) || b.index.count(top))
            top += "_";
        addSwitch(top, blocks.empty() ? "core" : "spine");
        for (const std::string &r : roots)
            addImportLink(c, r, top, false);
        for (const std::string &n : loose)
            addImportLink(c, n, top, true);
        if (!blocks.empty())
            b.report.assume("blocks are joined by one switch \"" + top + "\"");
        else if (roots.size() > 1)
            b.report.assume("the switch tree has " + std::to_string(roots.size()) +
                            " top switches: joined by one switch \"" + top + "\"");
        if (!loose.empty())
            b.report.assume(std::to_string(loose.size()) +
                            " nodes are under no switch in "
                            "topology.conf: linked to \"" +
                            top + "\"");
    }
    if (linkSpeed)
        b.report.assume("LinkSpeed values are relative (Slurm gives them no unit): not used");
    reportLinkDefaults(b.report);
    return Ok{};
}

} // namespace

FormatMatch SlurmConfImporter::detect(const ImportSample &sample) const
{
    const std::string &h = sample.head;
    if (looksLikeSlurmTopologyYaml(h))
        return {3, "a Slurm topology.yaml (- topology: with tree, block or flat)"};
    // scontrol show node output names CPUAlloc or AllocMem: not a configuration file.
    if (detection::lineStartsWithKey(h, "NodeName") &&
        (h.find("CPUAlloc=") != std::string::npos || h.find("AllocMem=") != std::string::npos))
        return {};
    for (const char *key : {"SwitchName", "BlockName", "BlockSizes"})
        if (detection::lineStartsWithKey(h, key))
            return {3, std::string("topology.conf lines (") + key + "=)"};
    // gres.conf lines may start with NodeName= too: their Name= (or AutoDetect=) says which.
    for (const SlurmConfigLine &l : parseSlurmConfig(h))
        if (l.firstKey() == "nodename" && (l.has("name") || l.has("autodetect")))
            return {3, "gres.conf lines (NodeName= with Name=)"};
    for (const char *key : {"ClusterName", "SlurmctldHost", "ControlMachine", "PartitionName",
                            "SelectType", "NodeName"})
        if (detection::lineStartsWithKey(h, key))
            return {3, std::string("slurm.conf lines (") + key + "=)"};
    for (const char *key : {"Name", "AutoDetect"})
        if (detection::lineStartsWithKey(h, key))
            return {3, std::string("gres.conf lines (") + key + "=)"};
    return {};
}

Result<ImportReport> SlurmConfImporter::read(const std::vector<ImportInput> &inputs,
                                             const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    Files f;
    for (const ImportInput &in : inputs) {
        auto text = in.wholeUtf8Text();
        if (!text)
            return text.problems();
        const bool yaml = looksLikeSlurmTopologyYaml(text.value());
        Lines lines;
        if (yaml) {
            auto converted = slurmTopologyYamlLines(text.value(), in.name, report);
            if (!converted)
                return converted.problems();
            lines = std::move(converted.value());
        } else {
            lines = parseSlurmConfig(text.value());
        }
        in.done();
        const Kind kind = yaml ? Kind::Topology : classify(lines);
        const ImportInput **slot = kind == Kind::Topology ? &f.topology
                                   : kind == Kind::Gres   ? &f.gres
                                                          : &f.conf;
        if (*slot)
            return Result<ImportReport>::failure(in.name,
                                                 std::string("a second ") +
                                                     (kind == Kind::Topology ? "topology.conf"
                                                      : kind == Kind::Gres   ? "gres.conf"
                                                                             : "slurm.conf") +
                                                     " (already read " + (*slot)->name + ")");
        *slot = &in;
        (kind == Kind::Topology ? f.topoLines
         : kind == Kind::Gres   ? f.gresLines
                                : f.confLines) = std::move(lines);
    }
    Builder b(report);
    if (f.conf)
        if (auto s = readSlurmConf(*f.conf, f.confLines, b); !s)
            return s.problems();
    if (f.conf && b.cluster.nodes.empty() && report.skippedCount > 0) {
        // Every NodeName line left out: the import reports nothing usable, with each
        // line's reason.
        report.cluster = Cluster{};
        return report;
    }
    if (f.conf && b.cluster.nodes.empty())
        return Result<ImportReport>::failure(
            f.conf->name, f.confLines.empty()
                              ? "the file is empty (or only comments): expected slurm.conf, "
                                "gres.conf, topology.conf or topology.yaml lines"
                              : "no NodeName line defines a node");
    if (f.gres)
        if (auto s = readGres(*f.gres, f.gresLines, b, f.conf != nullptr); !s)
            return s.problems();
    if (f.topology)
        if (auto s = readTopology(*f.topology, f.topoLines, b, !b.cluster.nodes.empty()); !s)
            return s.problems();
    if (b.cluster.nodes.empty())
        return Result<ImportReport>::failure(
            inputs.front().name,
            f.gres && !f.conf
                ? "no node is defined: gres.conf lines without NodeName= describe the node the "
                  "file sits on, which slurm.conf names; give slurm.conf (its NodeName lines) "
                  "too: clusterbench import slurm slurm.conf gres.conf --out ..."
                : "no node is defined");
    const NodeTemplate &t = options.nodeTemplate;
    std::size_t templateMemory = 0;
    if (f.conf && !t.empty()) {
        // slurm.conf describes the nodes; the template fills in only what a NodeName line
        // leaves out (RealMemory, the CPUs, a GPU type), never what it says.
        std::size_t cpusFilled = 0, typesFilled = 0;
        for (Node &n : b.cluster.nodes) {
            if (t.memoryGiB && b.noMemory.count(n.id)) {
                n.memoryGiB = *t.memoryGiB;
                ++templateMemory;
            }
            if (t.cpus && b.noCpus.count(n.id)) {
                n.cpus = *t.cpus;
                ++cpusFilled;
            }
            if (!t.gpuType.empty() && n.gpus > 0 && n.gpuType.empty()) {
                n.gpuType = t.gpuType;
                ++typesFilled;
            }
        }
        std::string filled;
        auto add = [&](std::size_t count, const std::string &what) {
            if (count > 0)
                filled += (filled.empty() ? "" : "; ") + what + " of " + std::to_string(count) +
                          " node" + (count == 1 ? "" : "s");
        };
        add(templateMemory, "memory (no RealMemory)");
        add(cpusFilled, "CPUs (no CPUs, Sockets or cores given)");
        add(typesFilled, "GPU type (Gres=gpu without a type)");
        std::string unused;
        if (t.gpus)
            unused += ", GPUs (Gres= on the NodeName lines says them)";
        if (t.interconnect)
            unused += ", the GPU interconnect";
        report.assume(filled.empty()
                          ? "--node-template is not used: slurm.conf describes the nodes (its "
                            "NodeName lines) and leaves out nothing the template gives "
                            "(RealMemory, CPUs, a GPU type)"
                          : (t.source == "--node-template"
                                 ? std::string("--node-template")
                                 : "the node template (" + t.source + ")") +
                                " fills in what the NodeName lines leave out: " + filled +
                                (unused.empty() ? std::string()
                                                : "; not used: " + unused.substr(2)));
    }
    if (!f.conf && !t.empty()) {
        // The template fills what the files do not say: GPUs from gres.conf stay.
        for (Node &n : b.cluster.nodes) {
            const int gresGpus = n.gpus;
            const std::string gresType = n.gpuType;
            applyNodeTemplate(t, n);
            if (f.gres && gresGpus > 0) {
                n.gpus = gresGpus;
                n.gpuType = gresType.empty() ? t.gpuType : gresType;
            }
        }
        report.assume("no slurm.conf: the " + std::to_string(b.cluster.nodes.size()) +
                      " nodes take the node template (" + t.source + "): " + t.toString() +
                      (f.gres ? "; GPUs from gres.conf where it names the node" : ""));
        if (!t.cpus || !t.memoryGiB)
            report.assume(std::string("the node template gives no ") +
                          (!t.cpus && !t.memoryGiB ? "CPUs or memory"
                           : !t.cpus               ? "CPUs"
                                                   : "memory") +
                          ": Slurm's defaults of 1 CPU and 1 MiB where it says nothing");
    } else if (!f.conf) {
        report.assume("no slurm.conf: nodes take Slurm's defaults of 1 CPU and 1 MiB memory" +
                      std::string(f.gres ? "" : " and have no GPUs") +
                      ", which runs no training job: give slurm.conf (NodeName lines), "
                      "gres.conf or --node-template gpus=8,gpu-type=H100,cpus=96,"
                      "memory-gib=1024");
    } else if (b.noMemory.size() > templateMemory)
        report.assume(std::to_string(b.noMemory.size() - templateMemory) +
                      " nodes give no RealMemory: Slurm's default of 1 MiB, in which no training "
                      "job fits: give RealMemory= (MiB) on their NodeName lines, or the memory "
                      "with --node-template memory-gib=N");
    if (f.conf && b.cluster.totalGpus() == 0)
        report.assume(
            std::string("no node has a GPU (no Gres=gpu in slurm.conf, ") +
            (f.gres ? "no gres.conf line naming a node" : "no gres.conf") +
            "), so no training job runs on this cluster: give Gres=gpu:N on the "
            "NodeName lines" +
            (f.gres ? " (Slurm schedules the GPUs slurm.conf declares)" : " or a gres.conf"));
    std::size_t untyped = 0;
    for (Node &n : b.cluster.nodes)
        if (n.gpus > 0 && n.gpuType.empty()) {
            n.gpuType = unnamedGpuType(options.gpuType);
            ++untyped;
        }
    if (untyped > 0)
        report.assume(std::to_string(untyped) + " GPU nodes name no GPU type: " +
                      (options.gpuType.empty() ? "\"unknown-gpu\" (--gpu-type names it)"
                                               : options.gpuType + " (--gpu-type)"));
    addMissingGpuTypes(b.cluster, report);
    if (!f.topology || b.cluster.switches.empty()) {
        const bool flat = f.topology != nullptr;
        linkAllNodesToOneSwitch(b.cluster, report,
                                flat ? "the topology has no switches" : "no topology.conf");
    }
    report.cluster = std::move(b.cluster);
    return report;
}

} // namespace cb
