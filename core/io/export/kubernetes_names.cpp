#include "io/export/kubernetes_names.h"

#include "util/sha256.h"

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

bool KubernetesNames::isDns1123Subdomain(const std::string &s)
{
    if (s.empty() || s.size() > 253)
        return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = s.find('.', start);
        if (!isDns1123Label(s.substr(start, dot == std::string::npos ? std::string::npos
                                                                      : dot - start)))
            return false;
        if (dot == std::string::npos)
            return true;
        start = dot + 1;
    }
}

bool KubernetesNames::isLabelKey(const std::string &key)
{
    const std::size_t slash = key.rfind('/');
    const std::string name = slash == std::string::npos ? key : key.substr(slash + 1);
    if (slash != std::string::npos && !isDns1123Subdomain(key.substr(0, slash)))
        return false;
    return !name.empty() && isLabelValue(name);
}

std::string KubernetesNames::valueHash(const std::string &s)
{
    return Sha256::hex(s).substr(0, 8);
}

std::string KubernetesNames::labelValue(const std::string &value)
{
    if (isLabelValue(value))
        return value;
    std::string base;
    for (char c : value) {
        const bool keep = isAlnum(c) || c == '.' || c == '_' || c == '-';
        if (keep)
            base += c;
        else if (base.empty() || base.back() != '-')
            base += '-';
    }
    const std::string suffix = valueHash(value);
    if (base.size() > 63 - suffix.size() - 1)
        base.resize(63 - suffix.size() - 1);
    // Label values begin and end with a letter or digit.
    std::size_t first = 0;
    while (first < base.size() && !isAlnum(base[first]))
        ++first;
    base.erase(0, first);
    while (!base.empty() && !isAlnum(base.back()))
        base.pop_back();
    return base.empty() ? suffix : base + "-" + suffix;
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
