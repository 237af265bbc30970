#include "io/export/slurm_names.h"

#include "io/export/kubernetes_names.h"

#include <algorithm>
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
    return KubernetesNames::sanitize(name);
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

} // namespace cb
