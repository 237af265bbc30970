#pragma once
// Jobs of the stochastic schedulers (STS and its baselines) as the simulator runs them.
//
// configurationJob: a job on one STS configuration (GPU type, count, fraction) is a ring
// all-reduce over that many single-GPU workers (one worker with a GPU share for a slice), each
// with the original job's CPU and memory per GPU, so its flows are the traffic model's ring
// over the configuration's GPUs (net/job_flows.h) and its power that of its GPU shares.
//
// stochasticScenario: a scenario for a bare list of stochastic jobs and a GPU pool (tests, benchmarks and
// experiments that build STS jobs directly): one node per pool node (its id, GPU type, GPU
// count and rack), each linked to its rack's switch at the node's uplink capacity (racks
// joined by one core switch), and one single-GPU job per STS job with its id, submit time,
// due date, tardiness weight and model traffic (parameter bytes, iterations = max epochs x
// iterations per epoch). The simulator then runs the jobs as the stochastic scheduler says.

#include "model/scenario.h"
#include "stochastic/gpu_pool.h"
#include "stochastic/sts_configuration.h"
#include "stochastic/sts_job.h"

#include <vector>

namespace cb {

Scenario stochasticScenario(const std::vector<StsJob> &jobs, const GpuPool &pool);

Job configurationJob(const Job &original, const StsConfig &config);

} // namespace cb
