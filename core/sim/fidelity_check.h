#pragma once
// How far the simulator's iteration times are from measured ones: the Pollux authors' step
// and sync times per placement and local batch (their placements.csv and scalability.csv),
// predicted on a testbed cluster with the simulator's own model (net/job_flows.h: the
// communication plan on the max-min network, compute, overlap, straggler wait).
//
// Per model, only compute and overlap are calibrated, on a documented split of the measured
// placements, and the rest is predicted:
//   - compute profile: the measured 1-GPU step time at each local batch (linear between the
//     measured batches, the end value outside); its sync part is the data-parallel overhead
//     a lone GPU already pays;
//   - colocation_slowdown: least squares of the compute part (step - sync) of the training
//     single-node multi-GPU points against (g - 1) x the 1-GPU compute;
//   - overlap (steps of 0.02), exposed_comm_fraction (steps of 0.05) and compute_cv (closed
//     form for each pair) minimising the squared relative step-time error over the training
//     points;
//   - comm interference (steps of 0.01): the share of the exposed communication that the
//     authors' sync measurement (CUDA events from a worker's last gradient to the end of the
//     all-reduce, adaptdl's AdaptiveDataParallel) does not see because it stretches the
//     backward pass, minimising the absolute relative sync error over the training points.
//     Predicted sync = s_min x the 1-GPU sync + (1 - interference) x the exposed
//     communication + the straggler wait + the wait of a worker on the least crowded node
//     for the most crowded one ((s_max - s_min) x the 1-GPU compute less its sync; s = 1 +
//     colocation_slowdown x (g - 1), g the node's GPUs).
// Splits: `half` sorts the distinct measured placements (by nodes, GPUs, then digits) and
// trains on every other one (the 1st, 3rd, ...: the 1-GPU placement always trains), holding
// out the rest; `one-node` trains on the single-node placements and holds out every
// multi-node one. scalability.csv points (6 to 16 nodes, shape not recorded: GPUs spread as
// evenly as possible, the first nodes taking the remainder) are always held out.
//
// Errors are |predicted / measured - 1| of step time and of sync time over the held-out
// points: median and 90th percentile (linear between order statistics). The sync noise floor
// predicts each held-out sync by the median measured sync of the training points at the same
// nodes, GPUs and local batch: what the measurements themselves allow at that granularity.

#include "model/cluster.h"
#include "model/job.h"
#include "model/step_time_table.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

enum class FidelitySplit { Half, OneNode };
const char *toString(FidelitySplit split);

/// One model to check: its name, gradient bytes per iteration and measured table.
struct FidelityModelInput
{
    std::string name;
    std::int64_t parameterBytes = 0;
    StepTimeTable table;
};

struct FidelityCalibration
{
    double colocationSlowdown = 0;
    double overlap = 0;
    double exposedCommFraction = 0;
    double computeCv = 0;
    /// Share of the exposed communication measured before the last gradient (it stretches the
    /// backward pass instead of following it): splits the step time into compute and sync as
    /// the authors measure them, does not change the step time.
    double commInterference = 0;
};

struct FidelityPoint
{
    std::vector<int> placement; ///< GPUs per node (scalability points: the assumed shape)
    int localBatch = 0;
    bool training = false;
    bool scalability = false; ///< from scalability.csv (shape assumed)
    double measuredStep = 0, measuredSync = 0;
    double predictedStep = 0, predictedSync = 0;
    double commSeconds = 0; ///< the modelled all-reduce alone on the testbed
    double stepError() const { return predictedStep / measuredStep - 1.0; }
    double syncError() const { return measuredSync > 0 ? predictedSync / measuredSync - 1.0 : 0; }
};

struct FidelityErrors
{
    int points = 0;
    double stepMedian = 0, stepP90 = 0; ///< absolute relative errors
    double syncMedian = 0, syncP90 = 0;
};

struct FidelityModelReport
{
    std::string model;
    std::int64_t parameterBytes = 0;
    int trainingPoints = 0;
    FidelityCalibration calibration;
    FidelityErrors heldOut;     ///< held-out placements.csv points
    FidelityErrors scalability; ///< scalability.csv points
    FidelityPoint worst;        ///< the held-out point with the largest step-time error
    /// Sync noise floor: median absolute relative error of predicting each held-out point's
    /// sync by the median sync of the training points at the same (nodes, GPUs, local batch),
    /// over the held-out points that have such training points.
    double syncFloorMedian = 0;
    int syncFloorPoints = 0;
    /// The model's median sync error over those same points, to read against the floor.
    double syncModelAtFloorMedian = 0;
    std::vector<FidelityPoint> points;
};

struct FidelityReport
{
    FidelitySplit split = FidelitySplit::Half;
    AllReduceAlgorithm algorithm = AllReduceAlgorithm::Ring;
    std::vector<FidelityModelReport> models;

    /// The table as `clusterbench fidelity` prints it.
    /// The report as text laid out for `width` columns.
    std::string text(std::size_t width = 80) const;
    /// Per model: calibration, errors, worst point (points only with `withPoints`).
    nlohmann::ordered_json toJson(bool withPoints = false) const;
};

/// Checks every model on `testbed` (its first nodes take a placement's GPUs in order; every
/// node needs at least as many GPUs as the placement puts there). Fails when a model has no
/// measured 1-GPU point, no parameter bytes, or a placement the testbed cannot hold.
Result<FidelityReport> checkFidelity(const Cluster &testbed, AllReduceAlgorithm algorithm,
                                     const std::vector<FidelityModelInput> &models,
                                     FidelitySplit split);

/// Absolute relative error statistics of a set of (predicted, measured) values.
double medianOf(std::vector<double> values);
/// q in [0, 1]; linear between order statistics (0 when empty).
double percentileOf(std::vector<double> values, double q);

// ---- NCCL bus bandwidth --------------------------------------------------------------

/// One measured all-reduce bus bandwidth and what the ring model predicts for it.
struct BusBandwidthPoint
{
    double bytes = 0;
    double measuredGBps = 0;
    double predictedGBps = 0;
};

/// In-place all-reduce bus bandwidth on 8 x A100-SXM4-80GB (NVSwitch), Azure ND A100 v4,
/// NCCL 2.18.5 (Azure/AI-benchmarking-guide, Azure_Results/ND_A100_v4_results.md), against
/// the ring model: 2 x 7 steps of `stepLatencySeconds` after `baseLatencySeconds`, and the
/// bus bandwidth `busGBps`.
std::vector<BusBandwidthPoint> ncclA100BusBandwidth(double busGBps, double stepLatencySeconds,
                                                    double baseLatencySeconds);

} // namespace cb
