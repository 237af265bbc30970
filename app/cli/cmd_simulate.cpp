#include "cli/command.h"
#include "cli/policy_input.h"
#include "cli/progress.h"
#include "cli/run_saving.h"
#include "cli/run_text.h"
#include "io/file_io.h"
#include "io/run_json.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "runs/run_service.h"
#include "sim/simulator.h"
#include "util/terminal_text.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

/// A run in which no job ever started answers nothing: said on stderr (with where to ask
/// why), and the command exits 1. (No jobs at all is not that.)
bool neverStarted(const RunResult &r, const std::string &scenarioPath, Io &io)
{
    if (r.jobs.empty())
        return false;
    for (const JobRun &j : r.jobs)
        if (j.firstStartSeconds)
            return false;
    io.err << "clusterbench simulate: no job could start on this cluster (" << r.jobs.size()
           << " waiting); `clusterbench why " << terminalText(scenarioPath) << " "
           << terminalText(r.jobs.front().id)
           << " --policy " << terminalText(r.policy) << "` says why\n";
    return true;
}

} // namespace

Command simulateCommand()
{
    Command c;
    c.name = "simulate";
    c.synopsis = "simulate SCENARIO --policy P [--seed S] [--out RUN.json] [--json] "
                 "[--fail NODE@T[+R],...] [--cost energy|gpu-hours|catalogue] [--multi-node] "
                 "[OPTIONS]";
    c.summary = "Replay the job queue over time: completion times, traffic, energy and cost";
    c.description =
        "A discrete-event simulation: jobs arrive at their submit time and are placed by the "
        "policy (jobs that do not fit wait); each running job's flows share the links max-min "
        "fairly, and its iteration time combines compute (slowest worker) and communication "
        "with the scenario's overlap factor. --fail injects node failures: jobs on the node "
        "are killed, lose their progress and are requeued; +R brings the node back R seconds "
        "later. The run file (--out) holds per-job metrics, GPU and link utilisation over "
        "time, node x node traffic and the event log. Same input and seed give "
        "byte-identical output. The run (metrics, timeline, run file, and the placement of "
        "the queue on the empty cluster with its decision log) is stored in the workspace "
        "(see history, show) unless --no-save is given.\n"
        "Stochastic policies (sts, sts-net and the STS authors' baselines sts-fifo, sts-edf, "
        "sts-ps, sts-g, sts-rg, sts-ls) choose each job's GPU type, GPU count and node over "
        "time instead: at every arrival, completion and planned reconfiguration they re-plan, "
        "the simulator runs each job to its sampled stop point and charges the STS authors' "
        "price catalogue per GPU type and busy GPUs (or the scenario's list prices for GPU "
        "types it does not price); the summary adds total, tardiness cost and due-date "
        "violations. They need a due date on every job.";
    c.options = policyInputOptions();
    c.options.insert(c.options.end(), {
                 {"out", "RUN.json", "write the run file here"},
                 {"json", "", "print the summary as JSON"},
                 {"fail", "NODE@T[+R],...", "node failures at T seconds (repaired R later)"},
                 {"cost", "MODEL",
                  "energy (default: energy x price x PUE), gpu-hours (list price per GPU-hour) "
                  "or catalogue (the STS authors' price per GPU type and GPUs busy on the node, "
                  "what stochastic policies pay; for comparing with them)"},
                 {"power-down-idle", "", "nodes running no task draw nothing (powered down)"},
                 {"multi-node", "", "stochastic policies: split a configuration that fits no "
                                    "single node over several (always on for sts-net)"},
                 pinOption()});
    for (const Option &o : runSavingOptions())
        c.options.push_back(o);
    c.run = [](const Args &args, Io &io) {
        auto input = readPolicyInput(args, io, "simulate");
        if (!input)
            return int(ExitBadInput);
        const Scenario &s = input->scenario;
        const std::string &scenarioPath = args.positional().front(); // (read by readPolicyInput)
        // (refused before the run: `--out` the scenario itself would replace it by the run)
        if (args.has("out")) {
            const std::string &out = args.value("out");
            if (const Status usable = checkOutputFile(out); !usable) {
                io.err << "clusterbench simulate: " << usable.error() << "; nothing run\n";
                return int(ExitFailure);
            }
            if (const Status other = checkNotAnInput(out, {scenarioPath}, "the run file"); !other) {
                io.err << "clusterbench simulate: --out " << other.error() << "; nothing run\n";
                return int(ExitBadInput);
            }
        }
        RunRequest request;
        request.policy = input->policy.name;
        if (!input->stochastic)
            request.resolvedPolicy = input->policy;
        request.seed = input->seed;
        request.simulate = true;
        request.powerDownIdleNodes = args.flag("power-down-idle");
        request.multiNode = args.flag("multi-node");
        if (args.has("fail")) {
            auto failures = parseNodeFailures(args.value("fail"));
            if (!failures) {
                io.err << "clusterbench simulate: " << failures.error() << "\n";
                return int(ExitBadInput);
            }
            request.failures = failures.value();
        }
        const std::string cost = args.value("cost", "energy");
        const auto model = costModelFromString(cost);
        if (!model) {
            io.err << "clusterbench simulate: --cost: expected energy, gpu-hours or catalogue, "
                      "found \""
                   << cost << "\"\n";
            return int(ExitBadInput);
        }
        request.costModel = *model;
        if (!readPins(args, io, "simulate", request))
            return int(ExitBadInput);
        auto workspace = openRunWorkspace(args, io, "simulate");
        if (!workspace)
            return int(ExitBadInput);
        // The bar is erased once the run ends, as the other commands' bars are.
        ProgressBar bar(io, "simulate");
        if (io.errIsTerminal)
            request.progress = [&bar](double done) {
                bar.updateFraction(done, {});
                return true;
            };
        // The stored run carries the placement's decision log; a run that is not stored
        // needs none.
        request.decisionLog = bool(*workspace);
        auto run = executeRun(s, request);
        bar.finish();
        if (!run) {
            io.err << "clusterbench simulate: " << run.error() << "\n";
            const std::string &where = run.problems().front().where;
            return int(where.rfind("--fail", 0) == 0 || where.rfind("--pin", 0) == 0 ||
                               where == "policy"
                           ? ExitBadInput
                           : ExitFailure);
        }
        std::optional<Run> own; // what if: the policy's own run beside the pinned one
        if (!request.pins.empty()) {
            own = ownRunBesidePins(s, request, io, "simulate");
            if (!own)
                return int(ExitFailure);
        }
        const RunResult &r = *run->result;
        const Topology topo(s.cluster);
        if (args.has("out")) {
            auto saved = saveRunFile(args.value("out"), r, s.cluster, topo);
            if (!saved) {
                io.err << "clusterbench simulate: " << saved.error() << "\n";
                return int(ExitFailure);
            }
        }
        if (*workspace && !saveRun(**workspace, s, run.value(), io, "simulate"))
            return int(ExitFailure);
        // Jobs that ran past their time limit: a batch script would not run them to the end.
        const Problems overruns = timeLimitOverruns(s, r);
        if (!args.flag("json"))
            printWarnings(overruns, scenarioPath, io, "simulate", "--json");
        if (args.flag("json")) {
            nlohmann::ordered_json j;
            j["scenario"] = s.name;
            j["policy"] = r.policy;
            j["seed"] = r.seed;
            // (as on stderr: jobs that wait for ever, unfinished in the summary)
            Problems warnings = input->neverStart;
            warnings.insert(warnings.end(), overruns.begin(), overruns.end());
            if (!warnings.empty())
                j["warnings"] = problemsJson(warnings);
            j["summary"] = runSummaryJson(r);
            if (run->family == SchedulerFamily::Stochastic)
                j["prices"] = run->pricesFrom;
            if (own)
                j["what_if"] = whatIfJson(*own, run.value());
            io.out << j.dump(2) << "\n";
            return neverStarted(r, scenarioPath, io) ? int(ExitFailure) : int(ExitOk);
        }
        io.out << runSummaryText(run.value());
        if (args.has("out"))
            io.out << "Run file: " << args.value("out") << "\n";
        if (own)
            io.out << "\n" << whatIfText(*own, run.value());
        return neverStarted(r, scenarioPath, io) ? int(ExitFailure) : int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
