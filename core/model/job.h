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
/// How all-reduce jobs exchange gradients (net/comm_model.h has the costs): NCCL's flat ring
/// over all GPUs, two binary trees over the nodes, or hierarchical (reduce-scatter inside the
/// nodes, all-reduce across them, all-gather inside them).
enum class AllReduceAlgorithm { Ring, Tree, Hierarchical };

const char *toString(JobKind kind);
const char *toString(TaskRole role);
const char *toString(AllReduceAlgorithm algorithm);
std::optional<JobKind> jobKindFromString(const std::string &s);
std::optional<TaskRole> taskRoleFromString(const std::string &s);
std::optional<AllReduceAlgorithm> allReduceAlgorithmFromString(const std::string &s);

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
    /// Fraction (0..1) of the compute time during which gradient communication can run (the
    /// backward pass, bucket by bucket); unset: Settings::overlap.
    std::optional<double> overlap;
    /// Fraction (0..1) of the communication that no compute can hide (the last gradient
    /// bucket, ready only when the backward pass ends).
    double exposedCommFraction = 0;
    /// Compute slows down by this fraction for every further GPU of the job on the same node
    /// (shared PCIe, host memory and CPU data loading).
    double colocationSlowdown = 0;
    /// Coefficient of variation of one worker's compute time per iteration: synchronous
    /// workers wait for the slowest, E[max of n] - mean = cv x compute x E[max of n N(0,1)].
    double computeCv = 0;
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
    /// Gang admission with a minimum (Volcano's minAvailable, counted in workers): the job
    /// starts once its parameter servers, chief and evaluator and at least this many of its
    /// workers are placed, and runs with the workers it was admitted with; each worker then
    /// takes a larger share of the training (iterations x workers / placed workers). Empty:
    /// every worker. Honoured by policies in gang mode "min-available" (the default).
    std::optional<int> minAvailable;
    std::optional<StsData> sts;

    int taskCount() const;
    int gpuCount() const; ///< whole GPUs requested (fractions count as one each)
    int workerCount() const; ///< tasks of role worker
    bool operator==(const Job &) const = default;
};

} // namespace cb
