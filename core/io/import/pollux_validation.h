#pragma once
// The Pollux authors' validation runs (petuum/adaptdl osdi21-artifact,
// simulator/traces/<application>/validation-<B>.csv): one row per epoch of a training run at
// total batch size B, header progress,iteration,metric,grad_sqr,grad_var. The Pollux
// simulator takes an epoch's end from `progress` and the statistical efficiency of a batch
// size from grad_sqr and grad_var (sim/pollux_replay.h).

#include "io/import/import_input.h"
#include "sim/pollux_replay.h"
#include "util/result.h"

#include <map>
#include <string>
#include <vector>

namespace cb {

/// The epochs of one validation file. Fails naming the file and line on a missing column,
/// a value that is not a finite number (grad_sqr and grad_var >= 0), progress that falls,
/// or a file with no rows.
Result<std::vector<PolluxEpoch>> readPolluxValidation(const ImportInput &in);

/// Every validation run of `application` in `dir`, by batch size: files named
/// <application>_validation-<B>.csv (this repository's tests/data layout) or
/// <application>/validation-<B>.csv (the Pollux repository's). Fails when there is none.
Result<std::map<int, std::vector<PolluxEpoch>>>
readPolluxValidationRuns(const std::string &dir, const std::string &application);

/// A Pollux workload CSV (name,time,application,num_replicas,batch_size; their
/// simulator/workloads*/workload-N.csv) as replay jobs (each with its file:line as source),
/// failing on the first bad row, or a job name given twice, with its file and line.
Result<std::vector<PolluxWorkloadJob>> readPolluxWorkload(const ImportInput &in);

} // namespace cb
