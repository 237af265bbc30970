#include "sim/pollux_replay.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cb {

namespace {

struct ReplayApp
{
    const PolluxApplication *app = nullptr;
    int initBatch = 0, maxBatch = 0; ///< smallest and largest validated total batch
    int maxLocal = 0;
    std::vector<double> epochEnd; ///< progress at the end of epoch e (min over the runs)
};

struct ReplayJob
{
    const PolluxWorkloadJob *job = nullptr;
    const ReplayApp *app = nullptr;
    int atomic = 0, accum = 0, batch = 0;
    std::vector<int> placement; ///< GPUs per node; empty: not running
    std::vector<int> gpus;      ///< node index of each allocated GPU
    double rescale = 0;
    int epoch = 0;
    double progress = 0;
    double current = 0;
    bool done = false;
    double finish = 0;
    int starts = 0;
    // queue state
    bool arrived = false, active = false, running = false;
    int queue = 0; ///< 0 or 1 (Tiresias)
    double executed = 0, lastCheck = 0;
};

/// grad_sqr and grad_var of `epoch` at total batch `batch`, linear between the validated
/// batch sizes around it.
std::pair<double, double> replayGradStats(const ReplayApp &a, int batch, int epoch)
{
    const auto &v = a.app->validation;
    auto hi = v.lower_bound(batch);
    auto lo = hi;
    if (hi->first != batch)
        --lo;
    const PolluxEpoch &l = lo->second[std::size_t(epoch)];
    const PolluxEpoch &h = hi->second[std::size_t(epoch)];
    if (lo == hi)
        return {l.gradSqr, l.gradVar};
    const double span = double(hi->first - lo->first);
    const double wl = double(hi->first - batch) / span, wh = double(batch - lo->first) / span;
    return {wh * h.gradSqr + wl * l.gradSqr, wh * h.gradVar + wl * l.gradVar};
}

/// Advances a job by `seconds` of wall time (the Pollux simulator's Job.step).
void advanceJob(ReplayJob &j, double seconds)
{
    if (j.placement.empty()) {
        j.current += seconds;
        return;
    }
    const double delay = std::min(j.rescale, seconds);
    j.current += delay;
    j.rescale -= delay;
    seconds -= delay;
    const ReplayApp &a = *j.app;
    while (seconds > 0 && !j.done) {
        const auto est = lookupStepTime(a.app->table, j.placement, j.atomic);
        const double stepT = est->stepSeconds, syncT = est->syncSeconds;
        const double scale = double(j.batch) / double(a.initBatch);
        const auto [sqr, var] = replayGradStats(a, j.batch, j.epoch);
        const double gain = (var + sqr) / (var / scale + sqr);
        const double total = stepT + (stepT - syncT) * double(j.accum);
        const double goodput = gain / total;
        const double next = a.epochEnd[std::size_t(j.epoch)];
        if (j.progress + goodput * seconds < next) {
            j.progress += goodput * seconds;
            j.current += seconds;
            seconds = 0;
        } else {
            ++j.epoch;
            const double delta = std::nearbyint((next - j.progress) / goodput);
            if (j.epoch >= a.app->maxEpochs) {
                j.done = true;
                j.finish = j.current + delta;
            }
            j.progress = next;
            j.current += delta;
            seconds -= delta;
        }
    }
    j.current += seconds;
}

/// Where a problem of `job` is: its row when known, else its name.
std::string replayJobWhere(const PolluxWorkloadJob &job)
{
    return job.source.empty() ? job.name : job.source + " (job " + job.name + ")";
}

} // namespace

std::optional<std::pair<int, int>> polluxSimulatorApplication(const std::string &name)
{
    static const std::map<std::string, std::pair<int, int>> kApps = {
        {"bert", {2, 0}},      {"cifar10", {100, 0}}, {"deepspeech2", {80, 0}},
        {"imagenet", {90, 0}}, {"ncf", {10, 0}},      {"yolov3", {50, 8}},
    };
    if (auto it = kApps.find(name); it != kApps.end())
        return it->second;
    return std::nullopt;
}

const char *toString(ReplayQueue queue)
{
    switch (queue) {
    case ReplayQueue::Tiresias:
        return "tiresias";
    case ReplayQueue::Fifo:
        return "fifo";
    case ReplayQueue::FifoStrict:
        return "fifo-strict";
    }
    return "?";
}

std::optional<ReplayQueue> replayQueueFromString(const std::string &name)
{
    for (ReplayQueue q : {ReplayQueue::Tiresias, ReplayQueue::Fifo, ReplayQueue::FifoStrict})
        if (name == toString(q))
            return q;
    return std::nullopt;
}

Result<ReplayResult> replayPolluxWorkload(const std::vector<PolluxApplication> &apps,
                                          const std::vector<PolluxWorkloadJob> &jobs,
                                          const ReplayOptions &options)
{
    using R = Result<ReplayResult>;
    int totalGpus = 0;
    for (int g : options.gpusPerNode)
        totalGpus += std::max(0, g);
    if (totalGpus < 1 || !(options.intervalSeconds > 0) || !(options.restartSeconds >= 0))
        return R::failure("replay", "needs a GPU, a positive interval and a restart time >= 0");
    std::vector<ReplayApp> replayApps(apps.size());
    for (std::size_t k = 0; k < apps.size(); ++k) {
        const PolluxApplication &a = apps[k];
        ReplayApp &s = replayApps[k];
        s.app = &a;
        if (a.validation.empty() || a.table.points.empty() || a.maxEpochs < 1)
            return R::failure(a.name, "needs validation runs, a step-time table and epochs");
        s.initBatch = a.validation.begin()->first;
        s.maxBatch = a.validation.rbegin()->first;
        s.maxLocal = a.maxLocalBatch;
        for (const StepTimePoint &p : a.table.points)
            if (a.maxLocalBatch <= 0)
                s.maxLocal = std::max(s.maxLocal, p.localBatch);
        for (int e = 0; e < a.maxEpochs; ++e) {
            double least = std::numeric_limits<double>::infinity();
            for (const auto &[batch, run] : a.validation) {
                if (std::size_t(e) >= run.size())
                    return R::failure(a.name, "validation run at batch " + std::to_string(batch) +
                                                  " has " + std::to_string(run.size()) +
                                                  " epochs, " + std::to_string(a.maxEpochs) +
                                                  " needed");
                least = std::min(least, run[std::size_t(e)].progress);
            }
            s.epochEnd.push_back(least);
        }
    }
    std::vector<ReplayJob> js(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const PolluxWorkloadJob &job = jobs[i];
        ReplayJob &j = js[i];
        j.job = &job;
        for (const ReplayApp &s : replayApps)
            if (s.app->name == job.application)
                j.app = &s;
        if (!j.app)
            return R::failure(replayJobWhere(job),
                              "no measured tables for application \"" + job.application + "\"");
        if (job.replicas < 1 || job.replicas > totalGpus)
            return R::failure(replayJobWhere(job), std::to_string(job.replicas) +
                                            " GPUs asked, the cluster has " +
                                            std::to_string(totalGpus));
        const ReplayApp &a = *j.app;
        const int local = (job.batchSize + job.replicas - 1) / job.replicas;
        j.accum = (local + a.maxLocal - 1) / a.maxLocal - 1;
        if (job.replicas == 1 && job.batchSize > a.initBatch)
            j.accum = std::max(1, j.accum);
        j.atomic = (local + j.accum) / (j.accum + 1);
        j.atomic = std::min(j.atomic, a.maxBatch / (job.replicas * (j.accum + 1)));
        j.batch = job.replicas * j.atomic * (j.accum + 1);
        if (j.atomic < 1 || j.batch < a.initBatch || j.batch > a.maxBatch)
            return R::failure(replayJobWhere(job), "batch " + std::to_string(j.batch) +
                                            " is outside the validated batches " +
                                            std::to_string(a.initBatch) + "-" +
                                            std::to_string(a.maxBatch) + " of " + a.app->name);
    }

    ReplayResult result;
    std::vector<int> q0, q1; // job indices, in order of entry
    std::vector<int> freeOnNode;
    for (int g : options.gpusPerNode)
        freeOnNode.push_back(std::max(0, g));
    double now = 0;
    std::size_t done = 0;
    const long long maxRounds = 10000000LL;
    for (long long round = 0; done < js.size(); ++round) {
        if (round >= maxRounds)
            return R::failure("replay",
                              "jobs still running after " + std::to_string(maxRounds) + " rounds");
        for (ReplayJob &j : js)
            if (!j.done)
                advanceJob(j, options.intervalSeconds);
        now += options.intervalSeconds;
        // Finished jobs leave the queues and give their GPUs back.
        auto leave = [&](std::vector<int> &q) {
            q.erase(
                std::remove_if(q.begin(), q.end(), [&](int i) { return js[std::size_t(i)].done; }),
                q.end());
        };
        for (ReplayJob &j : js)
            if (j.done && j.active) {
                j.active = false;
                ++done;
                for (int n : j.gpus)
                    ++freeOnNode[std::size_t(n)];
                j.gpus.clear();
                j.placement.clear();
            }
        leave(q0);
        leave(q1);
        if (done == js.size())
            break;
        // Arrivals enter Q0; running jobs attain service and may be demoted.
        for (std::size_t i = 0; i < js.size(); ++i) {
            ReplayJob &j = js[i];
            if (!j.active && !j.done && j.job->submitSeconds <= now && !j.arrived) {
                j.arrived = j.active = true;
                j.lastCheck = now;
                q0.push_back(int(i));
                continue;
            }
            if (!j.active)
                continue;
            if (j.running)
                j.executed += now - j.lastCheck;
            j.lastCheck = now;
            if (options.queue == ReplayQueue::Tiresias && j.running && j.queue == 0 &&
                j.executed * double(j.job->replicas) >= options.demoteGpuSeconds) {
                j.queue = 1;
                q0.erase(std::find(q0.begin(), q0.end(), int(i)));
                q1.push_back(int(i));
            }
        }
        // Who runs this round.
        if (options.queue == ReplayQueue::Tiresias) {
            int free = totalGpus;
            for (const std::vector<int> *q : {&q0, &q1})
                for (int i : *q) {
                    ReplayJob &j = js[std::size_t(i)];
                    const bool fits = j.job->replicas <= free;
                    if (fits)
                        free -= j.job->replicas;
                    if (j.running && !fits) { // preempted, progress kept
                        for (int n : j.gpus)
                            ++freeOnNode[std::size_t(n)];
                        j.gpus.clear();
                        j.placement.clear();
                        ++result.preemptions;
                    }
                    j.running = fits;
                }
        } else {
            int free = totalGpus;
            for (int i : q0)
                if (js[std::size_t(i)].running)
                    free -= js[std::size_t(i)].job->replicas;
            for (int i : q0) {
                ReplayJob &j = js[std::size_t(i)];
                if (j.running)
                    continue;
                if (j.job->replicas <= free) {
                    j.running = true;
                    free -= j.job->replicas;
                } else if (options.queue == ReplayQueue::FifoStrict) {
                    break;
                }
            }
        }
        // New allocations: the node with the most free GPUs first (lowest index on ties).
        for (const std::vector<int> *q : {&q0, &q1})
            for (int i : *q) {
                ReplayJob &j = js[std::size_t(i)];
                if (!j.running || !j.gpus.empty())
                    continue;
                while (int(j.gpus.size()) < j.job->replicas) {
                    const auto most = std::max_element(freeOnNode.begin(), freeOnNode.end());
                    if (*most <= 0)
                        return R::failure(j.job->name, "no free GPU left (internal)");
                    const int n = int(most - freeOnNode.begin());
                    const int take = std::min(*most, j.job->replicas - int(j.gpus.size()));
                    *most -= take;
                    j.gpus.insert(j.gpus.end(), std::size_t(take), n);
                    j.placement.push_back(take);
                }
                j.rescale = options.restartSeconds;
                ++j.starts;
            }
    }
    for (const ReplayJob &j : js) {
        ReplayJobResult r;
        r.name = j.job->name;
        r.application = j.job->application;
        r.submitSeconds = j.job->submitSeconds;
        r.finishSeconds = j.finish;
        r.starts = j.starts;
        result.meanJct += r.jct() / double(js.size());
        result.makespan = std::max(result.makespan, r.finishSeconds);
        result.jobs.push_back(std::move(r));
    }
    return result;
}

} // namespace cb
