#include "cli/command.h"
#include "cli/policy_input.h"
#include "cli/progress.h"
#include "cli/run_saving.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "io/policy_json.h"
#include "sched/traffic.h"
#include "store/stored_run.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

struct Row
{
    std::string name;
    double placedJobs = 0, placedTasks = 0, waitingJobs = 0;
    double crossBytes = 0, totalBytes = 0, intraBytes = 0, maxLinkBytes = 0,
           maxLinkSeconds = 0, meanHops = 0;
    std::map<std::string, double> crossByModel;
};

std::vector<std::string> splitList(const std::string &s)
{
    std::vector<std::string> out;
    std::string cur;
    for (char ch : s) {
        if (ch == ',') {
            if (!cur.empty())
                out.push_back(cur);
            cur.clear();
        } else if (ch != ' ') {
            cur += ch;
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

/// A count (or a mean of counts): "9" when whole, else one decimal ("8.5").
std::string count(double v)
{
    return v == std::floor(v) ? formatFixed(v, 0) : formatFixed(v, 1);
}

} // namespace

Command compareCommand()
{
    Command c;
    c.name = "compare";
    c.synopsis = "compare SCENARIO --policies P1,P2,... [--seed S] [--seeds N] [--json]";
    c.summary = "Place the scenario with several policies and compare placement and traffic";
    c.description =
        "One row per policy: placed and waiting jobs, cross-node and total bytes per "
        "iteration, the most loaded link and the byte-weighted mean hops. With --seeds N every "
        "figure is the mean over seeds S .. S+N-1. The reduction columns compare cross-node "
        "bytes with the first policy listed, in total and per model (job model name). Each "
        "policy is stored as one run in the workspace (metrics: the means; placement and "
        "decision log: the first seed) unless --no-save is given.";
    c.options = {{"policies", "P1,P2", "comma-separated policy presets (required)"},
                 {"seed", "S", "first seed (default: the scenario's settings.seed)"},
                 {"seeds", "N", "number of seeds to average over (default 1)"},
                 {"policy-file", "F", "JSON file with more policy presets"},
                 {"json", "", "print the comparison as JSON"}};
    for (const Option &o : runSavingOptions())
        c.options.push_back(o);
    c.run = [](const Args &args, Io &io) {
        if (args.positional().size() != 1 || !args.has("policies")) {
            io.err << "clusterbench compare: expected SCENARIO and --policies P1,P2,... "
                      "(see --help)\n";
            return int(ExitBadInput);
        }
        auto input = readScenarioSeeds(args, io, "compare");
        if (!input)
            return int(ExitBadInput);
        const std::string &path = input->path;
        const Scenario &s = input->scenario;
        const std::uint64_t seed = input->seed;
        const long long seeds = input->seeds;
        auto presets = userPresets(s, args.value("policy-file"));
        if (!presets) {
            io.err << presets.error(args.has("policy-file") ? "" : path) << "\n";
            return int(ExitBadInput);
        }
        const std::vector<std::string> names = splitList(args.value("policies"));
        if (names.empty()) {
            io.err << "clusterbench compare: --policies: expected at least one name\n";
            return int(ExitBadInput);
        }
        std::vector<Policy> policies;
        for (const std::string &n : names) {
            auto p = resolvePolicy(n, presets.value());
            if (!p) {
                io.err << "clusterbench compare: " << p.error() << "\n";
                return int(ExitBadInput);
            }
            policies.push_back(p.value());
        }
        auto workspace = openRunWorkspace(args, io, "compare");
        if (!workspace)
            return int(ExitBadInput);
        const Topology topo(s.cluster);
        const double runs = double(seeds);
        std::vector<Row> rows;
        std::vector<RunRecord> stored;
        ProgressBar bar(io, "compare");
        const long long totalRuns = (long long)policies.size() * seeds;
        long long doneRuns = 0;
        for (const Policy &policy : policies) {
            Row row;
            row.name = policy.name;
            RunRecord record;
            for (long long k = 0; k < seeds; ++k) {
                DecisionLog log;
                const bool keep = *workspace && k == 0;
                const Placement pl = placeScenario(s, topo, policy,
                                                   std::uint64_t(seed + k),
                                                   keep ? &log : nullptr);
                const TrafficReport t = computeTraffic(s.jobs, s.cluster, topo, pl);
                if (keep) {
                    record.decisionLog = storedDecisionLog(log);
                    record.timeline = storedTimeline(s, topo, pl, t, nullptr);
                }
                std::size_t tasks = 0;
                for (const JobPlacement &jp : pl.jobs)
                    tasks += jp.tasks.size();
                row.placedJobs += double(pl.jobs.size()) / runs;
                row.placedTasks += double(tasks) / runs;
                row.waitingJobs += double(pl.waiting.size()) / runs;
                row.crossBytes += t.crossNodeBytes / runs;
                row.totalBytes += t.totalBytes / runs;
                row.intraBytes += t.intraNodeBytes / runs;
                row.maxLinkBytes += t.maxLinkBytes / runs;
                row.maxLinkSeconds += t.maxLinkSeconds / runs;
                row.meanHops += t.meanHops() / runs;
                for (const JobTraffic &jt : t.jobs)
                    row.crossByModel[jt.model] += jt.crossNodeBytes / runs;
                bar.update(++doneRuns, totalRuns);
            }
            if (*workspace) {
                record.kind = "compare";
                record.policy = policy.name;
                record.seed = std::uint64_t(seed);
                record.parameters = {{"policy", policyToJson(policy)},
                                     {"seeds", seeds},
                                     {"compared_with", names}};
                record.metrics = {{"placed_jobs", row.placedJobs},
                                  {"placed_tasks", row.placedTasks},
                                  {"waiting_jobs", row.waitingJobs},
                                  {"cross_node_bytes", row.crossBytes},
                                  {"total_bytes", row.totalBytes},
                                  {"intra_node_bytes", row.intraBytes},
                                  {"max_link_bytes", row.maxLinkBytes},
                                  {"max_link_seconds", row.maxLinkSeconds},
                                  {"mean_hops", row.meanHops}};
                stored.push_back(std::move(record));
            }
            rows.push_back(row);
        }
        bar.finish();
        const Row &base = rows.front();
        auto reduction = [](double value, double baseline) {
            return baseline > 0 ? 1.0 - value / baseline : 0.0;
        };
        if (*workspace) {
            std::vector<std::int64_t> ids;
            for (std::size_t i = 0; i < stored.size(); ++i) {
                stored[i].metrics["cross_node_reduction"] =
                    reduction(rows[i].crossBytes, base.crossBytes);
                auto id = saveRunTo(**workspace, s, std::move(stored[i]), io, "compare");
                if (!id)
                    return int(ExitFailure);
                ids.push_back(*id);
            }
            io.err << "Saved as run" << (ids.size() > 1 ? "s " : " ");
            for (std::size_t i = 0; i < ids.size(); ++i)
                io.err << (i ? ", " : "") << ids[i];
            io.err << " in " << (*workspace)->path() << "\n";
        }
        if (args.flag("json")) {
            nlohmann::ordered_json j;
            j["scenario"] = s.name;
            j["seed"] = seed;
            j["seeds"] = seeds;
            j["unit"] = "bytes per iteration";
            j["baseline"] = base.name;
            nlohmann::ordered_json arr = nlohmann::ordered_json::array();
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const Row &r = rows[i];
                nlohmann::ordered_json o;
                o["name"] = r.name;
                o["policy"] = policyToJson(policies[i]);
                o["placed_jobs"] = jsonNumber(r.placedJobs);
                o["placed_tasks"] = jsonNumber(r.placedTasks);
                o["waiting_jobs"] = jsonNumber(r.waitingJobs);
                o["cross_node_bytes"] = jsonNumber(r.crossBytes);
                o["total_bytes"] = jsonNumber(r.totalBytes);
                o["intra_node_bytes"] = jsonNumber(r.intraBytes);
                o["max_link_bytes"] = jsonNumber(r.maxLinkBytes);
                o["max_link_seconds"] = jsonNumber(r.maxLinkSeconds);
                o["mean_hops"] = jsonNumber(r.meanHops);
                o["cross_node_reduction"] = jsonNumber(reduction(r.crossBytes, base.crossBytes));
                nlohmann::ordered_json models = nlohmann::ordered_json::array();
                double sumReduction = 0;
                for (const auto &[model, bytes] : r.crossByModel) {
                    const auto bit = base.crossByModel.find(model);
                    const double red =
                        reduction(bytes, bit == base.crossByModel.end() ? 0 : bit->second);
                    sumReduction += red;
                    models.push_back({{"model", model},
                                      {"cross_node_bytes", jsonNumber(bytes)},
                                      {"cross_node_reduction", jsonNumber(red)}});
                }
                o["models"] = models;
                o["mean_model_reduction"] = jsonNumber(
                    r.crossByModel.empty() ? 0.0 : sumReduction / double(r.crossByModel.size()));
                arr.push_back(o);
            }
            j["policies"] = arr;
            io.out << j.dump(2) << "\n";
            return int(ExitOk);
        }
        io.out << (s.name.empty() ? path : s.name) << ": seed " << seed;
        if (seeds > 1)
            io.out << " .. " << seed + seeds - 1 << " (means)";
        io.out << "; bytes per iteration; reduction vs " << base.name << "\n";
        io.out << padRight("policy", 18) << padRight("placed", 8) << padRight("tasks", 8)
               << padRight("waiting", 9) << padRight("cross MB", 11) << padRight("total MB", 11)
               << padRight("max link MB", 13) << padRight("hops", 7) << "reduction\n";
        for (const Row &r : rows)
            io.out << padRight(r.name, 18) << padRight(count(r.placedJobs), 8)
                   << padRight(count(r.placedTasks), 8) << padRight(count(r.waitingJobs), 9)
                   << padRight(formatFixed(r.crossBytes / 1e6, 1), 11)
                   << padRight(formatFixed(r.totalBytes / 1e6, 1), 11)
                   << padRight(formatFixed(r.maxLinkBytes / 1e6, 1), 13)
                   << padRight(formatFixed(r.meanHops, 2), 7)
                   << formatFixed(100 * reduction(r.crossBytes, base.crossBytes), 1) << " %\n";
        io.out << "\nCross-node MB per model (reduction vs " << base.name << ")\n";
        for (const Row &r : rows) {
            io.out << padRight(r.name, 18);
            for (const auto &[model, bytes] : r.crossByModel) {
                const auto bit = base.crossByModel.find(model);
                const double red =
                    reduction(bytes, bit == base.crossByModel.end() ? 0 : bit->second);
                io.out << model << " " << formatFixed(bytes / 1e6, 1) << " ("
                       << formatFixed(100 * red, 1) << " %)  ";
            }
            io.out << "\n";
        }
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
