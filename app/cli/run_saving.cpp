#include "cli/run_saving.h"
#include "cli/output_columns.h"
#include "util/text.h"

#include <ostream>

namespace cb::cli {

std::vector<Option> runSavingOptions()
{
    return {{"workspace", "FILE",
             "store the run in this workspace (default: $CLUSTERBENCH_WORKSPACE, else "
             "~/.local/share/clusterbench/workspace.sqlite)"},
            {"no-save", "", "do not store the run in the workspace"}};
}

std::optional<std::unique_ptr<Workspace>> openRunWorkspace(const Args &args, Io &io,
                                                           const std::string &command)
{
    if (args.flag("no-save"))
        return std::unique_ptr<Workspace>();
    auto ws = Workspace::open(args.value("workspace", Workspace::defaultPath()));
    if (!ws) {
        io.err << "clusterbench " << command << ": " << ws.error()
               << "\n(use --no-save to run without storing, or --workspace FILE)\n";
        return std::nullopt;
    }
    return std::move(ws.value());
}

std::optional<std::int64_t> saveRunTo(Workspace &workspace, const Scenario &scenario,
                                      RunRecord run, Io &io, const std::string &command)
{
    auto stored = workspace.addScenario(scenario);
    if (!stored) {
        io.err << "clusterbench " << command << ": " << stored.error() << "\n";
        return std::nullopt;
    }
    run.scenarioDigest = stored->digest;
    auto id = workspace.saveRun(std::move(run));
    if (!id) {
        io.err << "clusterbench " << command << ": " << id.error() << "\n";
        return std::nullopt;
    }
    return id.value();
}

std::optional<std::int64_t> saveRun(Workspace &workspace, const Scenario &scenario,
                                    const Run &run, Io &io, const std::string &command)
{
    auto id = saveRunTo(workspace, scenario, runRecord(run, scenario), io, command);
    if (id)
        io.err << wrapText("Saved as run " + std::to_string(*id) + " in " + workspace.path(),
                           outputColumns(), 2)
               << "\n";
    return id;
}

} // namespace cb::cli
