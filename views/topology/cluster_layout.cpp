#include "topology/cluster_layout.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

namespace cb::views {

namespace {

struct GridChoice
{
    int columns = 1;      ///< node columns inside every group
    int groupsPerRow = 1; ///< groups side by side before the next row of groups
};

/// Height of a group of `nodes` nodes in `columns` columns.
double groupHeight(std::size_t nodes, int columns)
{
    using L = ClusterLayout;
    const double rows = std::ceil(double(nodes) / columns);
    return L::kGroupHeader + rows * L::kNodeHeight + (rows - 1) * L::kNodeGap + L::kGroupPadding;
}

double groupWidth(int columns)
{
    using L = ClusterLayout;
    const double inner = columns * L::kNodeWidth + (columns - 1) * L::kNodeGap;
    return std::max(inner + 2 * L::kGroupPadding, L::kSwitchWidth + 8);
}

/// Node columns per group and groups per row whose whole picture comes closest to a 16:10
/// window. Few racks stay in one row (as blocks); hundreds of racks wrap into a grid of
/// rows, each with its leaf switches above it, instead of one long thin strip.
GridChoice gridFor(std::size_t largest, std::size_t groupCount, int tierCount,
                   const std::vector<int> &upperTierSwitches)
{
    using L = ClusterLayout;
    GridChoice best;
    if (groupCount == 0)
        return best;
    const double upperTiers = tierCount > 1 ? (tierCount - 1) * L::kTierGap : 0;
    const double leafBand = tierCount > 0 ? L::kSwitchHeight + 56 : 0;
    double bestScore = std::numeric_limits<double>::infinity();
    const int maxColumns = int(std::clamp<std::size_t>(largest, 1, 64));
    // Wrapping only pays off with many groups; a handful always stays in one row.
    const int minPerRow = groupCount <= 8 ? int(groupCount) : 1;
    for (int g = int(groupCount); g >= minPerRow; --g) {
        const double rowsOfGroups = std::ceil(double(groupCount) / g);
        for (int c = 1; c <= maxColumns; ++c) {
            const double width = g * (groupWidth(c) + L::kGroupGap);
            double wrappedLines = 0; // upper tiers wrap to the grid's width too
            if (g < int(groupCount)) {
                const int perLine = std::max(1, int(width / (L::kSwitchWidth + 16)));
                for (int count : upperTierSwitches)
                    wrappedLines += std::max(0, (count + perLine - 1) / perLine - 1);
            }
            const double height = upperTiers + wrappedLines * (L::kSwitchHeight + 16) +
                                  rowsOfGroups * (leafBand + groupHeight(largest, c)) +
                                  (rowsOfGroups - 1) * L::kRowGap;
            const double score = std::abs(std::log(width / height / 1.6));
            if (score < bestScore - 1e-9) {
                bestScore = score;
                best = {c, g};
            }
        }
    }
    return best;
}

} // namespace

ClusterLayout::ClusterLayout(const Cluster &cluster)
{
    const std::size_t nodeCount = cluster.nodes.size();
    const std::size_t switchCount = cluster.switches.size();
    std::unordered_map<std::string, int> nodeIndex;
    std::unordered_map<std::string, int> switchIndex;
    for (std::size_t i = 0; i < nodeCount; ++i)
        nodeIndex.emplace(cluster.nodes[i].id, int(i));
    for (std::size_t i = 0; i < switchCount; ++i)
        switchIndex.emplace(cluster.switches[i].id, int(i));

    // Adjacency: node -> switches (in link order), switch <-> switch.
    std::vector<std::vector<int>> nodeSwitches(nodeCount);
    std::vector<std::vector<int>> switchNeighbours(switchCount);
    for (const Link &link : cluster.links) {
        auto na = nodeIndex.find(link.a), nb = nodeIndex.find(link.b);
        auto sa = switchIndex.find(link.a), sb = switchIndex.find(link.b);
        if (na != nodeIndex.end() && sb != switchIndex.end())
            nodeSwitches[std::size_t(na->second)].push_back(sb->second);
        else if (nb != nodeIndex.end() && sa != switchIndex.end())
            nodeSwitches[std::size_t(nb->second)].push_back(sa->second);
        else if (sa != switchIndex.end() && sb != switchIndex.end() && sa->second != sb->second) {
            switchNeighbours[std::size_t(sa->second)].push_back(sb->second);
            switchNeighbours[std::size_t(sb->second)].push_back(sa->second);
        }
    }

    // Hop distance of each switch from the nearest node (multi-source BFS).
    std::vector<int> dist(switchCount, -1);
    std::deque<int> queue;
    for (const auto &adj : nodeSwitches)
        for (int s : adj)
            if (dist[std::size_t(s)] < 0) {
                dist[std::size_t(s)] = 1;
                queue.push_back(s);
            }
    while (!queue.empty()) {
        const int s = queue.front();
        queue.pop_front();
        for (int t : switchNeighbours[std::size_t(s)])
            if (dist[std::size_t(t)] < 0) {
                dist[std::size_t(t)] = dist[std::size_t(s)] + 1;
                queue.push_back(t);
            }
    }
    int maxDist = 0;
    for (int d : dist)
        maxDist = std::max(maxDist, d);
    for (int &d : dist)
        if (d < 0)
            d = maxDist + 1; // switches no node reaches go on top
    maxDist = 0;
    for (int d : dist)
        maxDist = std::max(maxDist, d);
    m_tierCount = maxDist;
    m_switchTier.resize(switchCount);
    for (std::size_t s = 0; s < switchCount; ++s)
        m_switchTier[s] = maxDist - dist[s];

    // Home switch per node: its first linked switch with the smallest distance.
    m_homeSwitch.assign(nodeCount, -1);
    for (std::size_t n = 0; n < nodeCount; ++n)
        for (int s : nodeSwitches[n])
            if (m_homeSwitch[n] < 0 || dist[std::size_t(s)] < dist[std::size_t(m_homeSwitch[n])])
                m_homeSwitch[n] = s;

    // Groups in order of first appearance of their home switch in the node list; the nodes
    // of a multi-node NVLink domain form a group of their own (the domain's tier).
    const std::vector<int> domainOf = cluster.nvlinkDomainOfNodes();
    std::map<std::pair<int, int>, int> groupOfSwitch;
    m_nodeGroup.assign(nodeCount, -1);
    for (std::size_t n = 0; n < nodeCount; ++n) {
        const int home = m_homeSwitch[n];
        auto [it, inserted] =
            groupOfSwitch.emplace(std::make_pair(home, domainOf[n]), int(m_groups.size()));
        if (inserted) {
            Group g;
            g.homeSwitch = home;
            g.nvlinkDomain = domainOf[n];
            m_groups.push_back(g);
        }
        m_groups[std::size_t(it->second)].nodes.push_back(int(n));
        m_nodeGroup[n] = it->second;
    }

    // Geometry of the groups: rows of groups at the bottom, each row below its own strip of
    // leaf switches (one row unless there are many groups).
    const double leafTop = m_tierCount > 0 ? (m_tierCount - 1) * kTierGap : 0;
    const double leafBand = m_tierCount > 0 ? kSwitchHeight + 56 : 0;
    m_nodeRect.assign(nodeCount, QRectF());
    std::size_t largest = 0;
    for (const Group &g : m_groups)
        largest = std::max(largest, g.nodes.size());
    std::vector<int> upperTierSwitches(std::size_t(std::max(m_tierCount - 1, 0)), 0);
    for (std::size_t sw = 0; sw < switchCount; ++sw)
        if (m_switchTier[sw] < m_tierCount - 1)
            ++upperTierSwitches[std::size_t(m_switchTier[sw])];
    const GridChoice grid = gridFor(largest, m_groups.size(), m_tierCount, upperTierSwitches);
    const int columns = grid.columns;
    m_groupsPerRow = grid.groupsPerRow;
    const double rowPitch = leafBand + groupHeight(largest, columns) + kRowGap;
    double x = 0;
    double rowWidthMax = 0;
    for (std::size_t gi = 0; gi < m_groups.size(); ++gi) {
        Group &g = m_groups[gi];
        const int groupRow = int(gi) / m_groupsPerRow;
        if (int(gi) % m_groupsPerRow == 0)
            x = 0;
        const double groupTop = leafTop + groupRow * rowPitch + leafBand;
        g.columns = int(std::min<std::size_t>(std::size_t(columns), g.nodes.size()));
        const int rows = int((g.nodes.size() + std::size_t(g.columns) - 1) / std::size_t(g.columns));
        const double innerWidth = g.columns * kNodeWidth + (g.columns - 1) * kNodeGap;
        const double width = std::max(innerWidth + 2 * kGroupPadding, kSwitchWidth + 8);
        const double height =
            kGroupHeader + rows * kNodeHeight + (rows - 1) * kNodeGap + kGroupPadding;
        g.rect = QRectF(x, groupTop, width, height);
        const double left = x + (width - innerWidth) / 2;
        for (std::size_t k = 0; k < g.nodes.size(); ++k) {
            const int col = int(k % std::size_t(g.columns));
            const int row = int(k / std::size_t(g.columns));
            m_nodeRect[std::size_t(g.nodes[k])] =
                QRectF(left + col * (kNodeWidth + kNodeGap),
                       groupTop + kGroupHeader + row * (kNodeHeight + kNodeGap), kNodeWidth,
                       kNodeHeight);
        }
        // Title: the racks of the members (one name, or "r01 … r04"), else the switch id.
        std::set<std::string> racks;
        for (int n : g.nodes)
            if (!cluster.nodes[std::size_t(n)].rack.empty())
                racks.insert(cluster.nodes[std::size_t(n)].rack);
        if (racks.size() == 1)
            g.title = QString::fromStdString(*racks.begin());
        else if (racks.size() > 1)
            g.title = QStringLiteral("%1 … %2").arg(QString::fromStdString(*racks.begin()),
                                                    QString::fromStdString(*racks.rbegin()));
        else if (g.homeSwitch >= 0)
            g.title = QString::fromStdString(cluster.switches[std::size_t(g.homeSwitch)].id);
        else
            g.title = QObject::tr("direct");
        if (g.nvlinkDomain >= 0) {
            int gpus = 0;
            for (int n : g.nodes)
                gpus += cluster.nodes[std::size_t(n)].gpus;
            g.title = QObject::tr("%1 · NVLink %2 GPUs")
                          .arg(QString::fromStdString(
                                   cluster.nvlinkDomains[std::size_t(g.nvlinkDomain)].id))
                          .arg(gpus);
        }
        x += width + kGroupGap;
        rowWidthMax = std::max(rowWidthMax, x - kGroupGap);
    }
    const double rowWidth = std::max(0.0, rowWidthMax);

    // Switch positions, tier by tier from the leaves up.
    m_switchCenter.assign(switchCount, QPointF());
    std::vector<bool> placed(switchCount, false);
    for (const Group &g : m_groups)
        if (g.homeSwitch >= 0) {
            m_switchCenter[std::size_t(g.homeSwitch)] =
                QPointF(g.rect.center().x(), g.rect.top() - leafBand + kSwitchHeight / 2);
            placed[std::size_t(g.homeSwitch)] = true;
        }
    // With wrapped rows of groups, a wide upper tier wraps too (lines as wide as the grid),
    // and everything from the leaf strips down moves below the taller upper tiers.
    const bool wrapped = m_groupsPerRow < int(m_groups.size());
    const double linePitch = kSwitchHeight + 16;
    const int perLine = std::max(1, int(rowWidth / (kSwitchWidth + 16)));
    std::vector<double> tierTop(std::size_t(std::max(m_tierCount, 1)), 0.0);
    for (int tier = 0; tier < m_tierCount; ++tier) {
        int count = 0;
        for (std::size_t s = 0; s < switchCount; ++s)
            count += m_switchTier[s] == tier && !placed[s];
        const int lines = wrapped && tier < m_tierCount - 1 ? (count + perLine - 1) / perLine : 1;
        m_upperLines.push_back(std::max(lines, 1));
    }
    for (int tier = 1; tier < m_tierCount; ++tier)
        tierTop[std::size_t(tier)] = tierTop[std::size_t(tier - 1)] + kTierGap +
                                     (m_upperLines[std::size_t(tier - 1)] - 1) * linePitch;
    const double shift =
        m_tierCount > 0 ? tierTop[std::size_t(m_tierCount - 1)] - (m_tierCount - 1) * kTierGap : 0;
    if (shift > 0) {
        for (Group &g : m_groups) {
            g.rect.translate(0, shift);
            for (int n : g.nodes)
                m_nodeRect[std::size_t(n)].translate(0, shift);
            if (g.homeSwitch >= 0)
                m_switchCenter[std::size_t(g.homeSwitch)] += QPointF(0, shift);
        }
    }
    for (int tier = m_tierCount - 1; tier >= 0; --tier) {
        std::vector<std::pair<double, int>> order;
        for (std::size_t s = 0; s < switchCount; ++s) {
            if (m_switchTier[s] != tier || placed[s])
                continue;
            double sum = 0;
            int count = 0;
            for (int t : switchNeighbours[s])
                if (placed[std::size_t(t)] && m_switchTier[std::size_t(t)] > tier) {
                    sum += m_switchCenter[std::size_t(t)].x();
                    ++count;
                }
            order.emplace_back(count ? sum / count : rowWidth / 2, int(s));
        }
        std::stable_sort(order.begin(), order.end(),
                         [](const auto &l, const auto &r) { return l.first < r.first; });
        const bool leafTier = tier == m_tierCount - 1;
        if (wrapped && !leafTier) {
            const int n = int(order.size());
            for (int k = 0; k < n; ++k) {
                const int line = k / perLine, inLine = std::min(perLine, n - line * perLine);
                const double cx = (double(k % perLine) + 0.5) * rowWidth / inLine;
                m_switchCenter[std::size_t(order[std::size_t(k)].second)] = QPointF(
                    cx, tierTop[std::size_t(tier)] + line * linePitch + kSwitchHeight / 2);
                placed[std::size_t(order[std::size_t(k)].second)] = true;
            }
            continue;
        }
        const double span = std::max(rowWidth, double(order.size()) * (kSwitchWidth + 16));
        const double left = (rowWidth - span) / 2;
        for (std::size_t k = 0; k < order.size(); ++k) {
            const int s = order[k].second;
            double cx = left + (double(k) + 0.5) * span / double(order.size());
            if (leafTier && order.size() < 2)
                cx = order[k].first; // a lone switch without own nodes sits above its peers
            m_switchCenter[std::size_t(s)] =
                QPointF(cx, tierTop[std::size_t(tier)] + kSwitchHeight / 2);
            placed[std::size_t(s)] = true;
        }
    }
    // Leaf switches without nodes of their own may collide with group-centred leaves:
    // push overlapping switches of each tier apart, keeping their order.
    for (int tier = 0; tier < m_tierCount; ++tier) {
        // (Per row of the picture: wrapped leaf strips sit at different heights.)
        std::vector<int> row;
        for (std::size_t s = 0; s < switchCount; ++s)
            if (m_switchTier[s] == tier)
                row.push_back(int(s));
        std::stable_sort(row.begin(), row.end(), [this](int l, int r) {
            const QPointF a = m_switchCenter[std::size_t(l)], b = m_switchCenter[std::size_t(r)];
            return a.y() != b.y() ? a.y() < b.y() : a.x() < b.x();
        });
        for (std::size_t k = 1; k < row.size(); ++k) {
            QPointF &prev = m_switchCenter[std::size_t(row[k - 1])];
            QPointF &cur = m_switchCenter[std::size_t(row[k])];
            if (cur.y() == prev.y() && cur.x() < prev.x() + kSwitchWidth + 8)
                cur.setX(prev.x() + kSwitchWidth + 8);
        }
    }

    // The leaf switches of each row in the order of the nodes they link (their mean position,
    // then the file's order): a group's home switch was centred over it and its other leaves
    // spread over the row, so dgx-nvlink's rail-0 stood between rail-3 and rail-4. The slots
    // stay where they are; only who stands in them changes.
    if (m_tierCount > 0) {
        std::vector<double> sum(switchCount, 0.0);
        std::vector<int> count(switchCount, 0);
        for (std::size_t n = 0; n < nodeCount; ++n)
            for (int sw : nodeSwitches[n]) {
                sum[std::size_t(sw)] += m_nodeRect[n].center().x();
                ++count[std::size_t(sw)];
            }
        std::map<double, std::vector<int>> rows; // by height
        for (std::size_t sw = 0; sw < switchCount; ++sw)
            if (m_switchTier[sw] == m_tierCount - 1)
                rows[m_switchCenter[sw].y()].push_back(int(sw));
        for (auto &[y, row] : rows) {
            std::vector<double> places;
            std::vector<std::pair<double, int>> keyed;
            for (int sw : row) {
                const auto i = std::size_t(sw);
                places.push_back(m_switchCenter[i].x());
                // (Rounded: equal node sets summed in another order differ in the last bits.)
                keyed.emplace_back(count[i] ? std::round(sum[i] / count[i] * 100) / 100
                                            : m_switchCenter[i].x(),
                                   sw);
            }
            std::sort(places.begin(), places.end());
            std::sort(keyed.begin(), keyed.end());
            for (std::size_t k = 0; k < keyed.size(); ++k)
                m_switchCenter[std::size_t(keyed[k].second)].setX(places[k]);
        }
    }

    m_bounds = QRectF();
    for (const Group &g : m_groups)
        m_bounds = m_bounds.united(g.rect);
    for (std::size_t s = 0; s < switchCount; ++s)
        m_bounds = m_bounds.united(switchRect(int(s)));
}

QRectF ClusterLayout::switchRect(int switchIndex) const
{
    const QPointF c = m_switchCenter[std::size_t(switchIndex)];
    return QRectF(c.x() - kSwitchWidth / 2, c.y() - kSwitchHeight / 2, kSwitchWidth,
                  kSwitchHeight);
}

} // namespace cb::views
