#include "cli/command.h"
#include "cli/output_columns.h"
#include "io/json_reader.h"
#include "net/topology.h"
#include "runs/decision_explanation.h"
#include "runs/run_diff.h"
#include "runs/run_service.h"
#include "store/stored_run.h"
#include "store/workspace.h"
#include "util/count_text.h"
#include "util/json_number.h"
#include "util/terminal_text.h"
#include "util/text.h"
#include "util/text_table.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
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
    // As options are written: "cost=energy", a string without its quotes, an object's
    // members after its name ("params: weight.dltap=4"), an array's items with commas.
    const auto scalar = [](const nlohmann::json &v) {
        return v.is_string() ? v.get<std::string>() : v.dump();
    };
    std::string out;
    for (const auto &[key, value] : rest.items()) {
        std::string part;
        if (value.is_object()) {
            part = key + ":";
            for (const auto &[name, v] : value.items())
                part += " " + name + "=" + scalar(v);
        } else if (value.is_array()) {
            part = key + "=";
            for (std::size_t k = 0; k < value.size(); ++k)
                part += (k ? "," : "") + scalar(value[k]);
        } else {
            part = key + "=" + scalar(value);
        }
        out += (out.empty() ? "" : "  ") + part;
    }
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
    // Cut, and said to be: "DLTAP testbed (8..." (never inside a UTF-8 sequence).
    std::size_t end = width > 3 ? width - 3 : width;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xc0) == 0x80)
        --end;
    return s.substr(0, end) + (width > 3 ? "..." : "");
}

/// What tells a run apart from others of its policy and seed, for the history table: a sweep
/// point's parameters ("weight.dltap=4") and what-if pins ("pin j1/worker-0=node-05").
std::string distinguishingParams(const nlohmann::json &parameters)
{
    std::string out;
    const auto add = [&](const std::string &part) { out += (out.empty() ? "" : " ") + part; };
    if (const nlohmann::json *params = childField(parameters, "params");
        params && params->is_object())
        for (const auto &[name, value] : params->items())
            add(name + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    if (const nlohmann::json *pins = childField(parameters, "pins"); pins && pins->is_array())
        for (const auto &pin : *pins)
            add("pin " + (pin.is_string() ? pin.get<std::string>() : pin.dump()));
    return terminalText(out);
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

/// A metric's value as show and diff print it, by the unit its name ends with: bytes in
/// decimal units; seconds (one decimal, three below 10 s), kWh (three) and GPU-hours (one)
/// with their unit; costs with two decimals; whole numbers as they are; other figures
/// (utilisation, slowdown, hops) with three decimals, as simulate's summary prints them,
/// thousands grouped as it groups them ("16,682.0 s"); costs in the scenario's `currency`.
std::string metricText(const std::string &name, double v, const std::string &currency = {})
{
    switch (metricUnit(name)) {
    case MetricUnit::Bytes:
        return bytesText(v);
    case MetricUnit::Seconds:
        return v == 0 ? "0 s" : groupedFixed(v, std::abs(v) < 10 ? 3 : 1) + " s";
    case MetricUnit::KWh:
        return groupedFixed(v, 3) + " kWh";
    case MetricUnit::GpuHours:
        return groupedFixed(v, 1) + " GPU-h";
    case MetricUnit::Money:
        return groupedFixed(v, 2) + (currency.empty() ? "" : " " + currency);
    case MetricUnit::Plain:
        break;
    }
    if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15)
        return groupedCount((long long)v);
    return groupedFixed(v, 3);
}

Result<std::unique_ptr<Workspace>> openWorkspace(const Args &args)
{
    return Workspace::open(args.value("workspace", Workspace::defaultPath()),
                           Workspace::Access::ReadOnly);
}

/// A run id as history lists it; on anything else prints the problem and returns nullopt.
std::optional<std::int64_t> parseRunId(const std::string &text, Io &io, const std::string &command)
{
    try {
        std::size_t used = 0;
        const long long id = std::stoll(text, &used);
        if (used == text.size() && id > 0)
            return std::int64_t(id);
    } catch (const std::exception &) {
    }
    io.err << "clusterbench " << command << ": expected a run id (an integer >= 1, see "
           << "clusterbench history), found \"" << text << "\"\n";
    return std::nullopt;
}

std::string optionalSeconds(const std::optional<double> &v)
{
    return v ? groupedFixed(*v, 1) + " s" : std::string("-");
}

nlohmann::ordered_json optionalJson(const std::optional<double> &v)
{
    return v ? nlohmann::ordered_json(jsonNumber(*v)) : nlohmann::ordered_json();
}

/// One side of the fork: how `own` (this run's pick) and the other run's pick scored in this
/// run's policy.
void writeForkSide(std::ostream &out, const DecisionLog &log, const std::string &runName,
                   const std::optional<Contrast> &c, const std::string &otherPick);

/// One run's side of the first difference, each line wrapped to the terminal (its rest
/// indented two more).
void printForkSide(std::ostream &out, const DecisionLog &log, const std::string &runName,
                   const std::optional<Contrast> &c, const std::string &otherPick)
{
    std::ostringstream side;
    writeForkSide(side, log, runName, c, otherPick);
    std::istringstream lines(side.str());
    for (std::string line; std::getline(lines, line);) {
        const std::size_t lead = line.find_first_not_of(' ');
        const std::size_t indent = lead == std::string::npos ? 0 : lead;
        out << std::string(indent, ' ')
            << wrapText(line.substr(indent), outputColumns(), indent + 2, indent) << "\n";
    }
}

void writeForkSide(std::ostream &out, const DecisionLog &log, const std::string &runName,
                   const std::optional<Contrast> &c, const std::string &otherPick)
{
    const Decision &d = log.decisions.at(std::size_t(c ? c->decision : 0));
    out << "  In " << runName << ": ";
    if (!c) {
        out << (otherPick.empty() ? "the other run found no node"
                                  : "no row kept for " + terminalText(otherPick))
            << "\n";
        return;
    }
    const std::string pick = terminalText(log.nodeNames[std::size_t(d.pick)]);
    const std::string other = terminalText(otherPick);
    if (c->otherFiltered) {
        out << other << " was ruled out (" << c->filterReason << ")\n";
        return;
    }
    if (!c->otherHasRow) { // (a top:K log: no score of it to compare)
        out << pick << " " << wholeOrNumberText(c->pickTotal) << ", " << other << ": "
            << unkeptNodeText(d) << "\n";
        return;
    }
    out << pick << " " << wholeOrNumberText(c->pickTotal) << ", " << other << " "
        << wholeOrNumberText(c->otherTotal);
    if (c->tied()) {
        out << ": tied, the tie-break chose " << pick << "\n";
    } else if (c->deciding >= 0) {
        const PluginDifference &p = c->plugins[std::size_t(c->deciding)];
        out << ": decided by " << p.name << " (" << (p.weightedDifference() > 0 ? "+" : "")
            << numberText(p.weightedDifference()) << " of the " << numberText(c->margin())
            << "-point lead" << (c->decisive() ? ", decisive" : "") << ")\n";
    } else {
        out << "\n";
    }
    std::string parts;
    for (const PluginDifference &p : c->plugins)
        if (p.weightedDifference() != 0)
            parts += (parts.empty() ? "" : ", ") + p.name + " " +
                     (p.weightedDifference() > 0 ? "+" : "") + numberText(p.weightedDifference());
    if (!parts.empty())
        out << "    weighted differences (" << pick << " - " << other << "): " << parts << "\n";
    if (!c->flips.empty())
        out << "    " << other << " would have won here: " << describeFlip(log, c->flips.front())
            << "\n";
}

nlohmann::ordered_json contrastJson(const DecisionLog &log, const std::optional<Contrast> &c)
{
    if (!c)
        return nullptr;
    nlohmann::ordered_json j;
    j["pick"] = log.nodeNames[std::size_t(c->pick)];
    j["other"] = log.nodeNames[std::size_t(c->other)];
    if (c->otherFiltered) {
        j["filtered"] = c->filterReason;
        return j;
    }
    j["pick_total"] = jsonNumber(c->pickTotal);
    if (!c->otherHasRow) {
        // A top:K log kept no row for it: its score is not known, only the range of the
        // nodes without a row.
        const Decision &d = log.decisions.at(std::size_t(c->decision));
        j["other_total"] = nullptr;
        j["other_kept"] = false;
        if (d.omitted.scored > 0)
            j["unkept_totals"] = {jsonNumber(d.omitted.minTotal), jsonNumber(d.omitted.maxTotal)};
        return j;
    }
    j["other_total"] = jsonNumber(c->otherTotal);
    j["deciding"] = c->deciding >= 0
                        ? nlohmann::ordered_json(c->plugins[std::size_t(c->deciding)].name)
                        : nlohmann::ordered_json();
    nlohmann::ordered_json ps = nlohmann::ordered_json::array();
    for (const PluginDifference &p : c->plugins)
        ps.push_back({{"plugin", p.name}, {"difference", jsonNumber(p.weightedDifference())}});
    j["plugins"] = ps;
    j["flip"] = c->flips.empty() ? nlohmann::ordered_json()
                                 : nlohmann::ordered_json(describeFlip(log, c->flips.front()));
    return j;
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
        "that has not finished (still running, or interrupted; for an emitted sweep, until every "
        "point is merged). SWEEP, shown when a listed run belongs to a sweep, gives the sweep's "
        "id and the point's number in its grid (as merge numbers them). --check runs SQLite's "
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
        // The scenario's name last, cut to the room it has where the table puts it: beside
        // the other columns, or in a block of its own under them (with the run's number)
        // when fewer than 24 columns are left there (it was cut to 12 with 70 free).
        // A sweep's points say which sweep and point they are ("<id> #2", as merge numbers
        // them), in a column shown when any listed run has one.
        const auto sweepOf = [](const RunRecord &r) {
            const nlohmann::json *id = childField(r.parameters, "sweep");
            if (!id || !id->is_string())
                return std::string();
            const nlohmann::json *index = childField(r.parameters, "grid_index");
            return terminalText(id->get<std::string>()) +
                   (index && index->is_number_integer() ? " #" + index->dump() : "");
        };
        const bool sweeps = std::any_of(runs->begin(), runs->end(),
                                        [&](const RunRecord &r) { return !sweepOf(r).empty(); });
        TextTable table;
        table.headers = {"RUN", "CREATED", "KIND", "POLICY", "SEED", "STATUS", "PARAMS"};
        if (sweeps)
            table.headers.push_back("SWEEP");
        table.headers.push_back("SCENARIO");
        table.rightAligned = {true};
        std::vector<std::size_t> widths(table.headers.size() - 1);
        for (std::size_t c = 0; c < widths.size(); ++c)
            widths[c] = table.headers[c].size();
        std::size_t longestName = 0;
        for (const RunRecord &r : runs.value()) {
            const std::string params = distinguishingParams(r.parameters);
            table.rows.push_back({std::to_string(r.id), r.created, r.kind, clipped(r.policy, 24),
                                  std::to_string(r.seed), r.status,
                                  params.empty() ? "-" : clipped(params, 40)});
            if (sweeps) {
                const std::string sweep = sweepOf(r);
                table.rows.back().push_back(sweep.empty() ? "-" : clipped(sweep, 48));
            }
            for (std::size_t c = 0; c < widths.size(); ++c)
                widths[c] = std::max(widths[c], displayWidth(table.rows.back()[c]));
            longestName = std::max(longestName, displayWidth(terminalText(r.scenarioName)) + 4);
        }
        const std::size_t width = outputColumns();
        // (the blocks as TextTable packs them: as many columns as fit after the run's number)
        std::size_t used = widths[0];
        for (std::size_t c = 1; c < widths.size(); ++c)
            used = used + 2 + widths[c] <= width ? used + 2 + widths[c] : widths[0] + 2 + widths[c];
        const std::size_t beside = width > used + 2 ? width - used - 2 : 0;
        const std::size_t alone = width > widths[0] + 2 ? width - widths[0] - 2 : 0;
        const std::size_t room = std::max<std::size_t>(
            12, beside >= std::min<std::size_t>(longestName, 24) ? beside : alone);
        // A name stored in several versions (the scenario edited between runs) is told apart
        // by its version first, which clipping keeps: "v2 DLTAP testb...".
        std::map<std::string, int> version, versions;
        if (auto stored = ws.value()->scenarios(); stored)
            for (const StoredScenario &sc : stored.value()) {
                version[sc.digest] = sc.version;
                ++versions[sc.name];
            }
        for (std::size_t i = 0; i < runs->size(); ++i) {
            const RunRecord &r = runs.value()[i];
            const auto v = version.find(r.scenarioDigest);
            const bool several = versions[r.scenarioName] > 1 && v != version.end();
            table.rows[i].push_back(clipped(
                (several ? "v" + std::to_string(v->second) + " " : std::string()) + r.scenarioName,
                room));
        }
        io.out << table.render(width);
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
        const auto id = parseRunId(args.positional()[0], io, "show");
        if (!id)
            return int(ExitBadInput);
        auto ws = openWorkspace(args);
        if (!ws) {
            io.err << "clusterbench show: " << ws.error() << "\n";
            return int(ExitBadInput);
        }
        auto run = ws.value()->run(*id);
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
               << "  scenario  "
               << wrapText(r.scenarioName + " (" + r.scenarioDigest.substr(0, 12) + ")",
                           outputColumns(), 12, 12)
               << "\n"
               << "  policy    " << r.policy << "\n"
               << "  seed      " << r.seed << "\n"
               << "  params    "
               << wrapText(terminalText(paramsLine(r.parameters)), outputColumns(), 12, 12) << "\n"
               << "Metrics\n";
        std::size_t nameWidth = 0; // (the longest name and two spaces: names never touch)
        for (const auto &entry : r.metrics)
            nameWidth = std::max(nameWidth, entry.first.size() + 2);
        // Costs in the currency of the scenario it ran on (as simulate prints them).
        std::string currency = Settings{}.currency;
        if (auto text = ws.value()->scenarioText(r.scenarioDigest)) {
            const nlohmann::json stored = nlohmann::json::parse(text.value(), nullptr, false);
            if (const nlohmann::json *settings = childField(stored, "settings"))
                currency = stringField(*settings, "currency", currency);
        }
        for (const auto &[name, value] : r.metrics)
            io.out << "  " << std::left << std::setw(int(nameWidth)) << name
                   << metricText(name, value, currency) << "\n";
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
            io.out << "Placement: " << counted((long long)arraySize(*p, "jobs"), "job")
                   << " placed, " << arraySize(*p, "waiting") << " waiting\n";
            if (const nlohmann::json *run = childField(r.timeline, "run");
                run && run->is_object()) {
                const nlohmann::json *series = childField(*run, "series");
                const nlohmann::json *bucket = series ? childField(*series, "bucket_s") : nullptr;
                // (the events metric counts every event the simulator took from its queue)
                const std::string line =
                    "Timeline: " +
                    counted((long long)(series ? arraySize(*series, "gpu_busy_s") : 0), "bucket") +
                    " of " +
                    (bucket && bucket->is_number() ? shortNumber(bucket->get<double>())
                                                   : std::string("?")) +
                    " s; " + counted((long long)arraySize(*run, "events"), "job or node event") +
                    " logged (arrivals, starts, finishes, failures; the events metric also "
                    "counts scheduling passes and re-timed finishes)";
                io.out << wrapText(line, outputColumns(), 2) << "\n";
            }
        }
        return int(ExitOk);
    };
    return c;
}

Command diffCommand()
{
    Command c;
    c.name = "diff";
    c.synopsis = "diff RUN_A RUN_B [--workspace FILE] [--jobs N] [--json]";
    c.summary = "Where two stored runs of one scenario part: the first differing decision, "
                "explained on both sides";
    c.description =
        "Aligns two stored runs (ids from clusterbench history) of the same scenario decision "
        "by decision. Up to the first difference both runs offered the same task and picked "
        "the same node, so the cluster is the same in both there: the first difference is "
        "shown on both sides, each policy's scores of its own pick and of the other run's "
        "pick, the plugin that decided it, the weight change that would have made the "
        "policies agree, and the decision told in words. Then the tasks and jobs placed "
        "differently (by job and task, not by position), the jobs' start and finish when both "
        "runs were simulated (first to part first), and every metric of both runs with the "
        "difference. Runs without a stored decision log (stochastic policies) are compared "
        "by job outcome only.";
    c.options = {{"workspace", "FILE", "workspace database to read"},
                 {"jobs", "N", "list at most N differing jobs (default 10; 0 = all)"},
                 {"json", "", "print the comparison as JSON"}};
    c.run = [](const Args &args, Io &io) {
        if (args.positional().size() != 2) {
            io.err << "clusterbench diff: expected two run ids, RUN_A RUN_B (see clusterbench "
                      "history)\n";
            return int(ExitBadInput);
        }
        const auto idA = parseRunId(args.positional()[0], io, "diff");
        const auto idB = parseRunId(args.positional()[1], io, "diff");
        if (!idA || !idB)
            return int(ExitBadInput);
        auto limit = args.integer("jobs", 10);
        if (!limit || limit.value() < 0) {
            io.err << "clusterbench diff: --jobs: expected an integer >= 0\n";
            return int(ExitBadInput);
        }
        auto ws = openWorkspace(args);
        if (!ws) {
            io.err << "clusterbench diff: " << ws.error() << "\n";
            return int(ExitBadInput);
        }
        auto a = readRunDetail(*ws.value(), *idA);
        auto b = readRunDetail(*ws.value(), *idB);
        for (const auto *r : {&a, &b})
            if (!*r) {
                io.err << "clusterbench diff: " << r->error() << "\n";
                return int(ExitBadInput);
            }
        auto diff = diffRuns(a.value(), b.value());
        if (!diff) {
            io.err << "clusterbench diff: " << diff.error() << "\n";
            return int(ExitBadInput);
        }
        const RunDiff &d = diff.value();
        const StoredRunDetail &da = a.value(), &db = b.value();
        const std::string nameA = "run " + std::to_string(d.runA) + " (" + d.policyA + ")";
        const std::string nameB = "run " + std::to_string(d.runB) + " (" + d.policyB + ")";
        const Topology topo(da.scenario.cluster);
        const auto pickOf = [](const StoredRunDetail &r, int index) {
            const Decision &dec = r.log->decisions[std::size_t(index)];
            return dec.pick >= 0 ? r.log->nodeNames[std::size_t(dec.pick)] : std::string();
        };
        const auto forkSide = [&](const StoredRunDetail &r, int index) {
            nlohmann::ordered_json j;
            if (index >= int(r.log->decisions.size()))
                return nlohmann::ordered_json();
            const Decision &dec = r.log->decisions[std::size_t(index)];
            j["job"] = dec.jobId;
            j["task"] = dec.task();
            j["pick"] = pickOf(r, index).empty() ? nlohmann::ordered_json()
                                                 : nlohmann::ordered_json(pickOf(r, index));
            j["why"] = dec.why;
            j["narration"] = narrateDecision(r.scenario, topo, *r.log, index);
            return j;
        };
        const std::size_t shown =
            limit.value() == 0 ? d.jobs.size()
                               : std::min(d.jobs.size(), std::size_t(limit.value()));

        if (args.flag("json")) {
            nlohmann::ordered_json j;
            j["scenario"] = da.record.scenarioName;
            j["scenario_digest"] = da.record.scenarioDigest;
            j["runs"] = {{{"id", d.runA}, {"policy", d.policyA}, {"seed", da.record.seed}},
                         {{"id", d.runB}, {"policy", d.policyB}, {"seed", db.record.seed}}};
            if (d.logs) {
                nlohmann::ordered_json dec;
                dec["count"] = {d.decisionsA, d.decisionsB};
                dec["common_prefix"] = d.commonPrefix;
                if (d.fork) {
                    nlohmann::ordered_json f;
                    f["decision"] = d.fork->index + 1;
                    f["same_task"] = d.fork->sameTask;
                    f["a"] = forkSide(da, d.fork->index);
                    f["b"] = forkSide(db, d.fork->index);
                    f["a_scores_b_pick"] = contrastJson(*da.log, d.fork->inA);
                    f["b_scores_a_pick"] = contrastJson(*db.log, d.fork->inB);
                    dec["first_difference"] = f;
                } else {
                    dec["first_difference"] = nullptr;
                }
                dec["tasks_compared"] = d.tasksCompared;
                dec["tasks_moved"] = d.tasksMoved;
                j["decisions"] = dec;
            } else {
                j["decisions"] = nullptr;
            }
            j["jobs_compared"] = d.jobsCompared;
            j["jobs_differing"] = d.jobs.size();
            nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
            for (std::size_t i = 0; i < shown; ++i) {
                const JobDifference &jd = d.jobs[i];
                jobs.push_back({{"job", jd.jobId},
                                {"nodes_a", jd.nodesA},
                                {"nodes_b", jd.nodesB},
                                {"tasks_moved", jd.tasksMoved},
                                {"start_a", optionalJson(jd.startA)},
                                {"start_b", optionalJson(jd.startB)},
                                {"finish_a", optionalJson(jd.finishA)},
                                {"finish_b", optionalJson(jd.finishB)}});
            }
            j["jobs"] = jobs;
            nlohmann::ordered_json metrics = nlohmann::ordered_json::array();
            for (const MetricDifference &m : d.metrics)
                metrics.push_back({{"metric", m.name},
                                   {"a", optionalJson(m.a)},
                                   {"b", optionalJson(m.b)},
                                   {"difference", m.a && m.b ? optionalJson(*m.b - *m.a)
                                                             : nlohmann::ordered_json()}});
            j["metrics"] = metrics;
            io.out << j.dump(2) << "\n";
            return int(ExitOk);
        }

        std::ostream &out = io.out;
        const std::size_t width = outputColumns();
        // The two runs' names in one column, wide enough for both.
        const std::size_t nameColumn = std::max(nameA.size(), nameB.size()) + 2;
        out << wrapText("Runs " + std::to_string(d.runA) + " (" + d.policyA + ", seed " +
                            std::to_string(da.record.seed) + ") and " + std::to_string(d.runB) +
                            " (" + d.policyB + ", seed " + std::to_string(db.record.seed) +
                            ") of " + terminalText(da.record.scenarioName),
                        width, 2)
            << "\n";
        if (!d.logs) {
            out << "\n"
                << wrapText("Decisions: not compared (" + (da.log ? nameB : nameA) +
                                " stored no placement decision log); jobs compared by outcome",
                            width, 2)
                << "\n";
        } else {
            out << "\nDecisions: " << d.decisionsA << " and " << d.decisionsB << "; ";
            if (!d.fork) {
                out << "every decision is the same (same task, same node)\n";
            } else {
                out << (d.commonPrefix == 0   ? std::string("they differ from the first")
                        : d.commonPrefix == 1 ? std::string("the first is the same")
                                              : "the first " + std::to_string(d.commonPrefix) +
                                                    " are the same")
                    << "\n";
                const int i = d.fork->index;
                out << "\nFirst difference: decision " << i + 1 << "\n";
                for (const auto *side : {&da, &db}) {
                    const std::string &name = side == &da ? nameA : nameB;
                    if (i >= int(side->log->decisions.size())) {
                        out << "  " << padRight(name, nameColumn) << "(no decision " << i + 1
                            << ": its log ends)\n";
                        continue;
                    }
                    const Decision &dec = side->log->decisions[std::size_t(i)];
                    const std::string pick = pickOf(*side, i);
                    out << "  " << padRight(name, nameColumn) << "job " << terminalText(dec.jobId)
                        << " " << dec.task() << " -> "
                        << (pick.empty() ? "(no node)" : terminalText(pick)) << "\n";
                }
                if (d.fork->sameTask) {
                    printForkSide(out, *da.log, nameA, d.fork->inA, pickOf(db, i));
                    printForkSide(out, *db.log, nameB, d.fork->inB, pickOf(da, i));
                    // Each side's words contrast with the other run's pick, as above.
                    const auto nodeIndex = [](const DecisionLog &log, const std::string &node) {
                        const auto at = std::find(log.nodeNames.begin(), log.nodeNames.end(), node);
                        return at == log.nodeNames.end() ? -1 : int(at - log.nodeNames.begin());
                    };
                    out << "  "
                        << wrapText("In words (" + nameA + "): " +
                                        narrateDecision(da.scenario, topo, *da.log, i,
                                                        nodeIndex(*da.log, pickOf(db, i))),
                                    width, 4, 2)
                        << "\n";
                    out << "  "
                        << wrapText("In words (" + nameB + "): " +
                                        narrateDecision(db.scenario, topo, *db.log, i,
                                                        nodeIndex(*db.log, pickOf(da, i))),
                                    width, 4, 2)
                        << "\n";
                } else {
                    out << "  The runs offer different tasks here: their queue orders differ\n";
                }
            }
            out << "Tasks on another node: " << d.tasksMoved << " of " << d.tasksCompared
                << " decided in both\n";
        }
        out << "\nJobs that differ: " << d.jobs.size() << " of " << d.jobsCompared;
        if (shown < d.jobs.size())
            out << " (the first " << shown << "; --jobs 0 lists all)";
        out << "\n";
        const auto jobLine = [&](const std::string &name, const std::vector<std::string> &nodes,
                                 bool timed, const std::optional<double> &start,
                                 const std::optional<double> &finish) {
            std::string text = terminalText(compactNodeList(nodes));
            if (timed)
                text += "; start " + optionalSeconds(start) + ", finish " + optionalSeconds(finish);
            out << "    " << padRight(name, nameColumn)
                << wrapText(text, width, 4 + nameColumn, 4 + nameColumn) << "\n";
        };
        for (std::size_t k = 0; k < shown; ++k) {
            const JobDifference &jd = d.jobs[k];
            out << "  " << terminalText(jd.jobId) << "\n";
            jobLine(nameA, jd.nodesA, bool(da.result), jd.startA, jd.finishA);
            jobLine(nameB, jd.nodesB, bool(db.result), jd.startB, jd.finishB);
        }
        // Every metric of both runs, the difference and its share beside them; a table that
        // fits the terminal (wider than it, its columns go on in a second block).
        TextTable table;
        table.headers = {"Metric", "run " + std::to_string(d.runA), "run " + std::to_string(d.runB),
                         "B - A", "change"};
        table.rightAligned = {false, true, true, true, true};
        for (const MetricDifference &m : d.metrics) {
            const auto text = [&](double v) {
                return metricText(m.name, v, da.scenario.settings.currency);
            };
            std::vector<std::string> row = {m.name, m.a ? text(*m.a) : "-", m.b ? text(*m.b) : "-",
                                            "", ""};
            if (m.a && m.b) {
                const double delta = *m.b - *m.a;
                row[3] = (delta > 0 ? "+" : delta < 0 ? "-" : "") + text(std::abs(delta));
                if (*m.a != 0 && delta != 0)
                    row[4] = (delta > 0 ? "+" : "") + formatFixed(100 * delta / *m.a, 1) + " %";
            }
            table.rows.push_back(std::move(row));
        }
        out << "\n" << table.render(outputColumns());
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
