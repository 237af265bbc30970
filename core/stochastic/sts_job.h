#pragma once
// A job as the STS experiment sees it: its due date, weight, execution-time table, termination
// distribution and true (hidden) stop point, plus its progress during a simulation.

#include "stochastic/sts_configuration.h"
#include "stochastic/termination_distribution.h"

#include <optional>
#include <string>
#include <vector>

namespace cb {

struct StsJob
{
    std::string id;
    double submitSeconds = 0;
    double dueSeconds = 0;
    double tardinessWeight = 0;  ///< cost per second late
    double maxEpochs = 100;      ///< E
    double memoryGB = 0;         ///< decides which sharing slices fit
    std::vector<StsConfigTime> times; ///< by GPU type, then GPU count, then fraction
    TerminationDistribution termination = TerminationDistribution::runsToEnd();
    int trueStopPercent = 100;   ///< drawn from `termination`; schedulers never read it
    /// Traffic of multi-node placements (0: not modelled): the model's parameter bytes and
    /// training iterations per epoch.
    double parameterBytes = 0;
    double iterationsPerEpoch = 0;

    double trueStopEpochs() const { return maxEpochs * trueStopPercent / 100.0; }
    /// Worst-case remaining seconds on each configuration after `done` epochs: the minimum.
    double minRemainingSeconds(double done) const;
    double maxRemainingSeconds(double done) const;
    const StsConfigTime *find(const StsConfig &c) const;
};

/// What a scheduler knows about a job at an event (no true stop point).
struct StsJobState
{
    std::size_t job = 0;          ///< index into the job list
    double doneEpochs = 0;
    std::optional<StsConfig> lastConfig; ///< configuration of its last phase, if it ran
    bool running = false;          ///< holds resources right now
    bool phaseEnded = false;       ///< its planned reconfiguration time is now
};

/// Authors' pressure: now + minimum remaining time - due, times the weight when positive.
double stsPressure(const StsJob &job, double doneEpochs, double now);

} // namespace cb
