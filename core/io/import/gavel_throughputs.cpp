#include "io/import/gavel_throughputs.h"

#include "io/import/text_fields.h"
#include "io/json_reader.h"

#include <set>

namespace cb {

GavelThroughputs GavelThroughputs::builtin()
{
    GavelThroughputs t;
    for (const GavelThroughput &g : builtinGavelThroughputs())
        t.m_table[{g.worker, g.job, g.scale}] = g.stepsPerSecond;
    t.m_source = "Gavel's simulation_throughputs.json (built in)";
    return t;
}

namespace {

// "('ResNet-50 (batch size 64)', 1)" -> (job, 1); "ResNet-50" -> (job, 1).
std::optional<std::pair<std::string, int>> parseKey(const std::string &key)
{
    const std::string k = importtext::trim(key);
    if (k.size() < 2 || k.front() != '(' || k.back() != ')')
        return std::make_pair(k, 1);
    const auto comma = k.rfind(',');
    if (comma == std::string::npos)
        return std::nullopt;
    std::string job = importtext::trim(k.substr(1, comma - 1));
    if (job.size() >= 2 && (job.front() == '\'' || job.front() == '"') && job.back() == job.front())
        job = job.substr(1, job.size() - 2);
    const auto scale = importtext::parseInteger(k.substr(comma + 1, k.size() - comma - 2));
    if (!scale || *scale < 1 || *scale > 100000 || job.empty())
        return std::nullopt;
    return std::make_pair(job, int(*scale));
}

} // namespace

Result<GavelThroughputs> GavelThroughputs::fromJson(const std::string &text,
                                                    const std::string &file)
{
    auto doc = parseJsonText(text);
    if (!doc)
        return Result<GavelThroughputs>::failure(file, doc.error());
    if (!doc->is_object())
        return Result<GavelThroughputs>::failure(
            file, "expected an object of worker types (\"v100\": {...}), found " +
                      jsonTypeName(doc.value()));
    GavelThroughputs t;
    Problems problems;
    for (auto w = doc->begin(); w != doc->end(); ++w) {
        if (!w.value().is_object()) {
            problems.push_back(
                {file + ":/" + jsonPointerToken(w.key()), "expected an object of job types"});
            continue;
        }
        for (auto j = w.value().begin(); j != w.value().end(); ++j) {
            const std::string ptr =
                file + ":/" + jsonPointerToken(w.key()) + "/" + jsonPointerToken(j.key());
            const auto key = parseKey(j.key());
            if (!key) {
                problems.push_back({ptr, "expected a job type or \"('job type', scale)\""});
                continue;
            }
            const nlohmann::json &v = j.value();
            const nlohmann::json *alone = v.is_object() && v.contains("null") ? &v["null"]
                                          : v.is_number()                     ? &v
                                                                              : nullptr;
            if (!alone || !alone->is_number() || alone->get<double>() < 0) {
                problems.push_back({ptr, "expected {\"null\": steps per second, ...}"});
                continue;
            }
            t.m_table[{w.key(), key->first, key->second}] = alone->get<double>();
        }
    }
    if (!problems.empty())
        return problems;
    if (t.m_table.empty())
        return Result<GavelThroughputs>::failure(file, "no throughput in the file");
    t.m_source = file;
    return t;
}

std::optional<double> GavelThroughputs::find(const std::string &worker, const std::string &job,
                                             int scale) const
{
    auto it = m_table.find({worker, job, scale});
    if (it == m_table.end())
        return std::nullopt;
    return it->second;
}

std::vector<std::string> GavelThroughputs::workers() const
{
    std::set<std::string> names;
    for (const auto &[key, v] : m_table)
        names.insert(std::get<0>(key));
    return {names.begin(), names.end()};
}

} // namespace cb
