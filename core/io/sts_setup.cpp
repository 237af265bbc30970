#include "io/sts_setup.h"

#include "model/gen_host.h"
#include "model/gpu_catalog.h"
#include "model/model_catalog.h"
#include "util/rng.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace cb {

namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

} // namespace

Result<Scenario> buildStsScenario(const StsAuthorsData &data, const StsSetupParams &params)
{
    Problems p;
    gen::checkInt(p, "nodes", params.nodes, 1, 10000);
    gen::checkInt(p, "jobs-per-node", params.jobsPerNode, 0, 10000);
    gen::checkNumber(p, "arrival-scale", params.arrivalScale, 1e-6, 1e12,
                     "expected a positive arrival scale in seconds");
    gen::checkInt(p, "gpus-per-node", params.gpusPerNode, 1, 64);
    gen::checkNumber(p, "weight", params.minWeight, 0, 1e9, "expected a weight >= 0");
    if (!(params.maxWeight >= params.minWeight))
        p.push_back({"weight", "expected the maximum weight at least the minimum"});
    gen::checkNumber(p, "link-gbps", params.linkGbps, 1e-3, 1e6,
                     "expected a positive link capacity in Gbit/s");
    if (params.gpuTypes.empty())
        p.push_back({"gpu-types", "expected at least one GPU type"});
    for (const std::string &type : params.gpuTypes)
        if (!findGpuCatalogEntry(type))
            p.push_back({"gpu-types", "unknown GPU type \"" + type + "\"; expected one of " +
                                          gpuCatalogNames()});
    if (data.templates.empty())
        p.push_back({"data", "no job templates"});
    if (data.distributions.empty())
        p.push_back({"data", "no early-termination distributions"});
    if (!p.empty())
        return p;

    // Per template: its execution times on the node GPU types, type by type, by GPU count.
    std::vector<std::vector<ExecutionTime>> times(data.templates.size());
    for (std::size_t t = 0; t < data.templates.size(); ++t) {
        const StsJobTemplate &tpl = data.templates[t];
        for (const std::string &type : params.gpuTypes) {
            std::vector<ExecutionTime> ofType;
            for (const ExecutionTime &e : tpl.times)
                if (e.gpuType == type && e.gpus <= params.gpusPerNode)
                    ofType.push_back(e);
            if (ofType.empty())
                p.push_back({"data", "job template " + tpl.id + " (line " +
                                         std::to_string(tpl.line) +
                                         ") has no execution time for GPU type " + type});
            std::stable_sort(ofType.begin(), ofType.end(),
                             [](const ExecutionTime &a, const ExecutionTime &b) {
                                 return a.gpus < b.gpus;
                             });
            times[t].insert(times[t].end(), ofType.begin(), ofType.end());
        }
    }
    if (!p.empty())
        return p;

    std::string types;
    for (const std::string &type : params.gpuTypes)
        types += (types.empty() ? "" : " and ") + type;
    Scenario s;
    s.name = "sts-datacenter";
    s.description = "The STS authors' data-centre setup (Filippini et al., IEEE TCC 2024; "
                    "ai-sprint-eu-project/GPUScheduler): " +
                    std::to_string(params.nodes) + " nodes x " +
                    std::to_string(params.gpusPerNode) + " GPUs alternating " + types + ", " +
                    std::to_string(params.nodes * params.jobsPerNode + 1) +
                    " jobs drawn from the " + std::to_string(data.templates.size()) +
                    " profiled job templates, exponential arrivals with mean " +
                    numberText(params.arrivalScale / params.nodes) +
                    " s. Built by 'clusterbench generate sts', seed " +
                    std::to_string(params.seed) + ".";
    s.settings.energyPricePerKWh = data.energy.pricePerKWh;
    s.settings.pue = data.energy.pue;
    s.settings.currency = "EUR"; // the authors' energy price is in EUR per kWh
    s.settings.seed = params.seed;
    s.distributions = data.distributions;

    for (const std::string &type : params.gpuTypes) {
        GpuType gpu = findGpuCatalogEntry(type)->type;
        if (const double price = stsPricePerGpu(data.prices, type); price > 0)
            gpu.pricePerHour = price;
        s.cluster.gpuTypes.push_back(gpu);
    }
    s.cluster.switches.push_back({"tor", "tor"});
    for (int i = 0; i < params.nodes; ++i) {
        // Azure NC24 / NV24 give 24 vCPUs and 224 GiB per 4 GPUs; a node of 8 has twice that.
        HostParams host;
        host.gpus = params.gpusPerNode;
        host.gpuType = params.gpuTypes[std::size_t(i) % params.gpuTypes.size()];
        host.cpus = 6.0 * params.gpusPerNode;
        host.memoryGiB = 56.0 * params.gpusPerNode;
        host.baseWatts = 0;
        host.prefix = "node";
        host.partition = "gpu";
        Node n = gen::makeHost(host, gen::indexedName("node", i, params.nodes), "tor");
        s.cluster.links.push_back(gen::makeLink(n.id, "tor", params.linkGbps, 1.0));
        s.cluster.nodes.push_back(std::move(n));
    }

    std::vector<std::string> distributionNames;
    for (const auto &[name, pmf] : data.distributions)
        distributionNames.push_back(name);

    const int jobCount = params.nodes * params.jobsPerNode + 1;
    Rng arrivals(Rng::mix(params.seed, 0x737473));
    double t = 0;
    for (int i = 0; i < jobCount; ++i) {
        if (i > 0)
            t += arrivals.exponential(params.arrivalScale / params.nodes);
        Rng rng(Rng::mix(params.seed, std::uint64_t(i) + 1));
        const std::size_t which = std::size_t(rng.below(data.templates.size()));
        const StsJobTemplate &tpl = data.templates[which];
        const std::vector<ExecutionTime> &jobTimes = times[which];
        double minTime = std::numeric_limits<double>::infinity(), maxTime = 0;
        for (const ExecutionTime &e : jobTimes) {
            minTime = std::min(minTime, e.seconds);
            maxTime = std::max(maxTime, e.seconds);
        }

        Job job;
        job.id = gen::indexedName("job", i, jobCount);
        job.name = tpl.id + " " + tpl.application;
        job.kind = JobKind::Single;
        job.submitSeconds = roundTo(t, 1e3);
        job.dueSeconds = roundTo(job.submitSeconds + rng.uniform(minTime, maxTime), 1e3);
        job.tardinessWeight = roundTo(rng.uniform(params.minWeight, params.maxWeight), 1e9);
        TaskGroup task;
        task.role = TaskRole::Single;
        task.gpus = 1;
        task.cpus = 6;        // Azure NC6: 6 vCPUs and 56 GiB per GPU
        task.memoryGiB = 56;
        job.tasks.push_back(task);

        std::string modelName = tpl.application;
        if (modelName.rfind("pytorch_", 0) == 0)
            modelName = modelName.substr(8);
        job.model.name = modelName;
        if (const TrainingModel *m = findTrainingModel(modelName))
            job.model.parameterBytes = m->parameterBytes();
        job.model.iterations =
            std::int64_t(tpl.epochs) * ceilDiv(tpl.images, std::int64_t(tpl.batchSize));
        for (const ExecutionTime &e : jobTimes)
            if (e.gpus == 1)
                job.model.computeSecondsByGpuType[e.gpuType] =
                    e.seconds / double(job.model.iterations);
        // The reference-GPU equivalent of the first node type's single-GPU step time.
        const GpuType &first = s.cluster.gpuTypes.front();
        if (auto it = job.model.computeSecondsByGpuType.find(first.name);
            it != job.model.computeSecondsByGpuType.end())
            job.model.computeSecondsPerIteration = it->second * first.relativeSpeed;
        job.image = "pytorch/pytorch:1.8.1-cuda11.1-cudnn8-runtime";
        job.command = {"python", "main.py", "--arch", modelName, "--epochs",
                       std::to_string(tpl.epochs), "--batch-size",
                       std::to_string(tpl.batchSize)};
        StsData sts;
        sts.maxEpochs = tpl.epochs;
        sts.termination = distributionNames[std::size_t(rng.below(distributionNames.size()))];
        sts.executionTimes = jobTimes;
        job.sts = sts;
        s.jobs.push_back(std::move(job));
    }
    return s;
}

} // namespace cb
