#include "model/cluster.h"
#include "model/job.h"
#include "model/scenario.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>

namespace cb {

namespace {

/// A count summed in 64 bits and capped at INT_MAX: a cluster or job too large for int (only
/// a file beyond the format's limits can make one) saturates instead of wrapping, which would
/// be undefined behaviour; validation then refuses it by its limits.
int saturated(std::int64_t n)
{
    return int(std::min<std::int64_t>(n, std::numeric_limits<int>::max()));
}

} // namespace

const GpuType *Cluster::gpuType(const std::string &name) const
{
    for (const GpuType &t : gpuTypes)
        if (t.name == name)
            return &t;
    return nullptr;
}

const Node *Cluster::node(const std::string &id) const
{
    auto i = nodeIndex(id);
    return i ? &nodes[*i] : nullptr;
}

std::optional<std::size_t> Cluster::nodeIndex(const std::string &id) const
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].id == id)
            return i;
    return std::nullopt;
}

int Cluster::totalGpus() const
{
    std::int64_t n = 0;
    for (const Node &node : nodes)
        n += node.gpus;
    return saturated(n);
}

std::map<std::string, int> Cluster::gpusByType() const
{
    std::map<std::string, std::int64_t> sums;
    for (const Node &node : nodes)
        if (node.gpus > 0)
            sums[node.gpuType] += node.gpus;
    std::map<std::string, int> out;
    for (const auto &[type, n] : sums)
        out[type] = saturated(n);
    return out;
}

std::vector<int> Cluster::nvlinkDomainOfNodes() const
{
    std::vector<int> out(nodes.size(), -1);
    if (nvlinkDomains.empty())
        return out;
    std::unordered_map<std::string, std::size_t> index;
    index.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        index.emplace(nodes[i].id, i);
    for (std::size_t d = 0; d < nvlinkDomains.size(); ++d)
        for (const std::string &id : nvlinkDomains[d].nodes)
            if (auto it = index.find(id); it != index.end() && out[it->second] < 0)
                out[it->second] = int(d);
    return out;
}

namespace {
constexpr std::array<std::pair<JobKind, const char *>, 3> kJobKinds{{
    {JobKind::ParameterServer, "ps"},
    {JobKind::AllReduce, "allreduce"},
    {JobKind::Single, "single"},
}};
constexpr std::array<std::pair<TaskRole, const char *>, 5> kTaskRoles{{
    {TaskRole::Ps, "ps"},
    {TaskRole::Worker, "worker"},
    {TaskRole::Chief, "chief"},
    {TaskRole::Evaluator, "evaluator"},
    {TaskRole::Single, "single"},
}};
constexpr std::array<std::pair<AllReduceAlgorithm, const char *>, 3> kAllReduce{{
    {AllReduceAlgorithm::Ring, "ring"},
    {AllReduceAlgorithm::Tree, "tree"},
    {AllReduceAlgorithm::Hierarchical, "hierarchical"},
}};
} // namespace

const char *toString(AllReduceAlgorithm algorithm)
{
    for (const auto &[a, s] : kAllReduce)
        if (a == algorithm)
            return s;
    return "?";
}

std::optional<AllReduceAlgorithm> allReduceAlgorithmFromString(const std::string &s)
{
    for (const auto &[a, name] : kAllReduce)
        if (s == name)
            return a;
    return std::nullopt;
}

const char *toString(JobKind kind)
{
    for (const auto &[k, s] : kJobKinds)
        if (k == kind)
            return s;
    return "?";
}

const char *toString(TaskRole role)
{
    for (const auto &[r, s] : kTaskRoles)
        if (r == role)
            return s;
    return "?";
}

std::optional<JobKind> jobKindFromString(const std::string &s)
{
    for (const auto &[k, name] : kJobKinds)
        if (s == name)
            return k;
    return std::nullopt;
}

std::optional<TaskRole> taskRoleFromString(const std::string &s)
{
    for (const auto &[r, name] : kTaskRoles)
        if (s == name)
            return r;
    return std::nullopt;
}

int Job::taskCount() const
{
    std::int64_t n = 0;
    for (const TaskGroup &g : tasks)
        n += g.replicas;
    return saturated(n);
}

int Job::gpuCount() const
{
    std::int64_t n = 0;
    for (const TaskGroup &g : tasks)
        n += std::int64_t(g.replicas) * g.gpus;
    return saturated(n);
}

int Job::workerCount() const
{
    std::int64_t n = 0;
    for (const TaskGroup &g : tasks)
        if (g.role == TaskRole::Worker)
            n += g.replicas;
    return saturated(n);
}

const Job *Scenario::job(const std::string &id) const
{
    for (const Job &j : jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

} // namespace cb
