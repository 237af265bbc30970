#pragma once
// A generated Philly-shaped trace (Poisson arrivals at about 60 % GPU load; 1-GPU jobs 70 %,
// 2/4/8-GPU ring all-reduce jobs 10 % each; Pareto-distributed durations, alpha 1.1, from 2
// minutes, capped at 7 days): bench_sim's workload, and tst_fast_paths' check that the
// simulator's fast paths give its run file byte for byte.

#include "model/job.h"
#include "util/rng.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace cb::testdata {

inline std::vector<Job> phillyShaped(int count, int totalGpus, std::uint64_t seed)
{
    Rng rng(seed);
    std::vector<Job> jobs(static_cast<std::size_t>(count));
    double gpuSeconds = 0;
    std::vector<double> durations;
    for (int i = 0; i < count; ++i) {
        Job &j = jobs[std::size_t(i)];
        char id[32];
        std::snprintf(id, sizeof id, "job-%06d", i);
        j.id = id;
        const double u = rng.uniform();
        const int gpus = u < 0.7 ? 1 : u < 0.8 ? 2 : u < 0.9 ? 4 : 8;
        const double d = std::min(7 * 86400.0, 120.0 * std::pow(1.0 - rng.uniform(), -1 / 1.1));
        durations.push_back(d);
        gpuSeconds += gpus * d;
        TaskGroup g;
        g.cpus = 4;
        g.memoryGiB = 16;
        g.gpus = 1;
        g.replicas = gpus;
        if (gpus == 1) {
            j.kind = JobKind::Single;
            g.role = TaskRole::Single;
        } else {
            j.kind = JobKind::AllReduce;
            g.role = TaskRole::Worker;
        }
        j.tasks = {g};
        j.model.name = "philly";
        j.model.parameterBytes = 100'000'000;
        j.model.computeSecondsPerIteration = 0.5;
        j.model.iterations = std::max<std::int64_t>(1, std::int64_t(d / 0.5));
    }
    const double meanGap = gpuSeconds / count / (0.6 * totalGpus);
    double t = 0;
    for (Job &j : jobs) {
        j.submitSeconds = std::round(t * 1000) / 1000;
        t += rng.exponential(meanGap);
    }
    return jobs;
}

} // namespace cb::testdata
