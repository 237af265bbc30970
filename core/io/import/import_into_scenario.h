#pragma once
// Turns an import report into a scenario: a cluster import becomes a new scenario; imported
// jobs are added to a given scenario (or to a stated default cluster). Jobs that cannot be
// kept are skipped and reported with their input line, never silently dropped.

#include "io/import/import_report.h"
#include "model/scenario.h"

#include <functional>
#include <string>

namespace cb {

/// The cluster trace jobs go to when the user names none: 4 nodes with 8 GPUs (of `gpuType`,
/// V100 when empty), 64 CPUs and 512 GiB each, on one switch (100 Gbit/s links).
Cluster defaultImportCluster(const std::string &gpuType = {});

/// Adds report.jobs to `scenario` (moving them out of the report): GPU-type requirements
/// the cluster cannot meet are dropped (reported); a job is skipped, with its source line and
/// a reason reports group by, when a task fits no node, when a value is beyond the scenario
/// format's range (scenario_limits.h: a duration too long for the iteration limit, say) or
/// when its text is not UTF-8; ids already used get a suffix "~2", "~3" (reported). Measured
/// step-time models in the report are attached, replacing one of the same name (reported).
/// `progress(jobs checked)` is called every few thousand jobs; false cancels (returns false).
bool addImportedJobs(Scenario &scenario, ImportReport &report,
                     const std::function<bool(std::size_t)> &progress = {});

} // namespace cb
