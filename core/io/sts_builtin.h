#pragma once
// The STS authors' data files compiled into the program (resources/data/sts; the build
// generates the table from the files, so a changed file rebuilds it).

#include <string_view>
#include <utility>
#include <vector>

namespace cb {

/// (file name, contents) of every built-in file, in a fixed order.
const std::vector<std::pair<std::string_view, std::string_view>> &stsBuiltinFiles();

} // namespace cb
