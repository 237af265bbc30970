// `clusterbench why`: why a job waits, and the smallest changes that would let it run now.

#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/policy_input.h"
#include "runs/run_service.h"
#include "runs/wait_explanation.h"
#include "util/count_text.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

std::string placementText(const JobPlacement &p)
{
    std::string s;
    for (std::size_t i = 0; i < p.tasks.size() && i < 6; ++i)
        s += (i ? " " : "") + std::string(toString(p.tasks[i].role)) + "-" +
             std::to_string(p.tasks[i].indexInRole) + "@" + p.tasks[i].node;
    if (p.tasks.size() > 6)
        s += " ... (" + std::to_string(p.tasks.size()) + " tasks)";
    return s;
}

Result<double> parseSeconds(const std::string &text)
{
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && v >= 0 && v < 1e15)
            return v;
    } catch (const std::exception &) {
    }
    return Result<double>::failure("--at", "expected seconds >= 0, found \"" + text + "\"");
}

} // namespace

Command whyCommand()
{
    Command c;
    c.name = "why";
    c.synopsis = "why SCENARIO JOB --policy P [--at SECONDS] [--seed S] [--policy-file F] "
                 "[--json]";
    c.summary = "Why a job waits, and the smallest changes that would let it run now";
    c.description =
        "Without --at: places the scenario's queue with the policy and, if JOB is among the "
        "jobs that wait, offers it again to the cluster as the placement left it (every placed "
        "job running). With --at: simulates the queue and takes the cluster at that time (the "
        "jobs running then, with the time they have left). Prints the task that found no node "
        "and the reasons grouped over the nodes, then the smallest changes that let the job "
        "run now, each checked by placing the job again on the changed cluster: the fewest "
        "running jobs to end or preempt (where they run, how long they have left); relaxing "
        "one constraint (the GPU type, one node-selector label, gang scheduling); the fewest "
        "nodes of one existing kind to add; shrinking the job (fewer replicas of a group, "
        "fewer GPUs per task). No part of a change can be dropped: without any of the ended "
        "jobs, one node fewer, or one replica or GPU more, the job does not fit.";
    c.options = policyInputOptions();
    c.options.push_back({"at", "SECONDS", "simulate and explain the wait at this time"});
    c.options.push_back({"json", "", "print the explanation as JSON"});
    c.run = [](const Args &args, Io &io) {
        // A simulated time as --at takes it, thousands grouped, and from a minute on as the
        // clock the other commands print: "20,070.3 s (5:34:30)".
        auto timeText = [](double seconds) {
            std::string text = groupedFixed(seconds, 1);
            if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0)
                text.resize(text.size() - 2);
            text += " s";
            if (seconds >= 60)
                text += " (" + clockText(seconds) + ")";
            return text;
        };
        auto input = readPlacementPolicyInput(args, io, "why", 2);
        if (!input)
            return int(ExitBadInput);
        const Scenario &s = input->scenario;
        const std::string jobId = args.positional()[1];
        const Job *job = s.job(jobId);
        if (!job) {
            io.err << "clusterbench why: no job \"" << jobId << "\" in the scenario\n";
            return int(ExitBadInput);
        }
        std::optional<double> at;
        if (args.has("at")) {
            auto t = parseSeconds(args.value("at"));
            if (!t) {
                io.err << "clusterbench why: " << t.error() << "\n";
                return int(ExitBadInput);
            }
            at = t.value();
        }
        RunRequest request;
        request.policy = input->policy.name;
        request.resolvedPolicy = input->policy;
        request.seed = input->seed;
        request.simulate = at.has_value();
        request.decisionLog = false;
        auto run = executeRun(s, request);
        if (!run) {
            io.err << "clusterbench why: " << run.error() << "\n";
            return int(ExitFailure);
        }
        std::vector<RunningJob> running;
        std::string notWaiting; // why the job does not wait, when it does not
        bool notSubmitted = false; // (then it is not in the queue yet: not said not to wait)
        if (at) {
            const RunResult &r = *run->result;
            running = runningAt(r, *at);
            for (const RunningJob &rj : running)
                if (rj.jobId == jobId)
                    notWaiting =
                        "runs at " + timeText(*at) + " (" + placementText(rj.placement) + ")";
            notSubmitted = job->submitSeconds > *at;
            if (notSubmitted)
                notWaiting = "is not submitted yet: its submit time is " +
                             timeText(job->submitSeconds) + ", after " + timeText(*at);
            for (const JobRun &jr : r.jobs)
                if (jr.id == jobId && jr.finishSeconds && *jr.finishSeconds <= *at)
                    notWaiting = "finished at " + timeText(*jr.finishSeconds);
        } else {
            running = runningAfterPlacement(run->placement);
            if (const JobPlacement *jp = run->placement.job(jobId); jp && jp->pendingTasks == 0)
                notWaiting = "is placed (" + placementText(*jp) + ")";
        }
        const std::string when =
            at ? "at " + timeText(*at) + " of the simulation" : "after the placement of the queue";
        WaitExplanation w;
        if (notWaiting.empty())
            w = explainWait(s, input->policy, input->seed, running, jobId);

        if (args.flag("json")) {
            nlohmann::ordered_json j;
            j["scenario"] = s.name;
            j["policy"] = input->policy.name;
            j["seed"] = input->seed;
            j["job"] = jobId;
            if (at)
                j["at"] = *at;
            j["running_jobs"] = running.size();
            if (!notWaiting.empty()) {
                j["waits"] = false;
                j["status"] = notWaiting;
                io.out << j.dump(2) << "\n";
                return int(ExitOk);
            }
            j["waits"] = !w.fits;
            j["status"] = w.status();
            j["failed_task"] = w.failedTask;
            j["placed_before"] = w.placedBefore;
            nlohmann::ordered_json reasons = nlohmann::ordered_json::array();
            for (const auto &[reason, nodes] : w.reasons)
                reasons.push_back({{"reason", reason}, {"nodes", nodes}});
            j["reasons"] = reasons;
            nlohmann::ordered_json fixes = nlohmann::ordered_json::array();
            for (const WaitFix &f : w.fixes) {
                nlohmann::ordered_json fj;
                fj["kind"] = toString(f.kind);
                fj["text"] = f.text;
                if (f.kind == WaitFix::Kind::EndJobs) {
                    fj["end_jobs"] = f.endJobs;
                    fj["freed_nodes"] = f.freedNodes;
                }
                if (f.group >= 0)
                    fj["group"] = f.group;
                if (!f.label.empty())
                    fj["constraint"] = f.label;
                if (f.kind == WaitFix::Kind::AddNodes) {
                    fj["like"] = f.nodeTemplate;
                    fj["nodes"] = f.addNodes;
                }
                if (f.kind == WaitFix::Kind::FewerReplicas || f.kind == WaitFix::Kind::FewerGpus)
                    fj["value"] = f.value;
                nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
                for (const TaskAssignment &a : f.placement.tasks)
                    tasks.push_back({{"task", std::string(toString(a.role)) + "-" +
                                                  std::to_string(a.indexInRole)},
                                     {"node", a.node}});
                fj["placement"] = tasks;
                fixes.push_back(fj);
            }
            j["fixes"] = fixes;
            io.out << j.dump(2) << "\n";
            return int(ExitOk);
        }

        std::ostream &out = io.out;
        const std::size_t width = outputColumns();
        out << wrapText("Job " + jobId + " (" + counted(job->taskCount(), "task") + ", " +
                            counted(job->gpuCount(), "GPU") + ") under " + input->policy.name +
                            " (seed " + std::to_string(input->seed) + "), " + when + ":",
                        width, 2)
            << "\n";
        if (!notWaiting.empty()) {
            out << "  "
                << wrapText((notSubmitted ? "it " : "it does not wait: it ") + notWaiting, width, 4,
                            2)
                << "\n";
            return int(ExitOk);
        }
        if (w.fits) {
            out << "  it fits on the free resources now (" << running.size()
                << " jobs running): it waits for its turn in the queue, not for room\n";
            return int(ExitOk);
        }
        std::string finds = w.failedTask + " finds no node";
        if (w.placedBefore > 0)
            finds += " after " + std::to_string(w.placedBefore) + " of its " +
                     std::to_string(w.tasks) + " tasks were placed (gang: they are rolled back)";
        finds += " (" + std::to_string(running.size()) + " jobs running):";
        out << "  " << wrapText(finds, width, 4, 2) << "\n";
        for (const auto &[reason, nodes] : w.reasons)
            out << "    " << padRight(groupedCount(nodes) + (nodes == 1 ? " node:" : " nodes:"), 14)
                << wrapText(reason, width, 18, 18) << "\n";
        out << "What would let it run now (each checked by placing the job again):\n";
        if (w.fixes.empty())
            out << "  nothing of one kind: no ending of running jobs, relaxed constraint, added "
                   "nodes of an existing kind or smaller shape fits it\n";
        for (std::size_t i = 0; i < w.fixes.size(); ++i) {
            const WaitFix &f = w.fixes[i];
            const std::string number = "  " + std::to_string(i + 1) + ". ";
            out << number << wrapText(f.text, width, number.size(), number.size())
                << "\n     -> " << wrapText(placementText(f.placement), width, 8, 8) << "\n";
        }
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
