#pragma once
// Counts in explanations, thousands grouped as people read them: "1,020 nodes".

#include <string>

namespace cb {

/// An integer with its thousands grouped by commas: 1020 -> "1,020".
std::string groupedCount(long long v);

} // namespace cb
