#pragma once
// Deep-learning training jobs: their tasks, resources, model profile, and the optional data
// the stochastic scheduler (STS) needs.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb {

enum class JobKind { ParameterServer, AllReduce, Single };
enum class TaskRole { Ps, Worker, Chief, Evaluator, Single };

const char *toString(JobKind kind);
const char *toString(TaskRole role);
std::optional<JobKind> jobKindFromString(const std::string &s);
std::optional<TaskRole> taskRoleFromString(const std::string &s);

/// A group of identical tasks of one role ("2 parameter servers with 4 CPUs each").
struct TaskGroup
{
    TaskRole role = TaskRole::Worker;
    int replicas = 1;
    double cpus = 1;
    double memoryGiB = 1;
    int gpus = 0;
    double gpuFraction = 1.0;  ///< < 1 only with gpus == 1: a shared slice of one GPU
    std::string gpuType;       ///< required GPU type; empty = any
    std::map<std::string, std::string> nodeSelector; ///< labels a node must carry
    bool operator==(const TaskGroup &) const = default;
};

/// What the job computes and communicates.
struct ModelProfile
{
    std::string name;                 ///< e.g. "vgg16"
    std::int64_t parameterBytes = 0;  ///< size of the model (gradients exchanged per iteration)
    std::int64_t iterations = 1;      ///< iterations to train
    /// Seconds per iteration per worker on the reference GPU (relativeSpeed 1.0).
    double computeSecondsPerIteration = 0.1;
    /// Measured seconds per iteration by GPU type; overrides the reference scaling.
    std::map<std::string, double> computeSecondsByGpuType;
    /// Samples per worker GPU per iteration; 0 = not stated. Only a measured step-time model
    /// (Scenario::stepTimeModels) reads it.
    int localBatch = 0;
    bool operator==(const ModelProfile &) const = default;
};

/// One profiled configuration for STS: time to run all max epochs on it.
struct ExecutionTime
{
    std::string gpuType;
    int gpus = 1;
    double fraction = 1.0;
    double seconds = 0;
    bool operator==(const ExecutionTime &) const = default;
};

struct StsData
{
    int maxEpochs = 100;
    std::vector<ExecutionTime> executionTimes;
    /// Name of a distribution in Scenario::distributions (pmf over 1..100 % of maxEpochs).
    std::string termination;
    bool operator==(const StsData &) const = default;
};

struct Job
{
    std::string id;
    std::string name;
    JobKind kind = JobKind::ParameterServer;
    double submitSeconds = 0;
    std::optional<double> dueSeconds;
    double tardinessWeight = 0; ///< cost per second late
    int priority = 0;           ///< larger runs first under the priority order
    std::vector<TaskGroup> tasks;
    ModelProfile model;
    std::string image;                ///< container image for Kubernetes export
    std::vector<std::string> command; ///< argv for export
    /// Wall-clock limit the batch system enforces (Slurm --time); exported, not simulated.
    std::optional<double> timeLimitSeconds;
    std::string account;              ///< account charged (Slurm --account); empty: none
    std::optional<StsData> sts;

    int taskCount() const;
    int gpuCount() const; ///< whole GPUs requested (fractions count as one each)
    bool operator==(const Job &) const = default;
};

} // namespace cb
