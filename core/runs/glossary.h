#pragma once
// Plain-language definitions of the scoring plugins and the run metrics, for the window's
// tooltips and the terminal's help: what each measures and when it is high, in a sentence
// or two a student can act on. Plain C++: no Qt.

#include <string>

namespace cb {

/// What a scoring plugin (its name as logs write it: "dltap", "least-allocated", ...)
/// rewards; empty for an unknown name.
std::string pluginGlossary(const std::string &plugin);

/// What a run metric (its key: "mean_jct_s", "cross_node_bytes", ...) measures; empty for an
/// unknown key.
std::string metricGlossary(const std::string &key);

} // namespace cb
