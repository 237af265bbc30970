#pragma once
// The order in which queued jobs are offered to the placer.

#include "model/job.h"
#include "sched/policy.h"

#include <cstddef>
#include <vector>

namespace cb {

/// Indices into `jobs` in queue order. All orders are stable and end with file order:
///  fifo     submit time
///  edf      due date (jobs without one last), then submit time
///  sjf      estimated length = iterations x compute seconds per iteration, then submit time
///  priority larger priority first, then submit time
///  slack    due date minus estimated length (least slack first, no due date last), then
///           submit time
std::vector<std::size_t> queueOrder(const std::vector<Job> &jobs, QueueOrder order);
/// The same order over jobs held elsewhere (the simulator offers its waiting jobs this way
/// instead of copying them).
std::vector<std::size_t> queueOrder(const std::vector<const Job *> &jobs, QueueOrder order);

} // namespace cb
