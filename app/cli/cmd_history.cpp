#include "cli/command.h"
#include "io/json_reader.h"
#include "store/workspace.h"
#include "util/terminal_text.h"

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

/// The parameters without the full policy (shown as its plugin weights). Whatever is stored
/// (a hand-edited or damaged row included) is shown, never trusted to have a shape.
std::string paramsLine(const nlohmann::json &parameters)
{
    if (!parameters.is_object())
        return parameters.is_null() ? "-" : parameters.dump();
    nlohmann::json rest = parameters;
    std::string weights;
    if (const nlohmann::json *policy = childField(rest, "policy"); policy && policy->is_object()) {
        if (const nlohmann::json *plugins = childField(*policy, "plugins");
            plugins && plugins->is_array())
            for (const auto &p : *plugins) {
                const nlohmann::json *weight = childField(p, "weight");
                weights += (weights.empty() ? "" : " ") + stringField(p, "plugin", "?") + "=" +
                           (weight ? weight->dump() : std::string("0"));
            }
        rest.erase("policy");
    }
    std::string out = rest.empty() ? std::string() : rest.dump();
    if (!weights.empty())
        out += (out.empty() ? "" : "  ") + std::string("weights: ") + weights;
    return out.empty() ? "-" : out;
}

/// A name for a table column: control characters escaped, at most `width` bytes, never cut
/// inside a UTF-8 sequence.
std::string clipped(const std::string &name, std::size_t width)
{
    std::string s = terminalText(name);
    if (s.size() <= width)
        return s;
    std::size_t end = width;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xc0) == 0x80)
        --end;
    return s.substr(0, end);
}

/// The size of an array at `key` of an object, 0 when there is none.
std::size_t arraySize(const nlohmann::json &object, const std::string &key)
{
    const nlohmann::json *v = childField(object, key);
    return v && v->is_array() ? v->size() : 0;
}

std::string shortNumber(double v)
{
    std::ostringstream s;
    s << std::setprecision(6) << v;
    return s.str();
}

Result<std::unique_ptr<Workspace>> openWorkspace(const Args &args)
{
    return Workspace::open(args.value("workspace", Workspace::defaultPath()),
                           Workspace::Access::ReadOnly);
}

} // namespace

Command historyCommand()
{
    Command c;
    c.name = "history";
    c.synopsis = "history [--workspace FILE] [--json] [--check]";
    c.summary = "List the runs stored in the workspace, newest first";
    c.description =
        "The workspace defaults to $CLUSTERBENCH_WORKSPACE, else "
        "$XDG_DATA_HOME/clusterbench/workspace.sqlite. A workspace in a folder that cannot be "
        "written is read as it is. STATUS is complete, or partial for the points of a sweep "
        "that has not finished (still running, or interrupted). --check runs SQLite's "
        "integrity check (PRAGMA integrity_check and foreign_key_check) instead and prints ok "
        "or every problem found (exit 1 when there is any).";
    c.options = {{"workspace", "FILE", "workspace database to read"},
                 {"json", "", "print the runs as JSON"},
                 {"check", "", "check the workspace file's integrity"}};
    c.run = [](const Args &args, Io &io) {
        auto ws = openWorkspace(args);
        if (!ws) {
            io.err << "clusterbench history: " << ws.error() << "\n";
            return int(args.flag("check") ? ExitFailure : ExitBadInput);
        }
        if (args.flag("check")) {
            auto report = ws.value()->integrityCheck();
            if (!report) {
                io.err << "clusterbench history: " << report.error() << "\n";
                return int(ExitFailure);
            }
            const bool ok = report->size() == 1 && report->front() == "ok";
            if (args.flag("json")) {
                nlohmann::ordered_json j;
                j["workspace"] = ws.value()->path();
                j["schema_version"] = ws.value()->schemaVersion();
                j["ok"] = ok;
                j["problems"] = ok ? std::vector<std::string>{} : report.value();
                io.out << j.dump(2) << "\n";
            } else if (ok) {
                io.out << ws.value()->path() << ": ok (schema version "
                       << ws.value()->schemaVersion() << ")\n";
            } else {
                for (const std::string &p : report.value())
                    io.out << ws.value()->path() << ": " << p << "\n";
            }
            return int(ok ? ExitOk : ExitFailure);
        }
        auto runs = ws.value()->runs();
        if (!runs) {
            io.err << "clusterbench history: " << runs.error() << "\n";
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
                   << std::setw(11) << r.kind << std::setw(20) << clipped(r.scenarioName, 19)
                   << std::setw(16) << clipped(r.policy, 15) << std::setw(8) << r.seed
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
            io.err << "clusterbench show: " << ws.error() << "\n";
            return int(ExitBadInput);
        }
        auto run = ws.value()->run(id);
        if (!run) {
            io.err << "clusterbench show: " << run.error() << "\n";
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
            r.decisionLog.is_array() ? &r.decisionLog : childField(r.decisionLog, "decisions");
        if (decisions && decisions->is_array())
            io.out << "Decision log: " << decisions->size() << " decisions stored\n";
        if (stringField(r.decisionLog, "kind") == "stochastic") {
            const nlohmann::json *log = childField(r.decisionLog, "log");
            io.out << "Decision log: " << (log ? arraySize(*log, "events") : 0)
                   << " scheduling events stored (" << r.policy << ")\n";
        }
        if (const nlohmann::json *p = childField(r.timeline, "placement"); p && p->is_object()) {
            io.out << "Placement: " << arraySize(*p, "jobs") << " jobs placed, "
                   << arraySize(*p, "waiting") << " waiting\n";
            if (const nlohmann::json *run = childField(r.timeline, "run");
                run && run->is_object()) {
                const nlohmann::json *series = childField(*run, "series");
                const nlohmann::json *bucket = series ? childField(*series, "bucket_s") : nullptr;
                io.out << "Timeline: " << (series ? arraySize(*series, "gpu_busy_s") : 0)
                       << " buckets of "
                       << (bucket && bucket->is_number() ? shortNumber(bucket->get<double>())
                                                         : std::string("?"))
                       << " s, " << arraySize(*run, "events") << " events\n";
            }
        }
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
