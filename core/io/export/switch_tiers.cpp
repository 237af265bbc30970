#include "io/export/switch_tiers.h"

#include "io/export/kubernetes_names.h"
#include "io/export/slurm_topology.h"

#include <set>

namespace cb {

SwitchTiers::SwitchTiers(const Cluster &cluster)
{
    const SlurmTree tree = SlurmTopology::tree(cluster);
    std::map<std::string, std::string> parentOf; // switch -> its first parent
    std::map<std::string, std::vector<std::string>> childrenOf;
    // Parents in tree order (by level, scenario order): the first to list a child keeps it.
    for (const SlurmTreeSwitch &sw : tree.switches) {
        if (sw.synthetic || sw.level == 0)
            continue;
        for (const std::string &child : sw.children)
            if (!parentOf.count(child)) {
                parentOf[child] = sw.name;
                childrenOf[sw.name].push_back(child);
            }
    }
    // Keep tier-1 switches and every parent that kept a child (transitively).
    std::vector<const SlurmTreeSwitch *> kept;
    std::set<std::string> keptIds;
    for (const SlurmTreeSwitch &sw : tree.switches) {
        if (sw.synthetic)
            continue;
        bool keep = sw.level == 0;
        for (const std::string &c : childrenOf[sw.name])
            keep = keep || keptIds.count(c);
        if (keep) {
            kept.push_back(&sw);
            keptIds.insert(sw.name);
        }
    }
    std::vector<std::string> ids;
    for (const SlurmTreeSwitch *sw : kept)
        ids.push_back(sw->name);
    const std::vector<std::string> names = KubernetesNames::jobNames(ids);
    for (std::size_t i = 0; i < kept.size(); ++i) {
        SwitchTier t;
        t.switchId = kept[i]->name;
        t.name = names[i];
        t.tier = kept[i]->level + 1;
        if (kept[i]->level == 0)
            t.nodes = kept[i]->nodes;
        for (const std::string &c : childrenOf[kept[i]->name])
            if (keptIds.count(c))
                t.children.push_back(c);
        m_depth = std::max(m_depth, t.tier);
        m_switches.push_back(std::move(t));
    }
    std::map<std::string, const SwitchTier *> byId;
    for (const SwitchTier &t : m_switches)
        byId[t.switchId] = &t;
    for (const SwitchTier &t : m_switches) {
        if (t.tier != 1)
            continue;
        for (const std::string &n : t.nodes) {
            if (m_chains.count(n))
                continue; // a node under two leaves counts under the first
            std::vector<const SwitchTier *> chain = {&t};
            for (auto it = parentOf.find(t.switchId); it != parentOf.end();
                 it = parentOf.find(it->second))
                chain.push_back(byId.at(it->second));
            m_chains[n] = chain;
        }
    }
}

const std::vector<const SwitchTier *> &SwitchTiers::chain(const std::string &nodeId) const
{
    static const std::vector<const SwitchTier *> none;
    auto it = m_chains.find(nodeId);
    return it == m_chains.end() ? none : it->second;
}

int SwitchTiers::commonTier(const std::vector<std::string> &nodeIds) const
{
    if (nodeIds.empty())
        return 0;
    for (int tier = 1; tier <= m_depth; ++tier) {
        const SwitchTier *common = nullptr;
        bool same = true;
        for (const std::string &n : nodeIds) {
            const auto &c = chain(n);
            if (int(c.size()) < tier)
                return 0; // above this node the tree ends: no common switch higher up
            if (!common)
                common = c[tier - 1];
            same = same && c[tier - 1] == common;
        }
        if (same)
            return tier;
    }
    return 0;
}

std::string SwitchTiers::labelKey(int tier)
{
    return "clusterbench.io/switch-tier-" + std::to_string(tier);
}

} // namespace cb
