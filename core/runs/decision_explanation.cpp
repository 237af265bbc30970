#include "runs/decision_explanation.h"

#include "sched/traffic.h"
#include "util/count_text.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

namespace cb {

namespace {

/// The job's tasks bound just before `decision` (the earlier consecutive decisions of the
/// same job that found a node).
std::vector<TaskAssignment> tasksBefore(const DecisionLog &log, int decision)
{
    const Decision &d = log.decisions[std::size_t(decision)];
    std::vector<TaskAssignment> out;
    for (int i = decision - 1; i >= 0; --i) {
        const Decision &e = log.decisions[std::size_t(i)];
        if (e.jobId != d.jobId)
            break;
        if (e.pick < 0)
            continue;
        TaskAssignment a;
        a.role = e.role;
        a.group = e.group;
        a.indexInRole = e.indexInRole;
        a.node = log.nodeNames[std::size_t(e.pick)];
        out.insert(out.begin(), a);
    }
    return out;
}

std::pair<double, double> jobBytes(const Scenario &scenario, const Topology &topology,
                                   const Job &job, std::vector<TaskAssignment> tasks)
{
    Placement p;
    JobPlacement jp;
    jp.jobId = job.id;
    jp.tasks = std::move(tasks);
    std::stable_sort(jp.tasks.begin(), jp.tasks.end(),
                     [](const TaskAssignment &a, const TaskAssignment &b) {
                         return std::make_pair(a.group, a.indexInRole) <
                                std::make_pair(b.group, b.indexInRole);
                     });
    p.jobs.push_back(std::move(jp));
    const TrafficReport r =
        computeTraffic({job}, scenario.cluster, topology, p, scenario.settings.allreduce);
    return {r.crossNodeBytes, r.intraNodeBytes};
}

const char *kindText(JobKind k)
{
    switch (k) {
    case JobKind::ParameterServer: return "parameter-server";
    case JobKind::AllReduce: return "all-reduce";
    case JobKind::Single: return "single-task";
    }
    return "";
}

std::string nodesText(int n) { return groupedCount(n) + (n == 1 ? " node" : " nodes"); }

} // namespace

std::string bytesText(double bytes)
{
    if (bytes <= 0)
        return "0 B";
    const char *units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (bytes >= 1000 && u < 5) {
        bytes /= 1000;
        ++u;
    }
    return (u == 0 ? wholeOrNumberText(std::round(bytes)) : groupedFixed(bytes, 1)) + " " +
           units[u];
}

DecisionTraffic decisionTraffic(const Scenario &scenario, const Topology &topology,
                                const DecisionLog &log, int decision, int other)
{
    DecisionTraffic t;
    if (decision < 0 || decision >= int(log.decisions.size()))
        return t;
    const Decision &d = log.decisions[std::size_t(decision)];
    const Job *job = scenario.job(d.jobId);
    if (!job)
        return t;
    std::vector<TaskAssignment> tasks = tasksBefore(log, decision);
    t.crossBefore = jobBytes(scenario, topology, *job, tasks).first;
    TaskAssignment self;
    self.role = d.role;
    self.group = d.group;
    self.indexInRole = d.indexInRole;
    if (d.pick >= 0) {
        self.node = log.nodeNames[std::size_t(d.pick)];
        tasks.push_back(self);
        std::tie(t.crossAfter, t.intraAfter) = jobBytes(scenario, topology, *job, tasks);
        tasks.pop_back();
    } else {
        t.crossAfter = t.crossBefore;
    }
    if (other >= 0 && other != d.pick && other < int(log.nodeNames.size())) {
        self.node = log.nodeNames[std::size_t(other)];
        tasks.push_back(self);
        std::tie(t.crossIfOther, t.intraIfOther) = jobBytes(scenario, topology, *job, tasks);
        t.hasOther = true;
    }
    return t;
}

std::string narrateDecision(const Scenario &scenario, const Topology &topology,
                            const DecisionLog &log, int decision, int versus)
{
    if (decision < 0 || decision >= int(log.decisions.size()))
        return {};
    const Decision &d = log.decisions[std::size_t(decision)];
    const Job *job = scenario.job(d.jobId);
    const auto name = [&](int n) { return log.nodeNames[std::size_t(n)]; };
    std::ostringstream s;
    s << "Decision " << decision + 1 << " places " << d.task() << " of job " << d.jobId;
    if (job)
        s << " (" << kindText(job->kind) << ")";
    s << ". ";
    const int nodes = int(log.nodeNames.size());
    const auto groups = filterGroups(log, d);
    int ruledOut = 0;
    for (const auto &g : groups)
        ruledOut += g.second;
    if (ruledOut > 0) {
        s << (ruledOut == nodes ? "All " : "") << groupedCount(ruledOut)
          << (ruledOut == nodes ? "" : " of " + groupedCount(nodes)) << " nodes "
          << (ruledOut == 1 && ruledOut != nodes ? "was" : "were") << " ruled out: ";
        for (std::size_t i = 0; i < groups.size() && i < 3; ++i) {
            s << (i ? "; " : "") << nodesText(groups[i].second) << " because "
              << (groups[i].first.starts_with("needs ") ? "the task " : "") << groups[i].first;
        }
        if (groups.size() > 3)
            s << "; and " << groups.size() - 3 << " other reasons";
        s << ". ";
    } else {
        s << "Every node could take it. ";
    }
    if (d.pick < 0) {
        s << "With no node left, the task cannot be placed and the job waits";
        if (job)
            s << " (" << d.task() << " asks for " << wholeOrNumberText(job->tasks[std::size_t(d.group)].cpus)
              << " CPUs, " << wholeOrNumberText(job->tasks[std::size_t(d.group)].memoryGiB)
              << " GiB and " << job->tasks[std::size_t(d.group)].gpus << " GPUs)";
        s << ".";
        return s.str();
    }
    const CandidateRow *pr = d.row(d.pick);
    const int nextBest = defaultContrastNode(log, decision);
    const bool chosen = versus >= 0 && versus != d.pick && d.row(versus);
    const int other = chosen ? versus : nextBest;
    auto contrast = other >= 0 ? contrastDecision(log, decision, other) : Result<Contrast>::failure("", "");
    if (d.omitted.scored > 0 && (!contrast || contrast->otherFiltered || !contrast->otherHasRow)) {
        // A log that keeps the best rows only: the nodes that could take it and have no row.
        const OmittedRows &o = d.omitted;
        s << name(d.pick) << " won with a total of " << wholeOrNumberText(pr ? pr->total : 0);
        if (o.tied > 0)
            s << ", tied with " << nodesText(o.tied) << " the log kept no row for (the policy's "
              << "tie-break chose it)";
        s << "; the log keeps the best rows only: " << nodesText(o.scored)
          << " that could take it scored " << wholeOrNumberText(o.minTotal);
        if (o.maxTotal != o.minTotal)
            s << " to " << wholeOrNumberText(o.maxTotal);
        s << ".";
    } else if (!contrast || contrast->otherFiltered || !contrast->otherHasRow) {
        s << name(d.pick) << " was the only node left (total "
          << wholeOrNumberText(pr ? pr->total : 0) << ").";
    } else if (contrast->tied()) {
        s << name(d.pick) << " and " << name(other) << " tied at "
          << wholeOrNumberText(contrast->pickTotal) << " ("
          << (d.tied.size() + std::size_t(d.omitted.tied)) << " nodes in all); the policy's "
          << "tie-break chose " << name(d.pick) << ".";
    } else {
        const Contrast &c = contrast.value();
        s << name(d.pick) << " won with a total of " << wholeOrNumberText(c.pickTotal)
          << " against " << wholeOrNumberText(c.otherTotal) << " on " << name(other);
        if (other == nextBest)
            s << ", the next best";
        if (c.deciding >= 0) {
            const PluginDifference &p = c.plugins[std::size_t(c.deciding)];
            s << "; " << p.name << " decided it: " << wholeOrNumberText(p.rawPick) << " against "
              << wholeOrNumberText(p.rawOther) << " at weight " << numberText(p.weight) << " is +"
              << numberText(p.weightedDifference()) << " of the "
              << numberText(c.margin()) << "-point lead";
            if (c.decisive())
                s << " (without it " << name(other) << " would have won)";
        }
        s << ".";
    }
    const DecisionTraffic t = decisionTraffic(scenario, topology, log, decision, other);
    if (t.crossAfter != t.crossBefore || t.intraAfter > 0 || (t.hasOther && t.crossIfOther != t.crossAfter)) {
        if (t.crossAfter != t.crossBefore)
            s << " The job's cross-node traffic goes from " << bytesText(t.crossBefore) << " to "
              << bytesText(t.crossAfter) << " per iteration";
        else // (it had read "goes from 0 B to 0 B")
            s << " The job's cross-node traffic stays at " << bytesText(t.crossAfter)
              << " per iteration";
        if (t.hasOther && t.crossIfOther != t.crossAfter)
            s << " (on " << name(other) << " it would have been " << bytesText(t.crossIfOther)
              << ")";
        s << ".";
    } else if (job && job->kind != JobKind::Single) {
        s << " The choice does not change the job's traffic yet.";
    }
    if (chosen) {
        if (contrast && !contrast->flips.empty())
            s << " " << describeFlip(log, contrast->flips.front()) << ".";
    } else {
        const DecisionFlips flips = weightFlips(log, decision);
        if (const WeightFlip *f = flips.smallest())
            s << " " << describeFlip(log, *f) << ".";
    }
    std::string text = s.str();
    if (text.size() > 4 && text.compare(text.size() - 2, 2, "..") == 0)
        text.pop_back();
    // Capitalise the first letter of the flip sentence.
    const std::string marker = ". the pick";
    if (auto at = text.find(marker); at != std::string::npos)
        text[at + 2] = 'T';
    return text;
}

} // namespace cb
