#include "sched/task_pin.h"

#include <set>
#include <tuple>

namespace cb {

Result<TaskPin> parseTaskPin(const std::string &text)
{
    const auto bad = [&](const std::string &why) {
        return Result<TaskPin>::failure("--pin", "\"" + text + "\": " + why +
                                                     " (expected JOB/TASK=NODE, e.g. "
                                                     "job-1/worker-0=node-03)");
    };
    const std::size_t eq = text.rfind('=');
    if (eq == std::string::npos || eq + 1 == text.size())
        return bad("no node after '='");
    const std::string left = text.substr(0, eq);
    const std::size_t slash = left.rfind('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == left.size())
        return bad("no JOB/TASK before '='");
    const std::string task = left.substr(slash + 1);
    const std::size_t dash = task.rfind('-');
    if (dash == std::string::npos || dash == 0 || dash + 1 == task.size())
        return bad("the task is ROLE-RANK, e.g. worker-0");
    const auto role = taskRoleFromString(task.substr(0, dash));
    if (!role)
        return bad("unknown role \"" + task.substr(0, dash) + "\"");
    int rank = 0;
    for (char c : task.substr(dash + 1)) {
        if (c < '0' || c > '9' || rank > 1000000)
            return bad("the rank is a whole number >= 0");
        rank = rank * 10 + (c - '0');
    }
    TaskPin pin;
    pin.jobId = left.substr(0, slash);
    pin.role = *role;
    pin.indexInRole = rank;
    pin.node = text.substr(eq + 1);
    return pin;
}

Result<std::vector<TaskPin>> parseTaskPins(const std::string &text)
{
    std::vector<TaskPin> pins;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string one =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        auto pin = parseTaskPin(one);
        if (!pin)
            return pin.problems();
        pins.push_back(std::move(pin.value()));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return pins;
}

std::string toString(const TaskPin &pin)
{
    return pin.jobId + "/" + toString(pin.role) + "-" + std::to_string(pin.indexInRole) + "=" +
           pin.node;
}

Status checkTaskPins(const Scenario &scenario, const std::vector<TaskPin> &pins)
{
    Problems problems;
    std::set<std::tuple<std::string, int, int>> seen;
    for (const TaskPin &pin : pins) {
        const std::string where = "--pin " + toString(pin);
        const Job *job = scenario.job(pin.jobId);
        if (!job) {
            problems.push_back({where, "no job \"" + pin.jobId + "\" in the scenario"});
            continue;
        }
        int tasks = 0;
        for (const TaskGroup &g : job->tasks)
            if (g.role == pin.role)
                tasks += g.replicas;
        if (pin.indexInRole >= tasks)
            problems.push_back({where, "job " + pin.jobId + " has " + std::to_string(tasks) +
                                           " " + toString(pin.role) + " task" +
                                           (tasks == 1 ? "" : "s") +
                                           (tasks > 0 ? " (ranks 0 to " +
                                                            std::to_string(tasks - 1) + ")"
                                                      : std::string())});
        bool known = false;
        for (const Node &n : scenario.cluster.nodes)
            known = known || n.id == pin.node;
        if (!known)
            problems.push_back({where, "no node \"" + pin.node + "\" in the cluster"});
        if (!seen.insert({pin.jobId, int(pin.role), pin.indexInRole}).second)
            problems.push_back({where, "this task is pinned twice"});
    }
    if (!problems.empty())
        return problems;
    return Ok{};
}

void applyTaskPins(Placer &placer, const Cluster &cluster, const std::vector<TaskPin> &pins)
{
    for (const TaskPin &pin : pins)
        for (std::size_t n = 0; n < cluster.nodes.size(); ++n)
            if (cluster.nodes[n].id == pin.node)
                placer.pinTask(pin.jobId, pin.role, pin.indexInRole, int(n));
}

} // namespace cb
