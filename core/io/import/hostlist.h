#pragma once
// Slurm hostlist expressions: "node[01-16]", "tux[0,2-3]", "a[1-2]b[1-2]", "c1,c2,gpu[1-4]".
// Zero padding follows the lower bound's width ("node[08-10]" gives node08, node09, node10).

#include "util/result.h"

#include <string>
#include <vector>

namespace cb {

/// Expands a hostlist into names, in the written order. Fails on an unclosed bracket, a
/// reversed or non-numeric range, or more than `limit` names.
Result<std::vector<std::string>> expandHostlist(const std::string &expression,
                                                std::size_t limit = 1000000);

} // namespace cb
