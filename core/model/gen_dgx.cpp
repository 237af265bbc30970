#include "model/gen_dgx.h"

#include <algorithm>

namespace cb {

Result<Cluster> generateDgx(const DgxParams &params)
{
    Problems p;
    gen::checkInt(p, "nodes", params.nodes, 1, 4096);
    gen::checkInt(p, "nics", params.nicsPerNode, 1, 32);
    gen::checkNumber(p, "nic-gbps", params.nicGbps, 1e-3, 1e6,
                     "expected a positive NIC capacity in Gbit/s");
    gen::checkInt(p, "nodes-per-unit", params.nodesPerUnit, 1, 1024);
    const int units = params.nodesPerUnit > 0
                          ? (params.nodes + params.nodesPerUnit - 1) / params.nodesPerUnit
                          : 1;
    gen::checkInt(p, "spines", params.spines, units > 1 ? 1 : 0, 1024,
                  units > 1 ? "expected 1 to 1024 spines (the nodes span " +
                                  std::to_string(units) + " scalable units, which reach each "
                                  "other only through spines)"
                            : "");
    gen::checkNumber(p, "oversubscription", params.oversubscription, 0.01, 1000,
                     "expected a ratio of leaf downlink to uplink bandwidth from 0.01 to 1000");
    gen::checkNumber(p, "latency", params.latencyUs, 0, 1e6, "expected a latency >= 0 us");
    gen::checkNumber(p, "nvlink-gbps", params.nvlinkGbps, 0, 1e6,
                     "expected NVLink bandwidth >= 0 Gbit/s (0 = from the GPU type)");
    gen::checkHost(p, params.host);
    if (params.host.gpus < 2)
        p.push_back({"gpus-per-host", "a DGX-style node needs at least 2 GPUs to form an "
                                      "NVLink domain, found " + std::to_string(params.host.gpus)});
    else if (const GpuCatalogEntry *e = findGpuCatalogEntry(params.host.gpuType);
             e && e->nvlinkGbps <= 0 && params.nvlinkGbps <= 0)
        p.push_back({"gpu-type", "GPU type \"" + params.host.gpuType + "\" has no NVLink; "
                                 "choose an NVLink GPU or give --nvlink-gbps"});
    if (!p.empty())
        return Result<Cluster>(p);

    Cluster c;
    gen::addGpuType(c, params.host.gpuType);
    auto unitName = [&](int u) { return gen::indexedName("su", u, units); };
    auto railName = [&](int u, int r) {
        return unitName(u) + "-" + gen::indexedName("rail", r, params.nicsPerNode);
    };
    for (int u = 0; u < units; ++u)
        for (int r = 0; r < params.nicsPerNode; ++r)
            c.switches.push_back({railName(u, r), "leaf"});
    for (int s = 0; s < params.spines; ++s)
        c.switches.push_back({gen::indexedName("spine", s, params.spines), "spine"});

    for (int i = 0; i < params.nodes; ++i) {
        const int u = i / params.nodesPerUnit;
        Node n = gen::makeHost(params.host, gen::indexedName(params.host.prefix, i, params.nodes),
                               unitName(u));
        n.labels["clusterbench.io/scalable-unit"] = unitName(u);
        if (params.nvlinkGbps > 0)
            n.interconnect.bandwidthGbps = params.nvlinkGbps;
        for (int r = 0; r < params.nicsPerNode; ++r)
            c.links.push_back(
                gen::makeLink(n.id, railName(u, r), params.nicGbps, params.latencyUs));
        c.nodes.push_back(std::move(n));
    }
    for (int u = 0; u < units && params.spines > 0; ++u) {
        const int inUnit = std::min(params.nodesPerUnit, params.nodes - u * params.nodesPerUnit);
        const double uplinkGbps =
            inUnit * params.nicGbps / (params.oversubscription * params.spines);
        for (int r = 0; r < params.nicsPerNode; ++r)
            for (int s = 0; s < params.spines; ++s)
                c.links.push_back(gen::makeLink(railName(u, r),
                                                gen::indexedName("spine", s, params.spines),
                                                uplinkGbps, params.latencyUs));
    }
    return c;
}

} // namespace cb
