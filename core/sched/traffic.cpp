#include "sched/traffic.h"

#include "util/json_number.h"
#include "util/rng.h"
#include "util/text.h"

#include <unordered_map>

namespace cb {

using nlohmann::ordered_json;

namespace {

struct Flow
{
    int src, dst;
    double bytes;
};

} // namespace

std::string directedLinkName(const Cluster &cluster, int directedLink)
{
    const Link &l = cluster.links[std::size_t(directedLink / 2)];
    return directedLink % 2 == 0 ? l.a + "->" + l.b : l.b + "->" + l.a;
}

TrafficReport computeTraffic(const std::vector<Job> &jobs, const Cluster &cluster,
                             const Topology &topology, const Placement &placement)
{
    TrafficReport report;
    report.linkBytes.assign(std::size_t(topology.directedLinkCount()), 0.0);
    std::unordered_map<std::string, const Job *> byId;
    for (const Job &j : jobs)
        byId.emplace(j.id, &j);
    std::unordered_map<std::string, int> nodeIndex;
    for (std::size_t i = 0; i < cluster.nodes.size(); ++i)
        nodeIndex.emplace(cluster.nodes[i].id, int(i));

    std::vector<Flow> flows;
    for (const JobPlacement &jp : placement.jobs) {
        auto it = byId.find(jp.jobId);
        if (it == byId.end())
            continue;
        const Job &job = *it->second;
        JobTraffic jt;
        jt.jobId = job.id;
        jt.model = job.model.name;
        std::vector<int> ps, workers;
        for (const TaskAssignment &a : jp.tasks) {
            auto n = nodeIndex.find(a.node);
            if (n == nodeIndex.end())
                continue;
            if (a.role == TaskRole::Ps)
                ps.push_back(n->second);
            else if (a.role != TaskRole::Evaluator)
                workers.push_back(n->second);
        }
        const double b = double(job.model.parameterBytes);
        flows.clear();
        if (job.kind == JobKind::ParameterServer && !ps.empty()) {
            const double share = b / double(ps.size());
            for (int w : workers)
                for (int p : ps) {
                    flows.push_back({w, p, share});
                    flows.push_back({p, w, share});
                }
        } else if (job.kind == JobKind::AllReduce && workers.size() > 1) {
            const double w = double(workers.size());
            const double bytes = 2.0 * (w - 1.0) / w * b;
            for (std::size_t r = 0; r < workers.size(); ++r)
                flows.push_back({workers[r], workers[(r + 1) % workers.size()], bytes});
        }
        const std::uint64_t jobHash = fnv1a(job.id);
        for (std::size_t f = 0; f < flows.size(); ++f) {
            const Flow &flow = flows[f];
            jt.totalBytes += flow.bytes;
            jt.pairBytes[{flow.src, flow.dst}] += flow.bytes;
            if (flow.src == flow.dst) {
                jt.intraNodeBytes += flow.bytes;
                continue;
            }
            jt.crossNodeBytes += flow.bytes;
            const std::vector<int> path =
                topology.route(flow.src, flow.dst, Rng::mix(jobHash, std::uint64_t(f)));
            jt.byteHops += flow.bytes * double(path.size());
            for (int l : path)
                report.linkBytes[std::size_t(l)] += flow.bytes;
        }
        report.totalBytes += jt.totalBytes;
        report.crossNodeBytes += jt.crossNodeBytes;
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
