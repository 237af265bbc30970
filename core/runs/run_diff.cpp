#include "runs/run_diff.h"
#include "runs/run_service.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace cb {

namespace {

using TaskKey = std::tuple<std::string, int, int, int>; // job, role, group, rank

TaskKey taskKey(const Decision &d)
{
    return {d.jobId, int(d.role), d.group, d.indexInRole};
}

/// The node name a decision picked, empty when it found none.
std::string pickName(const DecisionLog &log, const Decision &d)
{
    return d.pick >= 0 ? log.nodeNames[std::size_t(d.pick)] : std::string();
}

int logNodeIndex(const DecisionLog &log, const std::string &name)
{
    for (std::size_t i = 0; i < log.nodeNames.size(); ++i)
        if (log.nodeNames[i] == name)
            return int(i);
    return -1;
}

/// The contrast of `log`'s pick at `index` with the node the other run picked.
std::optional<Contrast> contrastWithOtherPick(const DecisionLog &log, int index,
                                              const std::string &otherPick)
{
    const Decision &d = log.decisions[std::size_t(index)];
    if (d.pick < 0 || otherPick.empty())
        return std::nullopt;
    const int other = logNodeIndex(log, otherPick);
    if (other < 0 || other == d.pick)
        return std::nullopt;
    auto c = contrastDecision(log, index, other);
    if (!c)
        return std::nullopt;
    return c.value();
}

/// Per job, the nodes of its tasks in task order.
std::map<std::string, const JobPlacement *> placedJobs(const StoredRunDetail &run)
{
    std::map<std::string, const JobPlacement *> out;
    if (run.result) {
        for (const JobRun &j : run.result->jobs)
            if (j.startSeconds)
                out[j.id] = &j.placement;
    } else {
        for (const JobPlacement &j : run.placement.jobs)
            out[j.jobId] = &j;
    }
    return out;
}

std::vector<std::string> taskNodes(const JobPlacement *p)
{
    std::vector<std::string> nodes;
    if (p)
        for (const TaskAssignment &t : p->tasks)
            nodes.push_back(t.node);
    return nodes;
}

int movedTasks(const JobPlacement *a, const JobPlacement *b)
{
    if (!a || !b)
        return int(std::max(a ? a->tasks.size() : 0, b ? b->tasks.size() : 0));
    std::map<std::pair<int, int>, std::string> nodeOf;
    for (const TaskAssignment &t : a->tasks)
        nodeOf[{int(t.role), t.indexInRole}] = t.node;
    int moved = 0;
    for (const TaskAssignment &t : b->tasks) {
        auto it = nodeOf.find({int(t.role), t.indexInRole});
        if (it == nodeOf.end() || it->second != t.node)
            ++moved;
        if (it != nodeOf.end())
            nodeOf.erase(it);
    }
    return moved + int(nodeOf.size());
}

bool sameTime(const std::optional<double> &a, const std::optional<double> &b)
{
    if (!a || !b)
        return a.has_value() == b.has_value();
    return std::abs(*a - *b) <= 1e-9 * std::max({1.0, std::abs(*a), std::abs(*b)});
}

/// A simulated run's jobs by id (one lookup per job: a trace has millions).
std::map<std::string, const JobRun *> jobRuns(const RunResult &r)
{
    std::map<std::string, const JobRun *> out;
    for (const JobRun &j : r.jobs)
        out.emplace(j.id, &j);
    return out;
}

void compareLogs(const DecisionLog &a, const DecisionLog &b, RunDiff &out)
{
    out.logs = true;
    out.decisionsA = int(a.decisions.size());
    out.decisionsB = int(b.decisions.size());
    const int n = std::min(out.decisionsA, out.decisionsB);
    int i = 0;
    while (i < n) {
        const Decision &da = a.decisions[std::size_t(i)];
        const Decision &db = b.decisions[std::size_t(i)];
        if (taskKey(da) != taskKey(db) || pickName(a, da) != pickName(b, db))
            break;
        ++i;
    }
    out.commonPrefix = i;
    if (i < n || out.decisionsA != out.decisionsB) {
        DecisionFork fork;
        fork.index = i;
        if (i < n) {
            const Decision &da = a.decisions[std::size_t(i)];
            const Decision &db = b.decisions[std::size_t(i)];
            fork.sameTask = taskKey(da) == taskKey(db);
            if (fork.sameTask) {
                fork.inA = contrastWithOtherPick(a, i, pickName(b, db));
                fork.inB = contrastWithOtherPick(b, i, pickName(a, da));
            }
        } else {
            fork.sameTask = false; // one log goes on where the other ends
        }
        out.fork = std::move(fork);
    }
    // The last decision of each task in each log (a gang retried in a later pass decides a
    // task again), compared by task.
    std::map<TaskKey, std::string> lastB;
    for (const Decision &d : b.decisions)
        lastB[taskKey(d)] = pickName(b, d);
    std::map<TaskKey, std::string> lastA;
    for (const Decision &d : a.decisions)
        lastA[taskKey(d)] = pickName(a, d);
    for (const auto &[key, pick] : lastA) {
        auto it = lastB.find(key);
        if (it == lastB.end())
            continue;
        ++out.tasksCompared;
        if (it->second != pick)
            ++out.tasksMoved;
    }
}

} // namespace

DecisionAlignment::DecisionAlignment(const DecisionLog &a, const DecisionLog &b)
    : m_decisionsA(int(a.decisions.size()))
    , m_decisionsB(int(b.decisions.size()))
{
    const int shorter = std::min(m_decisionsA, m_decisionsB);
    for (int i = 0; i < std::max(m_decisionsA, m_decisionsB); ++i) {
        if (i >= shorter) {
            m_differing.push_back(i);
            continue;
        }
        const Decision &da = a.decisions[std::size_t(i)];
        const Decision &db = b.decisions[std::size_t(i)];
        if (taskKey(da) != taskKey(db) || pickName(a, da) != pickName(b, db))
            m_differing.push_back(i);
    }
    std::map<TaskKey, std::vector<int>> inB; // ascending indices per task
    for (int i = 0; i < m_decisionsB; ++i)
        inB[taskKey(b.decisions[std::size_t(i)])].push_back(i);
    m_partner.assign(std::size_t(m_decisionsA), -1);
    for (int i = 0; i < m_decisionsA; ++i) {
        const auto it = inB.find(taskKey(a.decisions[std::size_t(i)]));
        if (it == inB.end())
            continue;
        const std::vector<int> &at = it->second;
        const auto after = std::lower_bound(at.begin(), at.end(), i);
        int best = after == at.end() ? at.back() : *after;
        if (after != at.begin() && (after == at.end() || i - *(after - 1) <= *after - i))
            best = *(after - 1);
        m_partner[std::size_t(i)] = best;
    }
}

bool DecisionAlignment::differs(int index) const
{
    return std::binary_search(m_differing.begin(), m_differing.end(), index);
}

int DecisionAlignment::nextDifference(int from) const
{
    const auto it = std::upper_bound(m_differing.begin(), m_differing.end(), from);
    return it == m_differing.end() ? -1 : *it;
}

int DecisionAlignment::previousDifference(int from) const
{
    const auto it = std::lower_bound(m_differing.begin(), m_differing.end(), from);
    return it == m_differing.begin() ? -1 : *(it - 1);
}

int DecisionAlignment::partnerOf(int indexA) const
{
    return indexA >= 0 && indexA < m_decisionsA ? m_partner[std::size_t(indexA)] : -1;
}

std::string compactNodeList(const std::vector<std::string> &nodes)
{
    if (nodes.empty())
        return "waits";
    std::string out;
    for (std::size_t i = 0; i < nodes.size();) {
        std::size_t j = i;
        while (j < nodes.size() && nodes[j] == nodes[i])
            ++j;
        out += (out.empty() ? "" : ", ") + nodes[i] +
               (j - i > 1 ? " x" + std::to_string(j - i) : std::string());
        i = j;
    }
    return out;
}

Result<RunDiff> diffRuns(const StoredRunDetail &a, const StoredRunDetail &b)
{
    const RunRecord &ra = a.record, &rb = b.record;
    if (ra.scenarioDigest != rb.scenarioDigest)
        return Result<RunDiff>::failure(
            "", "runs " + std::to_string(ra.id) + " and " + std::to_string(rb.id) +
                    " are of different scenarios (" + ra.scenarioName + " " +
                    ra.scenarioDigest.substr(0, 12) + ", " + rb.scenarioName + " " +
                    rb.scenarioDigest.substr(0, 12) +
                    "): diff aligns two runs of one scenario");
    RunDiff out;
    out.runA = ra.id;
    out.runB = rb.id;
    out.policyA = ra.policy;
    out.policyB = rb.policy;
    if (a.log && b.log)
        compareLogs(*a.log, *b.log, out);

    const auto placedA = placedJobs(a), placedB = placedJobs(b);
    // Times where a run was simulated; they tell the runs apart only when both were.
    const bool timed = a.result && b.result;
    const auto runsA = a.result ? jobRuns(*a.result) : std::map<std::string, const JobRun *>{};
    const auto runsB = b.result ? jobRuns(*b.result) : std::map<std::string, const JobRun *>{};
    for (const Job &job : a.scenario.jobs) {
        const auto ia = placedA.find(job.id), ib = placedB.find(job.id);
        const JobPlacement *pa = ia == placedA.end() ? nullptr : ia->second;
        const JobPlacement *pb = ib == placedB.end() ? nullptr : ib->second;
        ++out.jobsCompared;
        JobDifference d;
        d.jobId = job.id;
        d.nodesA = taskNodes(pa);
        d.nodesB = taskNodes(pb);
        d.tasksMoved = movedTasks(pa, pb);
        bool differs = d.tasksMoved > 0;
        {
            const auto ra = runsA.find(job.id), rb = runsB.find(job.id);
            const JobRun *ja = ra == runsA.end() ? nullptr : ra->second;
            const JobRun *jb = rb == runsB.end() ? nullptr : rb->second;
            // The first start: a stochastic job's later starts are reconfigurations, a
            // placement job's are attempts after a kill.
            if (ja) {
                d.startA = ja->firstStartSeconds ? ja->firstStartSeconds : ja->startSeconds;
                d.finishA = ja->finishSeconds;
            }
            if (jb) {
                d.startB = jb->firstStartSeconds ? jb->firstStartSeconds : jb->startSeconds;
                d.finishB = jb->finishSeconds;
            }
            if (timed)
                differs =
                    differs || !sameTime(d.startA, d.startB) || !sameTime(d.finishA, d.finishB);
        }
        if (differs)
            out.jobs.push_back(std::move(d));
    }
    if (timed) {
        // Where the runs part in time: the job that starts differently first.
        const auto first = [](const JobDifference &d) {
            const double inf = std::numeric_limits<double>::infinity();
            return std::min(d.startA.value_or(inf), d.startB.value_or(inf));
        };
        std::stable_sort(out.jobs.begin(), out.jobs.end(),
                         [&](const JobDifference &x, const JobDifference &y) {
                             return first(x) < first(y);
                         });
    }

    // A placement's traffic is per iteration; a simulated run names those figures
    // iteration_*, beside its whole run's: beside a simulated run, a placement's go in the
    // iteration_* rows (its 16 GB per iteration had been set against the other's 226 TB).
    const auto aligned = [](const RunRecord &r, const RunRecord &other) {
        return simulatedMetrics(other.metrics) ? perIterationNamed(r.metrics) : r.metrics;
    };
    std::map<std::string, MetricDifference> metrics;
    for (const auto &[name, v] : aligned(ra, rb))
        metrics[name].a = v;
    for (const auto &[name, v] : aligned(rb, ra))
        metrics[name].b = v;
    for (auto &[name, m] : metrics) {
        m.name = name;
        out.metrics.push_back(m);
    }
    return out;
}

} // namespace cb
