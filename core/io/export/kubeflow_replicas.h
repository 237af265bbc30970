#pragma once
// Replica specs for operators whose replicas of one role share a single pod template
// (Kubeflow TFJob, PyTorchJob, MPIJob). Such a template can pin its replicas only to a node
// set: when a role spans several nodes the spec pins it with a required
// kubernetes.io/hostname "In" affinity over that set and a warning says what was relaxed and
// which formats place every task exactly.

#include "io/export/kubernetes_job_exporter.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace cb {

class KubeflowReplicas
{
public:
    using Json = nlohmann::ordered_json;

    /// The replicas of one replica type ("PS", "Worker", "Master", ...).
    struct Group
    {
        std::string replicaType;
        std::vector<const PlacedTask *> tasks;
    };

    struct Container
    {
        std::string name;
        std::string portName;
        int port = 0;
        bool withCommand = true; ///< false: leave the image's entrypoint (MPI workers)
        std::vector<std::pair<std::string, std::string>> env;
    };

    /// {replicas, restartPolicy: OnFailure, template: {metadata, spec: {affinity,
    /// containers}}}. `format` names the target in warnings ("tfjob").
    static Json replicaSpec(const KubernetesJobExporter::JobContext &ctx, const std::string &format,
                            const Group &group, const Container &container,
                            const std::string &image);

    /// Says, once for all such jobs of an export, that a parameter-server job loses its roles
    /// in `format`: `target` says what the format has ("MPIJob has only MPI workers"), `one`
    /// and `many` what the tasks of one job, or of each, become.
    static void sayPsRolesLost(const KubernetesJobExporter::JobContext &ctx,
                               const std::string &format, const std::string &target,
                               const std::string &one, const std::string &many);

    /// runPolicy with schedulingPolicy.minAvailable = `gang` (all pods start together) and the
    /// job's time limit as activeDeadlineSeconds.
    static Json runPolicy(int gang, const Job &job);
};

} // namespace cb
