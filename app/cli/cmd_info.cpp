#include "cli/command.h"
#include "cli/output_columns.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "util/count_text.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

namespace cb::cli {

/// A readable summary of a scenario: nodes, GPUs, fabric, jobs.
nlohmann::ordered_json scenarioSummary(const Scenario &s)
{
    nlohmann::ordered_json j;
    j["name"] = s.name;
    double cpus = 0, mem = 0;
    for (const Node &n : s.cluster.nodes) {
        cpus += n.cpus;
        mem += n.memoryGiB;
    }
    j["nodes"] = s.cluster.nodes.size();
    j["cpus"] = jsonNumber(cpus);
    j["memory_gib"] = jsonNumber(mem);
    j["gpus"] = s.cluster.totalGpus();
    nlohmann::ordered_json byType = nlohmann::ordered_json::object();
    for (const auto &[type, count] : s.cluster.gpusByType())
        byType[type] = count;
    j["gpus_by_type"] = byType;
    std::map<std::string, int> tiers;
    for (const Switch &sw : s.cluster.switches)
        tiers[sw.tier.empty() ? "switch" : sw.tier]++;
    j["switches"] = s.cluster.switches.size();
    j["switches_by_tier"] = tiers;
    j["links"] = s.cluster.links.size();
    const Topology topo(s.cluster);
    j["bisection_gbps"] = jsonNumber(topo.bisectionGbps());
    std::map<std::string, int> kinds;
    int tasks = 0, gpus = 0;
    for (const Job &job : s.jobs) {
        kinds[toString(job.kind)]++;
        tasks += job.taskCount();
        gpus += job.gpuCount();
    }
    j["jobs"] = s.jobs.size();
    j["jobs_by_kind"] = kinds;
    j["tasks"] = tasks;
    j["gpus_requested"] = gpus;
    if (!s.stepTimeModels.empty()) {
        // Measured step-time models: points, and how many jobs of that model will use them.
        nlohmann::ordered_json models;
        for (const auto &[model, table] : s.stepTimeModels) {
            std::size_t users = 0;
            for (const Job &job : s.jobs)
                users += job.model.name == model;
            models[model] = {{"points", table.points.size()}, {"jobs", users}};
        }
        j["step_time_models"] = models;
    }
    return j;
}

Command infoCommand()
{
    Command c;
    c.name = "info";
    c.synopsis = "info [--json] FILE";
    c.summary = "Summarise a scenario: nodes, GPUs by type, switches, bisection, jobs";
    c.description = "Bisection bandwidth is the max flow between the first and second half "
                    "of the nodes in file order (exact for generated trees).";
    c.options = {{"json", "", "print the summary as JSON"}};
    c.run = [](const Args &args, Io &io) {
        if (args.positional().size() != 1) {
            io.err << "clusterbench info: expected one FILE (see --help)\n";
            return int(ExitBadInput);
        }
        const std::string path = args.positional()[0];
        auto loaded = loadScenarioFile(path);
        if (!loaded) {
            io.err << loaded.error(path) << "\n";
            return int(ExitBadInput);
        }
        const auto j = scenarioSummary(loaded.value());
        if (args.flag("json")) {
            io.out << j.dump(2) << "\n";
            return int(ExitOk);
        }
        const Scenario &s = loaded.value();
        io.out << (s.name.empty() ? path : s.name) << "\n";
        if (!s.description.empty())
            io.out << "  " << wrapText(s.description, outputColumns(), 2, 2) << "\n";
        // The figures, a line each, a long one continuing under its value's column.
        std::ostringstream out;
        out << "Nodes        " << groupedCount(j["nodes"].get<long long>()) << " ("
            << groupedNumber(j["cpus"].get<double>()) << " CPUs, "
            << memoryText(j["memory_gib"].get<double>()) << ")\n";
        out << "GPUs         " << groupedCount(j["gpus"].get<int>());
        std::string sep = " (";
        for (const auto &[type, count] : j["gpus_by_type"].items()) {
            out << sep << groupedCount(count.get<int>()) << " x " << type;
            sep = ", ";
        }
        out << (sep == ", " ? ")" : "") << "\n";
        out << "Switches     " << groupedCount(j["switches"].get<long long>());
        sep = " (";
        for (const auto &[tier, count] : j["switches_by_tier"].items()) {
            out << sep << groupedCount(count.get<int>()) << " " << tier;
            sep = ", ";
        }
        out << (sep == ", " ? ")" : "") << "\n";
        out << "Links        " << groupedCount(j["links"].get<long long>()) << "\n";
        out << "Bisection    " << groupedNumber(j["bisection_gbps"].get<double>()) << " Gbit/s\n";
        out << "Jobs         " << groupedCount(j["jobs"].get<long long>());
        sep = " (";
        for (const auto &[kind, count] : j["jobs_by_kind"].items()) {
            out << sep << groupedCount(count.get<int>()) << " " << kind;
            sep = ", ";
        }
        const int tasks = j["tasks"].get<int>(), gpus = j["gpus_requested"].get<int>();
        out << (sep == ", " ? ")" : "") << "; " << groupedCount(tasks)
            << (tasks == 1 ? " task, " : " tasks, ") << groupedCount(gpus)
            << (gpus == 1 ? " GPU" : " GPUs") << " requested\n";
        if (j.contains("step_time_models"))
            for (const auto &[model, m] : j["step_time_models"].items())
                out << "Step times   " << model << ": measured, " << m["points"].get<std::size_t>()
                    << " points, used by " << m["jobs"].get<std::size_t>() << " jobs\n";
        std::istringstream lines(out.str());
        for (std::string line; std::getline(lines, line);)
            io.out << wrapText(line, outputColumns(), 13) << "\n";
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
