#include "model/validation.h"

#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace cb {

namespace {

/// Connected component of every node and switch (nodes first, then switches, cluster
/// order) over the links, as a union-find; ids are assumed unique (checked before).
std::vector<int> linkComponents(const Cluster &c)
{
    std::unordered_map<std::string, int> index;
    for (const Node &n : c.nodes)
        index.emplace(n.id, int(index.size()));
    for (const Switch &sw : c.switches)
        index.emplace(sw.id, int(index.size()));
    std::vector<int> parent(index.size());
    for (std::size_t i = 0; i < parent.size(); ++i)
        parent[i] = int(i);
    const auto root = [&parent](int x) {
        while (parent[std::size_t(x)] != x)
            x = parent[std::size_t(x)] = parent[std::size_t(parent[std::size_t(x)])];
        return x;
    };
    for (const Link &l : c.links) {
        auto a = index.find(l.a), b = index.find(l.b);
        if (a != index.end() && b != index.end())
            parent[std::size_t(root(a->second))] = root(b->second);
    }
    std::vector<int> comp(parent.size());
    for (std::size_t i = 0; i < comp.size(); ++i)
        comp[i] = root(int(i));
    return comp;
}


std::string slowLink(double gbps, const ScenarioLimits &limits)
{
    return numberText(gbps) + " Gbit/s is below the slowest link ClusterBench simulates, " +
           numberText(limits.minLinkGbps) +
           " Gbit/s (a unit mistake? settings.limits.min_link_gbps lowers the limit)";
}

std::string idx(const std::string &base, std::size_t i)
{
    return base + "/" + std::to_string(i);
}

// One reference token of a JSON pointer (RFC 6901).
std::string pointerToken(const std::string &key)
{
    std::string out;
    for (char c : key)
        out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return out;
}

std::string describe(const TaskGroup &g)
{
    std::string s = numberText(g.cpus) + " CPUs, " + numberText(g.memoryGiB) + " GiB";
    if (g.gpus > 0) {
        s += ", " + std::to_string(g.gpus) + " GPU" + (g.gpus > 1 ? "s" : "");
        if (g.gpuFraction < 1.0)
            s += " (" + numberText(g.gpuFraction) + " of one)";
        if (!g.gpuType.empty())
            s += " of type " + g.gpuType;
    }
    for (const auto &[k, v] : g.nodeSelector)
        s += ", label " + k + "=" + v;
    return s;
}

/// GPUs (by type; "" for any) that must be held at once before `job` can start under the
/// most lenient gang rule: its non-worker tasks and its `min_available` cheapest workers
/// (every worker without it). A fraction of a GPU counts as that fraction.
std::map<std::string, double> gpusToStart(const Job &job)
{
    std::map<std::string, double> need;
    struct Workers
    {
        double each;
        std::string type;
        long long count;
        bool operator<(const Workers &o) const { return each < o.each; }
    };
    std::vector<Workers> workers;
    for (const TaskGroup &g : job.tasks) {
        const double each = g.gpus * (g.gpuFraction < 1.0 ? g.gpuFraction : 1.0);
        if (g.role != TaskRole::Worker)
            need[g.gpuType] += each * g.replicas;
        else
            workers.push_back({each, g.gpuType, g.replicas});
    }
    std::stable_sort(workers.begin(), workers.end()); // the cheapest first
    long long left =
        job.minAvailable ? std::max(0, *job.minAvailable) : std::numeric_limits<long long>::max();
    for (const Workers &w : workers) {
        const long long take = std::min(left, w.count);
        need[w.type] += w.each * double(take);
        left -= take;
    }
    return need;
}

/// A job whose tasks each fit a node can still need more GPUs at once than the cluster
/// has; it would wait for ever.
void checkJobFitsCluster(const Cluster &c, const std::map<std::string, int> &have, int clusterGpus,
                         const Job &job, const std::string &ptr, Problems &p)
{
    if (job.sts || c.nodes.empty())
        return; // a stochastic job's configuration is chosen by the policy
    const std::map<std::string, double> need = gpusToStart(job);
    double total = 0;
    for (const auto &[type, gpus] : need)
        total += gpus;
    const auto fail = [&](double gpus, int cluster, const std::string &type) {
        const std::string kind = type.empty() ? "GPUs" : type + " GPUs";
        p.push_back({ptr + "/tasks",
                     "the job can never start: it needs " + numberText(gpus) + " " + kind +
                         " at once (" +
                         (job.minAvailable ? "its non-worker tasks and min_available workers"
                                           : "every task") +
                         "), the cluster has " + std::to_string(cluster)});
    };
    bool typeShort = false;
    for (const auto &[type, gpus] : need) {
        if (type.empty())
            continue;
        auto it = have.find(type);
        const int cluster = it == have.end() ? 0 : it->second;
        if (gpus > cluster + 1e-9) {
            fail(gpus, cluster, type);
            typeShort = true;
        }
    }
    if (!typeShort && total > clusterGpus + 1e-9)
        fail(total, clusterGpus, "");
}

void checkJob(const Scenario &s, const Job &job, const std::string &ptr, Problems &p)
{
    if (job.tasks.empty())
        p.push_back({ptr + "/tasks", "a job needs at least one task"});
    int ps = 0, workers = 0, others = 0;
    for (std::size_t t = 0; t < job.tasks.size(); ++t) {
        const TaskGroup &g = job.tasks[t];
        const std::string tptr = ptr + "/tasks/" + std::to_string(t);
        if (g.role == TaskRole::Ps)
            ps += g.replicas;
        else if (g.role == TaskRole::Worker)
            workers += g.replicas;
        else
            others += g.replicas;
        if (g.gpuFraction < 1.0 && g.gpus != 1)
            p.push_back({tptr + "/gpu_fraction",
                         "a GPU fraction below 1 needs exactly one GPU per task, found " +
                             std::to_string(g.gpus)});
        if (!g.gpuType.empty() && !s.cluster.gpuType(g.gpuType))
            p.push_back({tptr + "/gpu_type",
                         "unknown GPU type \"" + g.gpuType + "\" (not in /cluster/gpu_types)"});
    }
    switch (job.kind) {
    case JobKind::ParameterServer:
        if (ps < 1 || workers < 1)
            p.push_back({ptr + "/tasks", "a parameter-server job needs at least one ps and one "
                                         "worker task, found " +
                                             std::to_string(ps) + " ps and " +
                                             std::to_string(workers) + " worker"});
        break;
    case JobKind::AllReduce:
        if (ps > 0 || workers < 1)
            p.push_back({ptr + "/tasks", "an all-reduce job needs worker tasks and no ps task"});
        break;
    case JobKind::Single:
        if (job.taskCount() != 1)
            p.push_back({ptr + "/tasks", "a single job has exactly one task, found " +
                                             std::to_string(job.taskCount())});
        break;
    }
    (void)others;
    if (job.minAvailable && (*job.minAvailable < 1 || *job.minAvailable > workers))
        p.push_back({ptr + "/min_available",
                     "min_available counts workers: expected 1 to " + std::to_string(workers) +
                         " (the job's workers), found " + std::to_string(*job.minAvailable)});
    if (job.dueSeconds && *job.dueSeconds < job.submitSeconds)
        p.push_back({ptr + "/due_s", "the due date (" + numberText(*job.dueSeconds) +
                                         " s) is before the submit time (" +
                                         numberText(job.submitSeconds) + " s)"});
    for (const auto &[type, secs] : job.model.computeSecondsByGpuType)
        if (!s.cluster.gpuType(type))
            p.push_back({ptr + "/model/compute_s_by_gpu_type/" + type,
                         "unknown GPU type \"" + type + "\""});
    if (job.sts) {
        if (!job.sts->termination.empty() && !s.distributions.count(job.sts->termination))
            p.push_back(
                {ptr + "/sts/termination",
                 "unknown distribution \"" + job.sts->termination + "\" (not in /distributions)"});
        for (std::size_t e = 0; e < job.sts->executionTimes.size(); ++e) {
            const ExecutionTime &t = job.sts->executionTimes[e];
            const std::string eptr = ptr + "/sts/execution_times/" + std::to_string(e);
            if (!s.cluster.gpuType(t.gpuType))
                p.push_back({eptr + "/gpu_type", "unknown GPU type \"" + t.gpuType + "\""});
            if (!(t.seconds > 0))
                p.push_back({eptr + "/seconds", "expected a positive time"});
        }
    }
}

} // namespace

bool taskFitsEmptyNode(const TaskGroup &g, const Node &node, std::string *why)
{
    auto fail = [&](std::string reason) {
        if (why)
            *why = std::move(reason);
        return false;
    };
    if (g.cpus > node.cpus)
        return fail("needs " + numberText(g.cpus) + " CPUs, node has " + numberText(node.cpus));
    if (g.memoryGiB > node.memoryGiB)
        return fail("needs " + numberText(g.memoryGiB) + " GiB, node has " +
                    numberText(node.memoryGiB));
    if (g.gpus > node.gpus)
        return fail("needs " + std::to_string(g.gpus) + " GPUs, node has " +
                    std::to_string(node.gpus));
    if (g.gpus > 0 && !g.gpuType.empty() && g.gpuType != node.gpuType)
        return fail("needs GPU type " + g.gpuType + ", node has " +
                    (node.gpuType.empty() ? std::string("none") : node.gpuType));
    for (const auto &[k, v] : g.nodeSelector) {
        auto it = node.labels.find(k);
        if (it == node.labels.end() || it->second != v)
            return fail("node lacks label " + k + "=" + v);
    }
    return true;
}

NeverStartCheck::NeverStartCheck(const Cluster &c)
    : m_cluster(c), m_gpusByType(c.gpusByType()), m_gpus(c.totalGpus())
{}

Problems NeverStartCheck::operator()(const Job &job, const std::string &ptr) const
{
    Problems p;
    if (m_cluster.nodes.empty())
        return p;
    for (std::size_t t = 0; t < job.tasks.size(); ++t) {
        const TaskGroup &g = job.tasks[t];
        bool fits = false;
        for (const Node &node : m_cluster.nodes)
            if (taskFitsEmptyNode(g, node)) {
                fits = true;
                break;
            }
        if (!fits)
            p.push_back({ptr + "/tasks/" + std::to_string(t),
                         "no node can hold this task even when the cluster is empty (needs " +
                             describe(g) + ")"});
    }
    if (p.empty()) // else said per task
        checkJobFitsCluster(m_cluster, m_gpusByType, m_gpus, job, ptr, p);
    return p;
}

Problems jobNeverStarts(const Cluster &c, const Job &job, const std::string &ptr)
{
    return NeverStartCheck(c)(job, ptr);
}

Problems jobsThatNeverStart(const Scenario &s)
{
    Problems p;
    const NeverStartCheck check(s.cluster);
    for (std::size_t i = 0; i < s.jobs.size(); ++i)
        for (Problem &q : check(s.jobs[i], "/jobs/" + std::to_string(i))) {
            q.message = "job " + s.jobs[i].id + ": " + q.message; // a pointer alone says little
            p.push_back(std::move(q));
        }
    return p;
}

Problems validateScenario(const Scenario &s)
{
    Problems p;
    const Cluster &c = s.cluster;

    std::set<std::string> typeNames;
    for (std::size_t i = 0; i < c.gpuTypes.size(); ++i) {
        const GpuType &t = c.gpuTypes[i];
        const std::string ptr = idx("/cluster/gpu_types", i);
        if (t.name.empty())
            p.push_back({ptr + "/name", "expected a non-empty GPU type name"});
        else if (!typeNames.insert(t.name).second)
            p.push_back({ptr + "/name", "duplicate GPU type \"" + t.name + "\""});
        if (t.busyWatts < t.idleWatts)
            p.push_back({ptr + "/busy_watts", "busy watts (" + numberText(t.busyWatts) +
                                                  ") below idle watts (" + numberText(t.idleWatts) +
                                                  ")"});
    }

    if (c.nodes.empty())
        p.push_back({"/cluster/nodes", "a cluster needs at least one node"});
    std::unordered_map<std::string, std::string> ids; // id -> pointer of first use
    auto claim = [&](const std::string &id, const std::string &ptr, const char *what) {
        if (id.empty()) {
            p.push_back({ptr + "/id", std::string("expected a non-empty ") + what + " id"});
            return;
        }
        auto [it, fresh] = ids.emplace(id, ptr);
        if (!fresh)
            p.push_back(
                {ptr + "/id", "duplicate id \"" + id + "\" (first used at " + it->second + ")"});
    };
    for (std::size_t i = 0; i < c.nodes.size(); ++i) {
        const Node &n = c.nodes[i];
        const std::string ptr = idx("/cluster/nodes", i);
        claim(n.id, ptr, "node");
        if (!(n.cpus > 0))
            p.push_back({ptr + "/cpus", "expected a positive number of CPUs"});
        if (!(n.memoryGiB > 0))
            p.push_back({ptr + "/memory_gib", "expected a positive memory size"});
        if (n.gpus > 0 && n.gpuType.empty())
            p.push_back({ptr + "/gpu_type", "a node with GPUs needs a gpu_type"});
        else if (n.gpus > 0 && !c.gpuType(n.gpuType))
            p.push_back({ptr + "/gpu_type",
                         "unknown GPU type \"" + n.gpuType + "\" (not in /cluster/gpu_types)"});
        if (!(n.interconnect.bandwidthGbps > 0))
            p.push_back({ptr + "/interconnect/bandwidth_gbps", "expected a positive bandwidth"});
        else if (n.interconnect.bandwidthGbps < s.settings.limits.minLinkGbps)
            p.push_back({ptr + "/interconnect/bandwidth_gbps",
                         slowLink(n.interconnect.bandwidthGbps, s.settings.limits)});
        std::set<int> seen;
        for (std::size_t d = 0; d < n.interconnect.nvlinkDomains.size(); ++d)
            for (int g : n.interconnect.nvlinkDomains[d]) {
                const std::string dptr = ptr + "/interconnect/nvlink_domains/" + std::to_string(d);
                if (g >= n.gpus)
                    p.push_back({dptr, "GPU index " + std::to_string(g) + " is beyond the node's " +
                                           std::to_string(n.gpus) + " GPUs"});
                else if (!seen.insert(g).second)
                    p.push_back({dptr, "GPU " + std::to_string(g) + " is in two NVLink domains"});
            }
    }
    for (std::size_t i = 0; i < c.switches.size(); ++i)
        claim(c.switches[i].id, idx("/cluster/switches", i), "switch");

    for (std::size_t i = 0; i < c.links.size(); ++i) {
        const Link &l = c.links[i];
        const std::string ptr = idx("/cluster/links", i);
        if (!ids.count(l.a))
            p.push_back({ptr + "/a", "unknown endpoint \"" + l.a +
                                         "\" (no node or switch "
                                         "has this id)"});
        if (!ids.count(l.b))
            p.push_back({ptr + "/b", "unknown endpoint \"" + l.b +
                                         "\" (no node or switch "
                                         "has this id)"});
        if (l.a == l.b)
            p.push_back({ptr, "a link from \"" + l.a + "\" to itself forms a loop"});
        if (!(l.capacityGbps > 0))
            p.push_back({ptr + "/capacity_gbps",
                         "expected a positive capacity, found " + numberText(l.capacityGbps)});
        else if (l.capacityGbps < s.settings.limits.minLinkGbps)
            p.push_back({ptr + "/capacity_gbps", slowLink(l.capacityGbps, s.settings.limits)});
    }

    std::unordered_map<std::string, std::string> domainOf;  // node id -> pointer of its domain
    std::unordered_map<std::string, std::string> domainIds; // domain id -> pointer
    std::unordered_map<std::string, const Node *> nodeById;
    if (!c.nvlinkDomains.empty())
        for (const Node &n : c.nodes)
            nodeById.emplace(n.id, &n);
    for (std::size_t d = 0; d < c.nvlinkDomains.size(); ++d) {
        const NvlinkDomain &dom = c.nvlinkDomains[d];
        const std::string ptr = idx("/cluster/nvlink_domains", d);
        if (dom.id.empty())
            p.push_back({ptr + "/id", "expected a non-empty NVLink domain id"});
        else if (auto [it, fresh] = domainIds.emplace(dom.id, ptr); !fresh)
            p.push_back({ptr + "/id", "duplicate NVLink domain id \"" + dom.id +
                                          "\" (first used at " + it->second + ")"});
        if (dom.nodes.size() < 2)
            p.push_back({ptr + "/nodes",
                         "a multi-node NVLink domain needs at least two nodes, found " +
                             std::to_string(dom.nodes.size()) +
                             " (GPUs of one node form its interconnect's nvlink_domains)"});
        for (std::size_t k = 0; k < dom.nodes.size(); ++k) {
            const std::string &id = dom.nodes[k];
            const std::string nptr = idx(ptr + "/nodes", k);
            const auto found = nodeById.find(id);
            const Node *node = found == nodeById.end() ? nullptr : found->second;
            if (!node) {
                p.push_back({nptr, "unknown node \"" + id + "\" (no node has this id)"});
                continue;
            }
            if (auto [it, fresh] = domainOf.emplace(id, ptr); !fresh)
                p.push_back({nptr, "node \"" + id + "\" is already in the NVLink domain at " +
                                       it->second + "; a node belongs to at most one"});
            if (node->gpus == 0)
                p.push_back({nptr, "node \"" + id + "\" has no GPUs to join an NVLink domain"});
        }
        if (!(dom.bandwidthGbps > 0))
            p.push_back({ptr + "/bandwidth_gbps", "expected a positive bandwidth per GPU, found " +
                                                      numberText(dom.bandwidthGbps)});
        else if (dom.bandwidthGbps < s.settings.limits.minLinkGbps)
            p.push_back({ptr + "/bandwidth_gbps", slowLink(dom.bandwidthGbps, s.settings.limits)});
        if (!(dom.latencyUs >= 0))
            p.push_back({ptr + "/latency_us", "expected a latency >= 0 us"});
    }

    // Partitions' settings: one entry per name, at most one default.
    std::unordered_map<std::string, std::string> partitionAt;
    std::string defaultAt;
    for (std::size_t k = 0; k < c.partitions.size(); ++k) {
        const Partition &part = c.partitions[k];
        const std::string ptr = idx("/cluster/partitions", k);
        if (part.name.empty())
            p.push_back({ptr + "/name", "expected a non-empty partition name"});
        else if (auto [it, fresh] = partitionAt.emplace(part.name, ptr); !fresh)
            p.push_back({ptr + "/name", "duplicate partition \"" + part.name +
                                            "\" (first given at " + it->second + ")"});
        if (part.isDefault) {
            if (!defaultAt.empty())
                p.push_back({ptr + "/default", "a second default partition (the first at " +
                                                   defaultAt + "); Slurm has one"});
            else
                defaultAt = ptr;
        }
    }

    if (c.nodes.size() > 1 && ids.size() == c.nodes.size() + c.switches.size()) {
        const std::vector<int> comp = linkComponents(c);
        for (std::size_t i = 1; i < c.nodes.size(); ++i)
            if (comp[i] != comp[0])
                p.push_back({idx("/cluster/nodes", i),
                             "node \"" + c.nodes[i].id + "\" cannot reach node \"" + c.nodes[0].id +
                                 "\": no path of links connects them"});
    }

    for (const auto &[name, pmf] : s.distributions) {
        const std::string ptr = "/distributions/" + name;
        if (pmf.size() != 100) {
            p.push_back({ptr, "expected 100 probabilities (1..100 % of max epochs), found " +
                                  std::to_string(pmf.size())});
            continue;
        }
        double sum = 0;
        for (double x : pmf)
            sum += x;
        if (std::fabs(sum - 1.0) > 1e-6)
            p.push_back({ptr, "probabilities sum to " + numberText(sum) + ", expected 1"});
    }

    // Views into the jobs' own ids: a scenario of millions of jobs is checked without copying
    // them.
    std::unordered_set<std::string_view> jobIds;
    jobIds.reserve(s.jobs.size());
    std::int64_t allTasks = 0;
    const ScenarioLimits &limits = s.settings.limits;
    for (std::size_t i = 0; i < s.jobs.size(); ++i) {
        const Job &job = s.jobs[i];
        const std::string ptr = idx("/jobs", i);
        if (job.id.empty())
            p.push_back({ptr + "/id", "expected a non-empty job id"});
        else if (!jobIds.insert(job.id).second)
            p.push_back({ptr + "/id", "duplicate job id \"" + job.id + "\""});
        std::int64_t tasks = 0;
        for (const TaskGroup &g : job.tasks)
            tasks += g.replicas;
        allTasks += tasks;
        if (tasks > limits.maxTasksPerJob) {
            // Too large to check task by task: say so and go on with the next job.
            p.push_back({ptr + "/tasks", "the job has " + std::to_string(tasks) +
                                             " tasks, above the limit of " +
                                             std::to_string(limits.maxTasksPerJob) +
                                             " per job (settings.limits.max_tasks_per_job "
                                             "raises it)"});
            continue;
        }
        checkJob(s, job, ptr, p);
    }
    if (allTasks > limits.maxTasks)
        p.push_back({"/jobs", std::to_string(allTasks) + " tasks in all, above the limit of " +
                                  std::to_string(limits.maxTasks) +
                                  " per scenario (settings.limits.max_tasks raises it)"});

    const auto &schedule = s.settings.priceSchedule;
    for (std::size_t i = 0; i < schedule.size(); ++i) {
        if (i == 0 && schedule[i].fromHour != 0)
            p.push_back(
                {"/settings/price_schedule/0/from_hour", "the first period must start at hour 0"});
        if (i > 0 && schedule[i].fromHour <= schedule[i - 1].fromHour)
            p.push_back({idx("/settings/price_schedule", i) + "/from_hour",
                         "periods must be in increasing hour order"});
    }
    for (const auto &[name, table] : s.stepTimeModels) {
        const std::string ptr = "/step_time_models/" + pointerToken(name);
        if (name.empty())
            p.push_back({ptr, "a step-time model needs the name of a model profile"});
        if (table.points.empty())
            p.push_back({ptr + "/points", "expected at least one measured point"});
        for (const auto &[i, message] : stepTimeProblems(table))
            p.push_back({idx(ptr + "/points", i), message});
    }

    return p;
}

} // namespace cb
