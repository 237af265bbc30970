#pragma once
// Writes JSON values as YAML for Kubernetes manifests. Every string value is double-quoted,
// so YAML specials ("yes", "no", "on", "*a", "&a", ": x", "#", a leading "-", "1e3",
// newlines) read back as the same string in YAML 1.1 and 1.2 readers alike; control
// characters are escaped (\t, \x1b, \x7f, \u2028, ...), so a name holding them still
// parses and reads back as itself. Keys stay plain when that is unambiguous. Object key
// order is kept, so output is deterministic.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cb {

class YamlText
{
public:
    /// One YAML document (no "---" marker), ending with a newline.
    static std::string document(const nlohmann::ordered_json &value);
    /// Text safe inside a "# ..." YAML comment line: printable ASCII kept, every other byte
    /// (control characters, and the UTF-8 of NEL, U+2028 and U+2029, which YAML reads as line
    /// breaks) written as '?'.
    static std::string comment(const std::string &text);
    /// Several documents separated by "---" lines.
    static std::string documents(const std::vector<nlohmann::ordered_json> &values);
};

} // namespace cb
