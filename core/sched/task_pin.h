#pragma once
// What if I put it here: a task pinned to a node by hand (--pin JOB/TASK=NODE on place,
// simulate and compare). The placer offers the pinned task only that node and places the rest
// of the queue around it, so the run shows what the hand-made choice costs against the
// policy's own.

#include "model/job.h"
#include "model/scenario.h"
#include "sched/placer.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace cb {

struct TaskPin
{
    std::string jobId;
    TaskRole role = TaskRole::Worker;
    int indexInRole = 0; ///< rank among the job's tasks of this role (worker-3: 3)
    std::string node;    ///< Node::id
    bool operator==(const TaskPin &) const = default;
};

/// "JOB/TASK=NODE", TASK as the logs name tasks ("ps-0", "worker-3", "single-0"); the job id
/// may itself hold '/' (the last one separates the task).
Result<TaskPin> parseTaskPin(const std::string &text);
/// A comma-separated list of pins.
Result<std::vector<TaskPin>> parseTaskPins(const std::string &text);
/// "JOB/TASK=NODE".
std::string toString(const TaskPin &pin);

/// Every pin names a job of the scenario, a task the job has and a node of the cluster, and
/// no task is pinned twice; problems name the pin.
Status checkTaskPins(const Scenario &scenario, const std::vector<TaskPin> &pins);
/// Hands checked pins to the placer.
void applyTaskPins(Placer &placer, const Cluster &cluster, const std::vector<TaskPin> &pins);

} // namespace cb
