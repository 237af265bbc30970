#pragma once
// Where the sample scenarios are, for the window's start page and open dialog and the
// terminal's help.

#include <string>

namespace cb {

/// The folder of the sample scenarios: PREFIX/share/clusterbench/samples beside an installed
/// program (`programDir` is PREFIX/bin; `cmake --install` puts them there), else a
/// sample-clusters folder beside the program (copied with it), else the source tree the
/// program was built from (`builtFrom`); empty when none exists.
std::string sampleFolder(const std::string &programDir, const std::string &builtFrom);

/// The folder of the running program (from /proc/self/exe), empty when it cannot be read.
std::string programFolder();

} // namespace cb
