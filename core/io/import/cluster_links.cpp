#include "io/import/cluster_links.h"

namespace cb {

void addImportLink(Cluster &cluster, const std::string &a, const std::string &b, bool hostLink)
{
    Link l;
    l.a = a;
    l.b = b;
    l.capacityGbps = hostLink ? kImportHostLinkGbps : kImportSwitchLinkGbps;
    l.latencyUs = 1;
    cluster.links.push_back(l);
}

void reportLinkDefaults(ImportReport &report)
{
    report.assume("link speeds are not in the input: 100 Gbit/s node-to-switch, 400 Gbit/s "
                  "switch-to-switch, 1 us latency per link");
}

void linkAllNodesToOneSwitch(Cluster &cluster, ImportReport &report, const std::string &why)
{
    std::string id = "switch0";
    while (cluster.node(id))
        id += "_";
    cluster.switches.push_back({id, "tor"});
    for (const Node &n : cluster.nodes)
        addImportLink(cluster, n.id, id, true);
    report.assume(why + ": one switch \"" + id + "\" links all " +
                  std::to_string(cluster.nodes.size()) + " nodes");
    reportLinkDefaults(report);
}

} // namespace cb
