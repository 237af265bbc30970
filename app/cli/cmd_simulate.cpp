#include "cli/command.h"
#include "cli/policy_input.h"
#include "cli/run_saving.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "io/policy_json.h"
#include "sched/traffic.h"
#include "io/run_json.h"
#include "sim/simulator.h"
#include "store/stored_run.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

} // namespace

Command simulateCommand()
{
    Command c;
    c.name = "simulate";
    c.synopsis = "simulate SCENARIO --policy P [--seed S] [--out RUN.json] [--json] "
                 "[--fail NODE@T[+R],...] [--cost energy|gpu-hours]";
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
        "(see history, show) unless --no-save is given.";
    c.options = {{"policy", "P", "policy preset name (required)"},
                 {"seed", "S", "seed for tie-breaks (default: the scenario's settings.seed)"},
                 {"policy-file", "F", "JSON file with more policy presets"},
                 {"out", "RUN.json", "write the run file here"},
                 {"json", "", "print the summary as JSON"},
                 {"fail", "NODE@T[+R],...", "node failures at T seconds (repaired R later)"},
                 {"cost", "MODEL", "energy (default: energy x price x PUE) or gpu-hours"},
                 {"power-down-idle", "", "nodes running no task draw nothing (powered down)"}};
    for (const Option &o : runSavingOptions())
        c.options.push_back(o);
    c.run = [](const Args &args, Io &io) {
        auto input = readPolicyInput(args, io, "simulate");
        if (!input)
            return int(ExitBadInput);
        const Scenario &s = input->scenario;
        const Policy &policy = input->policy;
        SimOptions options;
        options.policy = policy;
        options.seed = input->seed;
        options.powerDownIdleNodes = args.flag("power-down-idle");
        if (args.has("fail")) {
            auto failures = parseNodeFailures(args.value("fail"));
            if (!failures) {
                io.err << "clusterbench simulate: " << failures.error() << "\n";
                return int(ExitBadInput);
            }
            options.failures = failures.value();
        }
        const std::string cost = args.value("cost", "energy");
        if (cost == "gpu-hours")
            options.costModel = CostModel::GpuHours;
        else if (cost != "energy") {
            io.err << "clusterbench simulate: --cost: expected energy or gpu-hours, found \""
                   << cost << "\"\n";
            return int(ExitBadInput);
        }
        auto workspace = openRunWorkspace(args, io, "simulate");
        if (!workspace)
            return int(ExitBadInput);
        if (io.errIsTerminal)
            options.progress = [&io](double done) {
                const int width = 40, filled = int(done * width);
                io.err << "\r[" << std::string(std::size_t(filled), '#')
                       << std::string(std::size_t(width - filled), ' ') << "] "
                       << int(done * 100) << "%" << std::flush;
                return true;
            };
        Simulator sim(s, options);
        auto run = sim.run();
        if (io.errIsTerminal)
            io.err << "\n";
        if (!run) {
            io.err << "clusterbench simulate: " << run.error() << "\n";
            return int(run.problems().front().where.rfind("--fail", 0) == 0 ? ExitBadInput
                                                                            : ExitFailure);
        }
        const RunResult &r = run.value();
        const Topology topo(s.cluster);
        if (args.has("out")) {
            auto saved = saveRunFile(args.value("out"), r, s.cluster, topo);
            if (!saved) {
                io.err << "clusterbench simulate: " << saved.error() << "\n";
                return int(ExitFailure);
            }
        }
        if (*workspace) {
            DecisionLog log;
            const Placement placement = placeScenario(s, topo, policy, input->seed, &log);
            const TrafficReport traffic = computeTraffic(s.jobs, s.cluster, topo, placement);
            RunRecord stored;
            stored.kind = "simulate";
            stored.policy = policy.name;
            stored.seed = input->seed;
            stored.parameters = {{"policy", policyToJson(policy)}, {"cost", cost}};
            if (args.has("fail"))
                stored.parameters["fail"] = args.value("fail");
            if (options.powerDownIdleNodes)
                stored.parameters["power_down_idle"] = true;
            stored.metrics = simulationMetrics(r);
            stored.decisionLog = storedDecisionLog(log);
            stored.timeline = storedTimeline(s, topo, placement, traffic, &r);
            auto id = saveRunTo(**workspace, s, std::move(stored), io, "simulate");
            if (!id)
                return int(ExitFailure);
            io.err << "Saved as run " << *id << " in " << (*workspace)->path() << "\n";
        }
        if (args.flag("json")) {
            nlohmann::ordered_json j;
            j["scenario"] = s.name;
            j["policy"] = r.policy;
            j["seed"] = r.seed;
            j["summary"] = runSummaryJson(r);
            io.out << j.dump(2) << "\n";
            return int(ExitOk);
        }
        const auto summary = runSummaryJson(r);
        io.out << "Policy " << r.policy << " (seed " << r.seed << "): " << r.finishedJobs()
               << " of " << r.jobs.size() << " jobs finished\n"
               << "  makespan        " << formatFixed(r.makespanSeconds, 1) << " s\n"
               << "  mean JCT        " << formatFixed(r.meanJctSeconds(), 1) << " s\n"
               << "  mean slowdown   " << formatFixed(summary["mean_slowdown"].get<double>(), 3)
               << "\n"
               << "  cross-node      " << formatFixed(r.crossNodeBytes() / 1e9, 3) << " GB of "
               << formatFixed(r.totalBytes() / 1e9, 3) << " GB\n"
               << "  energy          " << formatFixed(r.energyKWh, 3) << " kWh\n"
               << "  cost            " << formatFixed(r.cost, 2) << " (" << toString(r.costModel)
               << ")\n"
               << "  tardiness       " << formatFixed(r.totalTardinessSeconds(), 1) << " s\n";
        if (r.failures > 0)
            io.out << "  node failures   " << r.failures << "\n";
        if (args.has("out"))
            io.out << "Run file: " << args.value("out") << "\n";
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
