#include "io/export/kubernetes_names.h"

#include <cstdint>
#include <cstdio>
#include <set>

namespace cb {

namespace {

bool isLowerAlnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool isAlnum(char c)
{
    return isLowerAlnum(c) || (c >= 'A' && c <= 'Z');
}

std::string hashSuffix(const std::string &s)
{
    std::uint32_t h = 2166136261u; // FNV-1a, 32 bit
    for (unsigned char c : s) {
        h ^= c;
        h *= 16777619u;
    }
    char buf[9];
    std::snprintf(buf, sizeof buf, "%06x", unsigned(h & 0xffffffu));
    return buf;
}

void trimDashes(std::string &s)
{
    while (!s.empty() && s.back() == '-')
        s.pop_back();
    std::size_t i = 0;
    while (i < s.size() && s[i] == '-')
        ++i;
    s.erase(0, i);
}

} // namespace

std::string KubernetesNames::sanitize(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
        if (isLowerAlnum(c))
            out += c;
        else if (out.empty() || out.back() != '-')
            out += '-';
    }
    trimDashes(out);
    return out;
}

bool KubernetesNames::isDns1123Label(const std::string &s)
{
    if (s.empty() || s.size() > 63 || !isLowerAlnum(s.front()) || !isLowerAlnum(s.back()))
        return false;
    for (char c : s)
        if (!isLowerAlnum(c) && c != '-')
            return false;
    return true;
}

bool KubernetesNames::isDns1035Label(const std::string &s)
{
    return isDns1123Label(s) && s.front() >= 'a' && s.front() <= 'z';
}

bool KubernetesNames::isLabelValue(const std::string &s)
{
    if (s.empty())
        return true;
    if (s.size() > 63 || !isAlnum(s.front()) || !isAlnum(s.back()))
        return false;
    for (char c : s)
        if (!isAlnum(c) && c != '-' && c != '_' && c != '.')
            return false;
    return true;
}

std::vector<std::string> KubernetesNames::jobNames(const std::vector<std::string> &ids)
{
    std::vector<std::string> names;
    std::set<std::string> taken;
    for (const std::string &id : ids) {
        std::string name;
        if (isDns1035Label(id) && id.size() <= kMaxJobNameLength) {
            name = id;
        } else {
            std::string base = sanitize(id);
            if (base.empty() || !(base.front() >= 'a' && base.front() <= 'z'))
                base = "job-" + base;
            const std::string suffix = hashSuffix(id);
            if (base.size() > kMaxJobNameLength - suffix.size() - 1)
                base.resize(kMaxJobNameLength - suffix.size() - 1);
            trimDashes(base);
            name = base + "-" + suffix;
        }
        if (taken.count(name)) {
            const std::string stem = name.substr(0, kMaxJobNameLength - 4);
            for (int n = 2;; ++n) {
                std::string candidate = stem + "-" + std::to_string(n);
                if (!taken.count(candidate)) {
                    name = candidate;
                    break;
                }
            }
        }
        taken.insert(name);
        names.push_back(name);
    }
    return names;
}

} // namespace cb
