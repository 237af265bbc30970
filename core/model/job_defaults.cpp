#include "model/job_defaults.h"

#include "model/node_labels.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace cb {

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

std::string nextIdInSeries(const std::vector<std::string> &ids)
{
    struct Series
    {
        std::size_t members = 0;
        std::size_t first = 0; ///< where it first appears, for ties
        long long largest = -1;
        std::size_t width = 0;
    };
    std::map<std::string, Series> series;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const std::string &id = ids[k];
        std::size_t digits = id.size();
        while (digits > 0 && std::isdigit(static_cast<unsigned char>(id[digits - 1])))
            --digits;
        const std::size_t width = id.size() - digits;
        if (width == 0 || width > 9) // (as nextFreeId counts on)
            continue;
        auto [it, fresh] = series.try_emplace(id.substr(0, digits));
        Series &s = it->second;
        if (fresh)
            s.first = k;
        ++s.members;
        s.largest = std::max(s.largest, std::stoll(id.substr(digits)));
        s.width = std::max(s.width, width);
    }
    const std::pair<const std::string, Series> *best = nullptr;
    for (const auto &entry : series)
        if (!best || entry.second.members > best->second.members ||
            (entry.second.members == best->second.members &&
             entry.second.first < best->second.first))
            best = &entry;
    if (!best || 2 * best->second.members < ids.size())
        return {};
    // The series' largest member, counted on from as a copied node's id is.
    std::string largest = std::to_string(best->second.largest);
    if (largest.size() < best->second.width)
        largest.insert(0, best->second.width - largest.size(), '0');
    const std::set<std::string> taken(ids.begin(), ids.end());
    return nextFreeId(best->first + largest,
                      [&](const std::string &id) { return taken.count(id) > 0; });
}

std::optional<DueDefaults> dueDefaults(const std::vector<Job> &jobs)
{
    std::vector<double> after, weights;
    for (const Job &j : jobs) {
        if (!j.dueSeconds)
            return std::nullopt;
        after.push_back(*j.dueSeconds - j.submitSeconds);
        weights.push_back(j.tardinessWeight);
    }
    if (jobs.empty())
        return std::nullopt;
    return DueDefaults{std::max(0.0, median(after)), median(weights)};
}

} // namespace cb
