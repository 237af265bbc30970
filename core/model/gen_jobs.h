#pragma once
// Random job sets: Poisson arrivals (exponential gaps), a weighted model mix, a share of
// parameter-server, all-reduce and single-GPU jobs, task counts in ranges and due dates as
// slack times the ideal run time. Uses cb::Rng only: one seed gives one job set everywhere.

#include "model/job.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

struct ModelShare
{
    std::string model;  ///< a name from trainingModels()
    double weight = 1;  ///< relative share of jobs
    bool operator==(const ModelShare &) const = default;
};

/// Parses "resnet50:2,vgg16,bert-base:0.5" (weight 1 when omitted).
Result<std::vector<ModelShare>> parseModelMix(const std::string &text);

struct JobSetParams
{
    int jobs = 20;
    double meanInterarrivalSeconds = 300; ///< mean gap between arrivals (Poisson process)
    double firstArrivalSeconds = 0;       ///< the first job arrives here, the rest later
    std::vector<ModelShare> modelMix;     ///< empty = every catalogue model, equal shares
    double singleFraction = 0.2;          ///< share of single-task jobs
    double psFraction = 0.5;              ///< share of parameter-server among the other jobs
    int minWorkers = 2, maxWorkers = 8;   ///< workers of a distributed job, uniform
    int minPs = 1, maxPs = 2;             ///< parameter servers of a PS job, uniform
    int gpusPerWorker = 1;
    /// > 0: every parameter-server job gets min_available = ceil(F x workers) (gang
    /// admission with a minimum; draws nothing, so the job set is otherwise the same).
    double psMinAvailableFraction = 0;
    double workerCpus = 4, workerMemoryGiB = 16;
    double psCpus = 4, psMemoryGiB = 16;
    /// Due date = submit + slack * ideal run time (iterations x step time on the reference
    /// GPU), slack uniform in [minSlack, maxSlack]; maxSlack 0 = no due dates.
    double minSlack = 1.5, maxSlack = 4.0;
    double minWeight = 0.0254, maxWeight = 0.0444; ///< tardiness cost per second, uniform
    std::string gpuType;                  ///< GPU type every task requires; empty = any
    std::string idPrefix = "job";         ///< ids prefix-0000, prefix-0001, ...
    int firstIndex = 0;                   ///< index of the first id (to append to a queue)
    std::uint64_t seed = 1;
};

/// Jobs in arrival order. Times are rounded to milliseconds, weights to 1e-6.
Result<std::vector<Job>> generateJobs(const JobSetParams &params);

} // namespace cb
