#include "runs/wait_explanation.h"

#include "model/validation.h"

#include "net/topology.h"
#include "sched/decision_contrast.h"
#include "sched/placer.h"
#include "util/count_text.h"
#include "util/text.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace cb {

const char *toString(WaitFix::Kind kind)
{
    switch (kind) {
    case WaitFix::Kind::EndJobs: return "end-jobs";
    case WaitFix::Kind::RelaxGpuType: return "relax-gpu-type";
    case WaitFix::Kind::RelaxSelector: return "relax-selector";
    case WaitFix::Kind::RelaxGang: return "relax-gang";
    case WaitFix::Kind::AddNodes: return "add-nodes";
    case WaitFix::Kind::FewerReplicas: return "fewer-replicas";
    case WaitFix::Kind::FewerGpus: return "fewer-gpus";
    }
    return "?";
}

std::vector<RunningJob> runningAfterPlacement(const Placement &placement)
{
    std::vector<RunningJob> out;
    for (const JobPlacement &jp : placement.jobs)
        out.push_back({jp.jobId, jp, std::nullopt});
    return out;
}

std::vector<RunningJob> runningAt(const RunResult &run, double t)
{
    std::vector<RunningJob> out;
    for (const JobRun &j : run.jobs)
        for (const JobSegment &seg : j.segments)
            if (seg.startSeconds <= t && (!seg.endSeconds || *seg.endSeconds > t) &&
                !seg.placement.tasks.empty()) {
                RunningJob r{j.id, seg.placement, std::nullopt};
                if (j.finishSeconds)
                    r.remainingSeconds = *j.finishSeconds - t;
                out.push_back(std::move(r));
                break;
            }
    return out;
}

std::vector<std::string> waitingAt(const Scenario &scenario, const RunResult &run, double t)
{
    std::set<std::string> running;
    for (const RunningJob &r : runningAt(run, t))
        running.insert(r.jobId);
    std::unordered_map<std::string, const JobRun *> byId;
    for (const JobRun &j : run.jobs)
        byId.emplace(j.id, &j);
    std::vector<std::string> out;
    for (const Job &j : scenario.jobs) {
        if (j.submitSeconds > t || running.count(j.id))
            continue;
        auto it = byId.find(j.id);
        if (it != byId.end() && it->second->finishSeconds && *it->second->finishSeconds <= t)
            continue;
        out.push_back(j.id);
    }
    return out;
}

std::optional<JobPlacement> placeOnState(const Cluster &cluster, const std::vector<Job> &jobs,
                                         const Policy &policy, std::uint64_t seed,
                                         const std::vector<RunningJob> &running, const Job &job,
                                         bool requireAll)
{
    const Topology topo(cluster);
    Placer placer(cluster, topo, policy, seed);
    std::unordered_map<std::string, const Job *> byId;
    for (const Job &j : jobs)
        byId.emplace(j.id, &j);
    for (const RunningJob &r : running)
        if (auto it = byId.find(r.jobId); it != byId.end())
            placer.bindPlacement(*it->second, r.placement);
    const Placement p = placer.place(std::vector<const Job *>{&job});
    if (p.jobs.empty())
        return std::nullopt;
    if (requireAll && p.jobs.front().pendingTasks > 0)
        return std::nullopt;
    return p.jobs.front();
}

Cluster withNodeCopies(const Cluster &cluster, std::size_t templateNode, int n)
{
    Cluster out = cluster;
    const Node &t = cluster.nodes[templateNode];
    std::set<std::string> ids;
    for (const Node &node : cluster.nodes)
        ids.insert(node.id);
    for (const Switch &s : cluster.switches)
        ids.insert(s.id);
    int k = 0;
    for (int i = 0; i < n; ++i) {
        std::string id;
        do
            id = t.id + "-new-" + std::to_string(++k);
        while (ids.count(id));
        ids.insert(id);
        Node copy = t;
        copy.id = id;
        if (auto it = copy.labels.find("kubernetes.io/hostname"); it != copy.labels.end())
            it->second = id;
        out.nodes.push_back(copy);
        for (const Link &l : cluster.links) {
            if (l.a != t.id && l.b != t.id)
                continue;
            Link c = l;
            if (c.a == t.id)
                c.a = id;
            if (c.b == t.id)
                c.b = id;
            out.links.push_back(c);
        }
    }
    return out;
}

namespace {

std::string secondsText(double s)
{
    return groupedCount((long long)(s + 0.5)) + " s";
}

/// Whether node `n` could ever hold a task of group `g` (GPU count, type, labels).
bool staticallyEligible(const Node &n, const TaskGroup &g)
{
    if (n.gpus < g.gpus)
        return false;
    if (g.gpus > 0 && !g.gpuType.empty() && n.gpuType != g.gpuType)
        return false;
    for (const auto &[k, v] : g.nodeSelector) {
        auto it = n.labels.find(k);
        if (it == n.labels.end() || it->second != v)
            return false;
    }
    return true;
}

struct Search
{
    const Scenario &s;
    const Policy &policy;
    std::uint64_t seed;
    const std::vector<RunningJob> &running;
    const Job &job;

    std::optional<JobPlacement> fits(const std::vector<RunningJob> &state, const Job &j) const
    {
        return placeOnState(s.cluster, s.jobs, policy, seed, state, j);
    }
    std::optional<JobPlacement> fitsWithout(const std::vector<std::size_t> &ended) const
    {
        std::vector<RunningJob> state;
        for (std::size_t i = 0; i < running.size(); ++i)
            if (std::find(ended.begin(), ended.end(), i) == ended.end())
                state.push_back(running[i]);
        return fits(state, job);
    }

    /// The fewest running jobs to end: candidates holding resources on nodes the job could
    /// use, the ones ending soonest (else freeing the most GPUs there) first; the shortest
    /// prefix of that order that lets the job fit (binary search), then every job whose
    /// ending is not needed dropped, until each one left is needed.
    std::optional<WaitFix> endJobs() const
    {
        std::unordered_map<std::string, const Job *> byId;
        for (const Job &j : s.jobs)
            byId.emplace(j.id, &j);
        std::vector<std::uint8_t> useful(s.cluster.nodes.size(), 0);
        for (std::size_t n = 0; n < s.cluster.nodes.size(); ++n)
            for (const TaskGroup &g : job.tasks)
                useful[n] = useful[n] || staticallyEligible(s.cluster.nodes[n], g);
        struct Candidate { std::size_t index; double gpus; double remaining; };
        std::vector<Candidate> cands;
        for (std::size_t i = 0; i < running.size(); ++i) {
            const RunningJob &r = running[i];
            auto it = byId.find(r.jobId);
            if (it == byId.end())
                continue;
            double gpus = 0;
            bool onUseful = false;
            for (const TaskAssignment &a : r.placement.tasks) {
                const auto n = s.cluster.nodeIndex(a.node);
                if (!n || !useful[*n])
                    continue;
                onUseful = true;
                const TaskGroup &g = it->second->tasks[std::size_t(a.group)];
                gpus += g.gpus * std::min(1.0, g.gpuFraction);
            }
            if (onUseful)
                cands.push_back({i, gpus, r.remainingSeconds.value_or(-1)});
        }
        if (cands.empty())
            return std::nullopt;
        std::stable_sort(cands.begin(), cands.end(), [](const Candidate &a, const Candidate &b) {
            const bool ta = a.remaining >= 0, tb = b.remaining >= 0;
            if (ta != tb)
                return ta;
            if (ta && a.remaining != b.remaining)
                return a.remaining < b.remaining;
            return a.gpus > b.gpus;
        });
        auto prefix = [&](std::size_t k) {
            std::vector<std::size_t> ended;
            for (std::size_t i = 0; i < k; ++i)
                ended.push_back(cands[i].index);
            return ended;
        };
        if (!fitsWithout(prefix(cands.size())))
            return std::nullopt;
        std::size_t lo = 1, hi = cands.size(); // fits(hi) holds
        while (lo < hi) {
            const std::size_t mid = (lo + hi) / 2;
            if (fitsWithout(prefix(mid)))
                hi = mid;
            else
                lo = mid + 1;
        }
        std::vector<std::size_t> ended = prefix(hi);
        // Drop the parts that are not needed, until every one left is.
        for (bool changed = true; changed;) {
            changed = false;
            for (std::size_t k = ended.size(); k-- > 0;) {
                std::vector<std::size_t> fewer;
                for (std::size_t i = 0; i < ended.size(); ++i)
                    if (i != k)
                        fewer.push_back(ended[i]);
                if (!fewer.empty() && fitsWithout(fewer)) {
                    ended = fewer;
                    changed = true;
                }
            }
        }
        std::sort(ended.begin(), ended.end());
        auto placed = fitsWithout(ended);
        if (!placed)
            return std::nullopt;
        WaitFix f;
        f.kind = WaitFix::Kind::EndJobs;
        f.placement = *placed;
        std::set<std::string> freed;
        std::string parts;
        for (std::size_t k = 0; k < ended.size(); ++k) {
            const RunningJob &r = running[ended[k]];
            f.endJobs.push_back(r.jobId);
            std::vector<std::string> nodes;
            for (const TaskAssignment &a : r.placement.tasks)
                if (std::find(nodes.begin(), nodes.end(), a.node) == nodes.end())
                    nodes.push_back(a.node);
            for (const std::string &n : nodes)
                freed.insert(n);
            std::string nodeList;
            for (std::size_t i = 0; i < nodes.size() && i < 3; ++i)
                nodeList += (i ? ", " : "") + nodes[i];
            if (nodes.size() > 3)
                nodeList += " and " + std::to_string(nodes.size() - 3) + " more";
            parts += (k == 0 ? "" : k + 1 == ended.size() ? " and " : ", ") + r.jobId + " (on " +
                     nodeList +
                     (r.remainingSeconds ? ", " + secondsText(*r.remainingSeconds) + " left" : "") +
                     ")";
        }
        f.freedNodes.assign(freed.begin(), freed.end());
        f.text = "end or preempt " + parts;
        return f;
    }

    void relax(std::vector<WaitFix> &out) const
    {
        for (std::size_t gi = 0; gi < job.tasks.size(); ++gi) {
            const TaskGroup &g = job.tasks[gi];
            const std::string who =
                job.tasks.size() > 1 ? std::string(" of the ") + toString(g.role) + " tasks" : "";
            if (g.gpus > 0 && !g.gpuType.empty()) {
                Job j = job;
                j.tasks[gi].gpuType.clear();
                if (auto p = fits(running, j)) {
                    WaitFix f;
                    f.kind = WaitFix::Kind::RelaxGpuType;
                    f.group = int(gi);
                    f.label = g.gpuType;
                    f.placement = *p;
                    f.text = "accept any GPU type" + who + " (not only " + g.gpuType + ")";
                    out.push_back(f);
                }
            }
            for (const auto &[k, v] : g.nodeSelector) {
                Job j = job;
                j.tasks[gi].nodeSelector.erase(k);
                if (auto p = fits(running, j)) {
                    WaitFix f;
                    f.kind = WaitFix::Kind::RelaxSelector;
                    f.group = int(gi);
                    f.label = k + "=" + v;
                    f.placement = *p;
                    f.text = "drop the node selector " + f.label + who;
                    out.push_back(f);
                }
            }
        }
        // (not for a job that can never start: the rest would wait for room that never comes)
        if (policy.gang && job.taskCount() > 1 && jobNeverStarts(s.cluster, job, {}).empty()) {
            Policy p = policy;
            p.gang = false;
            auto placed = placeOnState(s.cluster, s.jobs, p, seed, running, job, false);
            if (placed && !placed->tasks.empty()) {
                WaitFix f;
                f.kind = WaitFix::Kind::RelaxGang;
                f.placement = *placed;
                f.startedTasks = int(placed->tasks.size());
                f.text = "start without gang scheduling: " + std::to_string(f.startedTasks) +
                         " of " + std::to_string(job.taskCount()) +
                         " tasks now, the others when room frees up";
                out.push_back(f);
            }
        }
    }

    void addNodes(std::vector<WaitFix> &out, int maxKinds) const
    {
        // Kinds of node: the same resources and labels; the most common kind first.
        struct Kind { std::size_t first; int count; };
        std::vector<Kind> kinds;
        auto same = [](const Node &a, const Node &b) {
            return a.cpus == b.cpus && a.memoryGiB == b.memoryGiB && a.gpus == b.gpus &&
                   a.gpuType == b.gpuType && a.partition == b.partition;
        };
        for (std::size_t n = 0; n < s.cluster.nodes.size(); ++n) {
            const Node &node = s.cluster.nodes[n];
            bool eligible = false;
            for (const TaskGroup &g : job.tasks)
                eligible = eligible || staticallyEligible(node, g);
            if (!eligible)
                continue;
            auto it = std::find_if(kinds.begin(), kinds.end(), [&](const Kind &k) {
                return same(s.cluster.nodes[k.first], node);
            });
            if (it == kinds.end())
                kinds.push_back({n, 1});
            else
                ++it->count;
        }
        std::stable_sort(kinds.begin(), kinds.end(),
                         [](const Kind &a, const Kind &b) { return a.count > b.count; });
        const int most = job.taskCount();
        for (std::size_t k = 0; k < kinds.size() && int(k) < maxKinds; ++k) {
            const std::size_t t = kinds[k].first;
            auto fitsWith = [&](int n) {
                const Cluster c = withNodeCopies(s.cluster, t, n);
                return placeOnState(c, s.jobs, policy, seed, running, job);
            };
            if (!fitsWith(most))
                continue;
            int lo = 1, hi = most;
            while (lo < hi) {
                const int mid = (lo + hi) / 2;
                if (fitsWith(mid))
                    hi = mid;
                else
                    lo = mid + 1;
            }
            // Minimal: one node fewer must not do (the binary search assumes monotony).
            while (hi > 1 && fitsWith(hi - 1))
                --hi;
            const Node &node = s.cluster.nodes[t];
            WaitFix f;
            f.kind = WaitFix::Kind::AddNodes;
            f.nodeTemplate = node.id;
            f.addNodes = hi;
            f.placement = *fitsWith(hi);
            f.text = "add " + std::to_string(hi) + " node" + (hi > 1 ? "s" : "") + " like " +
                     node.id + " (" + wholeOrNumberText(node.cpus) + " CPUs, " +
                     wholeOrNumberText(node.memoryGiB) + " GiB, " + std::to_string(node.gpus) +
                     (node.gpuType.empty() ? "" : " x " + node.gpuType) + " GPUs)";
            out.push_back(f);
        }
    }

    void shrink(std::vector<WaitFix> &out) const
    {
        for (std::size_t gi = 0; gi < job.tasks.size(); ++gi) {
            const TaskGroup &g = job.tasks[gi];
            const char *role = toString(g.role);
            if (g.replicas > 1) {
                auto with = [&](int r) {
                    Job j = job;
                    j.tasks[gi].replicas = r;
                    return fits(running, j);
                };
                int lo = 0, hi = g.replicas - 1; // largest r in [1, replicas-1] that fits
                if (with(1)) {
                    lo = 1;
                    while (lo < hi) {
                        const int mid = (lo + hi + 1) / 2;
                        if (with(mid))
                            lo = mid;
                        else
                            hi = mid - 1;
                    }
                    while (lo + 1 < g.replicas && with(lo + 1))
                        ++lo;
                    WaitFix f;
                    f.kind = WaitFix::Kind::FewerReplicas;
                    f.group = int(gi);
                    f.value = lo;
                    f.placement = *with(lo);
                    f.text = "run " + std::to_string(lo) + " " + role + " task" +
                             (lo > 1 ? "s" : "") + " instead of " + std::to_string(g.replicas);
                    out.push_back(f);
                }
            }
            if (g.gpus > 1) {
                auto with = [&](int k) {
                    Job j = job;
                    j.tasks[gi].gpus = k;
                    return fits(running, j);
                };
                for (int k = g.gpus - 1; k >= 1; --k)
                    if (auto p = with(k)) {
                        WaitFix f;
                        f.kind = WaitFix::Kind::FewerGpus;
                        f.group = int(gi);
                        f.value = k;
                        f.placement = *p;
                        f.text = "give each " + std::string(role) + " task " + std::to_string(k) +
                                 " GPU" + (k > 1 ? "s" : "") + " instead of " +
                                 std::to_string(g.gpus);
                        out.push_back(f);
                        break;
                    }
            }
        }
    }
};

} // namespace

std::string WaitExplanation::status() const
{
    if (!known)
        return "unknown job";
    if (fits)
        return "fits now";
    std::string s = "waits";
    if (!failedTask.empty())
        s += ": " + failedTask;
    for (std::size_t i = 0; i < reasons.size() && i < 3; ++i)
        s += std::string(i == 0 ? ": " : "; ") + groupedCount(reasons[i].second) +
             (reasons[i].second == 1 ? " node: " : " nodes: ") + reasons[i].first;
    if (reasons.size() > 3)
        s += "; ...";
    return s;
}

WaitExplanation explainWait(const Scenario &scenario, const Policy &policy, std::uint64_t seed,
                            const std::vector<RunningJob> &running, const std::string &jobId,
                            const WaitOptions &options)
{
    WaitExplanation w;
    w.jobId = jobId;
    const Job *job = scenario.job(jobId);
    if (!job) {
        w.known = false;
        return w;
    }
    w.tasks = job->taskCount();
    // The job alone on the state, with a log of its decisions.
    {
        const Topology topo(scenario.cluster);
        Placer placer(scenario.cluster, topo, policy, seed);
        std::unordered_map<std::string, const Job *> byId;
        for (const Job &j : scenario.jobs)
            byId.emplace(j.id, &j);
        for (const RunningJob &r : running)
            if (auto it = byId.find(r.jobId); it != byId.end() && r.jobId != jobId)
                placer.bindPlacement(*it->second, r.placement);
        DecisionLog log;
        log.detail = LogDetail::topK(0);
        const Placement p = placer.place(std::vector<const Job *>{job}, &log);
        if (!p.jobs.empty() && p.jobs.front().pendingTasks == 0) {
            w.fits = true;
            return w;
        }
        for (const Decision &d : log.decisions) {
            if (d.pick >= 0) {
                ++w.placedBefore;
                continue;
            }
            w.failedTask = d.task();
            w.reasons = filterGroups(log, d);
            break;
        }
    }
    if (!options.fixes)
        return w;
    std::vector<RunningJob> others;
    for (const RunningJob &r : running)
        if (r.jobId != jobId)
            others.push_back(r);
    const Search search{scenario, policy, seed, others, *job};
    if (auto f = search.endJobs())
        w.fixes.push_back(*f);
    search.relax(w.fixes);
    search.addNodes(w.fixes, options.maxNodeKinds);
    search.shrink(w.fixes);
    return w;
}

} // namespace cb
