#pragma once
// Building blocks shared by the Kubernetes exporters: quantities, labels, pinning, resources,
// containers and the TF_CONFIG document. Everything returns JSON values that YamlText writes.

#include "io/export/exporter.h"
#include "io/export/placed_job.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cb {

class KubernetesObjects
{
public:
    using Json = nlohmann::ordered_json;
    static constexpr int kTfPort = 2222;
    static constexpr int kTorchPort = 23456;

    /// "4", "500m" (rounded up to whole millicores).
    static std::string cpuQuantity(double cpus);
    /// "16Gi", or "1536Mi" (rounded up to whole MiB) for fractions of a GiB.
    static std::string memoryQuantity(double gib);
    /// requests (cpu, memory, nvidia.com/gpu) and limits (nvidia.com/gpu, memory).
    static Json resources(double cpus, double memoryGiB, int gpus);
    /// Required node affinity: kubernetes.io/hostname In `hostnames`.
    static Json hostnameAffinity(const std::vector<std::string> &hostnames);
    /// clusterbench.io/job, training.kubeflow.org/job-name, and when `replicaType` is not
    /// empty .../replica-type (and .../replica-index when index >= 0).
    static Json labels(const std::string &jobName, const std::string &replicaType = {},
                       int index = -1);
    /// name, namespace (if set), labels, and the annotation clusterbench.io/job-id holding
    /// the original job id (any string, quoted in YAML).
    static Json metadata(const std::string &name, const Json &labels, const Job &job,
                         const ExportOptions &options);
    /// The job's image, or the default image (options, else one per job kind).
    static std::string image(const Job &job, const ExportOptions &options);
    /// What the images of `jobs` leave to chance, one warning per image: the jobs given the
    /// default image, and the jobs without a command, whose containers run the image's own
    /// (for a stock framework image that trains nothing).
    static std::vector<std::string> imageWarnings(const std::vector<const Job *> &jobs,
                                                  const ExportOptions &options);
    /// The job's time limit (time_limit_s) as a Kubernetes activeDeadlineSeconds, a whole
    /// number of seconds rounded up, as Slurm's --time is rounded up to a minute; none without
    /// a limit. Each exporter puts it where its kind keeps it (a Pod's spec, a Job's spec, a
    /// Kubeflow runPolicy), so that a job stops where its batch script would.
    static std::optional<std::int64_t> activeDeadlineSeconds(const Job &job);
    /// A container: name, image, command (when the job has one), env, ports, resources.
    static Json container(const std::string &name, const std::string &image, const Job &job,
                          const std::vector<std::pair<std::string, std::string>> &env,
                          const std::string &portName, int port, const Json &resources);
    /// TF_CONFIG: {"cluster": {role: [host:port...]}, "task": {"type", "index"}}.
    static std::string tfConfig(const std::map<std::string, std::vector<std::string>> &cluster,
                                const std::string &taskType, int index);
    /// Environment a task needs to find its peers when nothing else provides it: TF_CONFIG
    /// for parameter-server jobs; MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK and torchrun's
    /// PET_* settings (torchrunEnv, PET_NODE_RANK) for all-reduce jobs; nothing for
    /// single-task jobs. `address` gives each task's host name, `tfPort` its TensorFlow port
    /// (default kTfPort; tasks sharing a host need distinct ports).
    static std::vector<std::pair<std::string, std::string>>
    trainingEnv(const PlacedJob &job, const PlacedTask &task,
                const std::function<std::string(const PlacedTask &)> &address,
                const std::function<int(const PlacedTask &)> &tfPort = {});
    /// torchrun's settings for an all-reduce job (PET_NNODES, PET_NPROC_PER_NODE: the first
    /// task's GPUs, PET_MASTER_ADDR, PET_MASTER_PORT), read by torchrun for the flags its
    /// command does not give; a task's PET_NODE_RANK is its rank (trainingEnv adds it).
    static std::vector<std::pair<std::string, std::string>>
    torchrunEnv(const PlacedJob &job, const std::string &masterAddress);
    /// Container name and port by job kind: tensorflow/tfjob-port/2222,
    /// pytorch/pytorchjob-port/23456, or main without a port.
    static std::string containerName(JobKind kind);
    static std::string portName(JobKind kind);
    static int port(JobKind kind);
};

/// TF_CONFIG task type of a role ("single" tasks of a PS job act as workers).
std::string tfConfigRole(TaskRole role);

} // namespace cb
