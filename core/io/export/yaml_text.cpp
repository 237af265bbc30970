#include "io/export/yaml_text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>

namespace cb {

namespace {

/// Plain keys only for identifiers such as "apiVersion", "nvidia.com/gpu" or
/// "training.kubeflow.org/job-name" that no YAML reader can take for anything else.
bool plainKeyIsSafe(const std::string &key)
{
    if (key.empty() || !((key[0] >= 'a' && key[0] <= 'z') || (key[0] >= 'A' && key[0] <= 'Z')))
        return false;
    for (char c : key) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '/' || c == '-' || c == '_';
        if (!ok)
            return false;
    }
    std::string lower = key;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
    static constexpr std::array<std::string_view, 11> kSpecial = {
        "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"};
    return std::find(kSpecial.begin(), kSpecial.end(), lower) == kSpecial.end();
}

/// Whether a string holds something a YAML reader refuses or changes when written as it is
/// inside double quotes: DEL and C1 controls (not printable in YAML), line and paragraph
/// separators (line breaks to YAML 1.1, folded to a space), a byte-order mark, the
/// non-characters U+FFFE/U+FFFF, bytes that are not UTF-8. yaml-cpp escapes C0 controls
/// itself; these need its "escape everything non-ASCII" mode for that one scalar.
bool needsEscapes(const std::string &s)
{
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if (c == 0x7f)
                return true;
            ++i;
            continue;
        }
        const std::size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
        if (n == 0 || c > 0xf4 || c == 0xc0 || c == 0xc1 || i + n > s.size())
            return true;
        long cp = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
        for (std::size_t k = 1; k < n; ++k) {
            const unsigned char b = static_cast<unsigned char>(s[i + k]);
            if ((b & 0xc0) != 0x80)
                return true;
            cp = cp << 6 | (b & 0x3f);
        }
        if ((cp >= 0x80 && cp <= 0xa0) || cp == 0x2028 || cp == 0x2029 || cp == 0xfeff ||
            cp == 0xfffe || cp == 0xffff || (cp >= 0xd800 && cp <= 0xdfff) ||
            (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return true;
        i += n;
    }
    return false;
}

/// A double-quoted scalar that every YAML reader reads back as exactly `s`.
void quoted(YAML::Emitter &out, const std::string &s)
{
    if (!needsEscapes(s)) {
        out << YAML::DoubleQuoted << s;
        return;
    }
    out.SetOutputCharset(YAML::EscapeNonAscii);
    out << YAML::DoubleQuoted << s;
    out.SetOutputCharset(YAML::EmitNonAscii);
}

void emit(YAML::Emitter &out, const nlohmann::ordered_json &v)
{
    switch (v.type()) {
    case nlohmann::json::value_t::object:
        if (v.empty()) {
            out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
            return;
        }
        out << YAML::BeginMap;
        for (auto it = v.begin(); it != v.end(); ++it) {
            out << YAML::Key;
            if (plainKeyIsSafe(it.key()))
                out << it.key();
            else
                quoted(out, it.key());
            out << YAML::Value;
            emit(out, it.value());
        }
        out << YAML::EndMap;
        return;
    case nlohmann::json::value_t::array:
        if (v.empty()) {
            out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
            return;
        }
        out << YAML::BeginSeq;
        for (const auto &item : v)
            emit(out, item);
        out << YAML::EndSeq;
        return;
    case nlohmann::json::value_t::string:
        quoted(out, v.get_ref<const std::string &>());
        return;
    case nlohmann::json::value_t::boolean:
        out << v.get<bool>();
        return;
    case nlohmann::json::value_t::number_integer:
        out << v.get<std::int64_t>();
        return;
    case nlohmann::json::value_t::number_unsigned:
        out << v.get<std::uint64_t>();
        return;
    case nlohmann::json::value_t::number_float: {
        // Shortest round-trip form; independent of locale and stream precision.
        char buf[64];
        auto r = std::to_chars(buf, buf + sizeof buf, v.get<double>());
        out << std::string(buf, r.ptr);
        return;
    }
    default:
        out << YAML::Null;
        return;
    }
}

} // namespace

std::string YamlText::document(const nlohmann::ordered_json &value)
{
    YAML::Emitter out;
    out.SetIndent(2);
    out.SetBoolFormat(YAML::TrueFalseBool);
    emit(out, value);
    std::string text = out.c_str();
    if (text.empty() || text.back() != '\n')
        text += '\n';
    return text;
}

std::string YamlText::comment(const std::string &text)
{
    std::string out = text;
    for (char &c : out)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            c = '?';
    return out;
}

std::string YamlText::documents(const std::vector<nlohmann::ordered_json> &values)
{
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0)
            text += "---\n";
        text += document(values[i]);
    }
    return text;
}

} // namespace cb
