#include "model/gen_nvl72.h"

#include "model/gen_dgx.h"

namespace cb {

Nvl72Params nvl72Defaults(Nvl72Params::Variant variant)
{
    Nvl72Params p;
    p.variant = variant;
    if (variant == Nvl72Params::Variant::HgxH100 || variant == Nvl72Params::Variant::HgxH200) {
        p.nodesPerRack = 4;
        p.nicsPerNode = 8;
        p.rackKw = 4 * 10.2;
        p.host = {8, variant == Nvl72Params::Variant::HgxH200 ? "H200" : "H100-80GB", 112, 2048,
                  0, "hgx", "hgx"};
    }
    return p;
}

Result<Cluster> generateNvl72(const Nvl72Params &params)
{
    Problems p;
    const bool gb200 = params.variant == Nvl72Params::Variant::Gb200Nvl72;
    gen::checkInt(p, "racks", params.racks, 1, 1024);
    gen::checkInt(p, "nodes-per-rack", params.nodesPerRack, gb200 ? 2 : 1, 256,
                  gb200 ? "expected 2 to 256 compute trays per rack (a multi-node NVLink "
                          "domain spans at least two)"
                        : "");
    gen::checkInt(p, "racks-per-unit", params.racksPerUnit, 1, 1024);
    gen::checkNumber(p, "rack-kw", params.rackKw, 1e-3, 1e5,
                     "expected a positive rack power in kW");
    gen::checkNumber(p, "nvlink-gbps", params.nvlinkGbps, 0, 1e7,
                     "expected NVLink bandwidth >= 0 Gbit/s (0 = from the GPU type)");
    const GpuCatalogEntry *entry = findGpuCatalogEntry(params.host.gpuType);
    double perTrayWatts = 0;
    if (p.empty() && entry) {
        perTrayWatts = params.rackKw * 1000.0 / params.nodesPerRack;
        const double gpuWatts = params.host.gpus * entry->type.busyWatts;
        if (perTrayWatts < gpuWatts)
            p.push_back({"rack-kw", "a rack of " + std::to_string(params.nodesPerRack) +
                                        " nodes of " + std::to_string(params.host.gpus) + " x " +
                                        params.host.gpuType + " draws more than " +
                                        std::to_string(static_cast<long long>(
                                            gpuWatts * params.nodesPerRack / 1000)) +
                                        " kW at busy GPU power"});
    }
    if (!p.empty())
        return Result<Cluster>(p);

    DgxParams d;
    d.nodes = params.racks * params.nodesPerRack;
    d.nicsPerNode = params.nicsPerNode;
    d.nicGbps = params.nicGbps;
    d.nodesPerUnit = params.racksPerUnit * params.nodesPerRack;
    d.spines = params.spines;
    d.oversubscription = params.oversubscription;
    d.latencyUs = params.latencyUs;
    d.nvlinkGbps = params.nvlinkGbps;
    d.host = params.host;
    if (entry)
        d.host.baseWatts = perTrayWatts - params.host.gpus * entry->type.busyWatts;
    auto c = generateDgx(d);
    if (!c)
        return c;
    Cluster cluster = c.value();
    const std::string rackPrefix = gb200 ? "nvl72" : "rack";
    const double domainGbps = params.nvlinkGbps > 0 ? params.nvlinkGbps
                              : entry             ? entry->nvlinkGbps
                                                  : 0;
    for (int r = 0; r < params.racks; ++r) {
        const std::string rack = gen::indexedName(rackPrefix, r, params.racks);
        NvlinkDomain domain;
        domain.id = rack;
        domain.bandwidthGbps = domainGbps;
        for (int t = 0; t < params.nodesPerRack; ++t) {
            Node &n = cluster.nodes[std::size_t(r * params.nodesPerRack + t)];
            n.rack = rack;
            n.labels["clusterbench.io/rack"] = rack;
            if (gb200) {
                n.labels["clusterbench.io/nvlink-domain"] = rack;
                domain.nodes.push_back(n.id);
            }
        }
        if (gb200)
            cluster.nvlinkDomains.push_back(std::move(domain));
    }
    return cluster;
}

} // namespace cb
