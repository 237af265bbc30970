#pragma once
// An STS configuration: a GPU type, a GPU count and a GPU fraction (< 1 only for one shared
// GPU: a 1/4 or 1/2 slice), and the profiled time to run all maximum epochs on it.

#include <string>
#include <tuple>

namespace cb {

struct StsConfig
{
    std::string gpuType;
    int gpus = 1;
    double fraction = 1.0;

    bool shared() const { return fraction < 1.0; }
    /// GPUs worth of hardware paid for: gpus x fraction.
    double gpuShare() const { return gpus * fraction; }
    /// Order within one GPU type: by GPU count, then fraction (1/4 < 1/2 < whole).
    bool smallerThan(const StsConfig &o) const
    {
        return std::tie(gpus, fraction) < std::tie(o.gpus, o.fraction);
    }
    bool operator==(const StsConfig &) const = default;
    std::string toString() const;
};

/// One row of a job's execution-time table.
struct StsConfigTime
{
    StsConfig config;
    double fullSeconds = 0; ///< time to run all max epochs from the start

    /// Speed in epochs per second: s = (E - e) / t_remaining = E / fullSeconds.
    double speed(double maxEpochs) const { return maxEpochs / fullSeconds; }
    /// Worst-case remaining time after `done` epochs: fullSeconds * (E - e) / E.
    double remainingSeconds(double done, double maxEpochs) const
    {
        return fullSeconds * (maxEpochs - done) / maxEpochs;
    }
};

} // namespace cb
