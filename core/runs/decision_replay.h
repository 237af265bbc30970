#pragma once
// Replays a run's decision log to any cursor: which tasks are bound, GPUs allocated per node,
// and the per-iteration traffic (node x node bytes, bytes per directed link) of the tasks
// placed so far. Cursor c (-1 .. decisions - 1) means decisions 0..c are made, including
// the job events logged after them (a gang rollback, JobEvent::Kind::RolledBack, unbinds the
// job's tasks). Both steppers, the window's and the terminal's, replay with it.
//
// Moving the cursor touches only the jobs whose decisions lie between the old and the new
// cursor. A job's state is a function of the cursor alone and every matrix cell or link is
// re-summed over its contributing jobs in job order, so any path to a cursor gives
// bit-identical values (stepping forward then back restores the data exactly). GPU use is
// kept in integer millionths of a GPU for the same reason. Plain C++: no Qt.
//
// The node x node traffic is kept sparse (only the pairs that carry bytes), and also summed
// per pair of node groups (racks; runs of up to 64 consecutive nodes without a rack), which
// is what the heatmap of a large cluster shows: 16,384 nodes would be 268 million cells.

#include "model/cluster.h"
#include "model/scenario.h"
#include "net/topology.h"
#include "sched/decision_log.h"
#include "model/placement.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cb {

/// Nodes in groups, for views of large clusters: the racks (Node::rack) in order of first
/// appearance, then runs of up to 64 consecutive nodes without a rack ("node-07 … node-70").
struct NodeGroups
{
    std::vector<int> groupOf;        ///< per node
    std::vector<std::string> names;  ///< per group
    std::vector<int> sizes;          ///< nodes per group
    bool allRacks = true;            ///< every node has a rack
    int count() const { return int(names.size()); }
};
NodeGroups groupNodesByRack(const Cluster &cluster);
/// The racks (groupNodesByRack of the topology's cluster) gathered into pods: the parts the
/// network falls into without its top tier of switches (those farthest from any node), e.g.
/// a fat-tree's pods without its core. A rack goes to the part of its first node. A pod is named by what its
/// racks' names share ("pod-03" for "pod-03-edge-0" ... "pod-03-edge-7"), else its first and
/// last rack. Empty (no groups) where pods would say nothing more than racks: one tier of
/// switches, a single part, or as many parts as racks.
NodeGroups groupNodesByPod(const Topology &topo, const NodeGroups &racks);

class DecisionReplay
{
public:
    /// `scenario` and `log` must outlive the replay. Starts at cursor -1 (nothing placed).
    DecisionReplay(const cb::Scenario &scenario, const cb::DecisionLog &log);
    ~DecisionReplay();
    DecisionReplay(const DecisionReplay &) = delete;
    DecisionReplay &operator=(const DecisionReplay &) = delete;

    int decisionCount() const { return int(m_log.decisions.size()); }
    int nodeCount() const { return m_nodes; }
    int cursor() const { return m_cursor; }
    /// Moves to `cursor` (clamped to -1 .. decisionCount() - 1).
    void seek(int cursor);

    /// Scenario job index of a decision (-1 if the log names an unknown job).
    int jobOfDecision(int decision) const { return m_decisionJob[std::size_t(decision)]; }
    /// Whole-GPU equivalents allocated on a node at the cursor.
    double allocatedGpus(int node) const { return double(m_gpuMicro[std::size_t(node)]) / 1e6; }
    /// Tasks bound on a node at the cursor.
    int boundTasks(int node) const { return m_tasksOnNode[std::size_t(node)]; }
    /// Bytes per iteration from node a to node b (a == b: within the node) at the cursor.
    double pairBytes(int a, int b) const;
    /// The node pairs that carry bytes at the cursor, key source * nodeCount() + destination.
    const std::map<std::int64_t, double> &cells() const { return m_cells; }
    /// The dense node x node matrix, row = source (for small clusters: nodeCount()^2 values).
    std::vector<double> denseMatrix() const;
    /// The node groups (groupNodesByRack) the group pairs below sum over.
    const NodeGroups &groups() const { return m_groups; }
    int groupCount() const { return m_groups.count(); }
    int groupOf(int node) const { return m_groups.groupOf[std::size_t(node)]; }
    const std::string &groupName(int group) const { return m_groups.names[std::size_t(group)]; }
    int groupSize(int group) const { return m_groups.sizes[std::size_t(group)]; }
    /// Bytes per iteration from the nodes of group a to those of group b at the cursor.
    double groupBytes(int a, int b) const;
    /// The group pairs that carry bytes, key source * groupCount() + destination.
    const std::map<std::int64_t, double> &groupCells() const { return m_groupCells; }
    /// Group pairs (source, destination) whose value changed in the last seek.
    const std::vector<std::pair<int, int>> &changedGroupCells() const { return m_changedGroupCells; }
    /// Bytes per iteration per directed link (Topology numbering) at the cursor.
    const std::vector<double> &linkBytes() const { return m_linkBytes; }
    /// Cells (source, destination) whose value changed in the last seek.
    const std::vector<std::pair<int, int>> &changedCells() const { return m_changedCells; }
    /// Nodes whose allocation changed in the last seek.
    const std::vector<int> &changedNodes() const { return m_changedNodes; }
    /// Jobs with at least one task bound at the cursor.
    int jobsWithTasks() const;
    /// The tasks bound at the cursor: jobs in the order of their first decision, tasks in
    /// decision order (GPU indices are not logged and stay empty).
    cb::Placement placement() const;
    const cb::Topology &topology() const { return *m_topology; }

private:
    struct JobState;
    struct Contribution;
    /// Placed decisions of job `job` that count at cursor `c`.
    std::vector<int> boundDecisions(int job, int c) const;
    void applyJob(int job, int c);
    const Contribution &contribution(int job, const std::vector<int> &decisions);

    const cb::Scenario &m_scenario;
    const cb::DecisionLog &m_log;
    std::unique_ptr<cb::Topology> m_topology;
    int m_nodes = 0;
    int m_cursor = -1;
    std::vector<int> m_decisionJob;
    std::vector<std::int64_t> m_decisionGpuMicro;
    /// Per job: first and last decision, and the decision after which it was rolled back.
    std::vector<int> m_jobFirst, m_jobLast, m_jobRollback;
    std::vector<std::vector<int>> m_jobBound; ///< decisions bound now, per job
    std::vector<std::int64_t> m_gpuMicro;
    std::vector<int> m_tasksOnNode;
    std::map<std::int64_t, double> m_cells; ///< non-zero node pairs
    std::map<std::int64_t, double> m_groupCells; ///< non-zero group pairs
    NodeGroups m_groups;
    std::vector<double> m_linkBytes;
    /// Per cell / group cell / link: (job, bytes) of the jobs that add to it, sorted by job.
    std::unordered_map<std::int64_t, std::vector<std::pair<int, double>>> m_cellJobs;
    std::unordered_map<std::int64_t, std::vector<std::pair<int, double>>> m_groupJobs;
    std::unordered_map<int, std::vector<std::pair<int, double>>> m_linkJobs;
    /// Traffic of a job for a given bound task count (the first k of its placed decisions).
    std::map<std::pair<int, std::size_t>, std::unique_ptr<Contribution>> m_cache;
    std::vector<const Contribution *> m_jobContribution;
    std::vector<std::pair<int, int>> m_changedCells;
    std::vector<std::pair<int, int>> m_changedGroupCells;
    std::vector<int> m_changedNodes;
};

} // namespace cb
