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
                out << YAML::DoubleQuoted << it.key();
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
        out << YAML::DoubleQuoted << v.get_ref<const std::string &>();
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
