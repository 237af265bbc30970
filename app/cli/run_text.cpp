#include "cli/run_text.h"

#include "cli/output_columns.h"
#include "io/run_json.h"
#include "runs/decision_explanation.h"
#include "util/count_text.h"
#include "util/json_number.h"
#include "util/text.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace cb::cli {

std::string runSummaryText(const Run &run)
{
    std::ostringstream out;
    if (!run.result)
        return {};
    const RunResult &r = *run.result;
    const auto summary = runSummaryJson(r);
    const bool stochastic = run.family == SchedulerFamily::Stochastic;
    const std::string &unit = run.placedScenario.settings.currency;
    const std::string currency = unit.empty() ? std::string() : " " + unit;
    out << "Policy " << r.policy << " (seed " << r.seed << "): " << r.finishedJobs() << " of "
        << r.jobs.size()
        << " jobs finished\n"
        // (no job started: the run's end is only its last arrival, not a makespan)
        << "  makespan        "
        << (std::any_of(r.jobs.begin(), r.jobs.end(),
                        [](const JobRun &j) { return j.startSeconds.has_value(); })
                ? groupedFixed(r.makespanSeconds, 1) + " s"
                : std::string("- (no job started)"))
        << "\n"
        // (over the finished jobs: with none, there is no mean to give)
        << "  mean JCT        "
        << (r.finishedJobs() > 0 ? groupedFixed(r.meanJctSeconds(), 1) + " s"
                                 : std::string("- (no job finished)"))
        << "\n"
        << "  mean slowdown   "
        << (r.finishedJobs() > 0 ? formatFixed(summary["mean_slowdown"].get<double>(), 3) : "-")
        << "\n"
        // (in the unit show and diff print them in)
        << "  cross-node      " << bytesText(r.crossNodeBytes()) << " of "
        << bytesText(r.totalBytes()) << "\n"
        << (r.crossDomainBytes() != r.crossNodeBytes()
                ? "  cross-domain    " + bytesText(r.crossDomainBytes()) +
                      " (left their NVLink domain)\n"
                : std::string())
        << "  energy          " << groupedFixed(r.energyKWh, 3)
        << " kWh\n"
        // (in the scenario's currency, as the window says them)
        << "  cost            " << groupedFixed(r.cost, 2) << currency << " ("
        << toString(r.costModel)
        << (!run.pricesFrom.empty() ? ": " + run.pricesFrom : std::string()) << ")\n"
        << "  tardiness       " << groupedFixed(r.totalTardinessSeconds(), 1) << " s, cost "
        << groupedFixed(r.tardinessCost, 2) << currency << "\n"
        << "  total cost      " << groupedFixed(r.totalCost(), 2) << currency << "\n"
        << "  violations      " << r.violations() << " of " << r.jobs.size()
        << " jobs past their due date\n";
    if (stochastic)
        out << "  reconfigured    " << r.reconfigurations << " times ("
            << counted(r.multiNodePlacements, "decision")
            << (r.multiNodePlacements == 1 ? " splits" : " split") << " a job over nodes)\n";
    if (!stochastic && r.strandedGpuSeconds > 0 && r.makespanSeconds > 0) {
        // Free GPUs a waiting job's task could have used while its job (a gang) could not
        // be admitted: the fragmentation all-or-nothing admission leaves.
        const double mean = r.strandedGpuSeconds / r.makespanSeconds;
        out << "  stranded GPUs   " << formatFixed(mean, 1) << " on average ("
            << formatFixed(r.totalGpus > 0 ? 100 * mean / r.totalGpus : 0.0, 1)
            << " % of GPU time; " << groupedFixed(r.strandedGpuSeconds / 3600, 1)
            << " GPU-h) free while jobs waited, each enough for a waiting task\n";
    }
    if (r.failures > 0)
        out << "  node failures   " << r.failures << "\n";
    // A long line continues under its value's column, at the output's width (the terminal
    // cut "the STS authors' data" mid-word at 80 columns).
    std::string text;
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);)
        text += wrapText(line, outputColumns()) + "\n"; // (under the value: wrapText)
    return text;
}

nlohmann::ordered_json whatIfJson(const Run &own, const Run &pinned)
{
    nlohmann::ordered_json j;
    j["pins"] = pinned.parameters.value("pins", nlohmann::json::array());
    nlohmann::ordered_json a = nlohmann::ordered_json::object(), b = a;
    for (const auto &[key, value] : own.metrics)
        if (auto it = pinned.metrics.find(key); it != pinned.metrics.end()) {
            a[key] = jsonNumber(value);
            b[key] = jsonNumber(it->second);
        }
    j["policy"] = a;
    j["pinned"] = b;
    return j;
}

std::string whatIfText(const Run &own, const Run &pinned)
{
    std::ostringstream out;
    out << "What if (--pin), against " << own.policy << "'s own choice (seed " << own.seed
        << "):\n";
    // The tasks that the pins (and the queue placed around them) moved.
    int moved = 0, compared = 0;
    std::string movedText;
    for (const JobPlacement &p : pinned.placement.jobs) {
        const JobPlacement *o = own.placement.job(p.jobId);
        if (!o)
            continue;
        for (const TaskAssignment &t : p.tasks)
            for (const TaskAssignment &u : o->tasks)
                if (u.role == t.role && u.indexInRole == t.indexInRole) {
                    ++compared;
                    if (u.node != t.node) {
                        ++moved;
                        if (moved <= 8)
                            movedText += "    " + p.jobId + " " + toString(t.role) + "-" +
                                         std::to_string(t.indexInRole) + ": " + u.node +
                                         " -> " + t.node + "\n";
                    }
                }
    }
    out << "  " << moved << " of " << compared << " tasks placed in both runs on another node"
        << (moved > 8 ? " (the first 8)" : "") << (moved ? ":" : "") << "\n"
        << movedText;
    struct Figure
    {
        std::string key;
        const char *label;
        double scale;
        const char *unit;
        int digits;
    };
    // A placement's cross_node_bytes is per iteration; a simulated run's is the whole run
    // (its per-iteration figure is iteration_cross_node_bytes).
    std::vector<Figure> figures = {
        {"waiting_jobs", "jobs waiting", 1, "", 0},
        {own.result ? "iteration_cross_node_bytes" : "cross_node_bytes",
         "cross-node / iteration", 1e-6, " MB", 3}};
    if (own.result)
        figures.insert(figures.end(), {{"makespan_s", "makespan", 1, " s", 1},
                                       {"mean_jct_s", "mean JCT", 1, " s", 1},
                                       {"cross_node_bytes", "cross-node, whole run", 1e-9, " GB", 3},
                                       {"energy_kwh", "energy", 1, " kWh", 3},
                                       {"cost", "cost", 1, "", 2},
                                       {"tardiness_cost", "tardiness cost", 1, "", 2},
                                       {"violations", "due-date violations", 1, "", 0}});
    out << "  " << padRight("", 24) << padRight("policy", 16) << padRight("pinned", 16)
        << "difference\n";
    for (const Figure &f : figures) {
        const auto a = own.metrics.find(f.key), b = pinned.metrics.find(f.key);
        if (a == own.metrics.end() || b == pinned.metrics.end())
            continue;
        const double va = a->second * f.scale, vb = b->second * f.scale;
        const double delta = vb - va;
        std::string change = (delta > 0 ? "+" : "") + groupedFixed(delta, f.digits) + f.unit;
        if (va != 0 && delta != 0)
            change += " (" + std::string(delta > 0 ? "+" : "") +
                      formatFixed(100 * delta / va, 1) + " %)";
        out << "  " << padRight(f.label, 24) << padRight(groupedFixed(va, f.digits) + f.unit, 16)
            << padRight(groupedFixed(vb, f.digits) + f.unit, 16) << change << "\n";
    }
    return out.str();
}

} // namespace cb::cli
