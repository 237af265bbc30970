#include "model/gen_fat_tree.h"

namespace cb {

Result<Cluster> generateFatTree(const FatTreeParams &params)
{
    Problems p;
    const int k = params.k;
    if (k < 2 || k > 64 || k % 2 != 0)
        p.push_back({"k", "expected an even switch radix from 2 to 64 (k/2 ports down and k/2 "
                          "up), found " + std::to_string(k)});
    if (params.hostsPerEdge < 0 || params.hostsPerEdge > 256)
        p.push_back({"hosts-per-edge", "expected 1 to 256 hosts per edge switch (0: k/2), found " +
                                           std::to_string(params.hostsPerEdge)});
    gen::checkNumber(p, "link-gbps", params.linkGbps, 1e-3, 1e6,
                     "expected a positive link capacity in Gbit/s");
    gen::checkNumber(p, "latency", params.latencyUs, 0, 1e6, "expected a latency >= 0 us");
    gen::checkHost(p, params.host);
    if (!p.empty())
        return Result<Cluster>(p);

    const int half = k / 2;
    const int perEdge = params.hostsPerEdge > 0 ? params.hostsPerEdge : half;
    const int hostCount = k * half * perEdge;
    const int coreCount = half * half;
    Cluster c;
    if (params.host.gpus > 0)
        gen::addGpuType(c, params.host.gpuType);

    auto podName = [&](int pod) { return gen::indexedName("pod", pod, k); };
    auto edgeName = [&](int pod, int e) {
        return podName(pod) + "-" + gen::indexedName("edge", e, half);
    };
    auto aggName = [&](int pod, int a) {
        return podName(pod) + "-" + gen::indexedName("agg", a, half);
    };
    auto coreName = [&](int i) { return gen::indexedName("core", i, coreCount); };

    for (int pod = 0; pod < k; ++pod) {
        for (int e = 0; e < half; ++e)
            c.switches.push_back({edgeName(pod, e), "edge"});
        for (int a = 0; a < half; ++a)
            c.switches.push_back({aggName(pod, a), "aggregation"});
    }
    for (int i = 0; i < coreCount; ++i)
        c.switches.push_back({coreName(i), "core"});

    int index = 0;
    for (int pod = 0; pod < k; ++pod)
        for (int e = 0; e < half; ++e)
            for (int h = 0; h < perEdge; ++h, ++index) {
                Node n = gen::makeHost(params.host,
                                       gen::indexedName(params.host.prefix, index, hostCount),
                                       edgeName(pod, e));
                n.labels["clusterbench.io/pod"] = podName(pod);
                c.links.push_back(
                    gen::makeLink(n.id, edgeName(pod, e), params.linkGbps, params.latencyUs));
                c.nodes.push_back(std::move(n));
            }
    for (int pod = 0; pod < k; ++pod)
        for (int e = 0; e < half; ++e)
            for (int a = 0; a < half; ++a)
                c.links.push_back(gen::makeLink(edgeName(pod, e), aggName(pod, a),
                                                params.linkGbps, params.latencyUs));
    for (int pod = 0; pod < k; ++pod)
        for (int a = 0; a < half; ++a)
            for (int j = 0; j < half; ++j)
                c.links.push_back(gen::makeLink(aggName(pod, a), coreName(a * half + j),
                                                params.linkGbps, params.latencyUs));
    return c;
}

} // namespace cb
