#pragma once
// Human-readable quantities for every table, label, tooltip and axis of the window: one
// number format (digits grouped by thousands, at most two decimals, no trailing zeros), one
// time format (h:mm:ss, "1d 2:03:04" from a day on) and the scenario's currency for money.
// Edits accept what the display shows (parseDuration reads "1:02:03" back).

#include <QString>

#include <cstdint>
#include <optional>

namespace cb::views {

/// Three significant digits in decimal units (as model sizes are quoted): 1536 -> "1.54 KB",
/// 548'000'000 -> "548 MB".
QString formatBytes(std::int64_t bytes);
/// The same for a double (traffic sums): 2e9 -> "2 GB", 0 -> "0 B".
QString formatByteAmount(double bytes);
/// 3725 -> "1:02:05"; 90061 -> "1d 1:01:01". Whole seconds from 10 s on; below, two
/// decimals when the value has a fraction (0.42 -> "0:00:00.42"), so short jobs do not read
/// as zero.
QString formatDuration(double seconds);
/// How formatDuration writes times up to `upperSeconds`, for an axis title: "h:mm:ss", or
/// "d h:mm:ss" where a day or more is reached (its ticks read "5d 0:00:00").
QString durationFormatName(double upperSeconds);
/// `text` with its spaces made non-breaking: a value in a wrapped label ("4d 5:32:10",
/// "852 kWh") stays on one line.
QString unbroken(QString text);
/// Reads a duration as formatDuration writes it ("1:02:05", "1d 1:01:01", "2:05" as m:ss),
/// or seconds ("90", "1.5"), or with units ("1.5h", "30m", "45s", "2d"). Empty on anything
/// else or a negative value.
std::optional<double> parseDuration(const QString &text);
/// Three significant digits: 100 -> "100 Gbit/s", 533.33 -> "533 Gbit/s", 1600 -> "1.6 Tbit/s".
QString formatGbps(double gbps);
/// The window's number format: 1024 -> "1,024", 0.5 -> "0.5", 533.3333 -> "533.33",
/// 0.00123 -> "0.00123" (three significant digits below 0.01).
QString formatNumber(double value);
/// Money in `currency` (ISO 4217): 1234.5 -> "1,234.50 EUR" ("1,234.50" without a currency).
QString formatMoney(double value, const QString &currency);
/// 12.345 -> "12.3 kWh"; from 1,000 kWh on "1.23 MWh".
QString formatEnergy(double kWh);
/// 1500 -> "1.5 kW", 250 -> "250 W", 2.5e6 -> "2.5 MW".
QString formatPower(double watts);
/// A fraction as a percentage with at most one decimal: 0.4567 -> "45.7 %", 1 -> "100 %".
QString formatPercent(double fraction);

} // namespace cb::views
