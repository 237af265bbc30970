#pragma once
// The fuzz targets: every reader of user-provided files (the scenario reader, every importer,
// the run, sweep, placement, policy and stored-run readers) behind one signature, so that
// the libFuzzer programs (fuzz_main.cpp, one per target) and the regression test that
// replays every crash found (tests/core/tst_fuzz_regressions.cpp) run the same code.
//
// A target returns "" when the input was handled (read, or refused with problems), and a
// description when an invariant broke: a scenario that loads but does not survive a save
// and reload, a refusal without a location. Crashes, sanitizer reports and exceptions that
// escape are found by the caller (libFuzzer reports them; the regression test catches them).

#include <string>
#include <string_view>
#include <vector>

namespace cb::fuzz {

/// Inputs of importers that read several files are split at this line: the first part is
/// the first file, and so on.
inline constexpr std::string_view kFileSeparator = "\n@@next-file@@\n";

struct Target
{
    std::string name;                   ///< "scenario", "import-k8s-nodes", ...
    std::string what;                   ///< one line for --help and the README
    std::vector<std::string> fileNames; ///< names the parts of a split input are given
    std::string (*run)(std::string_view input, const Target &self) = nullptr;
};

/// Every target, in a fixed order: the file readers, then one per importer.
const std::vector<Target> &targets();
const Target *findTarget(std::string_view name);

} // namespace cb::fuzz
