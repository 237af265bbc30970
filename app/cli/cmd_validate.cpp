#include "cli/command.h"
#include "cli/policy_input.h"
#include "io/scenario_json.h"
#include "model/validation.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace cb::cli {

Command validateCommand()
{
    Command c;
    c.name = "validate";
    c.synopsis = "validate [--json] FILE...";
    c.summary = "Check scenario files and list every problem found";
    c.description = "Each problem is printed as FILE: /json/pointer: what was expected. "
                    "Checks that compare parts of a file (a link's endpoints with the nodes, "
                    "a job's GPU type with the cluster's) wait until the parts they compare "
                    "read without problems; every other problem is listed at once. "
                    "A valid file may still hold jobs that can never start on its cluster "
                    "(a task no node can hold, or more GPUs at once than the cluster has): "
                    "they are printed as warnings, FILE: /json/pointer: warning: why, since "
                    "a scenario being edited may be short of nodes for a while. "
                    "Exit code 0 when every file is valid, 2 when any is not.";
    c.options = {{"json", "", "print a JSON report"}, {"quiet", "", "print nothing, only exit"}};
    c.run = [](const Args &args, Io &io) {
        if (args.positional().empty()) {
            io.err << "clusterbench validate: expected at least one FILE (see --help)\n";
            return int(ExitBadInput);
        }
        bool allValid = true;
        nlohmann::ordered_json report = nlohmann::ordered_json::array();
        for (const std::string &path : args.positional()) {
            auto loaded = loadScenarioFile(path);
            allValid = allValid && loaded.ok();
            const Problems warnings = loaded ? jobsThatNeverStart(loaded.value()) : Problems{};
            if (args.flag("json")) {
                nlohmann::ordered_json entry;
                entry["file"] = path;
                entry["valid"] = loaded.ok();
                entry["problems"] = problemsJson(loaded ? Problems{} : loaded.problems());
                entry["warnings"] = problemsJson(warnings);
                report.push_back(entry);
            } else if (!args.flag("quiet")) {
                if (loaded) {
                    for (const Problem &p : warnings)
                        io.out << path << ": " << p.where << ": warning: " << p.message << "\n";
                    io.out << path << ": valid ("
                           << counted((long long)loaded->cluster.nodes.size(), "node") << ", "
                           << counted((long long)loaded->jobs.size(), "job") << ")";
                    if (!warnings.empty())
                        io.out << "; " << warnings.size() << " warning"
                               << (warnings.size() == 1 ? "" : "s");
                    io.out << "\n";
                } else
                    io.out << loaded.error(path) << "\n"
                           << path << ": " << loaded.problems().size() << " problem"
                           << (loaded.problems().size() == 1 ? "" : "s") << "\n";
            }
        }
        if (args.flag("json"))
            io.out << report.dump(2) << "\n";
        return int(allValid ? ExitOk : ExitBadInput);
    };
    return c;
}

} // namespace cb::cli
