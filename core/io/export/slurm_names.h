#pragma once
// Names as Slurm needs them: node, switch, partition and block names that survive hostlist
// parsing, GPU type names for gres, and compressed hostlists ("node-[01-04,07]").

#include "model/cluster.h"
#include "util/result.h"

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
    /// Lowercase gres type name ("A100-SXM4" -> "a100-sxm4"); empty when nothing is left.
    static std::string gpuType(const std::string &name);
    /// Sorted, deduplicated, compressed: names ending in digits with the same prefix and digit
    /// count become prefix[a-b,c]; others are listed as they are. Comma separated.
    static std::string hostlist(const std::vector<std::string> &names);
};

} // namespace cb
