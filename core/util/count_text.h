#pragma once
// Counts in explanations, thousands grouped as people read them: "1,020 nodes".

#include <string>

namespace cb {

/// An integer with its thousands grouped by commas: 1020 -> "1,020".
std::string groupedCount(long long v);
/// A fixed-point number (as formatFixed writes it) with the thousands of its whole part
/// grouped: 2693305.14, 1 -> "2,693,305.1"; -1234.5, 1 -> "-1,234.5".
std::string groupedFixed(double v, int digits);

} // namespace cb
