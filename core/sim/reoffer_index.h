#pragma once
// Which waiting jobs a scheduling pass may skip, and how many placer decisions each would
// have made (the seeded tie-breaks and the Random plugin draw from the decision count, so a
// skipped job must advance it exactly as its offer would have).
//
// Every job is classified once by the shapes of its tasks in the placer's task order
// (shape = CPU, memory, GPUs, GPU fraction, GPU type, node selector): a run of m tasks of one
// shape p followed by R tasks of another shape w (m = 0: all R alike). For every shape the
// index keeps, per node, how many such tasks fit one after another on the node's free
// resources (the comparisons of the placer's filter and of its gang count, capped at the
// largest count any job asks for) and their sum F over the cluster, refreshed whenever a
// node's load changes. A waiting job is blocked, and the decisions of its offer are known,
// when:
//   - its first task fits no node: one failed decision;
//   - gang mode, m = 0, R >= 2, the shape and the nodes it fits on are integral (the gang
//     count is exact): F < R gives the fast path's F + 1 decisions;
//   - gang mode, m > 0, both shapes integral: F(p) < m gives F(p) placed prefix tasks and one
//     failed decision; otherwise, when on no node the m prefix tasks (as many as fit there)
//     would lower the count of w tasks, the m scored prefix tasks leave F(w) unchanged
//     wherever they land, and F(w) < R gives m + F(w) + 1 decisions.
// Anything else is offered to the placer as before. The answers are exactly those of
// offering every job (tests/core/tst_fast_paths.cpp compares run files and decision counts
// with the exhaustive mode, which offers every job).

#include "model/cluster.h"
#include "model/job.h"
#include "sched/cluster_state.h"
#include "sched/policy.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace cb {

class ReofferIndex
{
public:
    ReofferIndex(const Cluster &cluster, const ClusterState &state, const Policy &policy);

    /// Classifies the jobs (all before the first refresh: the counts' caps follow from them)
    /// and computes every node's counts from the state as it is now.
    void build(const std::vector<Job> &jobs);

    struct Skip
    {
        std::int64_t decisions = 0;
        bool fastRejection = false; ///< the placer's gang fast path would have rejected it
    };
    /// Set when job `job` (index into build()'s jobs) cannot be placed on the state now.
    std::optional<Skip> blocked(int job) const;

    /// Node `n`'s load changed: its counts are recomputed.
    void refreshNode(int n);
    /// Recomputes the nodes whose load differs from what the index last saw (after a job was
    /// offered and rolled back: its binds and unbinds need not cancel exactly).
    void refreshChanged();

    int shapeCount() const { return int(m_shapes.size()); }

private:
    struct Shape
    {
        double cpus = 0, mem = 0, fraction = 1;
        int gpus = 0;
        bool integralShape = false;
        int cap = 1;
        std::vector<std::uint8_t> eligible;
        std::vector<int> count;
        std::vector<std::uint8_t> bad; ///< count > 0 on a node with non-integral use
        std::int64_t total = 0;
        int badNodes = 0;
    };
    struct Combo
    {
        int prefix = 0, tail = 0, m = 0;
        std::vector<std::uint8_t> lowers; ///< the prefix tasks would lower the tail's count
        int lowering = 0;
    };
    struct JobClass
    {
        int first = -1;  ///< shape of the first task
        int prefix = -1; ///< shape p of the m prefix tasks (-1: none)
        int m = 0;
        int tail = -1;   ///< shape w of the R tail tasks (-1: the job has another pattern)
        int r = 0;
        int combo = -1;
        bool single = false; ///< exactly one task
    };
    struct ShapeKey
    {
        double cpus, mem, fraction;
        int gpus;
        std::string gpuType;
        std::map<std::string, std::string> selector;
        auto operator<=>(const ShapeKey &) const = default;
    };

    int shapeOf(const TaskGroup &g);
    int comboOf(int prefix, int tail, int m);
    std::vector<int> taskGroupsInOrder(const Job &job) const;
    int countOn(const Shape &s, int n, double cpuUsed, double memUsed, double gpuFree) const;
    bool badOn(const Shape &s, int n) const;
    void refreshShape(Shape &s, int n);
    void refreshCombo(Combo &c, int n);

    const Cluster &m_cluster;
    const ClusterState &m_state;
    Policy m_policy;
    std::map<ShapeKey, int> m_shapeIds;
    std::vector<Shape> m_shapes;
    std::vector<Combo> m_combos;
    std::vector<JobClass> m_classes;
    std::vector<int> m_jobClass;
    std::vector<double> m_seenCpu, m_seenMem, m_seenGpu, m_seenMaxFree;
};

} // namespace cb
