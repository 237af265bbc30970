#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/policy_input.h"
#include "cli/run_saving.h"
#include "cli/run_text.h"
#include "io/export/placement_json.h"
#include "io/policy_json.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "runs/run_service.h"
#include "sched/decision_log.h"
#include "sched/placer.h"
#include "sched/traffic.h"
#include "store/stored_run.h"
#include "util/count_text.h"
#include "util/terminal_text.h"
#include "util/text.h"
#include "util/text_table.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

/// Thousands grouped as compare and simulate group them ("16,078.3 MB").
std::string megabytes(double bytes)
{
    return groupedFixed(bytes / 1e6, 1) + " MB";
}

void printLog(const DecisionLog &log, std::ostream &out)
{
    for (const Decision &d : log.decisions) {
        out << "#" << d.index + 1 << " "
            << d.jobId // (numbered from 1, as the steppers) << "/" << d.task() << " -> "
            << (d.pick >= 0 ? log.nodeNames[std::size_t(d.pick)] : std::string("(none)")) << ": "
            << d.why << "\n";
        std::ostringstream header;
        header << "    " << padRight("node", 14);
        for (const std::string &p : log.pluginNames)
            header << padRight(p, std::max<std::size_t>(p.size() + 2, 8));
        out << header.str() << "total\n";
        for (const CandidateRow &r : d.rows) {
            out << "    " << padRight(log.nodeNames[std::size_t(r.node)], 14);
            if (!r.feasible()) {
                out << "filtered: " << log.reason(r) << "\n";
                continue;
            }
            for (std::size_t p = 0; p < log.pluginNames.size(); ++p) {
                std::ostringstream cell;
                cell << d.rawScore(r, p) << "x" << log.weights[p];
                out << padRight(cell.str(), std::max<std::size_t>(log.pluginNames[p].size() + 2, 8));
            }
            out << r.total << "\n";
        }
        if (const std::string more = log.omittedSummary(d, std::size_t(-1)); !more.empty())
            out << "    " << more << "\n";
    }
    for (const JobEvent &e : log.events)
        out << "event after #" << e.afterDecision << ": " << e.jobId << ": " << e.what << "\n";
}

/// A placement that placed no job answers nothing: said on stderr (with where to ask why),
/// and the command exits 1, as simulate does. (No jobs at all is not that.)
bool nonePlaced(const Placement &placement, const std::string &scenarioPath,
                const std::string &policy, Io &io)
{
    if (!placement.jobs.empty() || placement.waiting.empty())
        return false;
    io.err << "clusterbench place: no job could be placed on this cluster ("
           << placement.waiting.size() << " waiting); `clusterbench why "
           << terminalText(scenarioPath) << " " << terminalText(placement.waiting.front())
           << " --policy " << terminalText(policy) << "` says why\n";
    return true;
}

} // namespace

Command placeCommand()
{
    Command c;
    c.name = "place";
    c.synopsis = "place SCENARIO --policy P [--seed S] [--policy-file F] [--json] [--log] "
                 "[--log-detail D]";
    c.summary = "Place every queued job with a policy; show each task's node and the traffic";
    c.description =
        "Jobs are offered in the policy's queue order to a cluster that fills up; a job that "
        "does not fit waits. Traffic is per training iteration: each job's PS push and pull or "
        "all-reduce bytes, split into intra-node and cross-node. Built-in policies: " +
        builtinPolicyList() +
        "; user presets come from the scenario's \"policies\" or --policy-file. "
        "The seed defaults to the scenario's settings.seed. Same input and seed give "
        "byte-identical output. The run (placement, decision log, traffic) is stored in the "
        "workspace (see history, show) unless --no-save is given.";
    c.options = policyInputOptions();
    c.options.insert(c.options.end(), {
                 {"json", "", "print placement, traffic (and log) as JSON"},
                 {"log", "", "include the decision log (nodes x plugins per decision)"},
                 logDetailOption(), pinOption()});
    for (const Option &o : runSavingOptions())
        c.options.push_back(o);
    c.run = [](const Args &args, Io &io) {
        auto input = readPolicyInput(args, io, "place");
        if (!input)
            return int(ExitBadInput);
        const Scenario &s = input->scenario;
        const Policy &policy = input->policy;
        if (input->stochastic) {
            io.err << "clusterbench place: " << policy.name
                   << " plans every job over time (its GPUs change as it runs): use "
                      "simulate, or export --policy "
                   << policy.name << " for the configurations the jobs start on\n";
            return int(ExitBadInput);
        }
        auto workspace = openRunWorkspace(args, io, "place");
        if (!workspace)
            return int(ExitBadInput);
        const Topology topo(s.cluster);
        auto detail = readLogDetail(args, io, "place");
        if (!detail)
            return int(ExitBadInput);
        const bool withLog = args.flag("log");
        RunRequest request;
        request.policy = policy.name;
        request.resolvedPolicy = policy;
        request.seed = input->seed;
        request.simulate = false;
        request.decisionLog = withLog || *workspace;
        request.logDetail = *detail;
        if (!readPins(args, io, "place", request))
            return int(ExitBadInput);
        auto run = executeRun(s, request);
        if (!run) {
            io.err << "clusterbench place: " << run.error() << "\n";
            return int(run.problems().front().where.rfind("--pin", 0) == 0 ? ExitBadInput
                                                                           : ExitFailure);
        }
        // What if: the policy's own placement beside the pinned one.
        std::optional<Run> own;
        if (!request.pins.empty()) {
            own = ownRunBesidePins(s, request, io, "place");
            if (!own)
                return int(ExitFailure);
        }
        const Placement &placement = run->placement;
        const TrafficReport &traffic = run->traffic;
        const DecisionLog &log = run->decisions;
        if (*workspace && !saveRun(**workspace, s, run.value(), io, "place"))
            return int(ExitFailure);
        if (args.flag("json")) {
            nlohmann::ordered_json j;
            j["scenario"] = s.name;
            j["policy"] = policyToJson(policy);
            j["seed"] = input->seed;
            // (as on stderr: jobs that wait for ever, which the placement leaves waiting)
            if (!input->neverStart.empty())
                j["warnings"] = problemsJson(input->neverStart);
            // The placement as export --placement reads it (jq .placement > p.json); a job
            // placed in part (gang scheduling off) says how many tasks wait.
            j["placement"] = PlacementJson::toJson(placement);
            nlohmann::ordered_json partial = nlohmann::ordered_json::array();
            for (const JobPlacement &jp : placement.jobs)
                if (jp.pendingTasks > 0)
                    partial.push_back({{"job", jp.jobId}, {"pending_tasks", jp.pendingTasks}});
            if (!partial.empty())
                j["partial_jobs"] = partial;
            j["traffic"] = traffic.toJson(s.cluster, topo);
            if (withLog)
                j["decision_log"] = log.toJson();
            if (own)
                j["what_if"] = whatIfJson(*own, run.value());
            io.out << j.dump(2) << "\n";
            return nonePlaced(placement, args.positional().front(), policy.name, io)
                       ? int(ExitFailure)
                       : int(ExitOk);
        }
        std::size_t tasks = 0;
        for (const JobPlacement &jp : placement.jobs)
            tasks += jp.tasks.size();
        io.out << "Policy " << policy.name << " (seed " << input->seed << "): "
               << placement.jobs.size() << " jobs placed (" << tasks << " tasks), "
               << placement.waiting.size() << " waiting\n";
        const std::size_t width = outputColumns();
        for (const JobPlacement &jp : placement.jobs) {
            std::string tasks;
            for (const TaskAssignment &a : jp.tasks)
                tasks += (tasks.empty() ? "" : " ") + std::string(toString(a.role)) + "-" +
                         std::to_string(a.indexInRole) + "@" + a.node;
            const std::string job = "  " + padRight(jp.jobId, 16) + " ";
            io.out << job << wrapText(tasks, width, 19, displayWidth(job)) << "\n";
        }
        for (const std::string &w : placement.waiting)
            io.out << "  " << padRight(w, 16) << " waiting\n";
        // A cross-domain column only where multi-node NVLink domains make it differ.
        const bool domains = !s.cluster.nvlinkDomains.empty();
        io.out << "\nTraffic per iteration\n";
        TextTable table;
        table.indent = 2;
        table.headers = {"job", "total", "cross-node"};
        if (domains)
            table.headers.push_back("cross-domain");
        table.headers.insert(table.headers.end(), {"intra-node", "mean hops"});
        table.rightAligned.assign(table.headers.size(), true);
        table.rightAligned[0] = false;
        auto row = [&](const std::string &name, double total, double cross, double crossDomain,
                       double intra, double hops) {
            std::vector<std::string> cells = {name, megabytes(total), megabytes(cross)};
            if (domains)
                cells.push_back(megabytes(crossDomain));
            // (three decimals, as show and compare print hops)
            cells.insert(cells.end(), {megabytes(intra), formatFixed(hops, 3)});
            table.rows.push_back(std::move(cells));
        };
        for (const JobTraffic &jt : traffic.jobs)
            row(jt.jobId, jt.totalBytes, jt.crossNodeBytes, jt.crossDomainBytes,
                jt.intraNodeBytes, jt.meanHops());
        row("all jobs", traffic.totalBytes, traffic.crossNodeBytes, traffic.crossDomainBytes,
            traffic.intraNodeBytes, traffic.meanHops());
        io.out << table.render(width);
        if (traffic.maxLink >= 0) {
            std::ostringstream most;
            most << "Most loaded link: " << directedLinkName(s.cluster, traffic.maxLink) << " "
                 << megabytes(traffic.maxLinkBytes) << " per iteration; slowest: "
                 << directedLinkName(s.cluster, traffic.maxLinkSecondsLink) << " "
                 << formatFixed(traffic.maxLinkSeconds, 3) << " s per iteration at full capacity";
            io.out << wrapText(most.str(), width, 2) << "\n";
        }
        if (own)
            io.out << "\n" << whatIfText(*own, run.value());
        if (withLog) {
            io.out << "\nDecision log\n";
            printLog(log, io.out);
        }
        return nonePlaced(placement, args.positional().front(), policy.name, io) ? int(ExitFailure)
                                                                                 : int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
