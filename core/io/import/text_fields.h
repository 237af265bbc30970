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
/// A date-time as seconds since 1970-01-01 00:00:00 UTC: "YYYY-MM-DD HH:MM:SS" (or with
/// 'T' or '/', fractional seconds, no seconds, or a date alone), optionally followed by a
/// zone: "Z", "+08:00", "-0700", "UTC", "GMT" or a US zone abbreviation (PST, PDT, MST, MDT,
/// CST, CDT, EST, EDT), which is applied. Without a zone it is read as UTC.
std::optional<double> parseDateTime(std::string_view s);
/// Whether parseDateTime found a zone in `s` (assumes it parses).
bool dateTimeHasZone(std::string_view s);
/// Seconds since 1970 as "YYYY-MM-DD HH:MM:SS" (UTC), for messages.
std::string formatDateTime(double epochSeconds);
/// Offset of the first byte that is not part of valid UTF-8, or nullopt when all is valid.
std::optional<std::size_t> invalidUtf8At(std::string_view s);
/// Offset of the first byte that is not text: one invalidUtf8At finds, or a NUL (valid UTF-8,
/// but in no text file: a UTF-16 file without a byte-order mark has one beside every
/// character); nullopt when there is none.
std::optional<std::size_t> nonTextAt(std::string_view s);
/// What to do about text that is not UTF-8, for a message, from the start of the file: a
/// UTF-16 or UTF-32 file (a byte-order mark, or a NUL every other byte) is converted from
/// that ("convert the file to UTF-8: it is UTF-16 (...), e.g. iconv -f utf-16 -t utf-8"),
/// anything else from Latin-1.
std::string toUtf8Advice(std::string_view fileStart);
/// `s` for a message: quoted, with control characters and bytes that are not UTF-8 written
/// as \xNN (so it is safe on a terminal and in JSON), cut after 60 characters.
std::string shown(std::string_view s);
/// Removes a UTF-8 byte-order mark at the start, if present; returns whether there was one.
bool stripBom(std::string &text);

} // namespace cb::importtext
