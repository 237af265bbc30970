#pragma once
// What the commands that run policies on one scenario read from their command line: place,
// simulate and step read SCENARIO, --policy, --policy-file and --seed (readPolicyInput);
// compare and sweep read SCENARIO, --seed and --seeds (readScenarioSeeds); place and step
// read --log-detail.

#include "cli/command.h"
#include "model/scenario.h"
#include "runs/run_service.h"
#include "sched/decision_log.h"
#include "sched/policy.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cb::cli {

struct PolicyInput
{
    Scenario scenario;
    Policy policy;          ///< resolved; for a stochastic policy only its name
    std::uint64_t seed = 0; ///< --seed, else the scenario's settings.seed
    bool stochastic = false; ///< STS or one of its baselines (runs/run_service.h)
    /// The jobs that can never start on the cluster (model/validation.h), as warned on stderr.
    Problems neverStart;
};

/// Loads the scenario and resolves the policy (a stochastic policy name is kept as it is:
/// the run service checks the scenario); on bad input prints every problem to io.err
/// (prefixed with "clusterbench COMMAND") and returns nullopt.
/// `positionals`: how many positional arguments the command takes (SCENARIO first).
std::optional<PolicyInput> readPolicyInput(const Args &args, Io &io, const std::string &command,
                                           std::size_t positionals = 1);

/// --policy, --seed and --policy-file, as readPolicyInput reads them.
std::vector<Option> policyInputOptions();

/// Prints the first three of `warnings` as "clusterbench COMMAND: warning: PATH: problem", and
/// how many more there are and what lists them (`listedBy`).
void printWarnings(const Problems &warnings, const std::string &path, Io &io,
                   const std::string &command, const std::string &listedBy);
/// Warns on io.err (the first three, then how many more) about the scenario's jobs that
/// can never start on its cluster (model/validation.h): they load, and would wait for ever.
/// Returns them all.
Problems warnJobsThatNeverStart(const Scenario &scenario, const std::string &path, Io &io,
                                const std::string &command);

/// Problems as JSON, each {"where": JSON pointer, "message": ...}: validate's problems and
/// warnings, and the jobs that never start in place's and simulate's --json output.
nlohmann::ordered_json problemsJson(const Problems &problems);

/// --policies P1,P2,...: the names in order; on none, or an empty one ("a,,b", which was
/// skipped without a word), prints the problem (prefixed "clusterbench COMMAND") and returns
/// nullopt.
std::optional<std::vector<std::string>> readPolicyNames(const Args &args, Io &io,
                                                        const std::string &command);

/// The built-in placement policies, comma-separated, for help texts.
std::string builtinPolicyList();

/// readPolicyInput for the commands that explain one placement (explain, why): a stochastic
/// policy is refused with a message naming the command, since it logs no per-node scores.
std::optional<PolicyInput> readPlacementPolicyInput(const Args &args, Io &io,
                                                    const std::string &command,
                                                    std::size_t positionals = 1);

struct ScenarioSeeds
{
    std::string path;       ///< SCENARIO as given
    Scenario scenario;
    std::uint64_t seed = 0; ///< --seed, else the scenario's settings.seed
    int seeds = 1;          ///< --seeds, 1..100000
};

/// Loads SCENARIO (the first positional argument; the caller checks their count) and reads
/// --seed (>= 0) and --seeds (1..100000, default 1); on bad input prints the problems to
/// io.err and returns nullopt, naming the option. `extra` is the message of one more check
/// the command makes ("--jobs: expected ..."), said when `extraOk` is false.
std::optional<ScenarioSeeds> readScenarioSeeds(const Args &args, Io &io, const std::string &command,
                                               const std::string &extra = {}, bool extraOk = true);

/// The --pin option of place and simulate.
Option pinOption();
/// --pin JOB/TASK=NODE[,...] into request.pins; on bad input prints the problem and returns
/// false. The pins are checked against the scenario by the run service.
bool readPins(const Args &args, Io &io, const std::string &command, RunRequest &request);

/// What if: the policy's own run beside a pinned one (the request without its pins, its
/// decision log or progress). On failure prints it and returns nullopt.
std::optional<Run> ownRunBesidePins(const Scenario &scenario, const RunRequest &request, Io &io,
                                    const std::string &command);

/// The --log-detail option of place and step.
Option logDetailOption();
/// --log-detail (default auto); on bad input prints the problem and returns nullopt.
std::optional<LogDetail> readLogDetail(const Args &args, Io &io, const std::string &command);

} // namespace cb::cli
