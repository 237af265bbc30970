#pragma once
// Names as Slurm needs them: node, switch, partition and block names that survive hostlist
// parsing, GPU type names for gres, and compressed hostlists ("node-[01-04,07]").

#include "model/cluster.h"
#include "util/result.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cb {

class SlurmNames
{
public:
    /// True for [A-Za-z0-9][A-Za-z0-9._-]*: no commas, brackets, spaces or '='.
    static bool isValidName(const std::string &name);
    /// Every node id (and switch id when `withSwitches`) is a valid Slurm name; problems carry
    /// the scenario pointer ("/cluster/nodes/3/id").
    static Status checkCluster(const Cluster &cluster, bool withSwitches);
    /// The gres type word for GPUs of type `name`, lowercase ("A100-SXM4" -> "a100-sxm4");
    /// empty when nothing is left, and for the placeholder an importer gives GPUs whose model
    /// the source does not say ("unknown-gpu": no real cluster has GPUs of that type): a gres
    /// without a type, which GPUs of any type satisfy.
    static std::string gpuType(const std::string &name);
    /// The nodes with GPUs of that placeholder type, in cluster order (all of them, or those
    /// in `among` when given): a warning names them where their gres goes without a type.
    static std::vector<std::string> untypedGpuNodes(const Cluster &cluster,
                                                    const std::set<std::string> *among = nullptr);
    /// Sorted, deduplicated, compressed: names ending in digits with the same prefix and digit
    /// count become prefix[a-b,c]; others are listed as they are. Comma separated.
    static std::string hostlist(const std::vector<std::string> &names);
    /// A batch script's job name (and file name) per job id, in order, all distinct: the id
    /// itself where it is a valid Slurm name of at most kMaxJobName characters (a trace's
    /// "2", "Job_1"), else a Kubernetes-style name with a hash of the id (KubernetesNames).
    static std::vector<std::string> jobNames(const std::vector<std::string> &ids);
    static constexpr std::size_t kMaxJobName = 63;
    /// Slurm's time format (sbatch --time, slurm.conf MaxTime), rounded up to whole seconds:
    /// "H:MM:SS", or "D-HH:MM:SS" from a day on.
    static std::string timeText(double seconds);
    /// A time in Slurm's formats (slurm.conf(5) MaxTime): minutes, minutes:seconds,
    /// hours:minutes:seconds, days-hours, days-hours:minutes, days-hours:minutes:seconds, in
    /// seconds; INFINITE or UNLIMITED is none; anything else fails saying what it expected.
    static Result<std::optional<double>> parseTime(const std::string &text);
};

} // namespace cb
