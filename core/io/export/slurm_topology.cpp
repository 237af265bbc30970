#include "io/export/slurm_topology.h"

#include "io/export/slurm_names.h"

#include <algorithm>
#include <set>

namespace cb {

SlurmTree SlurmTopology::tree(const Cluster &c)
{
    SlurmTree out;
    std::set<std::string> nodeIds, switchIds;
    for (const Node &n : c.nodes)
        nodeIds.insert(n.id);
    for (const Switch &sw : c.switches)
        switchIds.insert(sw.id);
    std::map<std::string, std::set<std::string>> switchNodes;      // switch -> nodes
    std::map<std::string, std::set<std::string>> switchNeighbours; // switch -> switches
    for (const Link &l : c.links) {
        for (const auto &[a, b] : {std::pair(l.a, l.b), std::pair(l.b, l.a)}) {
            if (switchIds.count(a) && nodeIds.count(b))
                switchNodes[a].insert(b);
            else if (switchIds.count(a) && switchIds.count(b))
                switchNeighbours[a].insert(b);
        }
    }
    // Level 0: switches with nodes; level k: switches whose nearest level-0 switch is k hops.
    std::map<std::string, int> level;
    std::vector<std::string> frontier;
    for (const auto &[sw, nodes] : switchNodes) {
        level[sw] = 0;
        frontier.push_back(sw);
    }
    for (int k = 1; !frontier.empty(); ++k) {
        std::vector<std::string> next;
        for (const std::string &sw : frontier)
            for (const std::string &nb : switchNeighbours[sw])
                if (!level.count(nb)) {
                    level[nb] = k;
                    next.push_back(nb);
                }
        std::sort(next.begin(), next.end());
        frontier = next;
    }
    int maxLevel = 0;
    for (const auto &[sw, l] : level)
        maxLevel = std::max(maxLevel, l);
    for (int l = 0; l <= maxLevel; ++l)
        for (const Switch &sw : c.switches) { // scenario order within a level
            auto it = level.find(sw.id);
            if (it == level.end() || it->second != l)
                continue;
            SlurmTreeSwitch s;
            s.name = sw.id;
            s.level = l;
            if (l == 0) {
                s.nodes = {switchNodes[sw.id].begin(), switchNodes[sw.id].end()};
                for (const std::string &n : s.nodes)
                    if (!out.leafOf.emplace(n, sw.id).second)
                        out.multiHomed.insert(n);
            } else {
                for (const std::string &nb : switchNeighbours[sw.id])
                    if (level[nb] == l - 1)
                        s.children.push_back(nb);
            }
            out.switches.push_back(std::move(s));
        }
    for (const Switch &sw : c.switches)
        if (!level.count(sw.id))
            out.warnings.push_back("slurm-cluster: switch \"" + sw.id +
                                   "\" reaches no node; left out of the topology");
    // Switches nothing above lists: more than one means separate trees, which Slurm's
    // topology/tree cannot allocate across (racks joined by a direct link, loose nodes).
    std::vector<std::string> tops;
    for (const Switch &sw : c.switches) {
        auto it = level.find(sw.id);
        if (it == level.end())
            continue;
        bool hasParent = false;
        for (const std::string &nb : switchNeighbours[sw.id])
            hasParent = hasParent || level[nb] == it->second + 1;
        if (!hasParent)
            tops.push_back(sw.id);
    }
    std::vector<std::string> loose;
    for (const Node &n : c.nodes)
        if (!out.leafOf.count(n.id))
            loose.push_back(n.id);
    if (!loose.empty()) {
        SlurmTreeSwitch s;
        s.name = "cb-unattached";
        s.nodes = loose;
        s.synthetic = true;
        out.switches.push_back(s);
        tops.push_back("cb-unattached");
        if (!c.switches.empty())
            out.warnings.push_back("slurm-cluster: " + std::to_string(loose.size()) +
                                   " node(s) are linked to no switch; the topology puts them "
                                   "under switch \"cb-unattached\"");
    }
    if (tops.size() > 1) {
        SlurmTreeSwitch root;
        root.name = "cb-root";
        root.level = maxLevel + 1;
        root.children = tops;
        root.synthetic = true;
        out.switches.push_back(root);
    }
    return out;
}

Result<SlurmBlocks> SlurmTopology::blocks(const Cluster &cluster)
{
    std::map<std::string, std::vector<std::string>> byName;
    Problems problems;
    SlurmBlocks out;
    for (std::size_t i = 0; i < cluster.nodes.size(); ++i) {
        const Node &n = cluster.nodes[i];
        const std::string block = n.rack.empty() ? "cb-norack" : n.rack;
        if (!SlurmNames::isValidName(block))
            problems.push_back({"/cluster/nodes/" + std::to_string(i) + "/rack",
                                "\"" + n.rack + "\" cannot be a Slurm block name"});
        byName[block].push_back(n.id);
        out.blockOf[n.id] = block;
    }
    if (!problems.empty())
        return problems;
    std::size_t smallest = 0, largest = 0;
    for (auto &[name, nodes] : byName) {
        smallest = smallest == 0 ? nodes.size() : std::min(smallest, nodes.size());
        largest = std::max(largest, nodes.size());
        out.blocks.push_back({name, nodes});
    }
    out.baseBlockSize = int(smallest);
    for (std::size_t k = 1; k <= out.blocks.size() && smallest > 0; k *= 2)
        out.blockSizes.push_back(int(smallest * k));
    if (smallest != largest)
        out.warnings.push_back(
            "slurm-cluster: blocks hold " + std::to_string(smallest) + " to " +
            std::to_string(largest) + " nodes; Slurm's topology/block plans in base blocks of " +
            "one size, so BlockSizes starts at the smallest block (" + std::to_string(smallest) +
            " nodes), which every block holds at least");
    return out;
}

} // namespace cb
