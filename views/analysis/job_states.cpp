#include "analysis/job_states.h"

#include "analysis/sts_session.h"

#include "io/export/slurm_names.h"
#include "io/policy_json.h"
#include "runs/wait_explanation.h"
#include "models/quantity_format.h"

#include <QObject>

#include <algorithm>
#include <limits>
#include <set>

namespace cb::views {

namespace {

bool carries(const Node &n, const std::map<std::string, std::string> &selector)
{
    for (const auto &[k, v] : selector) {
        const auto it = n.labels.find(k);
        if (it == n.labels.end() || it->second != v)
            return false;
    }
    return true;
}

std::set<std::string> nodesOf(const JobPlacement &p)
{
    std::set<std::string> nodes;
    for (const TaskAssignment &a : p.tasks)
        nodes.insert(a.node);
    return nodes;
}

QString hostlistOf(const JobPlacement &p)
{
    const std::set<std::string> nodes = nodesOf(p);
    return QString::fromStdString(SlurmNames::hostlist({nodes.begin(), nodes.end()}));
}

/// The session's placement policy, resolved as the run service resolves it (nullopt for a
/// stochastic policy or an unknown name).
std::optional<Policy> sessionPolicy(const RunSession &session)
{
    if (session.family != SchedulerFamily::Placement)
        return std::nullopt;
    auto presets = userPresets(session.scenario, "");
    if (!presets)
        return std::nullopt;
    auto p = resolvePolicy(session.policy, presets.value());
    return p ? std::optional<Policy>(p.value()) : std::nullopt;
}

/// Why a job waits on the cluster as `running` leaves it, grouped over the nodes ("worker-1:
/// 1,020 nodes: needs 4 free GPUs, 2 of 4 free; 4 nodes: ..."); empty when it would fit
/// (it waits for its turn) or the policy is not a placement policy.
QString groupedReason(const RunSession &session, const std::optional<Policy> &policy,
                      const std::vector<RunningJob> &running, const std::string &id)
{
    if (!policy)
        return {};
    WaitOptions o;
    o.fixes = false;
    const WaitExplanation w = explainWait(session.scenario, *policy, session.seed, running, id, o);
    if (w.fits || w.reasons.empty())
        return {};
    std::string s = w.status();
    if (s.rfind("waits: ", 0) == 0)
        s = s.substr(7);
    return QString::fromStdString(s);
}

/// The placer's last word on a job that waits: its job event, else its failed decision.
QString waitingReason(const RunSession &session, const std::string &id)
{
    for (auto it = session.log.events.rbegin(); it != session.log.events.rend(); ++it)
        if (it->jobId == id)
            return QString::fromStdString(it->what);
    for (auto it = session.log.decisions.rbegin(); it != session.log.decisions.rend(); ++it)
        if (it->jobId == id && it->pick < 0)
            return QString::fromStdString(it->why);
    return QObject::tr("no node had room when it was placed");
}

/// A stochastic run's job as its decision log last left it waiting, at or before `time`
/// ("no configuration fits the free GPUs"), or empty.
QString stochasticWaitReason(const RunSession &session, const std::string &id, double time)
{
    if (!session.sts)
        return {};
    // Back from the last event at or before `time` (the log is in time order): a waiting job
    // is taken again at every event, so the search ends at once.
    const auto &events = session.sts->log.events();
    const auto after = std::upper_bound(
        events.begin(), events.end(), time,
        [](double t, const StsEventRecord &e) { return t < e.time; });
    for (auto e = std::make_reverse_iterator(after); e != events.rend(); ++e) {
        for (const StsJobDecision &d : e->jobs)
            if (d.job == id)
                return d.chosen.empty() ? QString::fromStdString(d.reason) : QString();
    }
    return {};
}

/// "K80 x2" for a stochastic run's segment, else empty.
QString configurationOf(const JobSegment &segment)
{
    return segment.config ? QString::fromStdString(segment.config->toString()) : QString();
}

} // namespace

QString unschedulableReason(const Job &job, const Cluster &cluster)
{
    for (const TaskGroup &g : job.tasks) {
        bool fits = false;
        int mostGpus = 0;
        double mostCpus = 0, mostMemory = 0;
        bool typed = false, selected = false;
        for (const Node &n : cluster.nodes) {
            if (g.gpus > 0 && !g.gpuType.empty() && n.gpuType != g.gpuType)
                continue;
            typed = true;
            if (!carries(n, g.nodeSelector))
                continue;
            selected = true;
            mostGpus = std::max(mostGpus, n.gpus);
            mostCpus = std::max(mostCpus, n.cpus);
            mostMemory = std::max(mostMemory, n.memoryGiB);
            fits = fits || (n.gpus >= g.gpus && n.cpus + 1e-9 >= g.cpus &&
                            n.memoryGiB + 1e-9 >= g.memoryGiB);
        }
        if (fits)
            continue;
        const QString role = QLatin1String(toString(g.role));
        if (!typed)
            return QObject::tr("a %1 needs %2 GPUs, no node has that type")
                .arg(role, QString::fromStdString(g.gpuType));
        if (!selected)
            return QObject::tr("a %1 needs a node labelled as its selector asks; none is").arg(role);
        if (mostGpus < g.gpus)
            return QObject::tr("a %1 needs %2 GPUs, the largest node has %3")
                .arg(role)
                .arg(g.gpus)
                .arg(mostGpus);
        if (mostCpus + 1e-9 < g.cpus)
            return QObject::tr("a %1 needs %2 CPUs, the largest node has %3")
                .arg(role, formatNumber(g.cpus), formatNumber(mostCpus));
        if (mostMemory + 1e-9 < g.memoryGiB)
            return QObject::tr("a %1 needs %2 GiB, the largest node has %3 GiB")
                .arg(role, formatNumber(g.memoryGiB), formatNumber(mostMemory));
        return QObject::tr("no node holds a %1's GPUs, CPUs and memory at once").arg(role);
    }
    return {};
}

std::map<std::string, JobState> jobStates(const RunSession &session)
{
    std::map<std::string, JobState> out;
    const Scenario &s = session.scenario;
    using K = JobState::Kind;
    if (session.result) {
        std::map<std::string, const JobRun *> runs;
        for (const JobRun &r : session.result->jobs)
            runs[r.id] = &r;
        for (const Job &job : s.jobs) {
            JobState st;
            const auto it = runs.find(job.id);
            const JobRun *r = it == runs.end() ? nullptr : it->second;
            if (r && r->finishSeconds) {
                QString what = QObject::tr("JCT %1, waited %2")
                                   .arg(formatDuration(r->jctSeconds().value_or(0)),
                                        formatDuration(r->queueDelaySeconds().value_or(0)));
                // How often a stochastic job changed configuration or nodes; a placement
                // job's attempts (the killed ones and the one that finished).
                if (session.sts && r->reconfigurations == 1)
                    what += QObject::tr(", reconfigured once");
                else if (session.sts && r->reconfigurations > 1)
                    what += QObject::tr(", reconfigured %1 times").arg(r->reconfigurations);
                else if (!session.sts && r->attempts > 1)
                    what += QObject::tr(", %n attempts", nullptr, r->attempts);
                // Deployed, such a job is ended at its limit (the simulation lets it finish).
                if (ranPastTimeLimit(job, *r))
                    what += QObject::tr(", past its time limit of %1")
                                .arg(formatDuration(*job.timeLimitSeconds));
                st = {K::Finished, QObject::tr("finished"), what};
            } else if (r && r->startSeconds) {
                QString where = hostlistOf(r->placement);
                if (!r->segments.empty() && r->segments.back().config)
                    where += QStringLiteral(" (%1)").arg(configurationOf(r->segments.back()));
                st = {K::RunningAtEnd, QObject::tr("running at the end"),
                      QObject::tr("started at %1, at the end on %2")
                          .arg(formatDuration(r->firstStartSeconds.value_or(*r->startSeconds)),
                               where)};
            } else if (session.sts) {
                // The scheduler's own word: the scenario's task shapes are not what it placed.
                const QString why = stochasticWaitReason(
                    session, job.id, std::numeric_limits<double>::infinity());
                st = {K::Waiting, QObject::tr("never started"),
                      why.isEmpty() ? QObject::tr("no configuration chosen until the run ended")
                                    : why};
            } else if (const QString why = unschedulableReason(job, s.cluster); !why.isEmpty()) {
                st = {K::Unschedulable, QObject::tr("unschedulable"), why};
            } else {
                st = {K::Waiting, QObject::tr("never started"),
                      QObject::tr("no room for it until the run ended")};
            }
            out[job.id] = st;
        }
        return out;
    }
    const std::set<std::string> waiting(session.placement.waiting.begin(),
                                        session.placement.waiting.end());
    const std::optional<Policy> policy = sessionPolicy(session);
    const std::vector<RunningJob> running = runningAfterPlacement(session.placement);
    for (const Job &job : s.jobs) {
        JobState st;
        const JobPlacement *p = session.placement.job(job.id);
        if (const QString why = unschedulableReason(job, s.cluster); !why.isEmpty())
            st = {K::Unschedulable, QObject::tr("unschedulable"), why};
        else if (waiting.count(job.id)) {
            // The reasons on the cluster as the placement left it, else the placer's word.
            const QString grouped = groupedReason(session, policy, running, job.id);
            st = {K::Waiting, QObject::tr("waiting"),
                  grouped.isEmpty() ? waitingReason(session, job.id) : grouped};
        }
        else if (p)
            st = {K::Placed, QObject::tr("placed"), QObject::tr("on %1").arg(hostlistOf(*p))};
        else
            st = {K::Waiting, QObject::tr("waiting"), waitingReason(session, job.id)};
        out[job.id] = st;
    }
    return out;
}

std::vector<QueuedJob> jobsAt(const RunSession &session, double time)
{
    std::vector<QueuedJob> running, pending;
    const Scenario &s = session.scenario;
    std::map<std::string, int> index;
    for (std::size_t j = 0; j < s.jobs.size(); ++j)
        index[s.jobs[j].id] = int(j);
    if (session.result) {
        // Pending jobs say why: on the cluster as it is at `time`, or as a stochastic scheduler
        // last logged it (the first kMaxExplained in submit order; the others "Resources", so
        // that scrubbing stays quick).
        constexpr int kMaxExplained = 32;
        int explained = 0;
        const std::optional<Policy> policy = sessionPolicy(session);
        std::vector<RunningJob> runningNow;
        if (policy)
            runningNow = runningAt(*session.result, time);
        for (const JobRun &r : session.result->jobs) {
            const auto it = index.find(r.id);
            if (it == index.end() || r.submitSeconds > time)
                continue;
            QueuedJob q;
            q.job = it->second;
            const bool done = r.finishSeconds && *r.finishSeconds <= time;
            if (done)
                continue;
            // Runs with segments (every run made since they were recorded): the segment at
            // `time`, so that a job shows the nodes (and configuration) it ran on then.
            const JobSegment *segment = r.segmentAt(time);
            const bool segmented = !r.segments.empty();
            const bool ranBefore = segmented && r.segments.front().startSeconds <= time;
            const bool started =
                segmented ? segment != nullptr : r.startSeconds && *r.startSeconds <= time;
            if (started) {
                const JobPlacement &p = segment ? segment->placement : r.placement;
                q.running = true;
                if (!segment)
                    q.seconds = time - *r.startSeconds;
                else if (session.sts) // paused and reconfigured, progress kept: all of it
                    for (const JobSegment &g : r.segments)
                        q.seconds += std::max(0.0, std::min(g.endSeconds.value_or(time), time) -
                                                       std::min(g.startSeconds, time));
                else // a killed attempt's progress is lost: since this attempt
                    q.seconds = time - segment->startSeconds;
                q.nodes = hostlistOf(p);
                q.nodeCount = int(nodesOf(p).size());
                if (segment)
                    q.configuration = configurationOf(*segment);
                running.push_back(q);
            } else {
                q.seconds = time - r.submitSeconds;
                if (ranBefore) {
                    q.reason = session.sts
                                   ? QObject::tr("Preempted: paused by %1, progress kept")
                                         .arg(QString::fromStdString(session.sts->method))
                                   : QObject::tr("Requeued: its attempt was stopped");
                } else {
                    // A stochastic scheduler's logged word, else why the placer's policy
                    // finds no room; unschedulable whatever the cluster holds.
                    const QString why =
                        session.sts ? QString()
                                    : unschedulableReason(s.jobs[std::size_t(q.job)], s.cluster);
                    QString grouped;
                    if (why.isEmpty() && explained < kMaxExplained &&
                        (session.sts || policy)) {
                        ++explained;
                        grouped = session.sts ? stochasticWaitReason(session, r.id, time)
                                              : groupedReason(session, policy, runningNow, r.id);
                    }
                    q.reason = !why.isEmpty() ? QObject::tr("Unschedulable: %1").arg(why)
                               : grouped.isEmpty() ? QObject::tr("Resources")
                                                   : QObject::tr("Resources: %1").arg(grouped);
                }
                pending.push_back(q);
            }
        }
    } else {
        const std::set<std::string> waiting(session.placement.waiting.begin(),
                                            session.placement.waiting.end());
        for (std::size_t j = 0; j < s.jobs.size(); ++j) {
            const Job &job = s.jobs[j];
            QueuedJob q;
            q.job = int(j);
            const JobPlacement *p = session.placement.job(job.id);
            if (p && !waiting.count(job.id)) {
                q.running = true;
                q.nodes = hostlistOf(*p);
                q.nodeCount = int(nodesOf(*p).size());
                running.push_back(q);
            } else {
                const QString why = unschedulableReason(job, s.cluster);
                q.reason = why.isEmpty() ? waitingReason(session, job.id)
                                         : QObject::tr("Unschedulable: %1").arg(why);
                pending.push_back(q);
            }
        }
    }
    auto bySubmit = [&s](const QueuedJob &a, const QueuedJob &b) {
        const double sa = s.jobs[std::size_t(a.job)].submitSeconds,
                     sb = s.jobs[std::size_t(b.job)].submitSeconds;
        return sa != sb ? sa < sb : a.job < b.job;
    };
    std::stable_sort(running.begin(), running.end(), bySubmit);
    std::stable_sort(pending.begin(), pending.end(), bySubmit);
    running.insert(running.end(), pending.begin(), pending.end());
    return running;
}

} // namespace cb::views
