#pragma once
// Small tests on the start of a file that importers' detect() share: a CSV header's columns,
// an XML document's root element, keys of a JSON or YAML document.

#include <string>
#include <string_view>
#include <vector>

namespace cb::detection {

/// The fields of the first non-blank line of `head` split on `delimiter`, trimmed, unquoted.
std::vector<std::string> firstRow(const std::string &head, char delimiter = ',');
/// Whether `row` contains every one of `names` (exact, case-sensitive).
bool hasAll(const std::vector<std::string> &row, const std::vector<std::string> &names);
/// "timestamp, duration, num_gpus": a header for messages (at most ~80 characters).
std::string headerText(const std::vector<std::string> &row);
/// The name of the root element of an XML document (after the declaration, comments and a
/// DOCTYPE), or "" when `head` does not start like XML.
std::string xmlRoot(const std::string &head);
/// The first character that is not blank (and not in a # comment line), or '\0'.
char firstSignificant(const std::string &head);
/// Why `head` is not text, every format's input ("byte 3 is not UTF-8"): a byte that is not
/// UTF-8 (but for a character cut at the sample's end) or a control character other than
/// tab and line ends; "" when it is text.
std::string notText(const std::string &head);
/// Whether a line of `head` starts (after blanks and an optional "- ") with `key:`.
bool yamlKey(const std::string &head, std::string_view key);
/// The top-level keys of a YAML mapping ("nodes" of "nodes:\n- type: ..."), in order, when
/// `head`'s first line that is not blank or a comment is such a key; else empty.
std::vector<std::string> yamlTopKeys(const std::string &head);
/// Whether `head` has the JSON key `"key"` followed by a colon.
bool jsonKey(const std::string &head, std::string_view key);
/// The string value of the first JSON key `"key"` in `head` ("clusterbench-scenario" of
/// `"format": "clusterbench-scenario"`), or "" when there is none or it is not a string.
std::string jsonString(const std::string &head, std::string_view key);
/// Whether some line of `head` has `Key=` as its first word (case-insensitive), as Slurm's
/// configuration files do.
bool lineStartsWithKey(const std::string &head, std::string_view key);
/// Whether `s` is a number.
bool isNumber(const std::string &s);

} // namespace cb::detection
