#include "io/export/placed_job.h"

#include "util/command_line.h"
#include "util/text.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace cb {

std::string PlacedTask::taskName() const
{
    return std::string(toString(role)) + "-" + std::to_string(indexInRole);
}

std::vector<std::string> PlacedJob::nodes() const
{
    std::vector<std::string> out;
    for (const PlacedTask &t : tasks)
        if (std::find(out.begin(), out.end(), t.node) == out.end())
            out.push_back(t.node);
    return out;
}

std::vector<TaskRole> PlacedJob::roles() const
{
    std::vector<TaskRole> out;
    for (TaskRole r :
         {TaskRole::Ps, TaskRole::Worker, TaskRole::Chief, TaskRole::Evaluator, TaskRole::Single})
        for (const PlacedTask &t : tasks)
            if (t.role == r) {
                out.push_back(r);
                break;
            }
    return out;
}

std::vector<const PlacedTask *> PlacedJob::tasksOfRole(TaskRole role) const
{
    std::vector<const PlacedTask *> out;
    for (const PlacedTask &t : tasks)
        if (t.role == role)
            out.push_back(&t);
    return out;
}

int PlacedJob::gangMinAvailable() const
{
    const int all = int(tasks.size());
    if (!job || !job->minAvailable)
        return all;
    const int workers = int(tasksOfRole(TaskRole::Worker).size());
    return all - workers + std::min(workers, *job->minAvailable);
}

namespace {

/// First index within the role of each group: groups of one role number their tasks on.
std::vector<int> firstIndexOfGroups(const Job &job)
{
    std::vector<int> first;
    std::map<TaskRole, int> next;
    for (const TaskGroup &g : job.tasks) {
        first.push_back(next[g.role]);
        next[g.role] += g.replicas;
    }
    return first;
}

} // namespace

Result<std::vector<PlacedJob>> resolvePlacement(const Scenario &scenario,
                                                const Placement &placement)
{
    Problems problems;
    std::vector<PlacedJob> out;
    std::set<std::string> seenJobs;
    for (std::size_t j = 0; j < placement.jobs.size(); ++j) {
        const JobPlacement &jp = placement.jobs[j];
        const std::string where = "/jobs/" + std::to_string(j);
        const Job *job = scenario.job(jp.jobId);
        if (!job) {
            problems.push_back({where + "/job", "job \"" + jp.jobId + "\" is not in the scenario"});
            continue;
        }
        if (!seenJobs.insert(jp.jobId).second) {
            problems.push_back({where + "/job", "job \"" + jp.jobId + "\" is placed twice"});
            continue;
        }
        // A job with min_available may run without some workers, never without another task.
        const int workers = job->workerCount(), others = job->taskCount() - workers;
        const int placedWorkers = jp.workerCount();
        const int placedOthers = int(jp.tasks.size()) - placedWorkers;
        const int minWorkers = std::min(workers, job->minAvailable.value_or(workers));
        const bool admittedShort = int(jp.tasks.size()) < job->taskCount() &&
                                   placedOthers == others && placedWorkers >= minWorkers;
        if (int(jp.tasks.size()) != job->taskCount() && !admittedShort) {
            problems.push_back(
                {where + "/tasks",
                 "job \"" + jp.jobId + "\" has " + std::to_string(job->taskCount()) + " tasks" +
                     (minWorkers < workers ? " (it may start with " + std::to_string(minWorkers) +
                                                 " of its " + std::to_string(workers) +
                                                 " workers, min_available)"
                                           : std::string()) +
                     ", the placement gives " + std::to_string(jp.tasks.size())});
            continue;
        }
        const std::vector<int> first = firstIndexOfGroups(*job);
        PlacedJob placed;
        placed.job = job;
        std::set<std::pair<int, int>> seenTasks; // (role, index)
        bool jobOk = true;
        for (std::size_t t = 0; t < jp.tasks.size(); ++t) {
            const TaskAssignment &a = jp.tasks[t];
            const std::string tw = where + "/tasks/" + std::to_string(t);
            auto fail = [&](const std::string &field, const std::string &message) {
                problems.push_back({tw + field, message});
                jobOk = false;
            };
            if (a.group < 0 || a.group >= int(job->tasks.size())) {
                fail("/group", "group " + std::to_string(a.group) + " does not exist in job \"" +
                                   jp.jobId + "\"");
                continue;
            }
            const TaskGroup &g = job->tasks[std::size_t(a.group)];
            if (g.role != a.role) {
                fail("/role", std::string("expected role \"") + toString(g.role) + "\" of group " +
                                  std::to_string(a.group) + ", found \"" + toString(a.role) + "\"");
                continue;
            }
            const int lo = first[std::size_t(a.group)];
            if (a.indexInRole < lo || a.indexInRole >= lo + g.replicas) {
                fail("/index", "index " + std::to_string(a.indexInRole) + " is outside " +
                                   toString(a.role) + " indices " + std::to_string(lo) + ".." +
                                   std::to_string(lo + g.replicas - 1) + " of group " +
                                   std::to_string(a.group));
                continue;
            }
            if (!seenTasks.insert({int(a.role), a.indexInRole}).second) {
                fail("/index", std::string("task ") + toString(a.role) + "-" +
                                   std::to_string(a.indexInRole) + " is placed twice");
                continue;
            }
            const Node *node = scenario.cluster.node(a.node);
            if (!node) {
                fail("/node", "node \"" + a.node + "\" is not in the cluster");
                continue;
            }
            if (g.gpus > node->gpus) {
                fail("/node", "task needs " + std::to_string(g.gpus) + " GPUs, node \"" + a.node +
                                  "\" has " + std::to_string(node->gpus));
                continue;
            }
            for (int gi : a.gpuIndices)
                if (gi < 0 || gi >= node->gpus)
                    fail("/gpus", "GPU index " + std::to_string(gi) + " does not exist on node \"" +
                                      a.node + "\"");
            PlacedTask pt;
            pt.role = a.role;
            pt.group = a.group;
            pt.indexInRole = a.indexInRole;
            pt.node = a.node;
            pt.gpuIndices = a.gpuIndices;
            pt.cpus = g.cpus;
            pt.memoryGiB = g.memoryGiB;
            pt.gpus = g.gpus;
            pt.gpuFraction = g.gpuFraction;
            pt.gpuType = g.gpus > 0 ? node->gpuType : std::string();
            placed.tasks.push_back(std::move(pt));
        }
        if (!jobOk)
            continue;
        std::stable_sort(
            placed.tasks.begin(), placed.tasks.end(), [](const PlacedTask &a, const PlacedTask &b) {
                return a.group != b.group ? a.group < b.group : a.indexInRole < b.indexInRole;
            });
        for (std::size_t i = 0; i < placed.tasks.size(); ++i)
            placed.tasks[i].rank = int(i);
        out.push_back(std::move(placed));
    }
    if (!problems.empty())
        return problems;
    return out;
}

Problems nodeOverloads(const Scenario &scenario, const Placement &placement)
{
    struct Use
    {
        double cpus = 0, memoryGiB = 0, gpus = 0;
        std::map<int, std::pair<double, std::string>> slots; ///< index -> share, first task
        std::set<std::string> said;                          ///< resources already reported
    };
    std::map<std::string, Use> use;
    Problems problems;
    constexpr double kSlack = 1e-9; // slices that sum to a whole GPU, in floating point
    for (std::size_t j = 0; j < placement.jobs.size(); ++j) {
        const JobPlacement &jp = placement.jobs[j];
        const Job *job = scenario.job(jp.jobId);
        if (!job)
            continue;
        for (std::size_t t = 0; t < jp.tasks.size(); ++t) {
            const TaskAssignment &a = jp.tasks[t];
            const Node *node = scenario.cluster.node(a.node);
            if (!node || a.group < 0 || a.group >= int(job->tasks.size()))
                continue;
            const TaskGroup &g = job->tasks[std::size_t(a.group)];
            const double share = g.gpuFraction < 1.0 ? g.gpuFraction : 1.0;
            const std::string where = "/jobs/" + std::to_string(j) + "/tasks/" + std::to_string(t);
            const std::string task =
                "job " + jp.jobId + " " + toString(a.role) + "-" + std::to_string(a.indexInRole);
            Use &u = use[a.node];
            u.cpus += g.cpus;
            u.memoryGiB += g.memoryGiB;
            u.gpus += g.gpus * share;
            const auto over = [&](const char *resource, double asked, double has,
                                  const std::string &unit) {
                if (asked <= has + kSlack || !u.said.insert(resource).second)
                    return;
                problems.push_back({where + "/node",
                                    "node \"" + a.node + "\" has " + numberText(has) + " " + unit +
                                        "; with " + task + " the placement's jobs ask it for " +
                                        numberText(asked) + " at once"});
            };
            over("cpus", u.cpus, node->cpus, "CPUs");
            over("memory", u.memoryGiB, node->memoryGiB, "GiB of memory");
            over("gpus", u.gpus, node->gpus, "GPUs");
            for (int gi : a.gpuIndices) {
                auto &[taken, first] = u.slots[gi];
                taken += share;
                if (first.empty())
                    first = task;
                else if (taken > 1.0 + kSlack && u.said.insert("gpu " + std::to_string(gi)).second)
                    problems.push_back({where + "/gpus",
                                        "GPU " + std::to_string(gi) + " of node \"" + a.node +
                                            "\" is given to " + task + " and already to " + first});
            }
        }
    }
    return problems;
}

std::string fractionalGpuWarning(const std::vector<PlacedJob> &jobs, const std::string &format,
                                 const std::string &resource)
{
    std::string list;
    int count = 0;
    for (const PlacedJob &j : jobs) {
        // Tasks grouped by their slice, in task order: "worker-0, worker-1: 0.5 GPU".
        std::vector<std::pair<double, std::string>> slices;
        for (const PlacedTask &t : j.tasks) {
            if (t.gpus <= 0 || t.gpuFraction >= 1.0)
                continue;
            auto it = std::find_if(slices.begin(), slices.end(),
                                   [&](const auto &s) { return s.first == t.gpuFraction; });
            if (it == slices.end())
                slices.emplace_back(t.gpuFraction, t.taskName());
            else
                it->second += ", " + t.taskName();
        }
        if (slices.empty())
            continue;
        ++count;
        std::string tasks;
        for (const auto &[fraction, names] : slices) {
            std::ostringstream f;
            f << fraction;
            tasks += (tasks.empty() ? "" : "; ") + names + ": " + f.str() + " GPU";
        }
        list += (list.empty() ? "" : ", ") + ("\"" + j.job->id + "\" (" + tasks + ")");
    }
    if (count == 0)
        return {};
    return format + ": " + std::to_string(count) + (count == 1 ? " job asks" : " jobs ask") +
           " for a fraction of a GPU, which " + resource +
           " cannot express; each of these tasks requests 1 whole GPU: " + list;
}

std::string namedList(const std::vector<std::string> &items)
{
    constexpr std::size_t kNamed = 20;
    std::string list;
    for (std::size_t i = 0; i < items.size() && i < kNamed; ++i)
        list += (i == 0 ? "" : ", ") + items[i];
    if (items.size() > kNamed)
        list += " and " + std::to_string(items.size() - kNamed) + " more";
    return list;
}

std::string jobsWarning(const std::vector<std::string> &ids, const std::string &one,
                        const std::string &many)
{
    if (ids.empty())
        return {};
    if (ids.size() == 1)
        return "job \"" + ids.front() + "\" " + one;
    std::vector<std::string> quoted;
    for (const std::string &id : ids)
        quoted.push_back("\"" + id + "\"");
    return std::to_string(ids.size()) + " jobs " + many + ": " + namedList(quoted);
}

std::string shellOperatorWarning(const std::vector<const Job *> &jobs, const std::string &format)
{
    const std::string why = "; no shell runs a job's command, so the program gets it as an "
                            "argument (for shell syntax, make the command [\"/bin/sh\", \"-c\", "
                            "\"...\"], as the window's job editor does)";
    SharedWarnings shared;
    for (const Job *job : jobs)
        if (const std::string op = shellOperatorArgument(job->command); !op.empty())
            shared.add(format + ": {n} jobs' commands have a shell operator as a word of its own" +
                           why,
                       format + ": job \"" + job->id + "\"'s command has \"" + op +
                           "\" as a word of its own" + why,
                       "\"" + job->id + "\" (" + op + ")");
    const std::vector<std::string> said = shared.said();
    return said.empty() ? std::string() : said.front();
}

namespace {

/// The value of a torchrun option given as "--name=V" or "--name V" (either spelling of its
/// underscores and dashes), among the words before the script; empty when not given.
std::string torchrunOption(const std::vector<std::string> &words, std::size_t from,
                           const std::string &name)
{
    std::string dashed = name;
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    for (std::size_t i = from; i < words.size(); ++i) {
        const std::string &w = words[i];
        if (w.rfind("-", 0) != 0)
            break; // the script: what follows is its own
        for (const std::string &n : {name, dashed}) {
            const std::string flag = "--" + n;
            if (w == flag && i + 1 < words.size())
                return words[i + 1];
            if (w.rfind(flag + "=", 0) == 0)
                return w.substr(flag.size() + 1);
        }
    }
    return {};
}

/// Where torchrun's own options start in a command (its words after "torchrun" or after
/// "python -m torch.distributed.run"), or 0 when it does not start torchrun. A /bin/sh -c
/// line is read as words.
std::size_t torchrunStart(const std::vector<std::string> &command, std::vector<std::string> &words)
{
    words = command;
    if (command.size() == 3 && programName(command) == "sh" && command[1] == "-c") {
        std::istringstream line(command[2]);
        words.clear();
        for (std::string w; line >> w;)
            words.push_back(w);
    }
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string program = programName({words[i]});
        if (program == "torchrun")
            return i + 1;
        if (program.rfind("python", 0) == 0 && i + 2 < words.size() && words[i + 1] == "-m" &&
            words[i + 2] == "torch.distributed.run")
            return i + 3;
    }
    return 0;
}

} // namespace

std::string torchrunWarning(const std::vector<PlacedJob> &jobs, const std::string &format)
{
    SharedWarnings shared;
    for (const PlacedJob &job : jobs) {
        if (job.job->kind != JobKind::AllReduce || job.tasks.empty())
            continue;
        std::vector<std::string> words;
        const std::size_t from = torchrunStart(job.job->command, words);
        if (from == 0)
            continue;
        const std::string nodes = torchrunOption(words, from, "nnodes");
        const std::string procs = torchrunOption(words, from, "nproc_per_node");
        const std::string tasks = std::to_string(job.tasks.size());
        std::string what;
        if (!nodes.empty() && nodes != tasks && nodes.find(':') == std::string::npos)
            what = "--nnodes=" + nodes + " for its " + tasks + " task" +
                   (job.tasks.size() == 1 ? "" : "s");
        const int gpus = job.tasks.front().gpus;
        const bool sameGpus = std::all_of(job.tasks.begin(), job.tasks.end(),
                                          [gpus](const PlacedTask &t) { return t.gpus == gpus; });
        if (!procs.empty() && gpus > 0 && sameGpus && procs != std::to_string(gpus) &&
            procs != "gpu" && procs != "auto")
            what += (what.empty() ? "" : " and ") + std::string("--nproc_per_node=") + procs +
                    " for " + std::to_string(gpus) + " GPU" + (gpus == 1 ? "" : "s") + " per task";
        if (what.empty())
            continue;
        const std::string why =
            " (each task is one torchrun node; its flags win over the PET_* variables the "
            "export sets, so the rendezvous would wait for nodes that never come, or start "
            "processes without a GPU)";
        shared.add(format + ": {n} jobs start torchrun with flags that do not match their tasks" +
                       why,
                   format + ": job \"" + job.job->id + "\" starts torchrun with " + what + why,
                   "\"" + job.job->id + "\" (" + what + ")");
    }
    const std::vector<std::string> said = shared.said();
    return said.empty() ? std::string() : said.front();
}

void SharedWarnings::add(const std::string &many, std::string one, std::string item)
{
    auto it =
        std::find_if(m_kinds.begin(), m_kinds.end(), [&](const Kind &k) { return k.many == many; });
    if (it == m_kinds.end())
        it = m_kinds.insert(m_kinds.end(), Kind{many, std::move(one), {}});
    it->items.push_back(std::move(item));
}

std::vector<std::string> SharedWarnings::said() const
{
    std::vector<std::string> out;
    for (const Kind &k : m_kinds) {
        if (k.items.size() == 1) {
            out.push_back(k.one);
            continue;
        }
        std::string text = k.many;
        if (const auto at = text.find("{n}"); at != std::string::npos)
            text.replace(at, 3, std::to_string(k.items.size()));
        if (const auto at = text.find("{list}"); at != std::string::npos)
            text.replace(at, 6, namedList(k.items));
        else
            text += ": " + namedList(k.items);
        out.push_back(std::move(text));
    }
    return out;
}

} // namespace cb
