#include "sched/traffic.h"

#include "net/job_flows.h"
#include "util/json_number.h"
#include "util/text.h"

#include <unordered_map>

namespace cb {

using nlohmann::ordered_json;

std::string directedLinkName(const Cluster &cluster, int directedLink)
{
    const Link &l = cluster.links[std::size_t(directedLink / 2)];
    return directedLink % 2 == 0 ? l.a + "->" + l.b : l.b + "->" + l.a;
}

TrafficReport computeTraffic(const std::vector<Job> &jobs, const Cluster &cluster,
                             const Topology &topology, const Placement &placement,
                             AllReduceAlgorithm algorithm)
{
    TrafficReport report;
    report.linkBytes.assign(std::size_t(topology.directedLinkCount()), 0.0);
    std::unordered_map<std::string, const Job *> byId;
    for (const Job &j : jobs)
        byId.emplace(j.id, &j);
    const std::unordered_map<std::string, int> nodeIndex = nodeIndexMap(cluster);
    const std::vector<int> nodeDomain = cluster.nvlinkDomainOfNodes();

    for (const JobPlacement &jp : placement.jobs) {
        auto it = byId.find(jp.jobId);
        if (it == byId.end())
            continue;
        const Job &job = *it->second;
        JobTraffic jt;
        jt.jobId = job.id;
        jt.model = job.model.name;
        for (const SimFlow &flow : jobFlows(job, jp, cluster, topology, nodeIndex, algorithm,
                                                &nodeDomain)) {
            const double bytes = flow.totalBytes();
            jt.totalBytes += bytes;
            jt.pairBytes[{flow.src, flow.dst}] += bytes;
            if (flow.src == flow.dst) {
                jt.intraNodeBytes += bytes;
                continue;
            }
            jt.crossNodeBytes += bytes;
            if (flow.crossesDomains())
                jt.crossDomainBytes += bytes;
            jt.byteHops += bytes * double(flow.route.size());
            for (int l : flow.route)
                report.linkBytes[std::size_t(l)] += bytes;
        }
        report.totalBytes += jt.totalBytes;
        report.crossNodeBytes += jt.crossNodeBytes;
        report.crossDomainBytes += jt.crossDomainBytes;
        report.intraNodeBytes += jt.intraNodeBytes;
        report.byteHops += jt.byteHops;
        for (const auto &[pair, bytes] : jt.pairBytes)
            report.pairBytes[pair] += bytes;
        report.jobs.push_back(std::move(jt));
    }
    for (int l = 0; l < int(report.linkBytes.size()); ++l) {
        const double bytes = report.linkBytes[std::size_t(l)];
        if (bytes > report.maxLinkBytes) {
            report.maxLinkBytes = bytes;
            report.maxLink = l;
        }
        const double cap = topology.capacityGbps(l);
        const double secs = cap > 0 ? bytes * 8.0 / (cap * 1e9) : 0.0;
        if (secs > report.maxLinkSeconds) {
            report.maxLinkSeconds = secs;
            report.maxLinkSecondsLink = l;
        }
    }
    return report;
}

ordered_json TrafficReport::toJson(const Cluster &cluster, const Topology &topology,
                                   bool withPairs) const
{
    auto pairs = [&](const std::map<std::pair<int, int>, double> &m) {
        ordered_json a = ordered_json::array();
        for (const auto &[p, bytes] : m)
            a.push_back({{"from", cluster.nodes[std::size_t(p.first)].id},
                         {"to", cluster.nodes[std::size_t(p.second)].id},
                         {"bytes", jsonNumber(bytes)}});
        return a;
    };
    ordered_json j;
    j["unit"] = "bytes per iteration";
    j["total_bytes"] = jsonNumber(totalBytes);
    j["cross_node_bytes"] = jsonNumber(crossNodeBytes);
    const bool domains = !cluster.nvlinkDomains.empty();
    if (domains)
        j["cross_domain_bytes"] = jsonNumber(crossDomainBytes);
    j["intra_node_bytes"] = jsonNumber(intraNodeBytes);
    j["mean_hops"] = jsonNumber(meanHops());
    j["max_link"] = maxLink >= 0 ? ordered_json(directedLinkName(cluster, maxLink)) : ordered_json();
    j["max_link_bytes"] = jsonNumber(maxLinkBytes);
    j["max_link_seconds"] = jsonNumber(maxLinkSeconds);
    ordered_json jobsJson = ordered_json::array();
    for (const JobTraffic &jt : jobs) {
        ordered_json o;
        o["job"] = jt.jobId;
        o["model"] = jt.model;
        o["total_bytes"] = jsonNumber(jt.totalBytes);
        o["cross_node_bytes"] = jsonNumber(jt.crossNodeBytes);
        if (domains)
            o["cross_domain_bytes"] = jsonNumber(jt.crossDomainBytes);
        o["intra_node_bytes"] = jsonNumber(jt.intraNodeBytes);
        o["mean_hops"] = jsonNumber(jt.meanHops());
        if (withPairs)
            o["node_pairs"] = pairs(jt.pairBytes);
        jobsJson.push_back(o);
    }
    j["jobs"] = jobsJson;
    ordered_json links = ordered_json::array();
    for (int l = 0; l < int(linkBytes.size()); ++l)
        if (linkBytes[std::size_t(l)] > 0)
            links.push_back({{"link", directedLinkName(cluster, l)},
                             {"bytes", jsonNumber(linkBytes[std::size_t(l)])},
                             {"capacity_gbps", jsonNumber(topology.capacityGbps(l))}});
    j["links"] = links;
    if (withPairs)
        j["node_pairs"] = pairs(pairBytes);
    return j;
}

} // namespace cb
