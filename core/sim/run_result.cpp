#include "sim/run_result.h"

#include <algorithm>

namespace cb {

std::optional<double> JobRun::queueDelaySeconds() const
{
    if (!firstStartSeconds)
        return std::nullopt;
    return *firstStartSeconds - submitSeconds;
}

std::optional<double> JobRun::jctSeconds() const
{
    if (!finishSeconds)
        return std::nullopt;
    return *finishSeconds - submitSeconds;
}

std::optional<double> JobRun::slowdown() const
{
    const auto jct = jctSeconds();
    if (!jct || !isolatedSeconds || *isolatedSeconds <= 0)
        return std::nullopt;
    return *jct / *isolatedSeconds;
}

std::optional<double> JobRun::tardinessSeconds() const
{
    if (!finishSeconds || !dueSeconds)
        return std::nullopt;
    return std::max(0.0, *finishSeconds - *dueSeconds);
}

double RunResult::meanJctSeconds() const
{
    double sum = 0;
    int n = 0;
    for (const JobRun &j : jobs)
        if (auto jct = j.jctSeconds()) {
            sum += *jct;
            ++n;
        }
    return n > 0 ? sum / n : 0.0;
}

double RunResult::totalTardinessSeconds() const
{
    double sum = 0;
    for (const JobRun &j : jobs)
        if (auto t = j.tardinessSeconds())
            sum += *t;
    return sum;
}

double RunResult::crossNodeBytes() const
{
    double sum = 0;
    for (const JobRun &j : jobs)
        sum += j.crossNodeBytes;
    return sum;
}

double RunResult::totalBytes() const
{
    double sum = 0;
    for (const JobRun &j : jobs)
        sum += j.totalBytes;
    return sum;
}

int RunResult::finishedJobs() const
{
    return int(std::count_if(jobs.begin(), jobs.end(),
                             [](const JobRun &j) { return j.finishSeconds.has_value(); }));
}

} // namespace cb
