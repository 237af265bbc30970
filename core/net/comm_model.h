#pragma once
// The communication model: what the gradient exchange of one training iteration costs, as
// closed α-β formulas and as plans of transfers between nodes that the simulator runs on the
// max-min network (net/job_flows.h turns a plan into flows, so jobs that share a link slow
// each other down).
//
// Closed forms, n ranks, S bytes, α seconds per step, B bus bandwidth (bytes per second).
// The bandwidth factors are the ones nccl-tests publishes for its bus bandwidth
// (doc/PERFORMANCE.md): all-reduce 2(n-1)/n, reduce-scatter, all-gather and all-to-all
// (n-1)/n, broadcast and reduce 1.
//   ring all-reduce        2(n-1) α + 2(n-1)/n S / B
//   tree all-reduce        2 ceil(log2 n) α + L(n) S/2 / B: two binary trees over the ranks
//                          (the second over the ranks in reverse order, so a rank that is
//                          interior in one tree is a leaf in the other), each carrying half
//                          of S up (reduce) and down (broadcast), pipelined; L(n) is the most
//                          tree edges at one rank over both trees (n = 2: 2, n = 4: 3, large
//                          n: 4), each edge moving S/2 each way
//   reduce-scatter         (n-1) α + (n-1)/n S / B   (S = the whole array)
//   all-gather             (n-1) α + (n-1)/n S / B   (S = the whole array)
//   all-to-all             (n-1) α + (n-1)/n S / B   (S = what one rank sends in total)
//   flat ring over nodes   2(n-1) max(α_node, α_net) + 2(n-1)/n S / min(B_node, r B_nic):
//                          NCCL's ring crosses each node boundary once per channel, one
//                          channel per rail (NIC), so each NIC carries one ring edge
//   hierarchical           reduce-scatter inside every node over its g GPUs (the node with
//                          the most GPUs governs), a ring all-reduce of S across the N nodes
//                          over r rails (each NIC carries 2(N-1)/N S / r), all-gather inside
//                          every node
//   parameter servers      push then pull, each α + max(S, n S / k) / B: n workers send S/k
//                          to each of k servers, so a server's NIC carries n S / k
//
// Plans: the same algorithms as transfers between nodes (a transfer inside one node runs over
// the node's GPU interconnect). Phases run one after another; a phase takes its largest
// latency term (steps x α) plus its slowest transfer (bytes / rate).

#include "model/job.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace cb {

/// One step of a collective on some path: its latency and its bus bandwidth.
struct StepCost
{
    double latencySeconds = 0; ///< α, per step
    double bytesPerSecond = 0; ///< B, > 0
};

enum class Collective { AllReduce, ReduceScatter, AllGather, AllToAll, Broadcast, Reduce };

/// nccl-tests' bus-bandwidth factor: busbw = algbw x factor (algbw = S / t).
double busBandwidthFactor(Collective collective, int ranks);

double ringAllReduceSeconds(int ranks, double bytes, const StepCost &cost);
double treeAllReduceSeconds(int ranks, double bytes, const StepCost &cost);
double reduceScatterSeconds(int ranks, double bytes, const StepCost &cost);
double allGatherSeconds(int ranks, double bytes, const StepCost &cost);
double allToAllSeconds(int ranks, double bytes, const StepCost &cost);

/// L(n) of the tree all-reduce: the most tree edges at one rank over both trees (0 for n < 2).
int treeEdgesAtBusiestRank(int ranks);
/// Parent of position i (0 = root) in the binary tree used by the tree all-reduce: (i-1)/2.
int treeParent(int position);

/// Flat ring over nodes with gpusPerNode[i] ranks each, `rails` NICs per node.
double flatRingAllReduceSeconds(const std::vector<int> &gpusPerNode, double bytes,
                                const StepCost &inNode, const StepCost &nic, int rails);

struct HierarchicalSeconds
{
    double reduceScatter = 0; ///< inside the nodes
    double acrossNodes = 0;   ///< ring all-reduce over the nodes' NICs
    double allGather = 0;     ///< inside the nodes
    double total() const { return reduceScatter + acrossNodes + allGather; }
};

HierarchicalSeconds hierarchicalAllReduceSeconds(const std::vector<int> &gpusPerNode,
                                                 double bytes, const StepCost &inNode,
                                                 const StepCost &nic, int rails);

/// Push then pull of n workers through k servers, each on a node of its own, `nic` per node.
double parameterServerSeconds(int workers, int servers, double bytes, const StepCost &nic);

// ---- plans -----------------------------------------------------------------------------

/// One transfer of a plan, per iteration.
struct CommTransfer
{
    int phase = 0;
    int src = 0;       ///< node index
    int dst = 0;       ///< node index; == src: inside the node, over its GPU interconnect
    double bytes = 0;  ///< of one copy
    /// Identical transfers side by side between different GPU pairs of one node (each at the
    /// interconnect's full bandwidth). Transfers between nodes always have one copy.
    int copies = 1;
    int steps = 1;     ///< latency steps (α each)
    int rail = -1;     ///< NIC the transfer leaves by; -1: any (the route's ECMP choice)
    bool operator==(const CommTransfer &) const = default;
};

struct CommPlan
{
    std::vector<CommTransfer> transfers;
    int phaseCount() const;
};

/// The ranks (GPUs) of one job on one node.
struct RankGroup
{
    int node = 0;
    int ranks = 1;
    bool operator==(const RankGroup &) const = default;
};

/// All-reduce of `bytes` over the groups (one per node, in ring order). Ring: one channel per
/// rail, each carrying bytes / rails. Tree: two binary trees over the nodes (inside a node
/// the GPUs form a chain); on one node the ring is used. Hierarchical: reduce-scatter in the
/// nodes, ring all-reduce across them over the rails, all-gather in the nodes. Empty with
/// fewer than two ranks in total.
CommPlan allReducePlan(AllReduceAlgorithm algorithm, const std::vector<RankGroup> &groups,
                       double bytes, int rails);

/// Parameter servers: each worker task (a group: its node and GPUs) first all-reduces over its
/// own GPUs (ring inside the node) when it has several, then pushes bytes / k to each of the
/// k servers (nodes), then pulls as much back.
CommPlan parameterServerPlan(const std::vector<RankGroup> &workers,
                             const std::vector<int> &servers, double bytes);

/// All-to-all: every rank sends bytesPerRank / n to every rank (itself included).
CommPlan allToAllPlan(const std::vector<RankGroup> &groups, double bytesPerRank);

/// Seconds of a plan given each transfer's per-step latency and rate (bytes per second):
/// per phase, the largest steps x latency plus the largest bytes / rate; phases add up.
/// A rate of 0 makes the plan take forever (infinity).
double planSeconds(const CommPlan &plan,
                   const std::function<StepCost(std::size_t transfer)> &costOf);

} // namespace cb
