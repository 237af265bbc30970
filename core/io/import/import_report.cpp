#include "io/import/import_report.h"

#include <sstream>

namespace cb {

std::string ImportNote::toString() const
{
    std::string s = file;
    if (line > 0)
        s += ":" + std::to_string(line);
    return s + ": " + message;
}

void ImportReport::skip(const std::string &file, int line, std::string reason)
{
    skipped.push_back({file, line, std::move(reason)});
}

void ImportReport::assume(std::string what)
{
    assumptions.push_back(std::move(what));
}

std::string ImportReport::toText() const
{
    std::ostringstream s;
    s << "import " << format << ":";
    if (cluster)
        s << " " << cluster->nodes.size() << " nodes, " << cluster->totalGpus() << " GPUs, "
          << cluster->switches.size() << " switches;";
    for (const auto &[model, table] : stepTimeModels)
        s << " step-time model for " << model << " (" << table.points.size() << " points);";
    s << " " << jobs.size() << " jobs, " << skipped.size() << " skipped rows\n";
    for (const ImportNote &n : skipped)
        s << "skipped " << n.toString() << "\n";
    for (const std::string &a : assumptions)
        s << "assumed: " << a << "\n";
    return s.str();
}

nlohmann::ordered_json ImportReport::toJson() const
{
    nlohmann::ordered_json j;
    j["format"] = format;
    if (cluster) {
        j["nodes"] = cluster->nodes.size();
        j["gpus"] = cluster->totalGpus();
        j["switches"] = cluster->switches.size();
    }
    if (!stepTimeModels.empty()) {
        nlohmann::ordered_json m;
        for (const auto &[model, table] : stepTimeModels)
            m[model] = table.points.size();
        j["step_time_points"] = m;
    }
    j["jobs"] = jobs.size();
    j["skipped"] = nlohmann::ordered_json::array();
    for (const ImportNote &n : skipped)
        j["skipped"].push_back({{"file", n.file}, {"line", n.line}, {"reason", n.message}});
    j["assumptions"] = assumptions;
    return j;
}

} // namespace cb
