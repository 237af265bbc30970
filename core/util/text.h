#pragma once
// Number and column formatting shared by messages, tables and generators. Every caller that
// prints a number the same way uses the same function, so outputs stay byte-identical.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cb {

/// A count and its noun, singular for 1: counted(1, "task") is "1 task", counted(3, "task")
/// "3 tasks"; a noun whose plural is not "+s" gives it (counted(2, "switch", "switches")).
/// Thousands are grouped: counted(1024, "node") is "1,024 nodes".
std::string counted(long long n, std::string_view singular, std::string_view plural = {});

/// A number as a default-formatted stream writes it, `precision` significant digits:
/// "0.5", "1e+06", "3.14159". For messages and generated names.
std::string numberText(double v, int precision = 6);

/// Like numberText, but a whole number below 1e15 in magnitude is written out in full
/// ("1000000", not "1e+06"): scores and totals in decision explanations.
std::string wholeOrNumberText(double v);

/// A number with exactly `digits` digits after the point: formatFixed(2.5, 2) == "2.50".
std::string formatFixed(double v, int digits);

/// formatFixed, except that an amount above 0 too small to show at `digits` reads as below
/// the smallest step rather than as none: formatAmount(0.004, 2) == "<0.01" (an expected
/// tardiness cost that is small is not zero).
std::string formatAmount(double v, int digits);

/// A time as a clock, to the second below ("2:27:50", "6d 21:28:57", "-0:00:05"); a time a
/// rounding short of a whole second (1749.9999999999998) reads as that second; "-" when not
/// finite. With `hundredths`, a time below 10 s that is not whole shows them ("0:00:02.50").
/// The window and the terminal print times with it.
std::string clockText(double seconds, bool hundredths = false);

/// `s` padded with spaces on the right to at least `width` characters (never cut).
std::string padRight(std::string s, std::size_t width);

/// Columns `s` takes on a terminal: its UTF-8 characters (continuation bytes not counted).
std::size_t displayWidth(std::string_view s);

/// `text` broken at spaces into lines of at most `width` columns, each line after the first
/// indented by `indent` spaces (the first keeps what the caller printed before it, which is
/// `firstColumn` columns). Existing line breaks are kept; a word longer than a line stands
/// alone, never cut. No trailing newline.
std::string wrapText(std::string_view text, std::size_t width, std::size_t indent = 0,
                     std::size_t firstColumn = 0);

/// `s` without any space characters (" K80 " -> "K80").
std::string withoutSpaces(std::string s);

/// `v` rounded to the nearest multiple of 1 / perUnit (roundTo(0.26, 4) == 0.25).
double roundTo(double v, double perUnit);

/// The items of a comma-separated list with the blanks around each removed:
/// "k8s-default, dltap" -> {"k8s-default", "dltap"}. Empty items are dropped, or kept with
/// `keepEmpty` (for callers that refuse them).
std::vector<std::string> commaList(std::string_view text, bool keepEmpty = false);

/// Of `names`, the one closest to `word` within two edits (insertions, deletions,
/// substitutions: a likely typo, "dltapp" -> "dltap"), the first of equals; empty when none is.
std::string nearestName(std::string_view word, const std::vector<std::string> &names);

/// The 64-bit FNV-1a hash of `s`: stable across platforms and runs (seeds, tie-breaks).
std::uint64_t fnv1a(std::string_view s);

} // namespace cb
