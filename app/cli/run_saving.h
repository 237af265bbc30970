#pragma once
// Storing a command's runs in the workspace: --workspace FILE (default
// Workspace::defaultPath(), i.e. $CLUSTERBENCH_WORKSPACE or the user's data directory) and
// --no-save. simulate, place, compare and sweep use it.

#include "cli/command.h"
#include "model/scenario.h"
#include "runs/run_service.h"
#include "store/workspace.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace cb::cli {

/// The two options every run-producing command takes.
std::vector<Option> runSavingOptions();

/// The workspace named by the command line, or nullptr with --no-save. On failure prints
/// "clusterbench COMMAND: ..." to io.err and returns nullopt.
std::optional<std::unique_ptr<Workspace>> openRunWorkspace(const Args &args, Io &io,
                                                           const std::string &command);

/// Stores the scenario (if new) and the run; returns the run id, or nullopt after printing
/// the problem. `run.scenarioDigest` is filled in.
std::optional<std::int64_t> saveRunTo(Workspace &workspace, const Scenario &scenario,
                                      RunRecord run, Io &io, const std::string &command);

/// Stores a Run of the run service (runRecord) and says where on io.err ("Saved as run N in
/// PATH"); nullopt after printing the problem.
std::optional<std::int64_t> saveRun(Workspace &workspace, const Scenario &scenario,
                                    const Run &run, Io &io, const std::string &command);

} // namespace cb::cli
