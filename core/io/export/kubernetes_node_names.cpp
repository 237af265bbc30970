#include "io/export/kubernetes_node_names.h"

#include "io/export/kubernetes_names.h"

#include <set>

namespace cb {

KubernetesNodeNames::KubernetesNodeNames(const Cluster &cluster)
{
    // Valid ids first, so that a derived name never takes one a node already has.
    std::set<std::string> taken;
    for (const Node &n : cluster.nodes)
        if (KubernetesNames::isDns1123Subdomain(n.id))
            taken.insert(n.id);
    for (const Node &n : cluster.nodes) {
        Names names;
        if (KubernetesNames::isDns1123Subdomain(n.id)) {
            names.name = n.id;
        } else {
            std::string base = KubernetesNames::sanitize(n.id);
            const std::string suffix = KubernetesNames::valueHash(n.id);
            if (base.size() > 63 - suffix.size() - 1)
                base.resize(63 - suffix.size() - 1);
            while (!base.empty() && base.back() == '-')
                base.pop_back();
            std::string name = base.empty() ? "node-" + suffix : base + "-" + suffix;
            for (int k = 2; taken.count(name); ++k)
                name = (base.empty() ? "node-" + suffix : base + "-" + suffix) + "-" +
                       std::to_string(k);
            names.name = name;
        }
        taken.insert(names.name);
        auto own = n.labels.find("kubernetes.io/hostname");
        if (own != n.labels.end() && !own->second.empty() &&
            KubernetesNames::isLabelValue(own->second))
            names.hostname = own->second;
        else
            names.hostname = KubernetesNames::labelValue(names.name);
        m_names.emplace(n.id, std::move(names));
    }
}

const KubernetesNodeNames::Names &KubernetesNodeNames::of(const std::string &nodeId) const
{
    static const Names none;
    auto it = m_names.find(nodeId);
    return it == m_names.end() ? none : it->second;
}

const std::string &KubernetesNodeNames::name(const std::string &nodeId) const
{
    return of(nodeId).name;
}

const std::string &KubernetesNodeNames::hostname(const std::string &nodeId) const
{
    return of(nodeId).hostname;
}

} // namespace cb
