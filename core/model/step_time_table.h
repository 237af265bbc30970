#pragma once
// A measured step-time model of one training model, as the Pollux authors measured CIFAR-10
// (their placements.csv and scalability.csv): seconds per training step and the part of it
// spent synchronising gradients, for placements (GPUs per node) and local batch sizes. The
// scenario keeps one per model profile name (Scenario::stepTimeModels); the simulator uses it
// instead of compute + modelled communication for every job whose model has one.
//
// Points are of two kinds:
//   - shaped: `placement` lists GPUs (replicas) per node in ring order, e.g. {1, 2} is one
//     replica on one node and two on the next; nodes and replicas follow from it;
//   - unshaped: only `nodes` and `replicas` are known (Pollux's scalability.csv).
// The step time includes the sync time (both are per step, as Pollux measures them).
//
// Lookup for a job whose workers use GPU counts P per node (ring order) at local batch b:
//   1. P is normalised: zero counts dropped, then the lexicographically smallest rotation
//      (a ring has no first node): {2, 1} and {1, 2} are the same placement.
//   2. When the table has shaped points for that placement: linear in b between the two
//      measured batch sizes around it; exact at a measured batch size; below the smallest
//      or above the largest measured batch size, the value at that end (no extrapolation).
//   3. Otherwise the (nodes, replicas) grid: unshaped points plus, per (nodes, replicas,
//      batch), the mean of the shaped points with those counts. The node count is the
//      nearest node count in the grid (ties: the smaller); among the replica counts measured
//      with that many nodes, linear in replicas between the two around P's total (the end
//      value outside their range); each of those in b as in 2.
//   b = 0 (the job states no local batch) means the smallest batch measured for the rows used.

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cb {

struct StepTimePoint
{
    std::vector<int> placement; ///< GPUs per node in ring order; empty: unshaped point
    int nodes = 0;
    int replicas = 0;
    int localBatch = 0;
    double stepSeconds = 0;
    double syncSeconds = 0;
    bool operator==(const StepTimePoint &) const = default;
};

struct StepTimeTable
{
    std::string source; ///< where the numbers were measured (free text, e.g. the files)
    std::vector<StepTimePoint> points;
    bool operator==(const StepTimeTable &) const = default;
};

struct StepTimeEstimate
{
    double stepSeconds = 0;
    double syncSeconds = 0;
    bool exact = false; ///< a measured point, no interpolation or clamping
};

/// Zero counts dropped, then the lexicographically smallest rotation.
std::vector<int> normalisePlacement(std::vector<int> gpusPerNode);

/// "12" style text of a placement (counts above 9 in brackets: "1[12]").
std::string placementText(const std::vector<int> &placement);

/// The key that must be unique: normalised placement and batch, or nodes, replicas, batch.
std::string stepTimeKey(const StepTimePoint &point);

/// Problems of the table, each with the index of the point: non-positive or non-finite step
/// time, sync time negative or above the step time, batch below 1, a placement whose counts
/// are not positive, nodes/replicas that disagree with the placement or are below 1,
/// replicas fewer than nodes, a duplicate key (naming the first index).
std::vector<std::pair<std::size_t, std::string>> stepTimeProblems(const StepTimeTable &table);

/// The step time for a placement (GPUs per node, ring order) at local batch `localBatch`,
/// by the rules above; nullopt when the table has no points or the placement no GPU.
std::optional<StepTimeEstimate> lookupStepTime(const StepTimeTable &table,
                                               const std::vector<int> &gpusPerNode, int localBatch);

} // namespace cb
