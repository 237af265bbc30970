// Simulator throughput: replays a generated Philly-shaped trace (Poisson arrivals at about
// 60% GPU load; 1-GPU jobs 70%, 2/4/8-GPU ring all-reduce jobs 10% each; Pareto-distributed
// durations, alpha 1.1, from 2 minutes, capped at 7 days) on a 1,024-host fat-tree (k = 16,
// 8 GPUs per host) with the k8s-default policy. Sizes 1k and 10k always; 100k only with
// CB_BENCH_FULL=1 (the sizes up to 10k timed as the fastest of three runs, 100k once). Prints
// seconds, jobs per second and the cost per job against the 1k run.
// Baselines in the same run: the 1k trace in the exhaustive reference mode (every task
// scored, the whole network re-solved at every change; its run file must equal the fast
// one), and the sample fat-tree-1024.json's own 300 jobs repeated in time (each copy
// 60 s after the previous one's last arrival) to 2,000 jobs (20,000 and 100,000 with
// CB_BENCH_FULL=1), simulated as `simulate --policy k8s-default` does. With CB_BENCH_1M=1
// (opt-in, hours): 1,000,000 jobs of the same Philly shape on a k = 32 fat-tree with 32
// hosts per edge switch (its uplinks oversubscribed 2:1) and 8 GPUs per host (16,384 hosts,
// 131,072 GPUs; `generate fat-tree --k 32 --hosts-per-edge 32`): its time, cost per job
// against the 1k run and peak resident memory (CB_BENCH_BIG_JOBS=N: N jobs instead, to
// profile it briefly; CB_BENCH_MIX=N: only the sample's mix, N jobs; CB_BENCH_PHILLY=N: only
// the Philly-shaped trace, N jobs). Asserts
// nothing about time. Each size also prints what a network re-solve works on: the jobs with
// flows running at a start or finish, on average, the time per solve, and that time per
// such job against the 1k run's (below x1: a solve costs no more per job it works on).

#include "io/run_json.h"
#include "io/scenario_json.h"
#include "model/gen_fat_tree.h"
#include "net/topology.h"
#include "model/scenario.h"
#include "sched/policy.h"
#include "sim/simulator.h"
#include "util/rng.h"

#include "../common/philly_shaped.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/resource.h>

using namespace cb;
using cb::testdata::phillyShaped;
using Clock = std::chrono::steady_clock;

namespace {

double runSeconds(const Scenario &s, SimOptions o, Result<RunResult> *out)
{
    const auto t0 = Clock::now();
    *out = simulate(s, std::move(o));
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// The sample's jobs repeated in time to `count` jobs.
Scenario repeated(const Scenario &sample, int count)
{
    Scenario s = sample;
    s.jobs.clear();
    double span = 0;
    for (const Job &j : sample.jobs)
        span = std::max(span, j.submitSeconds);
    for (int copy = 0; int(s.jobs.size()) < count; ++copy) {
        const double shift = copy * (span + 60);
        for (const Job &j : sample.jobs) {
            if (int(s.jobs.size()) >= count)
                break;
            Job c = j;
            c.id = j.id + "-r" + std::to_string(copy);
            c.submitSeconds = j.submitSeconds + shift;
            if (c.dueSeconds)
                *c.dueSeconds += shift;
            s.jobs.push_back(std::move(c));
        }
    }
    return s;
}

/// Time-averaged number of running jobs.
double meanRunning(const RunResult &r)
{
    double busy = 0;
    for (const JobRun &j : r.jobs)
        if (j.startSeconds && j.finishSeconds)
            busy += *j.finishSeconds - *j.startSeconds;
    return r.makespanSeconds > 0 ? busy / r.makespanSeconds : 0;
}

/// Jobs that move bytes (more than one GPU) running just after each of their starts and
/// finishes, on average: the size of what a network re-solve works on, so it says how much
/// of a growing cost per job is the workload's rather than the simulator's.
double flowJobsAtChanges(const RunResult &r)
{
    std::vector<std::pair<double, int>> changes; // finishes (-1) before starts (+1) at a time
    for (const JobRun &j : r.jobs)
        if (j.gpus > 1 && j.startSeconds && j.finishSeconds) {
            changes.emplace_back(*j.startSeconds, +1);
            changes.emplace_back(*j.finishSeconds, -1);
        }
    std::sort(changes.begin(), changes.end());
    double sum = 0;
    int running = 0;
    for (const auto &[time, delta] : changes) {
        running += delta;
        sum += running;
    }
    return changes.empty() ? 0 : sum / double(changes.size());
}

double peakResidentMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0; // KiB on Linux
}

} // namespace

int main()
{
    FatTreeParams p;
    p.k = 16;
    auto cluster = generateFatTree(p);
    if (!cluster) {
        std::fprintf(stderr, "%s\n", cluster.error().c_str());
        return 1;
    }
    std::vector<int> sizes = {1000, 10000};
    const char *full = std::getenv("CB_BENCH_FULL");
    if (full && std::string(full) == "1")
        sizes.push_back(100000);
    // CB_BENCH_MIX=N: only the sample's mix, N jobs (to profile it briefly).
    const char *mixOnly = std::getenv("CB_BENCH_MIX");
    if (mixOnly)
        sizes.clear();
    // CB_BENCH_PHILLY=N: only the Philly-shaped trace, N jobs, and no exhaustive reference
    // (to profile it briefly).
    const char *phillyOnly = std::getenv("CB_BENCH_PHILLY");
    if (phillyOnly)
        sizes = {std::max(1, std::atoi(phillyOnly))};
    std::printf("bench_sim: fat-tree k=16, %zu hosts, %d GPUs; policy k8s-default\n",
                cluster->nodes.size(), cluster->totalGpus());
    double base = 0, baseRunning = 0, baseAllRunning = 0, basePerSolve = 0;
    for (int n : sizes) {
        Scenario s;
        s.name = "philly-shaped";
        s.cluster = cluster.value();
        s.jobs = phillyShaped(n, s.cluster.totalGpus(), 7);
        SimOptions o;
        o.policy = *builtinPolicy("k8s-default");
        o.seed = 1;
        o.keepEventLog = false;
        o.pairBuckets = false;
        // The fastest of three runs up to 10,000 jobs (the 1k run takes about 50 ms, where a
        // shared machine's noise is a large part of one timing and it is the ratios' base);
        // one run above.
        const int tries = n <= 10000 && !phillyOnly ? 3 : 1;
        double secs = 0;
        Result<RunResult> r = Result<RunResult>::failure("", "");
        for (int t = 0; t < tries; ++t) {
            const double once = runSeconds(s, o, &r);
            secs = t == 0 ? once : std::min(secs, once);
        }
        if (!r) {
            std::fprintf(stderr, "%s\n", r.error().c_str());
            return 1;
        }
        if (base == 0)
            base = secs / n;
        const double running = flowJobsAtChanges(r.value());
        const double allRunning = meanRunning(r.value());
        const double perSolveUs =
            r->networkSolves > 0 ? 1e6 * secs / double(r->networkSolves) : 0;
        if (baseRunning == 0) {
            baseRunning = running;
            baseAllRunning = allRunning;
            basePerSolve = perSolveUs;
        }
        std::printf("%7d jobs: %8.2f s (%8.0f jobs/s, %.3f ms per job), per-job time x%.2f of "
                    "the 1k run; %lld events, %lld network solves (%.1f us each, x%.2f); jobs "
                    "with flows running at a start or finish %.1f on average (x%.2f; a solve's "
                    "time per such job x%.2f); makespan %.0f s, mean JCT %.0f s, %d unfinished; "
                    "all jobs running %.0f on average (x%.2f)\n",
                    n, secs, n / secs, 1000 * secs / n, secs / n / base, (long long)r->events,
                    (long long)r->networkSolves, perSolveUs, perSolveUs / basePerSolve, running,
                    baseRunning > 0 ? running / baseRunning : 0,
                    baseRunning > 0 && running > 0
                        ? (perSolveUs / running) / (basePerSolve / baseRunning)
                        : 0,
                    r->makespanSeconds,
                    r->meanJctSeconds(), int(r->jobs.size()) - r->finishedJobs(), allRunning,
                    baseAllRunning > 0 ? allRunning / baseAllRunning : 0);
        std::fflush(stdout);
        if (n == sizes.front() && !phillyOnly) {
            SimOptions e = o;
            e.exhaustive = true;
            Result<RunResult> ref = Result<RunResult>::failure("", "");
            const double refSecs = runSeconds(s, e, &ref);
            if (!ref) {
                std::fprintf(stderr, "%s\n", ref.error().c_str());
                return 1;
            }
            const Topology topo(s.cluster);
            const bool same = runToJson(r.value(), s.cluster, topo).dump() ==
                              runToJson(ref.value(), s.cluster, topo).dump();
            std::printf("%7d jobs, exhaustive reference: %8.2f s; fast path x%.1f faster; run "
                        "files %s\n",
                        n, refSecs, refSecs / secs, same ? "identical" : "DIFFERENT");
            std::fflush(stdout);
        }
    }

    auto sample = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json");
    if (!sample) {
        std::fprintf(stderr, "%s\n", sample.error().c_str());
        return 1;
    }
    if (phillyOnly)
        return 0;
    std::vector<int> mix = {2000};
    if (full && std::string(full) == "1")
        mix = {2000, 20000, 100000};
    if (mixOnly)
        mix = {std::max(1, std::atoi(mixOnly))};
    double mixBase = 0;
    for (int n : mix) {
        const Scenario s = repeated(sample.value(), n);
        SimOptions o;
        o.policy = *builtinPolicy("k8s-default");
        o.seed = s.settings.seed;
        Result<RunResult> r = Result<RunResult>::failure("", "");
        const double secs = runSeconds(s, o, &r);
        if (!r) {
            std::fprintf(stderr, "%s\n", r.error().c_str());
            return 1;
        }
        if (mixBase == 0)
            mixBase = secs / n;
        std::printf("fat-tree-1024.json's jobs x %d: %8.2f s, %.3f ms per job, x%.2f of the "
                    "2,000-job run; %lld events, %lld network solves, %d unfinished\n",
                    n, secs, 1000 * secs / n, secs / n / mixBase, (long long)r->events,
                    (long long)r->networkSolves, int(r->jobs.size()) - r->finishedJobs());
        std::fflush(stdout);
    }

    const char *million = std::getenv("CB_BENCH_1M");
    if (million && std::string(million) == "1") {
        FatTreeParams big;
        big.k = 32;
        big.hostsPerEdge = 32;
        big.host.gpus = 8;
        auto bigCluster = generateFatTree(big);
        if (!bigCluster) {
            std::fprintf(stderr, "%s\n", bigCluster.error().c_str());
            return 1;
        }
        // CB_BENCH_BIG_JOBS=N runs N jobs on the big cluster instead (to profile it briefly).
        const char *bigJobs = std::getenv("CB_BENCH_BIG_JOBS");
        const int n = bigJobs ? std::max(1, std::atoi(bigJobs)) : 1000000;
        Scenario s;
        s.name = "philly-shaped-1m";
        s.cluster = bigCluster.value();
        s.jobs = phillyShaped(n, s.cluster.totalGpus(), 7);
        SimOptions o;
        o.policy = *builtinPolicy("k8s-default");
        o.seed = 1;
        o.keepEventLog = false;
        o.pairBuckets = false;
        // A run of hours says how far it is: every percent of the jobs finished, on stderr.
        const auto started = Clock::now();
        int shown = -1;
        o.progress = [&](double done) {
            const int percent = int(done * 100);
            if (percent > shown) {
                shown = percent;
                std::fprintf(stderr, "%d %% of the jobs finished after %.0f s\n", percent,
                             std::chrono::duration<double>(Clock::now() - started).count());
            }
            return true;
        };
        Result<RunResult> r = Result<RunResult>::failure("", "");
        const double secs = runSeconds(s, o, &r);
        if (!r) {
            std::fprintf(stderr, "%s\n", r.error().c_str());
            return 1;
        }
        std::printf("%d jobs on a k=32 fat-tree (%zu hosts, %d GPUs): %8.2f s, %.3f ms per job, "
                    "per-job time x%.2f of the 1k run; %lld events, %lld network solves; "
                    "makespan %.0f s, %d unfinished; peak resident %.0f MiB\n",
                    n, s.cluster.nodes.size(), s.cluster.totalGpus(), secs, 1000 * secs / n,
                    secs / n / base, (long long)r->events, (long long)r->networkSolves,
                    r->makespanSeconds, int(r->jobs.size()) - r->finishedJobs(),
                    peakResidentMiB());
        std::fflush(stdout);
    }
    return 0;
}
