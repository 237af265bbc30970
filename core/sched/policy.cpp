#include "sched/policy.h"

#include <array>
#include <utility>

namespace cb {

namespace {

template<typename E, std::size_t N>
const char *nameOf(const std::array<std::pair<E, const char *>, N> &table, E value)
{
    for (const auto &[e, name] : table)
        if (e == value)
            return name;
    return "?";
}

template<typename E, std::size_t N>
std::optional<E> valueOf(const std::array<std::pair<E, const char *>, N> &table,
                         const std::string &s)
{
    for (const auto &[e, name] : table)
        if (s == name)
            return e;
    return std::nullopt;
}

constexpr std::array<std::pair<PluginKind, const char *>, 11> kPlugins{{
    {PluginKind::LeastAllocated, "least-allocated"},
    {PluginKind::MostAllocated, "most-allocated"},
    {PluginKind::BalancedAllocation, "balanced-allocation"},
    {PluginKind::SelectorSpread, "selector-spread"},
    {PluginKind::Dltap, "dltap"},
    {PluginKind::TopologyDistance, "topology-distance"},
    {PluginKind::NvlinkPacking, "nvlink-packing"},
    {PluginKind::NodeAffinity, "node-affinity"},
    {PluginKind::Random, "random"},
    {PluginKind::EnergyEfficiency, "energy-efficiency"},
    {PluginKind::NvlinkDomain, "nvlink-domain"},
}};
constexpr std::array<std::pair<DltapVariant, const char *>, 3> kVariants{{
    {DltapVariant::Counterpart, "counterpart"},
    {DltapVariant::Job, "job"},
    {DltapVariant::Traffic, "traffic"},
}};
constexpr std::array<std::pair<QueueOrder, const char *>, 5> kQueues{{
    {QueueOrder::Fifo, "fifo"},
    {QueueOrder::Edf, "edf"},
    {QueueOrder::Sjf, "sjf"},
    {QueueOrder::Priority, "priority"},
    {QueueOrder::Slack, "slack"},
}};
constexpr std::array<std::pair<TaskOrder, const char *>, 3> kTaskOrders{{
    {TaskOrder::AsWritten, "as-written"},
    {TaskOrder::PsFirst, "ps-first"},
    {TaskOrder::Interleaved, "interleaved"},
}};
constexpr std::array<std::pair<TieBreak, const char *>, 2> kTieBreaks{{
    {TieBreak::Random, "random"},
    {TieBreak::First, "first"},
}};

PluginConfig plugin(PluginKind kind, double weight, bool includeGpu = false)
{
    PluginConfig p;
    p.kind = kind;
    p.weight = weight;
    p.includeGpu = includeGpu;
    return p;
}

} // namespace

const char *toString(PluginKind kind) { return nameOf(kPlugins, kind); }
const char *toString(DltapVariant variant) { return nameOf(kVariants, variant); }
const char *toString(QueueOrder order) { return nameOf(kQueues, order); }
const char *toString(TaskOrder order) { return nameOf(kTaskOrders, order); }
const char *toString(TieBreak tieBreak) { return nameOf(kTieBreaks, tieBreak); }
std::optional<PluginKind> pluginKindFromString(const std::string &s)
{
    return valueOf(kPlugins, s);
}
std::optional<DltapVariant> dltapVariantFromString(const std::string &s)
{
    return valueOf(kVariants, s);
}
std::optional<QueueOrder> queueOrderFromString(const std::string &s)
{
    return valueOf(kQueues, s);
}
std::optional<TaskOrder> taskOrderFromString(const std::string &s)
{
    return valueOf(kTaskOrders, s);
}
std::optional<TieBreak> tieBreakFromString(const std::string &s)
{
    return valueOf(kTieBreaks, s);
}

const PluginConfig *Policy::plugin(PluginKind kind) const
{
    for (const PluginConfig &p : plugins)
        if (p.kind == kind)
            return &p;
    return nullptr;
}

const std::vector<std::string> &builtinPolicyNames()
{
    static const std::vector<std::string> names = {"k8s-default", "binpack", "spread",
                                                   "random",      "dltap",   "topology-aware",
                                                   "dltap-due-energy", "dltap-nvl"};
    return names;
}

std::optional<Policy> builtinPolicy(const std::string &name)
{
    Policy p;
    p.name = name;
    if (name == "dltap-nvl") {
        p = *builtinPolicy("dltap");
        p.name = name;
        p.description = "DLTAP plus NVLink domains: the dltap preset and nvlink-domain "
                        "(weight 10), which keeps a job's GPUs in one NVLink domain (a GB200 "
                        "NVL72 rack, else the node) when it fits, else in the fewest domains";
        p.plugins.push_back(plugin(PluginKind::NvlinkDomain, kNvlinkDomainWeight));
        return p;
    }
    if (name == "k8s-default" || name == "dltap") {
        p.description = "kube-scheduler 2017 default priorities, weight 1 each: "
                        "SelectorSpread, LeastRequested, BalancedResourceAllocation";
        p.plugins = {plugin(PluginKind::SelectorSpread, 1),
                     plugin(PluginKind::LeastAllocated, 1),
                     plugin(PluginKind::BalancedAllocation, 1)};
        if (name == "dltap") {
            p.description = "DLTAP: the k8s-default priorities plus the aggregation degree of "
                            "the job's PS and worker tasks (variant counterpart, weight 2); "
                            "SelectorSpread, one of those priorities, pushes a job's tasks "
                            "apart, and wins where the degree is low";
            p.plugins.push_back(plugin(PluginKind::Dltap, kDltapDefaultWeight));
        }
        return p;
    }
    if (name == "dltap-due-energy") {
        // Beyond the paper: DLTAP as it is (the k8s-default priorities and the aggregation
        // degree at weight 2) with LeastRequested replaced by MostRequested over CPU, memory
        // and GPUs, so that jobs fill nodes and whole nodes stay idle (and can be powered
        // down); a preference for the GPU type that spends the least energy per training
        // step; parameter servers placed before their workers; jobs offered by least slack
        // (due date minus estimated length) instead of arrival.
        p.description = "DLTAP with due dates and energy: least-slack queue, MostRequested "
                        "instead of LeastRequested (consolidation), energy per training step "
                        "of the node's GPU type, PS tasks first";
        p.plugins = {plugin(PluginKind::SelectorSpread, 1),
                     plugin(PluginKind::MostAllocated, 1, true),
                     plugin(PluginKind::BalancedAllocation, 1),
                     plugin(PluginKind::Dltap, kDltapDefaultWeight),
                     plugin(PluginKind::EnergyEfficiency, 1)};
        p.queue = QueueOrder::Slack;
        p.taskOrder = TaskOrder::PsFirst;
        return p;
    }
    if (name == "binpack") {
        p.description = "MostRequested over CPU, memory and GPUs: fill nodes before others";
        p.plugins = {plugin(PluginKind::MostAllocated, 1, true)};
        return p;
    }
    if (name == "spread") {
        p.description = "LeastRequested over CPU, memory and GPUs plus SelectorSpread";
        p.plugins = {plugin(PluginKind::LeastAllocated, 1, true),
                     plugin(PluginKind::SelectorSpread, 1)};
        return p;
    }
    if (name == "random") {
        p.description = "a seeded uniform score per node: the no-information baseline";
        p.plugins = {plugin(PluginKind::Random, 1)};
        return p;
    }
    if (name == "topology-aware") {
        p.description = "hops to the job's placed tasks (weight 2) and NVLink packing, with "
                        "LeastRequested and BalancedResourceAllocation";
        p.plugins = {plugin(PluginKind::TopologyDistance, 2),
                     plugin(PluginKind::NvlinkPacking, 1),
                     plugin(PluginKind::LeastAllocated, 1),
                     plugin(PluginKind::BalancedAllocation, 1)};
        return p;
    }
    return std::nullopt;
}

} // namespace cb
