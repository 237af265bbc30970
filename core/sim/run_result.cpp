#include "sim/run_result.h"

#include "util/text.h"

#include <algorithm>

namespace cb {

const JobSegment *JobRun::segmentAt(double seconds) const
{
    for (auto it = segments.rbegin(); it != segments.rend(); ++it)
        if (it->startSeconds <= seconds && (!it->endSeconds || seconds < *it->endSeconds))
            return &*it;
    return nullptr;
}

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

double RunResult::crossDomainBytes() const
{
    double sum = 0;
    for (const JobRun &j : jobs)
        sum += j.crossDomainBytes;
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

int RunResult::violations() const
{
    int n = 0;
    for (const JobRun &j : jobs)
        n += j.violated ? 1 : 0;
    return n;
}

namespace {

constexpr std::pair<RunEventKind, const char *> kEventNames[] = {
    {RunEventKind::Arrival, "arrival"},   {RunEventKind::Start, "start"},
    {RunEventKind::Reconfiguration, "reconfigure"},
    {RunEventKind::Preemption, "preempt"}, {RunEventKind::Completion, "finish"},
    {RunEventKind::Kill, "kill"},         {RunEventKind::Requeue, "requeue"},
    {RunEventKind::NodeDown, "node-down"}, {RunEventKind::NodeUp, "node-up"},
    {RunEventKind::Hook, "hook"}};

} // namespace

const char *toString(RunEventKind kind)
{
    for (const auto &[k, name] : kEventNames)
        if (k == kind)
            return name;
    return "?";
}

std::optional<RunEventKind> runEventKindFromString(const std::string &name)
{
    for (const auto &[k, n] : kEventNames)
        if (name == n)
            return k;
    return std::nullopt;
}

std::optional<double> ranPastTimeLimit(const Job &job, const JobRun &run)
{
    const std::optional<double> start =
        run.firstStartSeconds ? run.firstStartSeconds : run.startSeconds;
    if (!job.timeLimitSeconds || run.id != job.id || !start || !run.finishSeconds)
        return std::nullopt;
    const double ran = *run.finishSeconds - *start;
    return ran > *job.timeLimitSeconds + 1e-6 ? std::optional<double>(ran) : std::nullopt;
}

Problems timeLimitOverruns(const Scenario &scenario, const RunResult &run)
{
    Problems out;
    for (std::size_t i = 0; i < scenario.jobs.size() && i < run.jobs.size(); ++i) {
        const Job &job = scenario.jobs[i];
        if (const std::optional<double> ran = ranPastTimeLimit(job, run.jobs[i]))
            out.push_back({"/jobs/" + std::to_string(i) + "/time_limit_s",
                           "job \"" + job.id + "\" ran " + clockText(*ran) +
                               " in the simulation, past its time limit of " +
                               clockText(*job.timeLimitSeconds) +
                               ": deployed, it is ended there (Slurm's --time, Kubernetes' "
                               "activeDeadlineSeconds); the simulation lets it finish"});
    }
    return out;
}

} // namespace cb
