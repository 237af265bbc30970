#pragma once
// Small text helpers shared by the importers: trimming, splitting and strict number parsing
// (the whole field must be a finite number; "12abc", "", "nan" are rejected).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cb::importtext {

std::string trim(std::string_view s);
std::string lower(std::string_view s);
/// Splits on runs of spaces and tabs; no empty parts.
std::vector<std::string> splitWhitespace(std::string_view s);
/// Splits on `sep`, keeping empty parts.
std::vector<std::string> split(std::string_view s, char sep);
/// A finite number (leading/trailing blanks allowed), else nullopt.
std::optional<double> parseNumber(std::string_view s);
/// An integer written without fraction ("12", "-3", "1e3" is rejected), else nullopt.
std::optional<long long> parseInteger(std::string_view s);
/// Shortest round-trip text of a number, for messages.
std::string formatNumber(double v);
/// "YYYY-MM-DD HH:MM:SS" (or with 'T'; optional fractional seconds) as seconds since
/// 1970-01-01 00:00:00, read as UTC (traces rebase times, so the zone does not matter).
std::optional<double> parseDateTime(std::string_view s);
/// Removes a UTF-8 byte-order mark at the start, if present; returns whether there was one.
bool stripBom(std::string &text);

} // namespace cb::importtext
