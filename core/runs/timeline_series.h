#pragma once
// Time series of a simulated run for the timelines, in the run's buckets: GPU utilisation
// (from RunSeries::gpuBusySeconds, exact), and the power drawn and the cost accrued, derived
// from the jobs' segments as the simulator accounts them: the baseline (node base watts and
// idle GPUs) all the time, plus (busy - idle) watts of each segment's GPU shares while it
// runs, x PUE, priced by the scenario's price schedule (or per GPU-hour); the catalogue cost
// of stochastic runs comes from the run's own cost series. Every attempt and every
// configuration of a job is a segment, so requeues and reconfigurations are drawn as they
// ran (nodes are assumed up throughout). Plain C++: no Qt.

#include "model/scenario.h"
#include "sim/run_result.h"

#include <string>

#include <vector>

namespace cb {

struct TimelineSeries
{
    double bucketSeconds = 0;
    /// Means over each bucket (the last one only up to the end of the run):
    std::vector<double> gpuUtilisation; ///< busy GPU-seconds / (all GPUs x seconds), 0..1
    std::vector<double> powerWatts;     ///< mean draw, incl. PUE
    std::vector<double> energyKWh;      ///< cumulative at the end of each bucket
    std::vector<double> cost;           ///< cumulative, under the run's cost model
    /// GPUs free but unusable by the waiting jobs (RunResult::strandedGpuSeconds) / all
    /// GPUs, 0..1; empty when none ever were.
    std::vector<double> strandedShare;
    int buckets() const { return int(gpuUtilisation.size()); }
};

TimelineSeries timelineSeries(const cb::Scenario &scenario, const cb::RunResult &run);

/// One bar of the Gantt chart: a task of a job on a node (and its GPUs) over [start, end].
struct GanttBar
{
    int job = 0;        ///< index in RunResult::jobs
    int node = 0;       ///< node index
    std::vector<int> gpus; ///< GPU slots (empty for CPU tasks)
    double start = 0, end = 0;
    bool finished = true; ///< false: still running when the run ended
    int segment = 0;    ///< index in JobRun::segments (a later one after a reconfiguration)
    std::string config; ///< the segment's configuration ("K80 x4"), empty for placements
};

/// Bars of every segment of every started job, in job, segment, then task order.
std::vector<GanttBar> ganttBars(const cb::Scenario &scenario, const cb::RunResult &run);

} // namespace cb

namespace cb {
/// Utilisation per cluster link (the busier direction) in the time bucket holding `seconds`:
/// bytes moved / (capacity x bucket width). Empty without buckets.
std::vector<double> linkUtilisationAt(const cb::Scenario &scenario, const cb::RunResult &run,
                                      double seconds);
} // namespace cb
