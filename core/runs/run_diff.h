#pragma once
// Where two policies part: two stored runs of one scenario aligned decision by decision
// (clusterbench diff, the window's two-run comparison).
//
// Placement decisions are compared in log order. Up to the first difference both runs
// offered the same task and picked the same node, so at the first difference the cluster is
// in the same state in both: the contrasts there are exact comparisons of the two policies
// on one state (run A's pick against run B's in A's scores, and the other way round). After
// it the states drift apart, so the rest is summarised per task (matched by job, role and
// rank, not by position) and per job (its nodes, and its times when both runs were
// simulated). Stochastic runs log no per-node scores: they are aligned by job outcome
// (start, configuration, finish) in start order.

#include "sched/decision_contrast.h"
#include "sched/decision_log.h"
#include "store/stored_run.h"

#include <optional>
#include <string>
#include <vector>

namespace cb {

/// The two sides of the first difference in the placement decisions.
struct DecisionFork
{
    int index = 0;       ///< 0-based log index of the two decisions (the same in both)
    bool sameTask = true; ///< false: the runs offered different tasks here (queue order)
    /// Contrast of A's pick with B's pick in A's scores, and the other way round; absent
    /// when the task differs, a log kept no row for the other pick, or a side found no node.
    std::optional<Contrast> inA, inB;
};

/// One job whose outcome differs between the runs.
struct JobDifference
{
    std::string jobId;
    std::vector<std::string> nodesA, nodesB; ///< per task, task order; empty: waits
    int tasksMoved = 0;  ///< tasks (by role and rank) on another node in B
    /// Simulated runs: start and finish in each (absent when not started / not finished).
    std::optional<double> startA, startB, finishA, finishB;
};

struct MetricDifference
{
    std::string name;
    std::optional<double> a, b; ///< absent when one run has no such metric
};

struct RunDiff
{
    std::int64_t runA = 0, runB = 0;
    std::string policyA, policyB;
    bool logs = false;       ///< both runs stored a placement decision log
    int decisionsA = 0, decisionsB = 0;
    int commonPrefix = 0;    ///< decisions equal in both (same task, same pick) from the start
    std::optional<DecisionFork> fork; ///< the first difference; absent when the logs agree
    int tasksCompared = 0;   ///< tasks decided in both logs (their last decision compared)
    int tasksMoved = 0;      ///< of those, picked another node
    std::vector<JobDifference> jobs; ///< jobs placed differently (or timed differently), A's order
    int jobsCompared = 0;
    std::vector<MetricDifference> metrics; ///< every metric either run has, by name
};

/// Two decision logs of one scenario aligned for stepping both at once (the stepper's two-run
/// mode): decision k of A beside decision k of B. A decision differs when one log has none at
/// that index, the runs offered different tasks there, or they picked different nodes (by
/// name; "no node" is a pick too). Up to the first difference the cluster is the same in both
/// runs; after it each log is read in its own state, and `partnerOf` finds where the other run
/// decided the same task (a gang retried in a later pass, or another queue order, decides it
/// at another index).
class DecisionAlignment
{
public:
    DecisionAlignment() = default;
    DecisionAlignment(const DecisionLog &a, const DecisionLog &b);

    int decisionsA() const { return m_decisionsA; }
    int decisionsB() const { return m_decisionsB; }
    /// Decisions equal in both from the start (the index of the first difference).
    int commonPrefix() const { return m_differing.empty() ? m_decisionsA : m_differing.front(); }
    /// Every differing index, ascending (indices past the shorter log included).
    const std::vector<int> &differing() const { return m_differing; }
    bool differs(int index) const;
    /// The first differing index after `from`, -1 when none (from = -1: the first of all).
    int nextDifference(int from) const;
    /// The last differing index before `from`, -1 when none.
    int previousDifference(int from) const;
    /// B's decision of the task A decides at `indexA`: of B's decisions of that task (job,
    /// role, group, rank), the one nearest to indexA (the earlier on a tie); -1 when B never
    /// decides it or indexA is out of range.
    int partnerOf(int indexA) const;

private:
    int m_decisionsA = 0, m_decisionsB = 0;
    std::vector<int> m_differing;
    std::vector<int> m_partner; ///< per decision of A
};

/// "node-02 x3, node-05": the nodes of a job's tasks with runs of one node counted; "waits"
/// when there are none.
std::string compactNodeList(const std::vector<std::string> &nodes);

/// Aligns two stored runs. Fails, naming both runs, when they are of different scenarios
/// (their scenario digests differ).
Result<RunDiff> diffRuns(const StoredRunDetail &a, const StoredRunDetail &b);

} // namespace cb
