#include "io/json_reader.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <vector>

namespace cb {

using nlohmann::json;

std::string jsonPointerToken(const std::string &key)
{
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string jsonTypeName(const json &value)
{
    switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "an unsupported value";
    }
}

namespace {

// Turns "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..."
// into "line 3, column 5: syntax error ...".
std::string tidyParseMessage(const std::string &what)
{
    const auto at = what.find(" at line ");
    if (at != std::string::npos)
        return what.substr(at + 4);
    const auto colon = what.find("] ");
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

/// Follows a parse (nlohmann's parser callback) to find the first key an object repeats,
/// which the parser would take silently, the last value winning: its JSON pointer.
class RepeatedKeys
{
public:
    bool operator()(int, json::parse_event_t event, json &parsed)
    {
        using Event = json::parse_event_t;
        switch (event) {
        case Event::object_start:
        case Event::array_start:
            m_levels.push_back({event == Event::array_start, 0, {}});
            break;
        case Event::key:
            if (!m_levels.empty()) {
                std::vector<std::string> &keys = m_levels.back().keys;
                std::string key = parsed.get<std::string>();
                const bool again = std::find(keys.begin(), keys.end(), key) != keys.end();
                keys.push_back(std::move(key)); // (the pointer names the current key)
                if (again && m_first.empty())
                    m_first = pointer();
            }
            break;
        case Event::object_end:
        case Event::array_end:
            if (!m_levels.empty())
                m_levels.pop_back();
            elementDone();
            break;
        case Event::value:
            elementDone();
            break;
        }
        return true;
    }
    /// The pointer of the first repeated key ("/jobs/3/id"), or empty.
    const std::string &first() const { return m_first; }

private:
    struct Level
    {
        bool array = false;
        std::size_t index = 0;         ///< an array's element being read
        std::vector<std::string> keys; ///< an object's keys so far, the current one last
    };
    void elementDone()
    {
        if (!m_levels.empty() && m_levels.back().array)
            ++m_levels.back().index;
    }
    std::string pointer() const
    {
        std::string p;
        for (const Level &l : m_levels) {
            p += '/';
            if (l.array) {
                p += std::to_string(l.index);
                continue;
            }
            if (!l.keys.empty())
                for (char c : l.keys.back())
                    p += c == '~'   ? std::string("~0")
                         : c == '/' ? std::string("~1")
                                    : std::string(1, c);
        }
        return p;
    }
    std::vector<Level> m_levels;
    std::string m_first;
};

} // namespace

std::string stringField(const json &object, const std::string &key, const std::string &fallback)
{
    const json *v = childField(object, key);
    return v && v->is_string() ? v->get<std::string>() : fallback;
}

std::int64_t integerField(const json &object, const std::string &key, std::int64_t fallback)
{
    const json *v = childField(object, key);
    if (!v || !v->is_number_integer())
        return fallback;
    if (v->is_number_unsigned() &&
        v->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        return fallback;
    return v->get<std::int64_t>();
}

const json *childField(const json &object, const std::string &key)
{
    if (!object.is_object())
        return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

Result<json> parseJsonText(const std::string &text)
{
    std::size_t start = 0;
    if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0)
        start = 3;
    if (text.find_first_not_of(" \t\r\n", start) == std::string::npos)
        return Result<json>::failure("", "the file is empty; expected a JSON document");
    try {
        RepeatedKeys repeated;
        json doc =
            json::parse(text.begin() + std::ptrdiff_t(start), text.end(), std::ref(repeated));
        if (!repeated.first().empty())
            return Result<json>::failure(repeated.first(),
                                         "this key appears twice in one object; JSON readers "
                                         "keep only one of the two values, so give it once");
        return doc;
    } catch (const json::parse_error &e) {
        return Result<json>::failure("", "not valid JSON: " + tidyParseMessage(e.what()));
    } catch (const json::out_of_range &e) {
        // A number too large for a double ("1e400"): find where it is for the message.
        const std::string what = e.what();
        const auto q = what.find("parsing '");
        std::string literal, where;
        if (q != std::string::npos) {
            literal = what.substr(q + 9, what.find('\'', q + 9) - (q + 9));
            const auto pos = text.find(literal, start);
            if (pos != std::string::npos) {
                const auto line = 1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(pos), '\n');
                const auto lineStart = text.rfind('\n', pos);
                const auto column = pos - (lineStart == std::string::npos ? 0 : lineStart + 1) + 1;
                where = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
            }
        }
        return Result<json>::failure("", "not valid JSON: " + where + "number " + literal +
                                             " is too large to represent");
    } catch (const json::exception &e) {
        return Result<json>::failure("", std::string("not valid JSON: ") + e.what());
    }
}

ObjectReader::ObjectReader(const json &value, std::string pointer, Problems &problems)
    : m_pointer(std::move(pointer)), m_problems(problems)
{
    if (value.is_object())
        m_obj = &value;
    else
        m_problems.push_back({m_pointer.empty() ? "/" : m_pointer,
                              "expected an object, found " + jsonTypeName(value)});
}

std::string ObjectReader::pointer(const std::string &key) const
{
    return m_pointer + "/" + jsonPointerToken(key);
}

bool ObjectReader::has(const std::string &key) const
{
    return m_obj && m_obj->contains(key);
}

void ObjectReader::problem(const std::string &key, std::string message)
{
    m_problems.push_back({key.empty() ? m_pointer : pointer(key), std::move(message)});
}

const json *ObjectReader::field(const std::string &key, Presence presence)
{
    m_seen.insert(key);
    if (!m_obj)
        return nullptr;
    auto it = m_obj->find(key);
    if (it == m_obj->end()) {
        if (presence == Required)
            m_problems.push_back({m_pointer.empty() ? "/" : m_pointer,
                                  "missing required field \"" + key + "\""});
        return nullptr;
    }
    return &*it;
}

std::string ObjectReader::string(const std::string &key, Presence presence, std::string fallback)
{
    const json *v = field(key, presence);
    if (!v)
        return fallback;
    if (!v->is_string()) {
        problem(key, "expected a string, found " + jsonTypeName(*v));
        return fallback;
    }
    return v->get<std::string>();
}

double ObjectReader::number(const std::string &key, Presence presence, double fallback,
                            double lo, double hi)
{
    const json *v = field(key, presence);
    if (!v)
        return fallback;
    if (!v->is_number()) {
        problem(key, "expected a number, found " + jsonTypeName(*v));
        return fallback;
    }
    const double d = v->get<double>();
    if (!std::isfinite(d)) {
        problem(key, "expected a finite number");
        return fallback;
    }
    if (d < lo || d > hi) {
        problem(key, "expected a number from " + numberText(lo) + " to " + numberText(hi) +
                         ", found " + numberText(d));
        return fallback;
    }
    return d;
}

std::int64_t ObjectReader::integer(const std::string &key, Presence presence,
                                   std::int64_t fallback, std::int64_t lo, std::int64_t hi)
{
    const json *v = field(key, presence);
    if (!v)
        return fallback;
    const std::string range = " from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (v->is_number_integer() && !v->is_number_unsigned()) {
        const auto i = v->get<std::int64_t>();
        if (i >= lo && i <= hi)
            return i;
        problem(key, "expected an integer" + range + ", found " + std::to_string(i));
        return fallback;
    }
    if (v->is_number_unsigned()) {
        const auto u = v->get<std::uint64_t>();
        if (hi >= 0 && u <= std::uint64_t(hi) && std::int64_t(u) >= lo)
            return std::int64_t(u);
        problem(key, "expected an integer" + range + ", found " + std::to_string(u));
        return fallback;
    }
    if (v->is_number_float()) {
        const double d = v->get<double>();
        if (std::isfinite(d) && d == std::floor(d) && d >= double(lo) && d <= double(hi))
            return std::int64_t(d);
        problem(key, "expected an integer" + range + ", found " + numberText(d));
        return fallback;
    }
    problem(key, "expected an integer, found " + jsonTypeName(*v));
    return fallback;
}

bool ObjectReader::boolean(const std::string &key, Presence presence, bool fallback)
{
    const json *v = field(key, presence);
    if (!v)
        return fallback;
    if (!v->is_boolean()) {
        problem(key, "expected true or false, found " + jsonTypeName(*v));
        return fallback;
    }
    return v->get<bool>();
}

const json *ObjectReader::array(const std::string &key, Presence presence)
{
    const json *v = field(key, presence);
    if (v && !v->is_array()) {
        problem(key, "expected an array, found " + jsonTypeName(*v));
        return nullptr;
    }
    return v;
}

const json *ObjectReader::object(const std::string &key, Presence presence)
{
    const json *v = field(key, presence);
    if (v && !v->is_object()) {
        problem(key, "expected an object, found " + jsonTypeName(*v));
        return nullptr;
    }
    return v;
}

std::map<std::string, std::string> ObjectReader::stringMap(const std::string &key)
{
    std::map<std::string, std::string> out;
    const json *v = object(key, Optional);
    if (!v)
        return out;
    for (auto it = v->begin(); it != v->end(); ++it) {
        if (it.value().is_string())
            out[it.key()] = it.value().get<std::string>();
        else
            m_problems.push_back({pointer(key) + "/" + jsonPointerToken(it.key()),
                                  "expected a string, found " + jsonTypeName(it.value())});
    }
    return out;
}

std::vector<std::string> ObjectReader::stringList(const std::string &key)
{
    std::vector<std::string> out;
    const json *v = array(key, Optional);
    if (!v)
        return out;
    for (std::size_t i = 0; i < v->size(); ++i) {
        if ((*v)[i].is_string())
            out.push_back((*v)[i].get<std::string>());
        else
            m_problems.push_back({pointer(key) + "/" + std::to_string(i),
                                  "expected a string, found " + jsonTypeName((*v)[i])});
    }
    return out;
}

void ObjectReader::finish()
{
    if (!m_obj)
        return;
    for (auto it = m_obj->begin(); it != m_obj->end(); ++it)
        if (!m_seen.count(it.key()))
            m_problems.push_back({pointer(it.key()), "unknown field \"" + it.key() + "\""});
}

} // namespace cb
