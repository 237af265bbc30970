#include "cli/step_view.h"
#include "util/count_text.h"
#include "util/terminal_text.h"
#include "util/text.h"

#include "sched/traffic.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

namespace cb::cli {

namespace {

// `text` broken at spaces for a terminal `width` columns wide: the first line starts at
// column `firstColumn`, the others are indented by `indent` spaces (included). At most
// `maxLines` lines; the last ends in " ..." when more would follow.
std::vector<std::string> wrappedLines(const std::string &text, int width, std::size_t indent,
                                      std::size_t firstColumn, int maxLines)
{
    const std::string wrapped = wrapText(text, std::size_t(width), indent, firstColumn);
    std::vector<std::string> lines;
    std::size_t from = 0;
    while (from <= wrapped.size() && int(lines.size()) < maxLines) {
        const std::size_t end = std::min(wrapped.find('\n', from), wrapped.size());
        lines.push_back(wrapped.substr(from, end - from) +
                        (int(lines.size()) + 1 == maxLines && end < wrapped.size() ? " ..." : ""));
        from = end + 1;
    }
    return lines;
}

// A line under construction: segments of visible text, each with optional ANSI styling.
// text() cuts it at the width, ending in "..." when something was cut.
class Line
{
public:
    Line(int width, bool colour) : m_width(width), m_colour(colour) {}

    /// `style` is an SGR parameter string such as "1" or "48;5;22", empty for plain. The text
    /// (names from the scenario among it) shows control characters escaped: the frame goes
    /// to the terminal as it is, with only our own styling sequences.
    void add(const std::string &text, const std::string &style = {})
    {
        m_segments.push_back({terminalText(text), style});
    }
    /// The visible characters of the whole line, before any cut.
    int length() const
    {
        int total = 0;
        for (const auto &[t, style] : m_segments)
            total += visible(t);
        return total;
    }
    bool fits() const { return length() <= m_width; }
    std::string text() const
    {
        const bool cut = length() > m_width;
        int budget = cut ? m_width - 3 : m_width;
        std::string out;
        for (const auto &[t, style] : m_segments) {
            if (budget <= 0)
                break;
            std::string part;
            for (std::size_t i = 0; i < t.size() && budget > 0;) {
                std::size_t len = 1;
                while (i + len < t.size() &&
                       (static_cast<unsigned char>(t[i + len]) & 0xC0) == 0x80)
                    ++len;
                part += t.substr(i, len);
                i += len;
                --budget;
            }
            if (m_colour && !style.empty() && !part.empty())
                out += "\x1b[" + style + "m" + part + "\x1b[0m";
            else
                out += part;
        }
        if (cut)
            out += "...";
        return out;
    }

private:
    static int visible(const std::string &t)
    {
        int n = 0;
        for (unsigned char c : t)
            if ((c & 0xC0) != 0x80)
                ++n;
        return n;
    }

    struct Segment
    {
        std::string text, style;
    };
    int m_width;
    bool m_colour;
    std::vector<Segment> m_segments;
};

std::string cellNumber(double v, int digits)
{
    std::ostringstream s;
    if (v == std::floor(v) && std::fabs(v) < 1e12)
        s << std::int64_t(v);
    else
        s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

std::string padded(std::string s, std::size_t width)
{
    if (s.size() < width)
        s.resize(width, ' ');
    return s;
}

/// The first line of both steppers: the scenario, policy and seed, playing or paused.
Line titleLine(int width, const StepScreen &screen, const std::string &scenario,
               const std::string &policy, std::uint64_t seed)
{
    // The scenario's name last: a narrow terminal cuts it, not the state.
    Line l(width, screen.colour);
    l.add("clusterbench step  ", "1");
    l.add(std::string(screen.playing ? "[playing " : "[paused ") + std::to_string(screen.speed) +
          "/s]  policy " + policy + "  seed " + std::to_string(seed) + "  " + scenario);
    return l;
}

/// The title, and the screen's notice under it; returns the frame's height (the lines
/// pushed count in it).
int pushHeader(std::vector<std::string> &lines, int width, const StepScreen &screen,
               const std::string &scenario, const std::string &policy, std::uint64_t seed)
{
    lines.push_back(titleLine(width, screen, scenario, policy, seed).text());
    if (!screen.notice.empty()) {
        Line l(width, screen.colour);
        l.add(screen.notice, "1;33");
        lines.push_back(l.text());
    }
    return std::max(screen.height, 10);
}

constexpr const char *kKeysHelp =
    "n/-> next  p/<- previous  f/Home first  l/End last  space play/pause  +/- speed  q quit";
/// The keys for a terminal narrower than kKeysHelp (80 columns): the same keys, fewer words.
constexpr const char *kKeysHelpShort =
    "n next  p previous  f first  l last  space play/pause  +/- speed  q quit";

/// The keys line, in the words that fit the width.
Line keysHelpLine(int width, bool colour)
{
    Line l(width, colour);
    l.add(kKeysHelp, "2");
    if (l.fits())
        return l;
    Line s(width, colour);
    s.add(kKeysHelpShort, "2");
    return s;
}

// Heat levels: 0 = no traffic, 1..5 by share of the maximum.
constexpr const char *kPlainGlyph[6] = {" .", "::", "--", "==", "##", "@@"};
constexpr const char *kBackground[6] = {"48;5;236", "48;5;24", "48;5;30", "48;5;142",
                                        "48;5;208", "48;5;196"};

int level(double bytes, double max)
{
    if (bytes <= 0 || max <= 0)
        return 0;
    return std::clamp(1 + int(std::floor(4.999 * bytes / max)), 1, 5);
}

std::string trafficMB(double bytes)
{
    return groupedFixed(bytes / 1e6, bytes >= 1e8 ? 0 : 1) + " MB";
}

} // namespace

StepView::StepView(const Scenario &scenario, const Topology &topology, DecisionLog log)
    : m_scenario(scenario), m_topology(topology), m_log(std::move(log)),
      m_replay(std::make_unique<DecisionReplay>(m_scenario, m_log))
{
    // The heatmap's scale spans the whole run, as the window's does, so that a cell keeps its
    // shade while stepping (at decision 2 a pair's 489 MB and at decision 3 its 978 MB both
    // read as the top level): the replay stepped through once, noting the cells each move
    // changes. A longer run keeps each decision's own scale, as the window's.
    if (decisionCount() <= kSpanDecisions)
        for (int c = 0; c < decisionCount(); ++c) {
            m_replay->seek(c);
            for (const auto &[a, b] : m_replay->changedCells())
                m_spanMax = std::max(m_spanMax, m_replay->pairBytes(a, b));
        }
}

Placement StepView::placementUpTo(int cursor) const
{
    m_replay->seek(cursor);
    return m_replay->placement();
}

std::vector<std::string> StepView::render(int cursor, const StepScreen &screen) const
{
    const int width = std::max(screen.width, 20);
    std::vector<std::string> lines;
    auto line = [&] { return Line(width, screen.colour); };
    auto push = [&](const Line &l) { lines.push_back(l.text()); };

    const int total = decisionCount();
    const int height = pushHeader(lines, width, screen, m_scenario.name, m_log.policy, m_log.seed);
    if (total == 0) {
        Line l = line();
        l.add("No decisions: the scenario has no jobs to place.");
        push(l);
        return lines;
    }
    cursor = std::clamp(cursor, 0, total - 1);
    const Decision &d = m_log.decisions[std::size_t(cursor)];
    constexpr int kWhyLines = 3;
    int whyLines = 0;
    const std::string winner = d.pick >= 0 ? m_log.nodeNames[std::size_t(d.pick)] : "(none)";
    {
        Line l = line();
        l.add("Decision " + std::to_string(cursor + 1) + "/" + std::to_string(total), "1");
        l.add("  job " + d.jobId + "  task " + d.task() + "  -> ");
        l.add(winner, "1;32");
        push(l);
        // The reason wrapped, up to three lines (a tie-break's seed and draw come last).
        for (const std::string &text : wrappedLines(d.why, width, 2, 2, kWhyLines)) {
            Line why = line();
            why.add((whyLines == 0 ? "  " : "") + text);
            push(why);
            ++whyLines;
        }
    }

    // Space: fixed lines are header (3: the title, the decision, one of the reason's, and the
    // notice), table header (1), heatmap title + header (2), legend (1), keys (1), two blank
    // separators (2).
    const int nodes = int(m_log.nodeNames.size());
    const Placement placed = placementUpTo(cursor);
    const TrafficReport traffic = computeTraffic(m_scenario.jobs, m_scenario.cluster, m_topology,
                                                 placed, m_scenario.settings.allreduce);
    // The heatmap's title; on a terminal too narrow for it in one line (80 columns), what it
    // shows goes on a second line, which the room below counts. (Measured with the longest
    // the node count can make it.)
    const std::string heatTitle =
        "Traffic per iteration after decision " + std::to_string(cursor + 1);
    const std::string heatWhat = "row sends to column; cross-node " +
                                 trafficMB(traffic.crossNodeBytes) + ", on-node " +
                                 trafficMB(traffic.intraNodeBytes);
    const auto nodesWithTasks = [](int count) {
        return ", the " + std::to_string(count) + (count == 1 ? " node" : " nodes") + " with tasks";
    };
    const bool heatTitleWraps =
        int(heatTitle.size() + nodesWithTasks(nodes).size() + heatWhat.size()) + 3 > width;
    const int free = std::max(height - 10 - (screen.notice.empty() ? 0 : 1) - (whyLines - 1) -
                                  (heatTitleWraps ? 1 : 0),
                              2);
    // The heatmap needs a row per node, or, when they do not fit in half the room, a row per
    // node holding tasks so far; it gets at most half, the table the rest, and the heatmap
    // what the table leaves (counted once the table is drawn).
    std::set<std::string> busyNodes;
    for (const JobPlacement &jp : placed.jobs)
        for (const TaskAssignment &a : jp.tasks)
            busyNodes.insert(a.node);
    const int heatNeed = std::max(1, nodes <= free / 2 ? nodes : int(busyNodes.size()));
    // (two more for the lines a table may add: nodes without a row, the plugins' names)
    int tableRows = std::min(nodes + 2, std::max(1, free - std::min(heatNeed, free / 2)));

    // Score table.
    std::size_t nameWidth = 6;
    for (const std::string &n : m_log.nodeNames)
        nameWidth = std::max(nameWidth, n.size() + 2);
    nameWidth = std::min<std::size_t>(nameWidth, 24);
    // The total first, then a column per plugin: headers "plugin xW", cells "raw -> weighted".
    // A terminal too narrow for that gets only the weighted scores ("=weighted"), then plugins
    // numbered
    // ("#1 x1") with their names in a line below the table; what is still too wide is cut
    // at the right edge, the total kept.
    constexpr std::size_t kTotalWidth = 10;
    std::vector<std::string> headers;
    std::vector<std::size_t> colWidth;
    bool withRaw = true, numbered = false;
    for (int pass = 0; pass < 3; ++pass) {
        withRaw = pass == 0;
        numbered = pass == 2;
        headers.clear();
        colWidth.clear();
        std::size_t used = 2 + nameWidth + kTotalWidth;
        for (std::size_t p = 0; p < m_log.pluginNames.size(); ++p) {
            headers.push_back((numbered ? "#" + std::to_string(p + 1) : m_log.pluginNames[p]) +
                              " x" + cellNumber(m_log.weights[p], 2));
            colWidth.push_back(std::max<std::size_t>(headers.back().size() + 2, withRaw ? 14 : 8));
            used += colWidth.back();
        }
        if (used <= std::size_t(width))
            break;
    }
    {
        Line l = line();
        l.add(padded("  node", nameWidth + 2), "4");
        l.add("total", "4");
        l.add(std::string(kTotalWidth - 5, ' '));
        for (std::size_t p = 0; p < headers.size(); ++p) {
            l.add(headers[p], "4");
            l.add(std::string(colWidth[p] - headers[p].size(), ' '));
        }
        push(l);
    }
    const std::size_t tableStart = lines.size();
    auto rowText = [&](const CandidateRow &r, Line &l) {
        const bool win = r.node == d.pick;
        const bool tied = std::find(d.tied.begin(), d.tied.end(), r.node) != d.tied.end();
        l.add(win ? "> " : (tied ? "= " : "  "), win ? "1;32" : "");
        l.add(padded(m_log.nodeNames[std::size_t(r.node)].substr(0, nameWidth - 1), nameWidth),
              win ? "1;32" : "");
        if (!r.feasible()) {
            l.add("filtered: " + m_log.reason(r), "2");
            return;
        }
        l.add(padded(cellNumber(r.total, 3), kTotalWidth), win ? "1;32" : "1");
        for (std::size_t p = 0; p < colWidth.size(); ++p)
            // (weighted only: "=10" under "dltap x2", so that it reads as the product)
            l.add(padded((withRaw ? cellNumber(d.rawScore(r, p), 2) + " -> " : std::string("=")) +
                             cellNumber(m_log.weighted(d, r, p), 2),
                         colWidth[p]));
        if (win)
            l.add("  winner", "1;32");
    };
    // The nodes without a row (detail top:K) take the table's last line.
    const std::string omitted = m_log.omittedSummary(d);
    // (two lines when one does not hold it: "+ 991 more nodes: 2 filtered (...), 989 fit: ...")
    const std::vector<std::string> omittedText =
        omitted.empty() ? std::vector<std::string>() : wrappedLines("  " + omitted, width, 4, 0, 2);
    const int omittedLines = int(omittedText.size());
    for (int k = 0; k < omittedLines && tableRows > 1; ++k)
        --tableRows;
    if (numbered && tableRows > 1) // the plugins' names take a line
        --tableRows;
    // Keep the winner visible when rows must be cut: show a window around it.
    int first = 0;
    if (tableRows < int(d.rows.size()) && d.pick >= 0) {
        int at = 0;
        for (std::size_t i = 0; i < d.rows.size(); ++i)
            if (d.rows[i].node == d.pick)
                at = int(i);
        first = std::clamp(at - (tableRows - 1) / 2, 0, int(d.rows.size()) - (tableRows - 1));
    }
    const bool cutTable = tableRows < int(d.rows.size());
    const int shownRows = cutTable ? std::max(tableRows - 1, 1) : int(d.rows.size());
    for (int i = first; i < first + shownRows && i < int(d.rows.size()); ++i) {
        Line l = line();
        rowText(d.rows[std::size_t(i)], l);
        push(l);
    }
    if (cutTable) {
        Line l = line();
        // (the window around the winner: the rows above it and below it are hidden)
        const int last = std::min(first + shownRows, int(d.rows.size()));
        const int above = first, below = int(d.rows.size()) - last;
        std::string hidden;
        if (above > 0)
            hidden = std::to_string(above) + " above";
        if (below > 0)
            hidden += (hidden.empty() ? "" : ", ") + std::to_string(below) + " below";
        l.add("  ... rows " + std::to_string(first + 1) + "-" + std::to_string(last) + " of " +
              std::to_string(d.rows.size()) + " shown; " + hidden +
              " (a taller terminal shows them)");
        push(l);
    }
    for (const std::string &text : omittedText) {
        Line l = line();
        l.add(text, "2");
        push(l);
    }
    if (numbered) {
        Line l = line();
        l.add(" ");
        for (std::size_t p = 0; p < m_log.pluginNames.size(); ++p)
            l.add((p ? "   #" : " #") + std::to_string(p + 1) + " " + m_log.pluginNames[p], "2");
        push(l);
    }
    const int heatRows = std::min(nodes, std::max(1, free - int(lines.size() - tableStart)));
    lines.emplace_back();

    // Heatmap of the placement so far.
    double max = 0;
    for (const auto &[pair, bytes] : traffic.pairBytes)
        max = std::max(max, bytes);
    if (max > 0) // (none yet says so, whatever comes later)
        max = std::max(max, m_spanMax);
    // Node index in the cluster for each log node (the log may list them in cluster order).
    std::map<std::string, int> clusterIndex;
    for (std::size_t i = 0; i < m_scenario.cluster.nodes.size(); ++i)
        clusterIndex.emplace(m_scenario.cluster.nodes[i].id, int(i));
    // On a cluster larger than the screen, the map shows the nodes holding placed tasks.
    std::vector<std::string> mapNodes = m_log.nodeNames;
    const int fitRows = heatRows, fitCols = std::max(1, (width - 16 - 3) / 3);
    if (nodes > std::min(fitRows, fitCols)) {
        std::vector<char> used(m_log.nodeNames.size(), 0);
        std::map<std::string, std::size_t> logIndex;
        for (std::size_t i = 0; i < m_log.nodeNames.size(); ++i)
            logIndex.emplace(m_log.nodeNames[i], i);
        for (const JobPlacement &jp : placed.jobs)
            for (const TaskAssignment &a : jp.tasks)
                if (auto it = logIndex.find(a.node); it != logIndex.end())
                    used[it->second] = 1;
        std::vector<std::string> busy;
        for (std::size_t i = 0; i < used.size(); ++i)
            if (used[i])
                busy.push_back(m_log.nodeNames[i]);
        if (!busy.empty())
            mapNodes = busy;
    }
    const int mapCount = int(mapNodes.size());
    {
        const std::string title =
            heatTitle + (mapCount < nodes ? nodesWithTasks(mapCount) : std::string());
        Line l = line();
        if (heatTitleWraps) {
            l.add(title, "1");
            push(l);
            Line what = line();
            what.add("  " + heatWhat);
            push(what);
        } else {
            l.add(title + " (" + heatWhat + ")", "1");
            push(l);
        }
    }
    const std::size_t heatName = std::min<std::size_t>(nameWidth, 14);
    const int cellsFit = std::max(1, (width - int(heatName) - 2 - 3) / 3);
    const bool cutCols = cellsFit < mapCount;
    const int shownCols = cutCols ? cellsFit : mapCount;
    {
        Line l = line();
        l.add(std::string(heatName + 2, ' '));
        for (int c = 0; c < shownCols; ++c) {
            const std::string &n = mapNodes[std::size_t(c)];
            // The last two characters tell node-01 from node-02.
            l.add(padded(n.size() > 2 ? n.substr(n.size() - 2) : n, 3), "2");
        }
        if (cutCols)
            l.add("...");
        push(l);
    }
    const bool cutHeat = heatRows < mapCount;
    const int heatShown = cutHeat ? std::max(heatRows - 1, 1) : mapCount;
    for (int r = 0; r < heatShown; ++r) {
        Line l = line();
        const std::string &from = mapNodes[std::size_t(r)];
        l.add("  " + padded(from.substr(0, heatName - 1), heatName));
        const auto fi = clusterIndex.find(from);
        for (int c = 0; c < shownCols; ++c) {
            const auto ti = clusterIndex.find(mapNodes[std::size_t(c)]);
            double bytes = 0;
            if (fi != clusterIndex.end() && ti != clusterIndex.end())
                if (auto it = traffic.pairBytes.find({fi->second, ti->second});
                    it != traffic.pairBytes.end())
                    bytes = it->second;
            const int lv = level(bytes, max);
            if (screen.colour)
                l.add(std::string(r == c ? "<>" : "  "), kBackground[lv]);
            else
                l.add(kPlainGlyph[lv]);
            l.add(" ");
        }
        if (cutCols)
            l.add("...");
        push(l);
    }
    if (cutHeat) {
        Line l = line();
        l.add("  ... " + std::to_string(mapCount - heatShown) + " more nodes");
        push(l);
    }
    {
        // Each level's glyph and upper bound; on a narrow terminal the unit is said once and
        // the spaces go, so that all six levels fit 80 columns.
        auto legend = [&](bool compact) {
            Line l = line();
            l.add(compact && max > 0 ? "  legend, MB: " : "  legend: ");
            auto glyph = [&](int lv) {
                if (screen.colour)
                    l.add("  ", kBackground[lv]);
                else
                    l.add(kPlainGlyph[lv]);
            };
            if (max <= 0) {
                glyph(0);
                l.add(" no traffic yet (the tasks placed so far exchange nothing)");
            }
            for (int lv = 0; lv <= 5 && max > 0; ++lv) {
                glyph(lv);
                const std::string bound = trafficMB(max * lv / 5.0);
                if (!compact)
                    l.add(lv == 0 ? " none  " : " <=" + bound + "  ");
                else
                    l.add(lv == 0 ? " none " : " <=" + bound.substr(0, bound.size() - 3) + " ");
            }
            if (screen.colour && max > 0) {
                // (the diagonal's mark; left out on a narrow terminal rather than cut)
                Line noted = l;
                noted.add("(<> on-node)");
                if (!compact || noted.fits())
                    return noted;
            }
            return l;
        };
        const Line full = legend(false);
        push(full.fits() ? full : legend(true));
    }
    lines.emplace_back();
    push(keysHelpLine(width, screen.colour));
    if (int(lines.size()) > height)
        lines.resize(std::size_t(height));
    return lines;
}

StsStepView::StsStepView(std::string scenarioName, std::string policy, std::uint64_t seed,
                         StsDecisionLog log, std::string summary)
    : m_scenario(std::move(scenarioName)), m_policy(std::move(policy)),
      m_summary(std::move(summary)), m_seed(seed), m_log(std::move(log))
{
}

std::vector<std::string> StsStepView::render(int cursor, const StepScreen &screen) const
{
    const int width = std::max(screen.width, 20);
    std::vector<std::string> lines;
    auto line = [&] { return Line(width, screen.colour); };
    auto push = [&](const Line &l) { lines.push_back(l.text()); };
    const int height = pushHeader(lines, width, screen, m_scenario, m_policy, m_seed);
    // Text that may not fit the width, broken at spaces onto at most `maxLines` lines indented
    // by `indent` (the last one cut with "..." when more would follow); returns the lines.
    auto pushWrapped = [&](const std::string &text, std::size_t indent, const std::string &style,
                           int maxLines) {
        const std::vector<std::string> texts = wrappedLines(text, width, indent, indent, maxLines);
        for (std::size_t k = 0; k < texts.size(); ++k) {
            Line l = line();
            l.add((k == 0 ? std::string(indent, ' ') : std::string()) + texts[k], style);
            push(l);
        }
        return int(texts.size());
    };
    pushWrapped(m_summary, 0, {}, 2);
    const int total = eventCount();
    if (total == 0) {
        Line l = line();
        l.add("No scheduling events: the scenario has no jobs.");
        push(l);
        return lines;
    }
    cursor = std::clamp(cursor, 0, total - 1);
    const StsEventRecord &e = m_log.events()[std::size_t(cursor)];
    {
        Line l = line();
        l.add("Event " + std::to_string(cursor + 1) + "/" + std::to_string(total), "1");
        l.add("  at " + clockText(e.time) + "  " + e.trigger + "  " +
              std::to_string(e.jobs.size()) + (e.jobs.size() == 1 ? " job" : " jobs") +
              " to schedule");
        push(l);
    }
    lines.emplace_back();
    // Columns of the jobs, then the candidates under each job, indented.
    std::size_t jobWidth = 5;
    for (const StsJobDecision &j : e.jobs)
        jobWidth = std::max(jobWidth, std::min<std::size_t>(j.job.size() + 2, 24));
    {
        Line l = line();
        l.add(padded("  #  " + padded("job", jobWidth) + "pressure   epochs done  chosen",
                     jobWidth + 38),
              "4");
        l.add(padded("node", 10) + padded("phase", 12) + "why", "4");
        push(l);
    }
    const int keysLine = 1;
    int room = height - int(lines.size()) - keysLine - 1;
    // Below 120 columns a job's reason and a plan's phases go on lines of their own rather
    // than past the edge, and the plans are indented less.
    const bool narrow = width < 120;
    int shownJobs = 0;
    for (std::size_t k = 0; k < e.jobs.size() && room > 0; ++k) {
        const StsJobDecision &j = e.jobs[k];
        Line l = line();
        const std::string index = std::to_string(k + 1);
        l.add(std::string(index.size() < 3 ? 3 - index.size() : 0, ' ') + index + "  ");
        l.add(padded(j.job, jobWidth), "1");
        // (a pressure that rounds to zero from below reads 0, not -0)
        const std::string pressure = groupedFixed(j.pressure, 0);
        l.add(padded(pressure == "-0" ? "0" : pressure, 11) +
              padded(formatFixed(j.doneEpochs, 2), 13));
        const std::string chosen = j.chosen.empty() ? "(waits)" : j.chosen;
        l.add(padded(chosen, 9), j.chosen.empty() ? "33" : "1;32");
        l.add(padded(j.node.empty() ? "-" : j.node, 10) +
              // (12: a phase of days, "2d 20:54:36", keeps a space before the reason)
              padded(j.phaseSeconds > 0 ? clockText(j.phaseSeconds) : "to end", 12));
        Line withWhy = l;
        withWhy.add(j.reason);
        if (narrow && !withWhy.fits()) {
            // (the reason on the lines below the row, rather than cut at the edge)
            push(l);
            room -= 1 + pushWrapped(j.reason, 5, "2", room - 1);
        } else {
            push(withWhy);
            --room;
        }
        ++shownJobs;
        // Its candidates, cheapest first: the chosen one marked.
        for (std::size_t c = 0; c < j.candidates.size() && room > 0; ++c) {
            const StsCandidateRecord &cand = j.candidates[c];
            Line cl = line();
            const bool picked = !j.chosen.empty() && cand.enacted == j.chosen;
            cl.add(std::string(narrow ? 4 : jobWidth + 5, ' ') + (picked ? "* " : "  "));
            // (running: the phases at the configurations' catalogue prices, as the window's
            // column says; a tardy plan's expected tardiness can be below a cent, not none)
            const std::size_t amount = narrow ? 9 : 10;
            cl.add(padded(cand.gpuType, 8) + padded(cand.kind, 10) + "cost " +
                       padded(formatFixed(cand.expectedCost, 2), amount) + "running " +
                       padded(formatFixed(cand.expectedEnergyCost, 2), amount) + "tardiness " +
                       padded(formatAmount(cand.expectedTardinessCost, 2), amount),
                   picked ? "1" : "");
            std::string plan;
            for (const StsPhaseRecord &ph : cand.phases) {
                const std::string from = formatFixed(ph.fromEpoch, 2),
                                  to = formatFixed(ph.toEpoch, 2);
                // (a phase too short to show as a range: "124.98-124.98" read as none)
                plan +=
                    (plan.empty() ? "" : ", ") + ph.config +
                    (from == to ? " under 0.01 epochs at " + from : " epochs " + from + "-" + to);
            }
            Line withPlan = cl;
            withPlan.add(plan);
            if (narrow && !withPlan.fits()) {
                // (the plan's phases on the lines below its costs)
                push(cl);
                room -= 1 + pushWrapped(plan, 10, {}, room - 1);
            } else {
                push(withPlan);
                --room;
            }
        }
    }
    if (shownJobs < int(e.jobs.size())) {
        Line l = line();
        const int more = int(e.jobs.size()) - shownJobs;
        l.add("  ... " + std::to_string(more) + (more == 1 ? " more job" : " more jobs") +
              " below (a taller terminal shows them)");
        push(l);
    }
    while (int(lines.size()) < height - keysLine)
        lines.emplace_back();
    push(keysHelpLine(width, screen.colour));
    return lines;
}

StepKey decodeStepKey(const std::string &input, std::size_t &pos)
{
    if (pos >= input.size())
        return StepKey::None;
    const char c = input[pos++];
    switch (c) {
    case 'n': case 'j': return StepKey::Next;
    case 'p': case 'k': return StepKey::Previous;
    case 'f': case 'g': return StepKey::First;
    case 'l': case 'G': return StepKey::Last;
    case ' ': return StepKey::PlayPause;
    case '+': case '=': return StepKey::Faster;
    case '-': case '_': return StepKey::Slower;
    case 'q': case 'Q': case 3: return StepKey::Quit;
    case '\x1b': break;
    default: return StepKey::None;
    }
    // ESC [ C / ESC O C and friends; ESC [ 1 ~ (Home), ESC [ 4 ~ (End), ESC [ 7/8 ~ (rxvt).
    if (pos >= input.size())
        return StepKey::None; // a lone Escape (or a sequence split across reads)
    const char intro = input[pos];
    if (intro != '[' && intro != 'O')
        return StepKey::None;
    ++pos;
    std::string params;
    while (pos < input.size() && (std::isdigit(static_cast<unsigned char>(input[pos])) ||
                                  input[pos] == ';'))
        params += input[pos++];
    if (pos >= input.size())
        return StepKey::None;
    const char final = input[pos++];
    switch (final) {
    case 'C': return StepKey::Next;
    case 'D': return StepKey::Previous;
    case 'H': return StepKey::First;
    case 'F': return StepKey::Last;
    case '~':
        if (params == "1" || params == "7")
            return StepKey::First;
        if (params == "4" || params == "8")
            return StepKey::Last;
        return StepKey::None;
    default: return StepKey::None;
    }
}

} // namespace cb::cli
