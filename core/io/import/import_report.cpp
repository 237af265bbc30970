#include "io/import/import_report.h"
#include "util/text.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace cb {

std::string ImportNote::toString() const
{
    std::string s = file;
    if (line > 0)
        s += ":" + std::to_string(line);
    return s + ": " + message;
}

std::string ImportReport::skippedSummary() const
{
    if (skippedCount == 0 || skipped.empty())
        return {};
    return std::to_string(skippedCount) + (skippedCount == 1 ? " row" : " rows") +
           " skipped; the first: " + skipped.front().toString();
}

void ImportReport::skip(const std::string &file, int line, std::string message, std::string reason)
{
    ImportNote note{file, line, std::move(message), std::move(reason)};
    ++skippedCount;
    auto [it, fresh] = m_groupIndex.emplace(note.group(), skipGroups.size());
    if (fresh)
        skipGroups.push_back({note.group(), 0, {}});
    SkipGroup &g = skipGroups[it->second];
    ++g.count;
    // The first lines of the group in file order (rows may be skipped out of order, after the
    // jobs are sorted by time): keep the kFirstPerGroup smallest, each line once (one line of
    // a Slurm file may name many nodes).
    const auto before = [](const ImportNote &a, const ImportNote &b) {
        return a.file != b.file ? a.file < b.file : a.line < b.line;
    };
    const auto at = std::lower_bound(g.first.begin(), g.first.end(), note, before);
    const bool seen = at != g.first.end() && !before(note, *at);
    if (!seen && (g.first.size() < kFirstPerGroup || before(note, g.first.back()))) {
        g.first.insert(at, note);
        if (g.first.size() > kFirstPerGroup) {
            g.first.pop_back();
            g.moreLines = true;
        }
    } else if (!seen) {
        g.moreLines = true;
    }
    if (skipped.size() < kMaxListed)
        skipped.push_back(std::move(note));
}

void ImportReport::assume(std::string what)
{
    assumptions.push_back(std::move(what));
}

int ImportReport::fileIndex(const std::string &file)
{
    for (std::size_t i = 0; i < files.size(); ++i)
        if (files[i] == file)
            return int(i);
    files.push_back(file);
    return int(files.size() - 1);
}

ImportNote ImportReport::origin(std::size_t job) const
{
    if (job >= jobOrigins.size())
        return {};
    const ImportOrigin &o = jobOrigins[job];
    return {o.file >= 0 && std::size_t(o.file) < files.size() ? files[std::size_t(o.file)]
                                                              : std::string(),
            o.line, job < jobs.size() ? jobs[job].id : std::string()};
}

void ImportReport::merge(const ImportReport &other)
{
    // Replay the listed notes (so `skipped` and the groups' lines are as if skipped here),
    // then count each group's rows beyond the list.
    std::map<std::string, std::size_t> listed;
    for (const ImportNote &n : other.skipped) {
        skip(n.file, n.line, n.message, n.reason);
        ++listed[n.group()];
    }
    for (const SkipGroup &g : other.skipGroups) {
        const std::size_t unlisted = g.count - listed[g.reason];
        auto it = m_groupIndex.find(g.reason);
        if (it == m_groupIndex.end()) { // (none of its rows listed)
            it = m_groupIndex.emplace(g.reason, skipGroups.size()).first;
            skipGroups.push_back({g.reason, 0, g.first});
        }
        if (unlisted > 0) {
            skipGroups[it->second].count += unlisted;
            skippedCount += unlisted;
        }
        if (g.moreLines)
            skipGroups[it->second].moreLines = true;
    }
    for (const std::string &a : other.assumptions)
        assume(a);
    rowsRead += other.rowsRead;
}

namespace {

// "a.csv:3, 17, 99, b.csv:4": lines of the same file after the first name it once.
std::string firstLines(const SkipGroup &g)
{
    std::string s, lastFile;
    for (const ImportNote &n : g.first) {
        if (!s.empty())
            s += ", ";
        if (n.file != lastFile || n.line == 0) {
            s += n.file;
            if (n.line > 0)
                s += ":";
            lastFile = n.file;
        }
        if (n.line > 0)
            s += std::to_string(n.line);
    }
    if (g.moreLines)
        s += ", ...";
    return s;
}

} // namespace

std::string ImportReport::toText(bool allSkipped) const
{
    std::ostringstream s;
    s << "import " << format << ":";
    if (rowsRead > 0)
        s << " " << counted(rowsRead, "row") << " read;";
    if (cluster)
        s << " cluster of " << counted(cluster->nodes.size(), "node") << ", "
          << counted(cluster->totalGpus(), "GPU") << ", "
          << counted(cluster->switches.size(), "switch", "switches") << ";";
    for (const auto &[model, table] : stepTimeModels)
        s << " step-time model for " << model << " (" << table.points.size() << " points);";
    if (!out.empty()) {
        s << " " << counted(jobsWritten, "job") << " written to " << out;
        if (jobsBefore > 0)
            s << " (after the " << counted(jobsBefore, "job") << " it had)";
        s << ";";
    } else if (!jobs.empty())
        s << " " << counted(jobs.size(), "job") << " read, nothing written yet;";
    // One line of a Slurm file may name many nodes, each a row: the lines are said too.
    std::set<std::pair<std::string, int>> lines;
    for (const ImportNote &n : skipped)
        lines.emplace(n.file, n.line);
    s << " " << counted(skippedCount, "row");
    if (skipped.size() == skippedCount && lines.size() < skippedCount)
        s << " on " << counted(lines.size(), "line");
    s << " skipped\n";
    if (allSkipped) {
        for (const ImportNote &n : skipped)
            s << "skipped " << n.toString() << "\n";
        if (skippedCount > skipped.size())
            s << "(" << skippedCount - skipped.size() << " more skipped rows not listed)\n";
    } else if (skippedCount > 0) {
        for (const SkipGroup &g : skipGroups) {
            s << "skipped " << counted(g.count, "row");
            if (!g.moreLines && g.first.size() < g.count)
                s << " on " << counted(g.first.size(), "line");
            s << ": " << g.reason;
            if (g.count == 1 && g.first.size() == 1 && g.first.front().message != g.reason) {
                // The row's own words after the reason's ("column gpu_num: expected an
                // integer" + ", found "sixteen""), not the reason said twice.
                ImportNote only = g.first.front();
                const std::size_t rest = only.message.find_first_not_of(",;: ", g.reason.size());
                if (only.message.starts_with(g.reason) && rest != std::string::npos)
                    only.message = only.message.substr(rest);
                s << " (" << only.toString() << ")\n";
            } else {
                s << " (" << firstLines(g) << ")\n";
            }
        }
    }
    for (const std::string &a : assumptions)
        s << "assumed: " << a << "\n";
    return s.str();
}

nlohmann::ordered_json ImportReport::toJson() const
{
    nlohmann::ordered_json j;
    j["format"] = format;
    j["rows"] = rowsRead;
    if (cluster) {
        j["nodes"] = cluster->nodes.size();
        j["gpus"] = cluster->totalGpus();
        j["switches"] = cluster->switches.size();
    }
    if (!stepTimeModels.empty()) {
        nlohmann::ordered_json m;
        for (const auto &[model, table] : stepTimeModels)
            m[model] = table.points.size();
        j["step_time_points"] = m;
    }
    j["jobs"] = out.empty() ? jobs.size() : jobsWritten;
    j["skipped"] = skippedCount;
    j["skipped_by_reason"] = nlohmann::ordered_json::array();
    for (const SkipGroup &g : skipGroups) {
        nlohmann::ordered_json first = nlohmann::ordered_json::array();
        for (const ImportNote &n : g.first)
            first.push_back({{"file", n.file}, {"line", n.line}, {"message", n.message}});
        j["skipped_by_reason"].push_back(
            {{"reason", g.reason}, {"count", g.count}, {"first", first}});
    }
    j["skipped_rows"] = nlohmann::ordered_json::array();
    for (const ImportNote &n : skipped)
        j["skipped_rows"].push_back({{"file", n.file}, {"line", n.line}, {"reason", n.message}});
    j["assumptions"] = assumptions;
    return j;
}

} // namespace cb
