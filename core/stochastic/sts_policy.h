#pragma once
// The STS policy (Filippini et al., IEEE TCC 2024): jobs in decreasing pressure; for each job
// and GPU type a phase plan (phase_planner.h) from its current configuration upwards; the
// cheapest expected cost whose first phase fits is enacted on a best-fit node; the end of that
// phase is a reconfiguration event at which the job moves to more GPUs, and every event
// re-plans all jobs (receding horizon). When no planned configuration fits, the job falls
// back to the authors' ranking (cheapest meeting the due date, else fastest) of anything that
// fits, and otherwise waits.

#include "stochastic/sts_scheduler.h"

namespace cb {

class StsPolicy : public StsScheduler
{
public:
    std::string name() const override { return "STS"; }
    bool replansRunningJobs() const override { return true; }
    std::vector<StsAssignment> schedule(StsPass &pass) override;
};

} // namespace cb
