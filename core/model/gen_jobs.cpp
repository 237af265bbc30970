#include "model/gen_jobs.h"

#include "model/gen_host.h"
#include "model/model_catalog.h"
#include "util/rng.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cb {

namespace {

/// Rounds to 1/perUnit (perUnit = 1000 for milliseconds); dividing the rounded integer gives
/// the double nearest the decimal, which JSON then prints short.
int uniformInt(Rng &rng, int lo, int hi)
{
    return lo + int(rng.below(std::uint64_t(hi - lo + 1)));
}

std::string trimBlanks(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

} // namespace

Result<std::vector<ModelShare>> parseModelMix(const std::string &text)
{
    std::vector<ModelShare> mix;
    Problems p;
    std::size_t start = 0;
    int index = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = trimBlanks(text.substr(start, comma - start));
        const std::string where = "models item " + std::to_string(++index);
        start = comma + 1;
        if (item.empty()) {
            p.push_back({where, "expected MODEL or MODEL:WEIGHT, found nothing"});
            continue;
        }
        ModelShare share;
        const std::size_t colon = item.find(':');
        share.model = trimBlanks(item.substr(0, colon));
        if (colon != std::string::npos) {
            const std::string w = trimBlanks(item.substr(colon + 1));
            try {
                std::size_t used = 0;
                share.weight = std::stod(w, &used);
                if (used != w.size() || !std::isfinite(share.weight) || share.weight <= 0)
                    throw std::invalid_argument(w);
            } catch (const std::exception &) {
                p.push_back({where, "expected a positive weight after \"" + share.model +
                                        ":\", found \"" + w + "\""});
                continue;
            }
        }
        if (!findTrainingModel(share.model)) {
            p.push_back({where, "unknown model \"" + share.model + "\"; expected one of " +
                                    trainingModelNames()});
            continue;
        }
        mix.push_back(share);
    }
    if (!p.empty())
        return Result<std::vector<ModelShare>>(p);
    return mix;
}

Result<std::vector<Job>> generateJobs(const JobSetParams &params)
{
    Problems p;
    gen::checkInt(p, "jobs", params.jobs, 0, 1000000);
    gen::checkNumber(p, "mean-interarrival", params.meanInterarrivalSeconds, 1e-6, 1e9,
                     "expected a positive mean inter-arrival time in seconds");
    gen::checkNumber(p, "first-arrival", params.firstArrivalSeconds, 0, 1e11,
                     "expected a start time >= 0 s");
    gen::checkNumber(p, "single-fraction", params.singleFraction, 0, 1);
    gen::checkNumber(p, "ps-fraction", params.psFraction, 0, 1);
    gen::checkNumber(p, "min-available", params.psMinAvailableFraction, 0, 1);
    gen::checkInt(p, "workers", params.minWorkers, 1, 4096,
                  "expected at least 1 worker (at most 4096)");
    if (params.maxWorkers < params.minWorkers || params.maxWorkers > 4096)
        p.push_back({"workers", "expected the maximum (" + std::to_string(params.maxWorkers) +
                                    ") between the minimum (" +
                                    std::to_string(params.minWorkers) + ") and 4096"});
    gen::checkInt(p, "ps", params.minPs, 1, 1024, "expected at least 1 parameter server");
    if (params.maxPs < params.minPs || params.maxPs > 1024)
        p.push_back({"ps", "expected the maximum (" + std::to_string(params.maxPs) +
                               ") between the minimum (" + std::to_string(params.minPs) +
                               ") and 1024"});
    gen::checkInt(p, "gpus-per-worker", params.gpusPerWorker, 0, 64);
    gen::checkNumber(p, "worker-cpus", params.workerCpus, 0, 1e5);
    gen::checkNumber(p, "worker-memory", params.workerMemoryGiB, 0, 1e8);
    gen::checkNumber(p, "ps-cpus", params.psCpus, 0, 1e5);
    gen::checkNumber(p, "ps-memory", params.psMemoryGiB, 0, 1e8);
    gen::checkNumber(p, "slack", params.minSlack, 0, 1e6, "expected a slack factor >= 0");
    if (!(params.maxSlack >= params.minSlack) || params.maxSlack > 1e6)
        p.push_back({"slack", "expected the maximum slack between the minimum and 1e6"});
    gen::checkNumber(p, "weight", params.minWeight, 0, 1e9, "expected a tardiness weight >= 0");
    if (!(params.maxWeight >= params.minWeight) || params.maxWeight > 1e9)
        p.push_back({"weight", "expected the maximum weight between the minimum and 1e9"});
    double totalWeight = 0;
    for (std::size_t i = 0; i < params.modelMix.size(); ++i) {
        const ModelShare &s = params.modelMix[i];
        if (!findTrainingModel(s.model))
            p.push_back({"models", "unknown model \"" + s.model + "\"; expected one of " +
                                       trainingModelNames()});
        if (!(s.weight > 0) || !std::isfinite(s.weight))
            p.push_back({"models", "expected a positive weight for \"" + s.model + "\""});
        else
            totalWeight += s.weight;
    }
    if (!params.gpuType.empty() && !findGpuCatalogEntry(params.gpuType))
        p.push_back({"job-gpu-type", "unknown GPU type \"" + params.gpuType +
                                         "\"; expected one of " + gpuCatalogNames()});
    if (params.idPrefix.empty())
        p.push_back({"id-prefix", "expected a non-empty job id prefix"});
    gen::checkInt(p, "first-index", params.firstIndex, 0, 100000000);
    if (!p.empty())
        return Result<std::vector<Job>>(p);

    std::vector<ModelShare> mix = params.modelMix;
    if (mix.empty()) {
        for (const TrainingModel &m : trainingModels())
            mix.push_back({m.name, 1.0});
        totalWeight = double(mix.size());
    }

    std::vector<Job> jobs;
    jobs.reserve(std::size_t(params.jobs));
    Rng arrivals(Rng::mix(params.seed, 0x61727269));
    double t = params.firstArrivalSeconds;
    const int lastIndex = params.firstIndex + params.jobs;
    for (int i = 0; i < params.jobs; ++i) {
        if (i > 0)
            t += arrivals.exponential(params.meanInterarrivalSeconds);
        // Each job draws from its own stream, so its attributes do not depend on how many
        // draws earlier jobs made.
        Rng rng(Rng::mix(params.seed, std::uint64_t(i) + 1));
        double pick = rng.uniform() * totalWeight;
        const ModelShare *share = &mix.back();
        for (const ModelShare &s : mix) {
            if (pick < s.weight) {
                share = &s;
                break;
            }
            pick -= s.weight;
        }
        const TrainingModel &model = *findTrainingModel(share->model);

        Job job;
        job.id = gen::indexedName(params.idPrefix, params.firstIndex + i, lastIndex);
        job.submitSeconds = roundTo(t, 1e3);
        if (rng.uniform() < params.singleFraction)
            job.kind = JobKind::Single;
        else if (rng.uniform() < params.psFraction)
            job.kind = JobKind::ParameterServer;
        else
            job.kind = JobKind::AllReduce;

        TaskGroup worker;
        worker.role = job.kind == JobKind::Single ? TaskRole::Single : TaskRole::Worker;
        worker.replicas = job.kind == JobKind::Single
                              ? 1
                              : uniformInt(rng, params.minWorkers, params.maxWorkers);
        worker.cpus = params.workerCpus;
        worker.memoryGiB = params.workerMemoryGiB;
        worker.gpus = params.gpusPerWorker;
        if (worker.gpus > 0)
            worker.gpuType = params.gpuType;
        if (job.kind == JobKind::ParameterServer) {
            TaskGroup ps;
            ps.role = TaskRole::Ps;
            ps.replicas = uniformInt(rng, params.minPs, params.maxPs);
            ps.cpus = params.psCpus;
            ps.memoryGiB = params.psMemoryGiB;
            ps.gpus = 0;
            job.tasks.push_back(ps);
        }
        job.tasks.push_back(worker);
        if (job.kind == JobKind::ParameterServer && params.psMinAvailableFraction > 0)
            job.minAvailable = std::max(
                1, int(std::ceil(params.psMinAvailableFraction * worker.replicas - 1e-9)));

        const auto span = model.maxIterations - model.minIterations;
        std::int64_t iterations =
            model.minIterations + std::int64_t(rng.below(std::uint64_t(span) + 1));
        iterations = std::max<std::int64_t>(100, (iterations + 50) / 100 * 100);
        job.model.name = model.name;
        job.model.parameterBytes = model.parameterBytes();
        job.model.iterations = iterations;
        job.model.computeSecondsPerIteration = model.computeSecondsPerIteration;
        job.name = model.name + "-" + toString(job.kind) + "-" +
                   std::to_string(job.kind == JobKind::Single ? 1 : worker.replicas) + "w";

        const double slack = rng.uniform(params.minSlack, params.maxSlack);
        if (params.maxSlack > 0)
            job.dueSeconds = roundTo(
                job.submitSeconds + slack * double(iterations) * model.computeSecondsPerIteration,
                1e3);
        job.tardinessWeight = roundTo(rng.uniform(params.minWeight, params.maxWeight), 1e6);

        job.image = job.kind == JobKind::ParameterServer
                        ? "tensorflow/tensorflow:2.15.0-gpu"
                        : "pytorch/pytorch:2.2.0-cuda12.1-cudnn8-runtime";
        job.command = {"python", "train.py", "--model", model.name, "--batch-size",
                       std::to_string(model.batchSize), "--iterations",
                       std::to_string(iterations)};
        jobs.push_back(std::move(job));
    }
    return jobs;
}

} // namespace cb
