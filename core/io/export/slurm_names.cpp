#include "io/export/slurm_names.h"

#include "io/export/kubernetes_names.h"
#include "io/import/imported_gpu_types.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace cb {

bool SlurmNames::isValidName(const std::string &name)
{
    if (name.empty())
        return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-')))
            return false;
    }
    return true;
}

Status SlurmNames::checkCluster(const Cluster &cluster, bool withSwitches)
{
    Problems problems;
    const std::string expected = " cannot be a Slurm name: expected letters, digits, '.', '_' "
                                 "and '-', starting with a letter or digit";
    for (std::size_t i = 0; i < cluster.nodes.size(); ++i)
        if (!isValidName(cluster.nodes[i].id))
            problems.push_back({"/cluster/nodes/" + std::to_string(i) + "/id",
                                "\"" + cluster.nodes[i].id + "\"" + expected});
    if (withSwitches)
        for (std::size_t i = 0; i < cluster.switches.size(); ++i)
            if (!isValidName(cluster.switches[i].id))
                problems.push_back({"/cluster/switches/" + std::to_string(i) + "/id",
                                    "\"" + cluster.switches[i].id + "\"" + expected});
    if (!problems.empty())
        return problems;
    return Ok{};
}

std::string SlurmNames::gpuType(const std::string &name)
{
    if (name == kUnknownGpuType)
        return {};
    return KubernetesNames::sanitize(name);
}

std::vector<std::string> SlurmNames::untypedGpuNodes(const Cluster &cluster,
                                                     const std::set<std::string> *among)
{
    std::vector<std::string> nodes;
    for (const Node &n : cluster.nodes)
        if (n.gpus > 0 && n.gpuType == kUnknownGpuType && (!among || among->count(n.id)))
            nodes.push_back(n.id);
    return nodes;
}

std::string SlurmNames::hostlist(const std::vector<std::string> &names)
{
    // (prefix, digit count) -> numbers; names without a numeric suffix stay as they are.
    std::map<std::pair<std::string, std::size_t>, std::set<unsigned long long>> numbered;
    std::set<std::string> plain;
    for (const std::string &n : names) {
        std::size_t d = n.size();
        while (d > 0 && n[d - 1] >= '0' && n[d - 1] <= '9')
            --d;
        const std::size_t digits = n.size() - d;
        if (digits == 0 || digits > 18 || d == 0) {
            plain.insert(n);
            continue;
        }
        numbered[{n.substr(0, d), digits}].insert(std::stoull(n.substr(d)));
    }
    auto padded = [](unsigned long long v, std::size_t width) {
        std::string s = std::to_string(v);
        return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
    };
    std::vector<std::string> parts;
    for (const auto &[key, numbers] : numbered) {
        const auto &[prefix, width] = key;
        if (numbers.size() == 1) {
            parts.push_back(prefix + padded(*numbers.begin(), width));
            continue;
        }
        std::string ranges;
        for (auto it = numbers.begin(); it != numbers.end();) {
            const unsigned long long lo = *it;
            unsigned long long hi = lo;
            ++it;
            while (it != numbers.end() && *it == hi + 1) {
                hi = *it;
                ++it;
            }
            ranges += (ranges.empty() ? "" : ",") + padded(lo, width);
            if (hi != lo)
                ranges += "-" + padded(hi, width);
        }
        parts.push_back(prefix + "[" + ranges + "]");
    }
    for (const std::string &p : plain)
        parts.push_back(p);
    std::string out;
    for (const std::string &p : parts)
        out += (out.empty() ? "" : ",") + p;
    return out;
}

std::vector<std::string> SlurmNames::jobNames(const std::vector<std::string> &ids)
{
    std::vector<std::string> names(ids.size());
    std::set<std::string> taken;
    std::vector<std::size_t> others;
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (isValidName(ids[i]) && ids[i].size() <= kMaxJobName && !taken.count(ids[i])) {
            names[i] = ids[i];
            taken.insert(ids[i]);
        } else {
            others.push_back(i);
        }
    std::vector<std::string> rest;
    for (std::size_t i : others)
        rest.push_back(ids[i]);
    const std::vector<std::string> made = KubernetesNames::jobNames(rest);
    for (std::size_t k = 0; k < others.size(); ++k) {
        std::string name = made[k];
        for (int n = 2; taken.count(name); ++n) // (a kept id may be another's made name)
            name = made[k].substr(0, kMaxJobName - 4) + "-" + std::to_string(n);
        taken.insert(name);
        names[others[k]] = name;
    }
    return names;
}

std::string SlurmNames::timeText(double seconds)
{
    const auto total = (long long)std::ceil(std::max(1.0, seconds) - 1e-9);
    const long long d = total / 86400, h = total % 86400 / 3600, m = total % 3600 / 60,
                    sec = total % 60;
    auto two = [](long long v) { return (v < 10 ? "0" : "") + std::to_string(v); };
    return (d > 0 ? std::to_string(d) + "-" + two(h) : std::to_string(h)) + ":" + two(m) + ":" +
           two(sec);
}

Result<std::optional<double>> SlurmNames::parseTime(const std::string &text)
{
    std::string lower;
    for (char c : text)
        lower += char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "infinite" || lower == "unlimited")
        return std::optional<double>();
    const auto fail = [&] {
        return Result<std::optional<double>>::failure(
            "", "expected a time such as 60 (minutes), 2:00:00, 2-00:00:00 or INFINITE, found \"" +
                    text + "\"");
    };
    // Whole numbers only, each at most 9 digits (no overflow).
    auto numbers = [](const std::string &s, char sep) {
        std::vector<long long> out;
        std::size_t from = 0;
        while (true) {
            const std::size_t to = s.find(sep, from);
            const std::string part = s.substr(from, to == std::string::npos ? to : to - from);
            if (part.empty() || part.size() > 9 ||
                part.find_first_not_of("0123456789") != std::string::npos)
                return std::vector<long long>{};
            out.push_back(std::stoll(part));
            if (to == std::string::npos)
                return out;
            from = to + 1;
        }
    };
    long long days = 0;
    std::string rest = lower;
    const std::size_t dash = lower.find('-');
    if (dash != std::string::npos) {
        const auto d = numbers(lower.substr(0, dash), '-');
        if (d.size() != 1)
            return fail();
        days = d.front();
        rest = lower.substr(dash + 1);
    }
    const std::vector<long long> parts = numbers(rest, ':');
    if (parts.empty() || parts.size() > 3)
        return fail();
    long long seconds = 0;
    if (dash != std::string::npos) // days-hours[:minutes[:seconds]]
        seconds = parts[0] * 3600 + (parts.size() > 1 ? parts[1] * 60 : 0) +
                  (parts.size() > 2 ? parts[2] : 0);
    else if (parts.size() == 1) // minutes
        seconds = parts[0] * 60;
    else if (parts.size() == 2) // minutes:seconds
        seconds = parts[0] * 60 + parts[1];
    else // hours:minutes:seconds
        seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];
    seconds += days * 86400;
    if (seconds <= 0)
        return fail();
    return std::optional<double>(double(seconds));
}

} // namespace cb
