#include "cli/command.h"
#include "store/workspace.h"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

nlohmann::ordered_json runToJson(const RunRecord &r, bool full)
{
    nlohmann::ordered_json j;
    j["id"] = r.id;
    j["created"] = r.created;
    j["kind"] = r.kind;
    j["status"] = r.status;
    j["scenario"] = r.scenarioName;
    j["scenario_digest"] = r.scenarioDigest;
    j["policy"] = r.policy;
    j["seed"] = r.seed;
    j["parameters"] = r.parameters;
    j["program_version"] = r.programVersion;
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const auto &[name, value] : r.metrics)
        metrics[name] = value;
    j["metrics"] = metrics;
    if (full) {
        j["decision_log"] = r.decisionLog;
        j["timeline"] = r.timeline;
    }
    return j;
}

std::string shortNumber(double v)
{
    std::ostringstream s;
    s << std::setprecision(6) << v;
    return s.str();
}

Result<std::unique_ptr<Workspace>> openWorkspace(const Args &args)
{
    return Workspace::open(args.value("workspace", Workspace::defaultPath()));
}

} // namespace

Command historyCommand()
{
    Command c;
    c.name = "history";
    c.synopsis = "history [--workspace FILE] [--json]";
    c.summary = "List the runs stored in the workspace, newest first";
    c.description = "The workspace defaults to $CLUSTERBENCH_WORKSPACE, else "
                    "$XDG_DATA_HOME/clusterbench/workspace.sqlite.";
    c.options = {{"workspace", "FILE", "workspace database to read"},
                 {"json", "", "print the runs as JSON"}};
    c.run = [](const Args &args, Io &io) {
        auto ws = openWorkspace(args);
        if (!ws) {
            io.err << ws.error() << "\n";
            return int(ExitBadInput);
        }
        auto runs = ws.value()->runs();
        if (!runs) {
            io.err << runs.error() << "\n";
            return int(ExitFailure);
        }
        if (args.flag("json")) {
            nlohmann::ordered_json out = nlohmann::ordered_json::array();
            for (const RunRecord &r : runs.value())
                out.push_back(runToJson(r, false));
            io.out << out.dump(2) << "\n";
            return int(ExitOk);
        }
        if (runs->empty()) {
            io.out << "No runs in " << ws.value()->path() << "\n";
            return int(ExitOk);
        }
        io.out << std::left << std::setw(6) << "RUN" << std::setw(22) << "CREATED"
               << std::setw(11) << "KIND" << std::setw(20) << "SCENARIO" << std::setw(16)
               << "POLICY" << std::setw(8) << "SEED" << "STATUS\n";
        for (const RunRecord &r : runs.value())
            io.out << std::left << std::setw(6) << r.id << std::setw(22) << r.created
                   << std::setw(11) << r.kind << std::setw(20) << r.scenarioName.substr(0, 19)
                   << std::setw(16) << r.policy.substr(0, 15) << std::setw(8) << r.seed
                   << r.status << "\n";
        return int(ExitOk);
    };
    return c;
}

Command showCommand()
{
    Command c;
    c.name = "show";
    c.synopsis = "show RUN [--workspace FILE] [--json]";
    c.summary = "Print one stored run: its settings and metrics";
    c.options = {{"workspace", "FILE", "workspace database to read"},
                 {"json", "", "print the whole run (with decision log and timeline) as JSON"}};
    c.run = [](const Args &args, Io &io) {
        if (args.positional().size() != 1) {
            io.err << "clusterbench show: expected one RUN id (see clusterbench history)\n";
            return int(ExitBadInput);
        }
        long long id = 0;
        try {
            std::size_t used = 0;
            id = std::stoll(args.positional()[0], &used);
            if (used != args.positional()[0].size())
                throw std::invalid_argument("trailing");
        } catch (const std::exception &) {
            io.err << "clusterbench show: expected a run id (an integer), found \""
                   << args.positional()[0] << "\"\n";
            return int(ExitBadInput);
        }
        auto ws = openWorkspace(args);
        if (!ws) {
            io.err << ws.error() << "\n";
            return int(ExitBadInput);
        }
        auto run = ws.value()->run(id);
        if (!run) {
            io.err << run.error() << "\n";
            return int(ExitBadInput);
        }
        if (args.flag("json")) {
            io.out << runToJson(run.value(), true).dump(2) << "\n";
            return int(ExitOk);
        }
        const RunRecord &r = run.value();
        io.out << "Run " << r.id << " (" << r.kind << ", " << r.status << ")\n"
               << "  created   " << r.created << " by ClusterBench " << r.programVersion << "\n"
               << "  scenario  " << r.scenarioName << " (" << r.scenarioDigest.substr(0, 12)
               << ")\n"
               << "  policy    " << r.policy << "\n"
               << "  seed      " << r.seed << "\n"
               << "  params    " << r.parameters.dump() << "\n"
               << "Metrics\n";
        for (const auto &[name, value] : r.metrics)
            io.out << "  " << std::left << std::setw(24) << name << shortNumber(value) << "\n";
        if (r.decisionLog.is_array())
            io.out << "Decision log: " << r.decisionLog.size() << " decisions stored\n";
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
