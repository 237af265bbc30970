#pragma once
// The explanation of a placement: one record per scheduling decision with the table of
// nodes x plugins (filtered out and why / raw / weighted / total), the pick and why it won.
// The GUI and terminal steppers read it; it serialises to JSON with a stable layout.

#include "model/job.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

struct CandidateRow
{
    int node = 0;            ///< node index (cluster order)
    bool feasible = false;
    std::string reason;      ///< why the node was filtered out (empty when feasible)
    std::vector<double> raw; ///< per plugin (policy order), 0..10; empty when filtered out
    std::vector<double> weighted;
    double total = 0;        ///< the sum that was compared
    bool operator==(const CandidateRow &) const = default;
};

struct Decision
{
    int index = 0;           ///< 0-based decision number within the run
    std::string jobId;
    TaskRole role = TaskRole::Worker;
    int group = 0;
    int indexInRole = 0;
    std::vector<CandidateRow> rows; ///< one per node, cluster order
    int pick = -1;           ///< node index, -1 when no node was feasible
    std::vector<int> tied;   ///< nodes that shared the best total (including the pick)
    std::string why;
    std::string task() const; ///< "ps-0", "worker-3"
    bool operator==(const Decision &) const = default;
};

/// Something that happened to a whole job (rolled back, skipped, waiting).
struct JobEvent
{
    int afterDecision = -1;  ///< index of the last decision before it (-1: before any)
    std::string jobId;
    std::string what;
    bool operator==(const JobEvent &) const = default;
};

struct DecisionLog
{
    std::string policy;
    std::uint64_t seed = 0;
    std::vector<std::string> nodeNames;
    std::vector<std::string> pluginNames;
    std::vector<double> weights;
    std::vector<Decision> decisions;
    std::vector<JobEvent> events;

    /// {"policy", "seed", "nodes": [names], "plugins": [{name, weight}], "decisions": [{index,
    /// job, task, group, pick, tied, why, nodes: [{node, feasible, reason | raw, weighted,
    /// total}]}], "events": [{after_decision, job, what}]}
    nlohmann::ordered_json toJson() const;
    /// Reads what toJson wrote (a stored run's decision log) back; fromJson(toJson()) == *this.
    /// Logs written before "nodes" and "group" were stored take the node order from the first
    /// decision's rows and group 0. Problems carry JSON pointers.
    static Result<DecisionLog> fromJson(const nlohmann::json &j);
    bool operator==(const DecisionLog &) const = default;
};

} // namespace cb
