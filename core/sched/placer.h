#pragma once
// The placement pipeline, per task: filter (static: GPU type, node selector; dynamic: free
// CPU, memory, GPUs or a GPU share) -> score (weighted plugins of the policy, each 0..10) ->
// pick (highest total; ties broken as the policy says) -> bind (node state updated).
// Jobs are offered in the policy's queue order to a cluster that fills up; with gang mode a
// job is placed completely or rolled back. The hot path touches only arrays of doubles:
// the dense plugins (resource scores) run in one fused loop over all nodes; the job-local
// plugins (SelectorSpread, DLTAP) are non-default only on nodes that already hold tasks of
// the job, so they are applied to those few nodes afterwards. Incremental scoring (the
// default) keeps, per task shape, every node's dense total in a max tree with tie counts and
// rescores only the nodes bound or unbound since, so a decision costs the few changed nodes
// plus the job's own nodes; the totals, picks and seeded tie-breaks are those of full scoring
// bit for bit (setFullScoring is the reference). In gang mode without a log, a
// job whose remaining tasks are all alike and cannot all fit (counted per node, which does
// not depend on the picks) is rolled back without scoring them; the decision count, and so
// every seeded draw after it, is the same as if they had been scored.

#include "model/scenario.h"
#include "net/topology.h"
#include "sched/cluster_state.h"
#include "sched/decision_log.h"
#include "model/placement.h"
#include "sched/policy.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cb {

class Placer
{
public:
    /// `cluster` and `topology` must outlive the placer.
    Placer(const Cluster &cluster, const Topology &topology, Policy policy, std::uint64_t seed);
    ~Placer();
    Placer(const Placer &) = delete;
    Placer &operator=(const Placer &) = delete;

    /// Places the jobs in queue order against the current state (which keeps them bound).
    /// With `log`, every decision is recorded (slower; the picks are the same).
    Placement place(const std::vector<Job> &jobs, DecisionLog *log = nullptr);
    /// The same for jobs held elsewhere (not copied; they must outlive the call).
    Placement place(const std::vector<const Job *> &jobs, DecisionLog *log = nullptr);

    /// Frees the resources of a placed job (it finished, or was killed by a node failure);
    /// `placement` must be what place() or bindPlacement() returned for `job`.
    void release(const Job &job, const JobPlacement &placement);
    /// Binds a placement decided elsewhere (a job-level planner, or the simulator marking a
    /// failed node as occupied); the inverse of release().
    void bindPlacement(const Job &job, const JobPlacement &placement);

    /// What if: the task (job, role, rank among the job's tasks of that role) may only go to
    /// node `node` (cluster index); every other node is filtered out for it with the reason
    /// "pinned to NODE (what-if)". The pinned node still has to fit the task: if it does
    /// not, the task finds no node. The rest of the queue is placed by the policy around it.
    void pinTask(const std::string &jobId, TaskRole role, int indexInRole, int node);

    /// Counts the decisions of a job the caller has proven cannot be placed now, as place()
    /// would have made them (and, for `fastRejection`, a gang fast-path rejection), without
    /// offering it: the seeded draws after it stay the same (sim/reoffer_index.h).
    void skipOffer(std::int64_t decisions, bool fastRejection);

    /// Off by default. On: every task is scored, also those of a job that cannot fit (the
    /// reference the gang fast path is tested against; the decisions are the same), and
    /// every decision scores every node (as setFullScoring).
    void setExhaustive(bool on);
    /// Off by default. On: every decision scores every node with every plugin, the
    /// reference the incremental scoring is tested against (the decisions are identical).
    /// Off: per task shape, the nodes' scores are kept between decisions and only the nodes
    /// whose load changed are rescored (policies with TopologyDistance or Random always
    /// score fully: those change every node's score at every decision).
    void setFullScoring(bool on);
    /// Whether decisions are currently made by the incremental scorer.
    bool scoresIncrementally() const;
    /// One decision as the scorer made it: the picked node (-1: none feasible), its total
    /// and the number of nodes tied on that total (before the tie-break).
    struct DecisionTrace
    {
        std::int64_t index = 0;
        int node = -1;
        double total = -1;
        int ties = 0;
        bool operator==(const DecisionTrace &) const = default;
    };
    /// Appends every scored decision to `out` (nullptr: stop); decisions the gang fast path
    /// counts without scoring are not listed.
    void traceDecisions(std::vector<DecisionTrace> *out);

    /// From decision `decision` on (numbered as decisionCount() counts them), plugin
    /// `plugin` (index into the policy's plugins) scores with `weight` instead of its own
    /// weight; earlier decisions are as the policy makes them. The counterfactual "this weight
    /// at this decision" that sched/decision_contrast.h computes thresholds for. A log still
    /// lists the policy's weights.
    void overrideWeightFrom(std::int64_t decision, std::size_t plugin, double weight);
    /// With a log whose detail keeps only some rows: decision `decision` keeps a row for
    /// every node all the same, so that one decision can be explained exactly on a large
    /// cluster without a full log of all the others (clusterbench explain).
    void keepAllRowsAt(std::int64_t decision);

    const ClusterState &state() const;
    const Policy &policy() const;
    /// Number of decisions made so far (one per task offered to the scorer).
    std::int64_t decisionCount() const;
    /// Jobs rolled back by the gang fast path without scoring their remaining tasks.
    std::int64_t fastRejections() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// Workers that must be placed for `job` to start under `policy`: its min_available in gang
/// mode "min-available" (the default), else all of them. Fewer than the job's workers: it may
/// start without some (the placer logs it as admitted).
int gangWorkersNeeded(const Job &job, const Policy &policy);

/// Convenience: a fresh placer over `scenario.cluster` placing `scenario.jobs`.
Placement placeScenario(const Scenario &scenario, const Topology &topology, const Policy &policy,
                        std::uint64_t seed, DecisionLog *log = nullptr);

} // namespace cb
