#pragma once
// A guard for YAML inputs against alias expansion ("billion laughs"): an alias stands for the
// whole node it names, so a few hundred bytes of nested aliases can stand for billions of
// nodes, and reading them would take minutes and gigabytes. Before an importer walks a YAML
// document, this counts the nodes it stands for with every alias expanded, without expanding
// anything, and refuses documents that stand for more than
//   kYamlExpansionFactor x (the nodes written) + kYamlExpansionAllowance
// nodes: real Kubernetes, Slurm and topograph files use aliases little or not at all. It also
// refuses a parse that stops making progress (yaml-cpp 0.7 loops on a stray ',' or '}' where a
// node would start), so the importers' own yaml-cpp calls never see such a file.

#include "util/result.h"

#include <cstddef>
#include <string>

namespace cb {

inline constexpr std::size_t kYamlExpansionFactor = 10;
inline constexpr std::size_t kYamlExpansionAllowance = 100000;

/// Fails naming `file` and the line of the alias that goes over the limit; a YAML syntax error
/// (or a token the parser would loop on) fails with its line and column.
Status checkYamlExpansion(const std::string &text, const std::string &file);

} // namespace cb
