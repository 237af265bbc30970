#pragma once
// Network traffic a placement causes, per training iteration: the sum of every placed job's
// flows as net/job_flows.h builds them (the one traffic model the simulator uses too):
//  - parameter server job with P ps tasks: every worker (roles worker, chief, single) sends
//    parameter_bytes / P to every ps task and receives as much back (a worker with several
//    GPUs first all-reduces over them inside its node);
//  - all-reduce job over n GPUs: the scenario's algorithm (ring: every ring edge moves
//    2 (n - 1) / n * parameter_bytes; tree; hierarchical), nodes in task order;
//  - single jobs and evaluators exchange nothing.
// Bytes between two nodes of one multi-node NVLink domain (Cluster::nvlinkDomains) are
// cross-node but run over the domain and load no link; cross-domain bytes are the cross-node
// bytes that leave their NVLink domain and cross the scale-out fabric (a node outside every
// multi-node domain is a domain of its own, so without such domains they equal cross-node).
// Only placed tasks count (a partly placed job contributes the flows among its placed tasks;
// the ring then closes over the placed workers). Bytes between tasks on one node are
// intra-node; others cross the network along Topology::route with a deterministic ECMP hash
// of (job id, flow number).

#include "model/cluster.h"
#include "model/job.h"
#include "net/topology.h"
#include "model/placement.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cb {

struct JobTraffic
{
    std::string jobId;
    std::string model;
    double totalBytes = 0;
    double crossNodeBytes = 0;
    double crossDomainBytes = 0; ///< cross-node bytes outside any one NVLink domain
    double intraNodeBytes = 0;
    double byteHops = 0; ///< sum of bytes x hops, for the byte-weighted mean
    double meanHops() const { return totalBytes > 0 ? byteHops / totalBytes : 0; }
    /// (source node, destination node) -> bytes; source == destination is intra-node.
    std::map<std::pair<int, int>, double> pairBytes;
};

struct TrafficReport
{
    std::vector<JobTraffic> jobs; ///< in placement order
    double totalBytes = 0;
    double crossNodeBytes = 0;
    double crossDomainBytes = 0;
    double intraNodeBytes = 0;
    double byteHops = 0;
    double meanHops() const { return totalBytes > 0 ? byteHops / totalBytes : 0; }
    std::map<std::pair<int, int>, double> pairBytes;
    std::vector<double> linkBytes; ///< per directed link (Topology numbering)
    int maxLink = -1;              ///< most loaded directed link, -1 when none carries bytes
    double maxLinkBytes = 0;
    /// Seconds the most loaded link (by time) needs per iteration at full capacity.
    double maxLinkSeconds = 0;
    int maxLinkSecondsLink = -1;

    /// Stable JSON: totals, per job, per loaded link, per node pair. cross_domain_bytes is
    /// written only for clusters with multi-node NVLink domains (else it is cross_node_bytes).
    nlohmann::ordered_json toJson(const Cluster &cluster, const Topology &topology,
                                  bool withPairs = true) const;
};

TrafficReport computeTraffic(const std::vector<Job> &jobs, const Cluster &cluster,
                             const Topology &topology, const Placement &placement,
                             AllReduceAlgorithm algorithm = AllReduceAlgorithm::Ring);

/// "a->b" for a directed link.
std::string directedLinkName(const Cluster &cluster, int directedLink);

} // namespace cb
