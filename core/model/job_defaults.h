#pragma once
// What a job added by hand starts with, taken from the jobs a scenario already has: the next
// id of their series and, where every job has a due date, a due date and a tardiness weight
// like theirs (STS and its baselines refuse a job without one).

#include "model/job.h"

#include <optional>
#include <string>
#include <vector>

namespace cb {

/// The next id of the series most of `ids` follow (a prefix and a number: "job-00" ...
/// "job-23" -> "job-24", the number's width kept), not one of `ids`; empty when fewer than
/// half of them share a series.
std::string nextIdInSeries(const std::vector<std::string> &ids);

struct DueDefaults
{
    double dueAfterSeconds = 0; ///< from the submission: the median of the jobs' own
    double tardinessWeight = 0; ///< the median of the jobs' own
};

/// Due-date defaults like `jobs`' own, when every one of them has a due date (none without).
std::optional<DueDefaults> dueDefaults(const std::vector<Job> &jobs);

} // namespace cb
