#pragma once
// What the Kubernetes exporters call each node of the cluster: a Node name (metadata.name,
// a pod's spec.nodeName) and the value of its kubernetes.io/hostname label (what node
// affinity selects). A node id that is already a valid name is used as it is; any other
// gets a valid one derived from it (lowercase letters, digits and '-', plus a hash of the
// id), unique in the cluster, the same in every exported file (k8s-nodes writes the original
// id in the annotation clusterbench.io/node-id).

#include "model/cluster.h"

#include <map>
#include <string>

namespace cb {

class KubernetesNodeNames
{
public:
    explicit KubernetesNodeNames(const Cluster &cluster);

    /// A DNS-1123 subdomain, unique among the cluster's nodes.
    const std::string &name(const std::string &nodeId) const;
    /// A valid label value: the node's own kubernetes.io/hostname label when it is one, else
    /// its name when that fits a label value, else a value derived from the name.
    const std::string &hostname(const std::string &nodeId) const;
    /// Whether the name differs from the node id.
    bool renamed(const std::string &nodeId) const { return name(nodeId) != nodeId; }

private:
    struct Names
    {
        std::string name;
        std::string hostname;
    };
    const Names &of(const std::string &nodeId) const;

    std::map<std::string, Names> m_names;
};

} // namespace cb
