#include "models/cluster_tree_model.h"

#include "commands/edit_node_command.h"
#include "commands/edit_switch_command.h"
#include "document/document.h"
#include "model/gen_host.h"
#include "model/gpu_catalog.h"
#include "model/node_labels.h"
#include "models/quantity_format.h"
#include "topology/cluster_layout.h"

#include <QFont>
#include <QIcon>
#include <QUndoStack>

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace cb::views {

namespace {
constexpr quintptr kTopLevel = 0;

/// The name under which `cluster` knows the GPU type `name` (any case, a product name too),
/// or "" when neither it nor the catalogue has one. A catalogue type the cluster lacks is
/// added to `types` (the cluster's types after the edit).
std::string resolveGpuType(const Cluster &cluster, const std::string &name,
                           std::optional<std::vector<GpuType>> &types)
{
    if (cluster.gpuType(name))
        return name;
    const GpuRecognition r = recogniseGpu(name);
    if (!r.entry)
        return {};
    const GpuType &type = r.entry->type;
    if (!cluster.gpuType(type.name)) {
        types = cluster.gpuTypes;
        types->push_back(type);
    }
    return type.name;
}

/// The type a node given GPUs without one takes: the cluster's first, else the catalogue's
/// A100-40GB (the generators' default host).
std::string defaultGpuType(const Cluster &cluster, std::optional<std::vector<GpuType>> &types)
{
    if (!cluster.gpuTypes.empty())
        return cluster.gpuTypes.front().name;
    return resolveGpuType(cluster, HostParams{}.gpuType, types);
}
} // namespace

ClusterTreeModel::ClusterTreeModel(Document *document, QObject *parent)
    : QAbstractItemModel(parent)
    , m_document(document)
{
    using P = Document::Part;
    auto structural = [](P part) { return part != P::Jobs; };
    connect(document, &Document::scenarioAboutToBeReplaced, this,
            &ClusterTreeModel::beginResetModel);
    connect(document, &Document::scenarioReplaced, this, [this] {
        rebuild();
        endResetModel();
    });
    auto begin = [this, structural](P part, int) {
        if (structural(part))
            beginResetModel();
    };
    auto end = [this, structural](P part, int) {
        if (structural(part)) {
            rebuild();
            endResetModel();
        }
    };
    connect(document, &Document::rowAboutToBeInserted, this, begin);
    connect(document, &Document::rowAboutToBeRemoved, this, begin);
    connect(document, &Document::rowInserted, this, end);
    connect(document, &Document::rowRemoved, this, end);
    connect(document, &Document::rowChanged, this, [this](P part, int row) {
        if (part == P::Nodes || part == P::Switches)
            onRowChanged(part == P::Switches, row);
        else if (part == P::Links)
            regroup(); // (a link moved to another switch moves its node to that group)
    });
    rebuild();
}

void ClusterTreeModel::rebuild()
{
    const Cluster &cluster = m_document->scenario().cluster;
    m_groups.clear();
    if (!cluster.switches.empty()) {
        Group g{tr("Switches"), true, {}};
        for (std::size_t s = 0; s < cluster.switches.size(); ++s)
            g.members.push_back(int(s));
        m_groups.push_back(std::move(g));
    }
    const ClusterLayout layout(cluster);
    for (const ClusterLayout::Group &lg : layout.groups())
        m_groups.push_back(Group{lg.title, false, lg.nodes});
    m_nodeRow.assign(cluster.nodes.size(), {-1, -1});
    for (std::size_t g = 0; g < m_groups.size(); ++g)
        if (!m_groups[g].switches)
            for (std::size_t r = 0; r < m_groups[g].members.size(); ++r)
                m_nodeRow[std::size_t(m_groups[g].members[r])] = {int(g), int(r)};
}

bool ClusterTreeModel::regroup()
{
    const std::vector<Group> before = m_groups;
    rebuild();
    bool same = before.size() == m_groups.size();
    for (std::size_t g = 0; same && g < before.size(); ++g)
        same = before[g].title == m_groups[g].title && before[g].members == m_groups[g].members;
    if (same)
        return false;
    m_groups = before; // views see the old structure until the reset begins
    beginResetModel();
    rebuild();
    endResetModel();
    return true;
}

void ClusterTreeModel::onRowChanged(bool isSwitch, int memberIndex)
{
    // A rack or id change may regroup nodes (groups without a rack are named after their
    // switch): compare the grouping before signalling.
    if (regroup())
        return;
    const QModelIndex row = isSwitch ? indexOfSwitch(memberIndex) : indexOfNode(memberIndex);
    if (!row.isValid())
        return;
    const QModelIndex groupIndex = row.parent();
    emit dataChanged(row, row.siblingAtColumn(ColumnCount - 1));
    emit dataChanged(groupIndex, groupIndex.siblingAtColumn(ColumnCount - 1));
}

QModelIndex ClusterTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < int(m_groups.size()) ? createIndex(row, column, kTopLevel) : QModelIndex();
    if (parent.internalId() != kTopLevel || parent.column() != 0)
        return {};
    const Group &g = m_groups[std::size_t(parent.row())];
    if (row >= int(g.members.size()))
        return {};
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex ClusterTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kTopLevel);
}

int ClusterTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_groups.size());
    if (parent.internalId() != kTopLevel || parent.column() != 0)
        return 0;
    return int(m_groups[std::size_t(parent.row())].members.size());
}

int ClusterTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant ClusterTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Cluster &cluster = m_document->scenario().cluster;
    const int column = index.column();
    const bool numeric = column == Cpus || column == Memory || column == Gpus;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignVCenter | (numeric ? Qt::AlignRight : Qt::AlignLeft));

    if (index.internalId() == kTopLevel) {
        const Group &g = m_groups[std::size_t(index.row())];
        if (role == Qt::DecorationRole && column == Name)
            return QIcon(g.switches ? QStringLiteral(":/icons/switch.svg")
                                    : QStringLiteral(":/icons/rack.svg"));
        if (role == Qt::FontRole) {
            QFont f;
            f.setBold(column == Name);
            return f;
        }
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        if (g.switches) {
            if (column == Name)
                return QStringLiteral("%1 (%2)").arg(g.title).arg(g.members.size());
            return {};
        }
        double cpus = 0, memory = 0;
        int gpus = 0;
        for (int n : g.members) {
            const Node &node = cluster.nodes[std::size_t(n)];
            cpus += node.cpus;
            memory += node.memoryGiB;
            gpus += node.gpus;
        }
        switch (column) {
        case Name: return QStringLiteral("%1 (%2)").arg(g.title).arg(g.members.size());
        case Cpus: return formatNumber(cpus);
        case Memory: return QStringLiteral("%1 GiB").arg(formatNumber(memory));
        case Gpus: return gpus;
        default: return {};
        }
    }

    const Group &g = m_groups[std::size_t(index.internalId() - 1)];
    const int member = g.members[std::size_t(index.row())];
    if (g.switches) {
        const Switch &s = cluster.switches[std::size_t(member)];
        if (role == SwitchIndexRole)
            return member;
        if (role == Qt::DecorationRole && column == Name)
            return QIcon(QStringLiteral(":/icons/switch.svg"));
        if (role == Qt::ToolTipRole && column == Name)
            return tr("%1 (%2): %n link(s)", nullptr, int(m_document->linksOf(s.id).size()))
                .arg(QString::fromStdString(s.id),
                     s.tier.empty() ? tr("no tier") : QString::fromStdString(s.tier));
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::EditRole)
            return {};
        if (column == Name)
            return QString::fromStdString(s.id);
        if (column == Type)
            return QString::fromStdString(s.tier);
        return {};
    }
    const Node &node = cluster.nodes[std::size_t(member)];
    if (role == NodeIndexRole)
        return member;
    if (role == Qt::DecorationRole && column == Name)
        return QIcon(QStringLiteral(":/icons/node.svg"));
    if (role == GpuTypeChoicesRole && column == Type) {
        QStringList choices;
        if (node.gpus == 0)
            choices << QString();
        for (const GpuType &t : cluster.gpuTypes)
            choices << QString::fromStdString(t.name);
        for (const GpuCatalogEntry &e : gpuCatalog())
            if (!cluster.gpuType(e.type.name))
                choices << QString::fromStdString(e.type.name);
        return choices;
    }
    const bool edit = role == Qt::EditRole;
    if (role == Qt::ToolTipRole && column == GpuLink)
        return tr("How the node's GPUs reach each other, in Gbit/s per GPU and direction: "
                  "\"PCIe 128\", or \"NVLink 2400\" (one NVLink domain of all its GPUs), or "
                  "\"NVLink 2400 / 4\" (NVLink domains of 4 GPUs each). Double-click to edit.");
    if (role == Qt::ToolTipRole && column == Name)
        return QStringLiteral("%1\n%2 CPUs, %3 GiB, %4 GPUs %5")
            .arg(QString::fromStdString(node.id), formatNumber(node.cpus),
                 formatNumber(node.memoryGiB))
            .arg(node.gpus)
            .arg(QString::fromStdString(node.gpuType));
    if (role != Qt::DisplayRole && !edit)
        return {};
    switch (column) {
    case Name: return QString::fromStdString(node.id);
    case Type:
        if (!edit && node.gpus == 0)
            return tr("CPU only");
        return QString::fromStdString(node.gpuType);
    case Cpus: return edit ? QVariant(node.cpus) : QVariant(formatNumber(node.cpus));
    case Memory:
        return edit ? QVariant(node.memoryGiB)
                    : QVariant(QStringLiteral("%1 GiB").arg(formatNumber(node.memoryGiB)));
    case Gpus: return node.gpus;
    case GpuLink:
        if (!edit && node.gpus == 0)
            return QStringLiteral("-");
        return interconnectText(node);
    case Partition: return QString::fromStdString(node.partition);
    default: return {};
    }
}

namespace {

/// GPUs 0..gpus-1 in NVLink domains of `size` (which divides gpus); none without GPUs.
std::vector<std::vector<int>> nvlinkDomainsOf(int gpus, int size)
{
    std::vector<std::vector<int>> domains;
    for (int first = 0; size > 0 && first < gpus; first += size) {
        std::vector<int> domain(static_cast<std::size_t>(size));
        std::iota(domain.begin(), domain.end(), first);
        domains.push_back(std::move(domain));
    }
    return domains;
}

} // namespace

QString ClusterTreeModel::interconnectText(const Node &node)
{
    const GpuInterconnect &ic = node.interconnect;
    QString text = QStringLiteral("%1 %2").arg(ic.kind == GpuInterconnect::Kind::Nvlink
                                                   ? QStringLiteral("NVLink")
                                                   : QStringLiteral("PCIe"),
                                               formatNumber(ic.bandwidthGbps));
    const auto &domains = ic.nvlinkDomains;
    if (ic.kind == GpuInterconnect::Kind::Nvlink && domains.size() > 1 &&
        std::all_of(domains.begin(), domains.end(),
                    [&](const std::vector<int> &d) { return d.size() == domains.front().size(); }))
        text += QStringLiteral(" / %1").arg(domains.front().size());
    return text;
}

bool ClusterTreeModel::parseInterconnect(const QString &text, Node &node)
{
    static const QRegularExpression form(
        QStringLiteral(R"(^\s*(pcie|nvlink)\s*([0-9]+(?:\.[0-9]+)?)?\s*(?:/\s*([0-9]+))?\s*$)"),
        QRegularExpression::CaseInsensitiveOption);
    QString plain = text;
    plain.remove(QLatin1Char(',')); // (the cell shows "NVLink 2,400": thousands grouped)
    const QRegularExpressionMatch m = form.match(plain);
    if (!m.hasMatch())
        return false;
    GpuInterconnect ic = node.interconnect;
    const bool nvlink = m.captured(1).compare(QStringLiteral("nvlink"), Qt::CaseInsensitive) == 0;
    if (nvlink != (ic.kind == GpuInterconnect::Kind::Nvlink) && m.captured(2).isEmpty())
        ic.bandwidthGbps = nvlink ? 2400 : 128; // (a kind alone: A100 NVLink's, PCIe 4's)
    ic.kind = nvlink ? GpuInterconnect::Kind::Nvlink : GpuInterconnect::Kind::Pcie;
    if (!m.captured(2).isEmpty()) {
        const double gbps = m.captured(2).toDouble();
        if (!(gbps > 0))
            return false;
        ic.bandwidthGbps = gbps;
    }
    ic.nvlinkDomains.clear();
    if (nvlink && node.gpus > 0) {
        const int size = m.captured(3).isEmpty() ? node.gpus : m.captured(3).toInt();
        if (size <= 0 || node.gpus % size != 0)
            return false;
        ic.nvlinkDomains = nvlinkDomainsOf(node.gpus, size);
    } else if (!m.captured(3).isEmpty()) {
        return false; // (domains are NVLink's)
    }
    node.interconnect = std::move(ic);
    return true;
}

QVariant ClusterTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return QAbstractItemModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return tr("Name");
    case Type: return tr("Type");
    case Cpus: return tr("CPUs");
    case Memory: return tr("Memory");
    case Gpus: return tr("GPUs");
    case GpuLink:
        return tr("GPU link");
    case Partition: return tr("Partition");
    default: return {};
    }
}

Qt::ItemFlags ClusterTreeModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractItemModel::flags(index);
    if (!index.isValid() || index.internalId() == kTopLevel)
        return f;
    // Switches: name and tier; nodes: every column.
    if (!m_groups[std::size_t(index.internalId() - 1)].switches || index.column() == Name ||
        index.column() == Type)
        f |= Qt::ItemIsEditable;
    return f;
}

bool ClusterTreeModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid) ||
        index.internalId() == kTopLevel)
        return false;
    const Group &g = m_groups[std::size_t(index.internalId() - 1)];
    if (g.switches)
        return setSwitchData(g.members[std::size_t(index.row())], index.column(), value);
    const int nodeIndex = g.members[std::size_t(index.row())];
    const Cluster &cluster = m_document->scenario().cluster;
    Node node = cluster.nodes[std::size_t(nodeIndex)];
    std::optional<std::vector<GpuType>> types; // set when the edit adds a catalogue type
    bool ok = true;
    switch (index.column()) {
    case Name: {
        const std::string id = value.toString().trimmed().toStdString();
        if (id.empty() || (id != node.id && m_document->uniqueNodeId(id) != id))
            return false;
        node.id = id;
        break;
    }
    case Type: {
        const std::string type = value.toString().trimmed().toStdString();
        if (type.empty()) {
            if (node.gpus > 0)
                return false; // (a node with GPUs needs a type)
            node.gpuType.clear();
            break;
        }
        node.gpuType = resolveGpuType(cluster, type, types);
        if (node.gpuType.empty())
            return false;
        break;
    }
    case Cpus: {
        const double v = value.toDouble(&ok);
        if (!ok || !std::isfinite(v) || v <= 0)
            return false;
        node.cpus = v;
        break;
    }
    case Memory: {
        const double v = value.toDouble(&ok);
        if (!ok || !std::isfinite(v) || v <= 0)
            return false;
        node.memoryGiB = v;
        break;
    }
    case Gpus: {
        const int v = value.toInt(&ok);
        if (!ok || v < 0)
            return false;
        const int before = node.gpus;
        node.gpus = v;
        if (v > 0 && node.gpuType.empty())
            node.gpuType =
                defaultGpuType(cluster, types); // (valid at once; the Type cell changes it)
        // NVLink domains follow the count: one of all the GPUs stays so, equal smaller ones
        // keep their size where it divides the new count, else become one.
        if (node.interconnect.kind == GpuInterconnect::Kind::Nvlink) {
            const auto &domains = node.interconnect.nvlinkDomains;
            int size = domains.empty() || int(domains.front().size()) == before
                           ? v
                           : int(domains.front().size());
            if (size <= 0 || v % size != 0)
                size = v;
            node.interconnect.nvlinkDomains = nvlinkDomainsOf(v, size);
        }
        break;
    }
    case GpuLink:
        if (!parseInterconnect(value.toString(), node))
            return false;
        break;
    case Partition: node.partition = value.toString().trimmed().toStdString(); break;
    default: return false;
    }
    // Labels that describe the node follow it: hostname, GPU count and type, rack.
    if (types) { // (a type new to the cluster: its memory is read from the types after)
        Cluster after = cluster;
        after.gpuTypes = *types;
        syncNodeLabels(node, cluster.nodes[std::size_t(nodeIndex)], after);
    } else {
        syncNodeLabels(node, cluster.nodes[std::size_t(nodeIndex)], cluster);
    }
    if (node == cluster.nodes[std::size_t(nodeIndex)])
        return true;
    m_document->undoStack()->push(
        new EditNodeCommand(m_document, nodeIndex, std::move(node), std::move(types)));
    return true;
}

bool ClusterTreeModel::setSwitchData(int switchIndex, int column, const QVariant &value)
{
    const Cluster &cluster = m_document->scenario().cluster;
    Switch sw = cluster.switches[std::size_t(switchIndex)];
    if (column == Name)
        sw.id = value.toString().trimmed().toStdString();
    else if (column == Type)
        sw.tier = value.toString().trimmed().toStdString();
    else
        return false;
    if (sw == cluster.switches[std::size_t(switchIndex)])
        return true;
    if (!switchProblem(cluster, sw, switchIndex).isEmpty())
        return false;
    m_document->undoStack()->push(new EditSwitchCommand(m_document, switchIndex, std::move(sw)));
    return true;
}

QModelIndex ClusterTreeModel::indexOfSwitch(int switchIndex) const
{
    if (m_groups.empty() || !m_groups.front().switches || switchIndex < 0 ||
        switchIndex >= int(m_groups.front().members.size()))
        return {};
    return index(switchIndex, 0, index(0, 0));
}

QModelIndex ClusterTreeModel::indexOfNode(int nodeIndex) const
{
    if (nodeIndex < 0 || nodeIndex >= int(m_nodeRow.size()))
        return {};
    const auto [g, r] = m_nodeRow[std::size_t(nodeIndex)];
    return g < 0 ? QModelIndex() : index(r, 0, index(g, 0));
}

} // namespace cb::views
