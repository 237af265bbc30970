#include "cli/command.h"
#include "store/workspace.h"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

nlohmann::ordered_json recordJson(const RunRecord &r, bool full)
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

/// The parameters without the full policy (shown as its plugin weights).
std::string paramsLine(const nlohmann::json &parameters)
{
    if (!parameters.is_object())
        return parameters.dump();
    nlohmann::json rest = parameters;
    std::string weights;
    if (rest.contains("policy") && rest["policy"].is_object()) {
        for (const auto &p : rest["policy"].value("plugins", nlohmann::json::array()))
            if (p.is_object())
                weights += (weights.empty() ? "" : " ") + p.value("plugin", std::string("?")) +
                           "=" + p.value("weight", nlohmann::json(0)).dump();
        rest.erase("policy");
    }
    std::string out = rest.empty() ? std::string() : rest.dump();
    if (!weights.empty())
        out += (out.empty() ? "" : "  ") + std::string("weights: ") + weights;
    return out.empty() ? "-" : out;
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
                out.push_back(recordJson(r, false));
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
            io.out << recordJson(run.value(), true).dump(2) << "\n";
            return int(ExitOk);
        }
        const RunRecord &r = run.value();
        io.out << "Run " << r.id << " (" << r.kind << ", " << r.status << ")\n"
               << "  created   " << r.created << " by ClusterBench " << r.programVersion << "\n"
               << "  scenario  " << r.scenarioName << " (" << r.scenarioDigest.substr(0, 12)
               << ")\n"
               << "  policy    " << r.policy << "\n"
               << "  seed      " << r.seed << "\n"
               << "  params    " << paramsLine(r.parameters) << "\n"
               << "Metrics\n";
        for (const auto &[name, value] : r.metrics)
            io.out << "  " << std::left << std::setw(24) << name << shortNumber(value) << "\n";
        const nlohmann::json *decisions =
            r.decisionLog.is_array() ? &r.decisionLog
            : r.decisionLog.is_object() && r.decisionLog.contains("decisions")
                ? &r.decisionLog["decisions"]
                : nullptr;
        if (decisions)
            io.out << "Decision log: " << decisions->size() << " decisions stored\n";
        if (r.decisionLog.is_object() && r.decisionLog.value("kind", "") == "stochastic") {
            const auto &log = r.decisionLog.value("log", nlohmann::json::object());
            io.out << "Decision log: " << log.value("events", nlohmann::json::array()).size()
                   << " scheduling events stored (" << r.policy << ")\n";
        }
        if (r.timeline.is_object() && r.timeline.contains("placement")) {
            const auto &p = r.timeline["placement"];
            io.out << "Placement: " << p.value("jobs", nlohmann::json::array()).size()
                   << " jobs placed, " << p.value("waiting", nlohmann::json::array()).size()
                   << " waiting\n";
            if (r.timeline.contains("run") && r.timeline["run"].is_object()) {
                const auto &run = r.timeline["run"];
                const auto &series = run.value("series", nlohmann::json::object());
                io.out << "Timeline: " << series.value("gpu_busy_s", nlohmann::json::array()).size()
                       << " buckets of " << shortNumber(series.value("bucket_s", 0.0)) << " s, "
                       << run.value("events", nlohmann::json::array()).size() << " events\n";
            }
        }
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
