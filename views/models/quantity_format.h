#pragma once
// Human-readable quantities for tables and tooltips (display only; edits use raw numbers).

#include <QString>

#include <cstdint>

namespace cb::views {

/// 1536 -> "1.5 KB", 548'000'000 -> "548 MB" (decimal units, as model sizes are quoted).
QString formatBytes(std::int64_t bytes);
/// 3725 -> "1:02:05"; 90061 -> "1d 1:01:01"; fractions of a second are dropped.
QString formatDuration(double seconds);
/// 100 -> "100 Gb/s", 1600 -> "1.6 Tb/s".
QString formatGbps(double gbps);
/// A number without trailing zeros: 64 -> "64", 0.5 -> "0.5".
QString formatNumber(double value);

} // namespace cb::views
