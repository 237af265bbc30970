#include "model/gen_leaf_spine.h"

namespace cb {

Result<Cluster> generateLeafSpine(const LeafSpineParams &params)
{
    Problems p;
    gen::checkInt(p, "leaves", params.leaves, 1, 1024);
    gen::checkInt(p, "spines", params.spines, params.leaves > 1 ? 1 : 0, 1024,
                  params.leaves > 1 ? "expected 1 to 1024 spines (several leaves need a spine "
                                      "to reach each other)"
                                    : "");
    gen::checkInt(p, "hosts-per-leaf", params.hostsPerLeaf, 1, 1024);
    gen::checkNumber(p, "oversubscription", params.oversubscription, 0.01, 1000,
                     "expected a ratio of host to uplink bandwidth from 0.01 to 1000");
    gen::checkNumber(p, "host-gbps", params.hostLinkGbps, 1e-3, 1e6,
                     "expected a positive link capacity in Gbit/s");
    gen::checkNumber(p, "latency", params.latencyUs, 0, 1e6, "expected a latency >= 0 us");
    gen::checkHost(p, params.host);
    if (!p.empty())
        return Result<Cluster>(p);

    Cluster c;
    if (params.host.gpus > 0)
        gen::addGpuType(c, params.host.gpuType);
    const int hostCount = params.leaves * params.hostsPerLeaf;
    for (int l = 0; l < params.leaves; ++l)
        c.switches.push_back({gen::indexedName("leaf", l, params.leaves), "leaf"});
    for (int s = 0; s < params.spines; ++s)
        c.switches.push_back({gen::indexedName("spine", s, params.spines), "spine"});

    for (int l = 0; l < params.leaves; ++l) {
        const std::string leaf = c.switches[std::size_t(l)].id;
        for (int h = 0; h < params.hostsPerLeaf; ++h) {
            const int index = l * params.hostsPerLeaf + h;
            Node n = gen::makeHost(params.host,
                                   gen::indexedName(params.host.prefix, index, hostCount), leaf);
            c.links.push_back(gen::makeLink(n.id, leaf, params.hostLinkGbps, params.latencyUs));
            c.nodes.push_back(std::move(n));
        }
    }
    if (params.spines > 0) {
        const double uplinkGbps = params.hostsPerLeaf * params.hostLinkGbps /
                                  (params.oversubscription * params.spines);
        for (int l = 0; l < params.leaves; ++l)
            for (int s = 0; s < params.spines; ++s)
                c.links.push_back(gen::makeLink(c.switches[std::size_t(l)].id,
                                                c.switches[std::size_t(params.leaves + s)].id,
                                                uplinkGbps, params.latencyUs));
    }
    return c;
}

} // namespace cb
