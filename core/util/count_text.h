#pragma once
// Counts in explanations, thousands grouped as people read them: "1,020 nodes".

#include <string>

namespace cb {

/// An integer with its thousands grouped by commas: 1020 -> "1,020".
std::string groupedCount(long long v);
/// A fixed-point number (as formatFixed writes it) with the thousands of its whole part
/// grouped: 2693305.14, 1 -> "2,693,305.1"; -1234.5, 1 -> "-1,234.5".
std::string groupedFixed(double v, int digits);
/// A figure with its thousands grouped, without decimals when whole ("51,200", "2.5";
/// a fraction as numberText writes it).
std::string groupedNumber(double v);
/// A memory size given in GiB, in the largest binary unit it fills, to one decimal (".0"
/// dropped) and grouped: 262144 -> "262,144 GiB", 1.5 -> "1.5 GiB", 0.5 -> "512 MiB",
/// 512 / 2^30 -> "512 bytes" (a quantity written without its unit).
std::string memoryText(double gib);

} // namespace cb
