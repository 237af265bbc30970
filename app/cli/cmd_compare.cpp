#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/policy_input.h"
#include "cli/progress.h"
#include "cli/run_saving.h"
#include "cli/run_text.h"
#include "io/policy_json.h"
#include "io/scenario_json.h"
#include "runs/run_service.h"
#include "sched/traffic.h"
#include "util/count_text.h"
#include "util/terminal_text.h"
#include "util/text.h"
#include "util/text_table.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

namespace cb::cli {

namespace {

struct Row
{
    std::string name;
    /// placementMetrics (bytes per iteration), averaged over the seeds.
    std::map<std::string, double> metrics;
    std::map<std::string, double> crossByModel;
    double at(const std::string &key) const
    {
        auto it = metrics.find(key);
        return it == metrics.end() ? 0.0 : it->second;
    }
};

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
    c.synopsis =
        "compare SCENARIO --policies P1,P2,... [--seed S] [--seeds N] [--pin ...] [--json]";
    c.summary = "Place the scenario with several policies and compare placement and traffic";
    c.description =
        "One row per policy: placed and waiting jobs, cross-node and total bytes per "
        "iteration, the most loaded link and the byte-weighted mean hops. With --seeds N every "
        "figure is the mean over seeds S .. S+N-1. The reduction columns compare cross-node "
        "bytes with the first policy listed, in total and per model (job model name; \"n/a\" "
        "where the first moves none and the policy does, null in --json). Each "
        "policy is stored as one run in the workspace (metrics: the means; placement and "
        "decision log: the first seed) unless --no-save is given. With --pin every policy is "
        "placed twice, on its own and with the pinned tasks (row \"P +pin\", stored as a run "
        "too), and the tasks moved and the figures changed are listed per policy.";
    c.options = {{"policies", "P1,P2", "comma-separated policy presets (required)"},
                 {"seed", "S", "first seed (default: the scenario's settings.seed)"},
                 {"seeds", "N", "number of seeds to average over (default 1)"},
                 {"policy-file", "F", "JSON file with more policy presets"},
                 pinOption(),
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
        const auto listed = readPolicyNames(args, io, "compare");
        if (!listed)
            return int(ExitBadInput);
        const std::vector<std::string> &names = *listed;
        std::vector<Policy> policies;
        for (const std::string &n : names) {
            if (!stochasticMethod(n).empty()) {
                io.err << "clusterbench compare: " << n
                       << " plans every job over time; compare places the queue once per "
                          "policy (use simulate for each, or the window's comparison)\n";
                return int(ExitBadInput);
            }
            auto p = resolvePolicy(n, presets.value());
            if (!p) {
                io.err << "clusterbench compare: --policies: " << p.problems().front().message
                       << "\n";
                return int(ExitBadInput);
            }
            policies.push_back(p.value());
        }
        RunRequest pinned; // --pin: each policy again with these tasks placed by hand
        if (!readPins(args, io, "compare", pinned))
            return int(ExitBadInput);
        auto workspace = openRunWorkspace(args, io, "compare");
        if (!workspace)
            return int(ExitBadInput);
        const double runs = double(seeds);
        // One row per policy, and with --pin the same policy pinned right after it.
        struct Variant
        {
            std::size_t policy;
            bool pinned;
        };
        std::vector<Variant> variants;
        for (std::size_t i = 0; i < policies.size(); ++i) {
            variants.push_back({i, false});
            if (!pinned.pins.empty())
                variants.push_back({i, true});
        }
        std::vector<Row> rows;
        std::vector<RunRecord> stored;
        std::vector<Run> firstSeed; // per variant, for the what-if's moved tasks
        ProgressBar bar(io, "compare");
        const long long totalRuns = (long long)variants.size() * seeds;
        long long doneRuns = 0;
        for (const Variant &v : variants) {
            const Policy &policy = policies[v.policy];
            Row row;
            row.name = v.pinned ? policy.name + " +pin" : policy.name;
            RunRecord record;
            for (long long k = 0; k < seeds; ++k) {
                const bool keep = *workspace && k == 0;
                RunRequest request;
                request.policy = policy.name;
                request.resolvedPolicy = policy;
                request.seed = std::uint64_t(seed + k);
                request.simulate = false;
                request.decisionLog = keep;
                if (v.pinned)
                    request.pins = pinned.pins;
                auto run = executeRun(s, request);
                if (!run) {
                    io.err << "clusterbench compare: " << run.error() << "\n";
                    return int(run.problems().front().where.rfind("--pin", 0) == 0 ? ExitBadInput
                                                                                   : ExitFailure);
                }
                if (keep)
                    record = runRecord(run.value(), s);
                for (const auto &[name, value] : run->metrics)
                    row.metrics[name] += value / runs;
                for (const JobTraffic &jt : run->traffic.jobs)
                    row.crossByModel[jt.model] += jt.crossNodeBytes / runs;
                if (k == 0)
                    firstSeed.push_back(std::move(run.value()));
                bar.update(++doneRuns, totalRuns);
            }
            if (*workspace) {
                record.kind = "compare";
                record.parameters["seeds"] = seeds;
                record.parameters["compared_with"] = names;
                record.metrics = row.metrics;
                stored.push_back(std::move(record));
            }
            rows.push_back(row);
        }
        bar.finish();
        // Nothing placed under any policy: nothing to compare (no table of zeros, exit 1, as
        // place and simulate do).
        if (!s.jobs.empty() && std::all_of(rows.begin(), rows.end(),
                                           [](const Row &r) { return r.at("placed_jobs") == 0; })) {
            const std::string &first = firstSeed.front().placement.waiting.empty()
                                           ? s.jobs.front().id
                                           : firstSeed.front().placement.waiting.front();
            const std::size_t waiting = firstSeed.front().placement.waiting.size();
            io.err << "clusterbench compare: no policy placed any job on this cluster (" << waiting
                   << (waiting == 1 ? " job waits" : " jobs wait")
                   << " under each); `clusterbench why " << terminalText(path) << " "
                   << terminalText(first) << " --policy " << terminalText(policies.front().name)
                   << "` says why; nothing stored\n";
            return int(ExitFailure);
        }
        const Row &base = rows.front();
        // None where the baseline moves no bytes and the policy does: no fraction of 0 says it.
        auto reduction = [](double value, double baseline) -> std::optional<double> {
            if (baseline > 0)
                return 1.0 - value / baseline;
            if (value == 0)
                return 0.0;
            return std::nullopt;
        };
        const auto reductionJson = [](std::optional<double> r) {
            return r ? nlohmann::ordered_json(jsonNumber(*r)) : nlohmann::ordered_json();
        };
        const auto reductionText = [](std::optional<double> r) {
            return r ? formatFixed(100 * *r, 1) + " %" : std::string("n/a: baseline 0");
        };
        if (*workspace) {
            std::vector<std::int64_t> ids;
            for (std::size_t i = 0; i < stored.size(); ++i) {
                if (const auto r =
                        reduction(rows[i].at("cross_node_bytes"), base.at("cross_node_bytes")))
                    stored[i].metrics["cross_node_reduction"] = *r;
                auto id = saveRunTo(**workspace, s, std::move(stored[i]), io, "compare");
                if (!id)
                    return int(ExitFailure);
                ids.push_back(*id);
            }
            std::string saved = ids.size() > 1 ? "Saved as runs " : "Saved as run ";
            for (std::size_t i = 0; i < ids.size(); ++i)
                saved += (i ? ", " : "") + std::to_string(ids[i]);
            io.err << wrapText(saved + " in " + (*workspace)->path(), outputColumns(), 2) << "\n";
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
                o["policy"] = policyToJson(policies[variants[i].policy]);
                if (variants[i].pinned)
                    o["what_if"] = whatIfJson(firstSeed[i - 1], firstSeed[i]);
                for (const char *key : {"placed_jobs", "placed_tasks", "waiting_jobs",
                                        "cross_node_bytes", "total_bytes", "intra_node_bytes",
                                        "max_link_bytes", "max_link_seconds", "mean_hops"})
                    o[key] = jsonNumber(r.at(key));
                o["cross_node_reduction"] =
                    reductionJson(reduction(r.at("cross_node_bytes"), base.at("cross_node_bytes")));
                nlohmann::ordered_json models = nlohmann::ordered_json::array();
                double sumReduction = 0;
                int defined = 0; // (the mean is over the models the baseline moves bytes for)
                for (const auto &[model, bytes] : r.crossByModel) {
                    const auto bit = base.crossByModel.find(model);
                    const auto red =
                        reduction(bytes, bit == base.crossByModel.end() ? 0 : bit->second);
                    if (red) {
                        sumReduction += *red;
                        ++defined;
                    }
                    models.push_back({{"model", model},
                                      {"cross_node_bytes", jsonNumber(bytes)},
                                      {"cross_node_reduction", reductionJson(red)}});
                }
                o["models"] = models;
                o["mean_model_reduction"] =
                    jsonNumber(defined == 0 ? 0.0 : sumReduction / double(defined));
                arr.push_back(o);
            }
            j["policies"] = arr;
            io.out << j.dump(2) << "\n";
            return int(ExitOk);
        }
        const std::size_t width = outputColumns();
        std::string title = (s.name.empty() ? path : s.name) + ": seed " + std::to_string(seed);
        if (seeds > 1)
            title += " .. " + std::to_string(seed + seeds - 1) + " (means)";
        // MB, or GB once a policy moves a terabyte or more per iteration (a large cluster's
        // seven-digit MB would not fit the columns).
        double most = 0;
        for (const Row &r : rows)
            most = std::max(most, r.at("total_bytes"));
        const double scale = most >= 1e12 ? 1e9 : 1e6;
        const std::string unit = most >= 1e12 ? "GB" : "MB";
        title += "; jobs placed and waiting; " + unit +
                 " per iteration; reduction of cross-node "
                 "bytes vs " +
                 base.name;
        io.out << wrapText(title, width, 2) << "\n";
        TextTable table;
        table.headers = {"policy",    "jobs",  "tasks",    "wait", "cross",
                         "reduction", "total", "max link", "hops"};
        table.rightAligned = {false, true, true, true, true, true, true, true, true};
        for (const Row &r : rows)
            table.rows.push_back(
                {r.name, count(r.at("placed_jobs")), count(r.at("placed_tasks")),
                 count(r.at("waiting_jobs")), groupedFixed(r.at("cross_node_bytes") / scale, 1),
                 reductionText(reduction(r.at("cross_node_bytes"), base.at("cross_node_bytes"))),
                 groupedFixed(r.at("total_bytes") / scale, 1),
                 groupedFixed(r.at("max_link_bytes") / scale, 1),
                 formatFixed(r.at("mean_hops"), 2)});
        io.out << table.render(width);
        // Per model: a row per model, a column per policy (the first without its reduction,
        // which is 0 by definition).
        io.out << "\nCross-node " << unit << " per model (reduction vs " << base.name << ")\n";
        std::set<std::string> models;
        for (const Row &r : rows)
            for (const auto &[model, bytes] : r.crossByModel)
                models.insert(model);
        TextTable byModel;
        byModel.headers = {"model"};
        byModel.rightAligned = {false};
        for (const Row &r : rows) {
            byModel.headers.push_back(r.name);
            byModel.rightAligned.push_back(true);
        }
        // A cell is the bytes, then the reduction in parentheses padded to the column's
        // widest, so that both line up under each other.
        std::vector<std::vector<std::pair<std::string, std::string>>> parts;
        std::vector<std::size_t> reductionWidth(rows.size(), 0);
        for (const std::string &model : models) {
            auto &row = parts.emplace_back();
            const auto bit = base.crossByModel.find(model);
            const double baseBytes = bit == base.crossByModel.end() ? 0 : bit->second;
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const auto it = rows[i].crossByModel.find(model);
                if (it == rows[i].crossByModel.end()) {
                    row.emplace_back("-", "");
                    continue;
                }
                std::string r;
                if (i > 0)
                    r = "(" + reductionText(reduction(it->second, baseBytes)) + ")";
                reductionWidth[i] = std::max(reductionWidth[i], r.size());
                row.emplace_back(groupedFixed(it->second / scale, 1), r);
            }
        }
        std::size_t m = 0;
        for (const std::string &model : models) {
            std::vector<std::string> cells = {model};
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const auto &[bytes, r] = parts[m][i];
                cells.push_back(r.empty() ? bytes
                                          : bytes + " " +
                                                std::string(reductionWidth[i] - r.size(), ' ') + r);
            }
            byModel.rows.push_back(std::move(cells));
            ++m;
        }
        io.out << byModel.render(width);
        // What if: each pinned row against the same policy's own (the first seed's runs).
        for (std::size_t i = 0; i < variants.size(); ++i)
            if (variants[i].pinned)
                io.out << "\n" << whatIfText(firstSeed[i - 1], firstSeed[i]);
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
