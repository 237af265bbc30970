// Gang fragmentation on the 1,024-node fat-tree (sample-clusters/fat-tree-1024.json: 4 V100
// per host, 4,096 GPUs): a heavier generated queue than the sample's own (400 jobs, a
// Poisson arrival every 30 s, 4-32 workers of 4 GPUs, so a worker takes a whole host) is
// simulated with dltap twice: all-or-nothing admission (every parameter-server job needs all
// its workers), then the same jobs with min_available = half their workers, then without gang
// mode (tasks placed one by one; a partial placement is given back at the end of the pass,
// as a training job does not start without its tasks). Prints per run
// the GPUs stranded (free while jobs waited, enough for a waiting task: RunResult::
// strandedGpuSeconds), their share of GPU time, mean queue delay, mean JCT, makespan and GPU
// utilisation, and the second run's figures as ratios of the first (the baseline). Asserts
// nothing about time.

#include "io/run_json.h"
#include "io/scenario_json.h"
#include "model/gen_jobs.h"
#include "sched/policy.h"
#include "sim/simulator.h"

#include <chrono>
#include <cstdio>

using namespace cb;
using Clock = std::chrono::steady_clock;

namespace {

struct Figures
{
    double strandedGpuHours = 0, strandedShare = 0, queueDelay = 0, jct = 0, makespan = 0,
           utilisation = 0, seconds = 0;
    int finished = 0, admittedShort = 0;
};

Figures run(const Scenario &s, bool gang = true)
{
    SimOptions o;
    o.policy = *builtinPolicy("dltap");
    o.policy.gang = gang;
    o.seed = 1;
    o.keepEventLog = true;
    const auto t0 = Clock::now();
    auto r = simulate(s, o);
    Figures f;
    f.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!r) {
        std::fprintf(stderr, "bench_gang: %s\n", r.error().c_str());
        return f;
    }
    const RunResult &res = r.value();
    const auto summary = runSummaryJson(res);
    f.strandedGpuHours = res.strandedGpuSeconds / 3600;
    f.strandedShare = res.makespanSeconds > 0
                          ? res.strandedGpuSeconds / (double(res.totalGpus) * res.makespanSeconds)
                          : 0;
    f.queueDelay = summary["mean_queue_delay_s"].get<double>();
    f.jct = res.meanJctSeconds();
    f.makespan = res.makespanSeconds;
    f.utilisation = summary["gpu_utilisation"].get<double>();
    f.finished = res.finishedJobs();
    for (const SimLogEntry &e : res.log)
        if (e.kind == RunEventKind::Start &&
            e.detail.find(" workers, min-available") != std::string::npos)
            ++f.admittedShort;
    return f;
}

void print(const char *name, const Figures &f)
{
    std::printf("  %-28s stranded %8.1f GPU-h (%5.2f %% of GPU time)  queue delay %8.1f s  "
                "mean JCT %8.1f s  makespan %9.1f s  GPUs busy %5.1f %%  %d finished, %d started "
                "short  (%.2f s)\n",
                name, f.strandedGpuHours, 100 * f.strandedShare, f.queueDelay, f.jct,
                f.makespan, 100 * f.utilisation, f.finished, f.admittedShort, f.seconds);
}

double ratio(double a, double b) { return b != 0 ? a / b : 0; }

} // namespace

int main()
{
    auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json");
    if (!loaded) {
        std::fprintf(stderr, "bench_gang: %s\n", loaded.error().c_str());
        return 1;
    }
    Scenario s = loaded.value();
    JobSetParams p;
    p.jobs = 400;
    p.meanInterarrivalSeconds = 30;
    p.singleFraction = 0.1;
    p.minWorkers = 4;
    p.maxWorkers = 32;
    p.gpusPerWorker = 4;
    p.seed = 3;
    auto all = generateJobs(p);
    p.psMinAvailableFraction = 0.5;
    auto half = generateJobs(p);
    if (!all || !half) {
        std::fprintf(stderr, "bench_gang: %s\n", (!all ? all : half).error().c_str());
        return 1;
    }
    std::printf("bench_gang: %s, %zu hosts, %d GPUs; %zu jobs (4-32 workers x 4 GPUs, a "
                "Poisson arrival every 30 s), dltap, seed 1\n",
                s.name.c_str(), s.cluster.nodes.size(), s.cluster.totalGpus(), all->size());
    s.jobs = all.value();
    const Figures gang = run(s);
    print("all or nothing (baseline)", gang);
    s.jobs = half.value();
    const Figures minimum = run(s);
    print("PS min_available = half", minimum);
    s.jobs = all.value();
    const Figures off = run(s, false);
    print("gang off", off);
    std::printf("  ratio min-available / all-or-nothing: stranded GPU-h %.3fx, queue delay "
                "%.3fx, mean JCT %.3fx, makespan %.3fx\n",
                ratio(minimum.strandedGpuHours, gang.strandedGpuHours),
                ratio(minimum.queueDelay, gang.queueDelay), ratio(minimum.jct, gang.jct),
                ratio(minimum.makespan, gang.makespan));
    return gang.finished > 0 && minimum.finished > 0 ? 0 : 1;
}
