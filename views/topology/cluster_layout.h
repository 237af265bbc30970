#pragma once
// Where the topology view draws things. Switches sit in tiers by their hop distance from the
// nodes (leaves just above the nodes, spines and cores higher up); nodes are grouped under
// their home switch (the first nearest switch they link to) and laid out as a grid per group,
// with the group centred under its switch; the nodes of a multi-node NVLink domain (a GB200
// NVL72 rack) form their own group, which the scene frames as the domain tier. Many groups wrap into rows (a grid of racks, each
// row with its leaf switches above it) so that a fitted view stays readable. Upper tiers are ordered by the mean position of
// the switches they connect to, then spread evenly. Pure geometry: deterministic for a
// given cluster, no scene involved, so the model tree and the tests can reuse it.

#include "model/cluster.h"

#include <QPointF>
#include <QRectF>
#include <QString>

#include <vector>

namespace cb::views {

class ClusterLayout
{
public:
    static constexpr double kNodeWidth = 64;
    static constexpr double kNodeHeight = 40;
    static constexpr double kNodeGap = 6;
    static constexpr double kGroupPadding = 10;
    static constexpr double kGroupHeader = 22;
    static constexpr double kGroupGap = 28;
    static constexpr double kSwitchWidth = 96;
    static constexpr double kSwitchHeight = 28;
    static constexpr double kTierGap = 120;
    static constexpr double kRowGap = 48; ///< between wrapped rows of groups

    struct Group
    {
        int homeSwitch = -1;    ///< switch index, or -1 for nodes linked to no switch
        int nvlinkDomain = -1;  ///< Cluster::nvlinkDomains index of all its nodes, or -1
        QString title;          ///< rack name(s) or the home switch id
        std::vector<int> nodes; ///< node indices in cluster order
        int columns = 1;
        QRectF rect;            ///< the group box, in scene coordinates
    };

    explicit ClusterLayout(const Cluster &cluster);

    int tierCount() const { return m_tierCount; }
    /// 0 for the top tier; leaves are tierCount() - 1.
    int switchTier(int switchIndex) const { return m_switchTier[std::size_t(switchIndex)]; }
    QPointF switchCenter(int switchIndex) const { return m_switchCenter[std::size_t(switchIndex)]; }
    QRectF switchRect(int switchIndex) const;
    const std::vector<Group> &groups() const { return m_groups; }
    int groupOf(int nodeIndex) const { return m_nodeGroup[std::size_t(nodeIndex)]; }
    QRectF nodeRect(int nodeIndex) const { return m_nodeRect[std::size_t(nodeIndex)]; }
    /// Switch index per node (-1 when the node links to no switch).
    const std::vector<int> &homeSwitches() const { return m_homeSwitch; }
    QRectF bounds() const { return m_bounds; }
    /// Groups side by side in one row (all of them unless many groups wrap into a grid).
    int groupsPerRow() const { return m_groupsPerRow; }

private:
    int m_tierCount = 0;
    std::vector<int> m_switchTier;
    std::vector<QPointF> m_switchCenter;
    std::vector<int> m_homeSwitch;
    std::vector<int> m_nodeGroup;
    std::vector<QRectF> m_nodeRect;
    std::vector<Group> m_groups;
    QRectF m_bounds;
    int m_groupsPerRow = 1;
    std::vector<int> m_upperLines; ///< lines per tier (wrapped upper tiers), top first
};

} // namespace cb::views
