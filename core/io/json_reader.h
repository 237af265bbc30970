#pragma once
// Reads fields of a JSON object while collecting every problem (wrong type, out of range,
// missing, unknown key) with its JSON pointer, so a user sees all mistakes at once.

#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cb {

/// Escapes one reference token of a JSON pointer (RFC 6901): "~" -> "~0", "/" -> "~1".
std::string jsonPointerToken(const std::string &key);

/// Names a JSON value's type for messages: "a string", "a number", "an array", ...
std::string jsonTypeName(const nlohmann::json &value);

/// The string at `key` of an object, or `fallback` when the value is not an object, has no
/// such key or holds something else there. For checks of untrusted files ("format"), where
/// nlohmann's value() would throw on a number.
std::string stringField(const nlohmann::json &object, const std::string &key,
                        const std::string &fallback = {});
/// The same for an integer that fits in 64 bits (a number with a fraction is not one).
std::int64_t integerField(const nlohmann::json &object, const std::string &key,
                          std::int64_t fallback);
/// The child at `key` of an object, or nullptr when there is none (never inserts, never
/// throws, unlike operator[] on a const value).
const nlohmann::json *childField(const nlohmann::json &object, const std::string &key);

/// Parses text as JSON. On failure returns a problem "line L, column C: ..." (an empty input
/// gets its own message). A UTF-8 byte-order mark is accepted and skipped.
Result<nlohmann::json> parseJsonText(const std::string &text);

class ObjectReader
{
public:
    enum Presence { Required, Optional };

    /// Reports a problem at `pointer` if `value` is not an object.
    ObjectReader(const nlohmann::json &value, std::string pointer, Problems &problems);

    bool isObject() const { return m_obj != nullptr; }
    const std::string &pointer() const { return m_pointer; }
    std::string pointer(const std::string &key) const;
    bool has(const std::string &key) const;

    std::string string(const std::string &key, Presence presence, std::string fallback = {});
    /// A finite number in [lo, hi].
    double number(const std::string &key, Presence presence, double fallback, double lo,
                  double hi);
    /// An integer in [lo, hi] (a number with a fraction is rejected).
    std::int64_t integer(const std::string &key, Presence presence, std::int64_t fallback,
                         std::int64_t lo, std::int64_t hi);
    bool boolean(const std::string &key, Presence presence, bool fallback);
    /// A child of the given type, or nullptr (a problem is recorded when present but wrong,
    /// or missing and required).
    const nlohmann::json *array(const std::string &key, Presence presence);
    const nlohmann::json *object(const std::string &key, Presence presence);
    std::map<std::string, std::string> stringMap(const std::string &key);
    std::vector<std::string> stringList(const std::string &key);
    /// Marks a key as known without reading it.
    void skip(const std::string &key) { m_seen.insert(key); }

    /// Reports every key that was never read as unknown.
    void finish();

    void problem(const std::string &key, std::string message);

private:
    const nlohmann::json *field(const std::string &key, Presence presence);

    const nlohmann::json *m_obj = nullptr;
    std::string m_pointer;
    Problems &m_problems;
    std::set<std::string> m_seen;
};

} // namespace cb
