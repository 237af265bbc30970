#pragma once
// A Pollux-style workload replayed the way the Pollux simulator (petuum/adaptdl,
// osdi21-artifact, simulator/) runs its fixed-configuration baselines ("TunedJobs"), so
// that our queue disciplines and measured-table lookup can be compared with its published
// average job completion times:
//   - time advances in rounds of `intervalSeconds` (60 s); a job submitted at t is first
//     seen at the end of the round that contains t; resources change only between rounds;
//   - every job runs on exactly `replicas` GPUs (one replica each) at its total batch: the
//     local batch is ceil(batch / replicas), split into gradient-accumulation steps of at
//     most the application's largest measured local batch (a lone replica with a batch
//     above the smallest validated one always accumulates at least once), and capped so
//     the total stays within the largest validated batch;
//   - a step takes the measured table's step time for the placement (GPUs per node) at the
//     atomic local batch (StepTimeTable lookup rules), plus (step - sync) per accumulation;
//   - a job progresses in the authors' "progress" units: per step, the statistical gain
//     (grad_var + grad_sqr) / (grad_var / scale + grad_sqr), scale = batch / the smallest
//     validated batch, with grad_sqr and grad_var of the current epoch linear in batch
//     between the validated batch sizes; epoch e ends at the smallest progress any
//     validation file records for it (seconds to an epoch boundary rounded to whole
//     seconds, as theirs); the job completes after `maxEpochs` epochs;
//   - each (re)start pays `restartSeconds` (30 s) without progress; a preempted job keeps
//     its progress (a checkpoint);
//   - new allocations take GPUs from the node with the most free GPUs (the lowest index on
//     ties), as many as it has, then the next.
// Queues:
//   - tiresias: Tiresias's discretised two-dimensional least-attained-service queue
//     (Gu et al., NSDI'19) as the Pollux simulator configures it: two queues; a job enters
//     Q0 and moves to the end of Q1 once its running time x GPUs reaches
//     `demoteGpuSeconds` (16 GPU-hours); each round the queues are walked Q0 then Q1, each
//     in order of entry, and a job runs if its GPUs fit in what the earlier ones left
//     (count only), else it is preempted or waits; no starvation promotion;
//   - fifo: the same walk in submission order with no demotion, never preempting a
//     running job (a job that does not fit waits; later ones that fit may start);
//   - fifo-strict: FIFO that stops at the first job that does not fit.

#include "model/step_time_table.h"
#include "util/result.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb {

/// One epoch of a validation run at one total batch size (their validation-<B>.csv row).
struct PolluxEpoch
{
    double progress = 0; ///< cumulative progress at the end of the epoch
    double gradSqr = 0;
    double gradVar = 0;
};

/// One application of the workload: its measured step times and validation runs.
struct PolluxApplication
{
    std::string name;
    StepTimeTable table;
    std::map<int, std::vector<PolluxEpoch>> validation; ///< by total batch size
    int maxEpochs = 0;
    int maxLocalBatch = 0; ///< 0: the largest local batch of the table
};

struct PolluxWorkloadJob
{
    std::string name;
    std::string application;
    double submitSeconds = 0;
    int replicas = 1;
    int batchSize = 1; ///< total
    std::string source{}; ///< "file:line" of the row it was read from, for messages; may be empty
};

enum class ReplayQueue { Tiresias, Fifo, FifoStrict };
const char *toString(ReplayQueue queue);
std::optional<ReplayQueue> replayQueueFromString(const std::string &name);

struct ReplayOptions
{
    ReplayQueue queue = ReplayQueue::Tiresias;
    std::vector<int> gpusPerNode = std::vector<int>(16, 4); ///< the cluster, node by node
    double intervalSeconds = 60;
    double restartSeconds = 30;
    double demoteGpuSeconds = 16 * 3600.0;
};

struct ReplayJobResult
{
    std::string name;
    std::string application;
    double submitSeconds = 0;
    double finishSeconds = 0;
    int starts = 0; ///< allocations received (1 = never preempted)
    double jct() const { return finishSeconds - submitSeconds; }
};

struct ReplayResult
{
    std::vector<ReplayJobResult> jobs; ///< in workload order
    double meanJct = 0;
    int preemptions = 0;
    double makespan = 0;
};

/// The Pollux simulator's settings per application (simulator/applications.py): epochs to
/// completion (bert 2, cifar10 100, deepspeech2 80, imagenet 90, ncf 10, yolov3 50) and the
/// largest local batch when it is not the table's (yolov3: 8); nullopt for other names.
std::optional<std::pair<int, int>> polluxSimulatorApplication(const std::string &name);

/// Replays `jobs` on the GPUs of `options.gpusPerNode`. Fails when a job names
/// an application not in `apps`, asks for more GPUs than the cluster has, or its batch is
/// outside the application's validated batches (where: the job's source, else its name).
Result<ReplayResult> replayPolluxWorkload(const std::vector<PolluxApplication> &apps,
                                          const std::vector<PolluxWorkloadJob> &jobs,
                                          const ReplayOptions &options);

} // namespace cb
