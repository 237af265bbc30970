#include "cli/policy_input.h"

#include "io/scenario_json.h"
#include "sched/policy_json.h"

#include <ostream>

namespace cb::cli {

std::optional<PolicyInput> readPolicyInput(const Args &args, Io &io, const std::string &command)
{
    const std::string prefix = "clusterbench " + command + ": ";
    if (args.positional().size() != 1 || !args.has("policy")) {
        io.err << prefix << "expected SCENARIO and --policy P (see --help)\n";
        return std::nullopt;
    }
    const std::string path = args.positional()[0];
    auto loaded = loadScenarioFile(path);
    if (!loaded) {
        io.err << loaded.error(path) << "\n";
        return std::nullopt;
    }
    auto seed = args.integer("seed", (long long)loaded->settings.seed);
    if (!seed || seed.value() < 0) {
        io.err << prefix << "--seed: expected an integer >= 0\n";
        return std::nullopt;
    }
    auto presets = userPresets(loaded.value(), args.value("policy-file"));
    if (!presets) {
        io.err << presets.error(args.has("policy-file") ? "" : path) << "\n";
        return std::nullopt;
    }
    auto policy = resolvePolicy(args.value("policy"), presets.value());
    if (!policy) {
        io.err << prefix << policy.error() << "\n";
        return std::nullopt;
    }
    return PolicyInput{std::move(loaded.value()), std::move(policy.value()),
                       std::uint64_t(seed.value())};
}

} // namespace cb::cli
