#pragma once
// Turns an import report into a scenario: a cluster import becomes a new scenario; imported
// jobs are added to a given scenario (or to a stated default cluster). Jobs that cannot run
// on the cluster are skipped and reported, never silently dropped.

#include "io/import/import_report.h"
#include "model/scenario.h"

namespace cb {

/// The cluster trace jobs go to when the user names none: 4 nodes with 8 V100 GPUs,
/// 64 CPUs and 512 GiB each, on one switch (100 Gbit/s links).
Cluster defaultImportCluster();

/// Adds report.jobs to `scenario`: GPU-type requirements the cluster cannot meet are
/// dropped (reported), jobs with a task no node can hold are skipped (reported with their
/// source line), ids already used get a suffix "~2", "~3" (reported). Measured step-time
/// models in the report are attached to the scenario, replacing one of the same model name
/// (reported).
void addImportedJobs(Scenario &scenario, ImportReport &report);

} // namespace cb
