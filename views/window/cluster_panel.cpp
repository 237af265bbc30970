#include "window/cluster_panel.h"

#include "commands/add_node_command.h"
#include "commands/remove_node_command.h"
#include "commands/remove_switch_command.h"
#include "document/document.h"
#include "model/gen_host.h"
#include "model/node_labels.h"
#include "models/cluster_tree_model.h"
#include "models/quantity_format.h"
#include "util/text.h"
#include "window/switch_dialog.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QStyledItemDelegate>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace cb::views {

namespace {

/// Edits a cell that lists its choices (ClusterTreeModel::GpuTypeChoicesRole: a node's GPU
/// type) with a list to pick from, where a text field took only a type the cluster had.
class ChoiceDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                          const QModelIndex &index) const override
    {
        const QVariant choices = index.data(ClusterTreeModel::GpuTypeChoicesRole);
        if (!choices.isValid())
            return QStyledItemDelegate::createEditor(parent, option, index);
        auto *box = new QComboBox(parent);
        for (const QString &c : choices.toStringList())
            box->addItem(c.isEmpty() ? tr("CPU only") : c, c);
        return box;
    }
    void setEditorData(QWidget *editor, const QModelIndex &index) const override
    {
        if (auto *box = qobject_cast<QComboBox *>(editor)) {
            box->setCurrentIndex(std::max(0, box->findData(index.data(Qt::EditRole).toString())));
            return;
        }
        QStyledItemDelegate::setEditorData(editor, index);
    }
    void setModelData(QWidget *editor, QAbstractItemModel *model,
                      const QModelIndex &index) const override
    {
        if (auto *box = qobject_cast<QComboBox *>(editor)) {
            model->setData(index, box->currentData());
            return;
        }
        QStyledItemDelegate::setModelData(editor, model, index);
    }
};

} // namespace

ClusterPanel::ClusterPanel(Document *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new ClusterTreeModel(document, this))
    , m_tree(new QTreeView(this))
    , m_details(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto *tools = new QToolBar(this);
    tools->setIconSize(QSize(16, 16));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_addNode = tools->addAction(QIcon(QStringLiteral(":/icons/add.svg")), tr("Add node"));
    m_addNode->setToolTip(tr("Add a node like the selected one, on the same switches"));
    m_addSwitch = tools->addAction(QIcon(QStringLiteral(":/icons/switch.svg")), tr("Add switch…"));
    m_addSwitch->setToolTip(tr("Add a switch and link it to nodes or switches"));
    m_editSwitch = new QAction(tr("Switch properties…"), this);
    m_editSwitch->setToolTip(tr("Rename the selected switch or change its tier"));
    m_remove = tools->addAction(QIcon(QStringLiteral(":/icons/remove.svg")), tr("Remove"));
    m_remove->setToolTip(tr("Remove the selected node or switch and its links"));
    connect(m_addNode, &QAction::triggered, this, &ClusterPanel::addNodeLikeSelected);
    connect(m_addSwitch, &QAction::triggered, this, &ClusterPanel::addSwitch);
    connect(m_editSwitch, &QAction::triggered, this, &ClusterPanel::editSelectedSwitch);
    connect(m_remove, &QAction::triggered, this, &ClusterPanel::removeSelected);
    layout->addWidget(tools);

    m_tree->setModel(m_model);
    m_tree->setItemDelegateForColumn(ClusterTreeModel::Type, new ChoiceDelegate(m_tree));
    m_tree->setObjectName(QStringLiteral("clusterTree"));
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex index = m_tree->indexAt(pos);
        if (index.isValid())
            m_tree->setCurrentIndex(index);
        showContextMenu(selectedNode(), selectedSwitch(), m_tree->viewport()->mapToGlobal(pos));
    });
    // Every column as wide as its contents, names included: in a narrow dock the tree
    // scrolls sideways instead of squeezing the names to nothing.
    m_tree->header()->setStretchLastSection(true);
    for (int c = ClusterTreeModel::Name; c < ClusterTreeModel::ColumnCount; ++c)
        m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    layout->addWidget(m_tree, 1);

    m_details->setObjectName(QStringLiteral("nodeDetails"));
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_details->setMargin(8);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setMinimumHeight(96);
    m_details->setStyleSheet(QStringLiteral("QLabel { background: palette(base); "
                                            "border-top: 1px solid palette(mid); }"));
    layout->addWidget(m_details);

    auto expand = [this] {
        // Small clusters open fully; big ones show their racks collapsed.
        if (m_document->scenario().cluster.nodes.size() <= 64)
            m_tree->expandAll();
        else if (m_model->rowCount() > 0)
            m_tree->expand(m_model->index(0, 0));
        updateDetails();
    };
    connect(m_model, &QAbstractItemModel::modelReset, this, expand);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        updateDetails();
        updateActions();
        const int n = selectedNode();
        if (n >= 0)
            emit nodeSelected(n);
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ClusterPanel::updateDetails);
    connect(m_document, &Document::scenarioRenamed, this, &ClusterPanel::updateDetails);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ClusterPanel::updateActions);
    expand();
    updateActions();
}

int ClusterPanel::selectedNode() const
{
    const QVariant v = m_tree->currentIndex().siblingAtColumn(0).data(
        ClusterTreeModel::NodeIndexRole);
    return v.isValid() ? v.toInt() : -1;
}

void ClusterPanel::selectNode(int nodeIndex)
{
    const QModelIndex index = m_model->indexOfNode(nodeIndex);
    if (!index.isValid())
        return;
    m_tree->setCurrentIndex(index);
    m_tree->scrollTo(index);
}

void ClusterPanel::updateDetails()
{
    const Scenario &s = m_document->scenario();
    if (const int sw = selectedSwitch(); sw >= 0 && sw < int(s.cluster.switches.size())) {
        const Switch &x = s.cluster.switches[std::size_t(sw)];
        QStringList links;
        double total = 0;
        for (int l : m_document->linksOf(x.id)) {
            const Link &link = s.cluster.links[std::size_t(l)];
            total += link.capacityGbps;
            if (links.size() == 12) {
                links << QStringLiteral("…");
                continue;
            }
            if (links.size() > 12)
                continue;
            links << QStringLiteral("%1 (%2)")
                         .arg(QString::fromStdString(link.a == x.id ? link.b : link.a)
                                  .toHtmlEscaped(),
                              formatGbps(link.capacityGbps));
        }
        m_details->setText(tr("<b>%1</b> &nbsp; %2 switch<br>%3 links, %4 in total<br>To: %5")
                               .arg(QString::fromStdString(x.id).toHtmlEscaped(),
                                    QString::fromStdString(x.tier.empty() ? "untiered" : x.tier)
                                        .toHtmlEscaped())
                               .arg(m_document->linksOf(x.id).size())
                               .arg(formatGbps(total),
                                    links.isEmpty() ? tr("nothing")
                                                    : links.join(QStringLiteral(", "))));
        return;
    }
    const int n = selectedNode();
    if (n < 0 || n >= int(s.cluster.nodes.size())) {
        const Cluster &c = s.cluster;
        QStringList byType;
        for (const auto &[type, count] : c.gpusByType())
            byType << QStringLiteral("%1 × %2").arg(QLocale().toString(count),
                                                    QString::fromStdString(type));
        m_details->setText(
            tr("<b>%1</b><br>%2, %3, %4<br>GPUs: %5")
                .arg(QString::fromStdString(s.name.empty() ? "Cluster" : s.name).toHtmlEscaped())
                .arg(QString::fromStdString(counted(long(c.nodes.size()), "node")))
                .arg(QString::fromStdString(counted(long(c.switches.size()), "switch", "switches")))
                .arg(QString::fromStdString(counted(long(c.links.size()), "link")))
                .arg(byType.isEmpty() ? tr("none") : byType.join(QStringLiteral(", "))));
        return;
    }
    const Node &node = s.cluster.nodes[std::size_t(n)];
    QStringList labels;
    for (const auto &[k, v] : node.labels)
        labels << QString::fromStdString(k + "=" + v).toHtmlEscaped();
    QStringList links;
    for (int l : m_document->linksOf(node.id)) {
        const Link &link = s.cluster.links[std::size_t(l)];
        links << QStringLiteral("%1 (%2)")
                     .arg(QString::fromStdString(link.a == node.id ? link.b : link.a)
                              .toHtmlEscaped(),
                          formatGbps(link.capacityGbps));
    }
    const bool nvlink = node.interconnect.kind == GpuInterconnect::Kind::Nvlink;
    m_details->setText(
        tr("<b>%1</b> &nbsp; rack %2 · partition %3<br>%4 CPUs · %5 GiB · %6 × %7 · "
           "%8 %9 inside<br>Links: %10<br>Labels: %11")
            .arg(QString::fromStdString(node.id).toHtmlEscaped(),
                 QString::fromStdString(node.rack.empty() ? "-" : node.rack).toHtmlEscaped(),
                 QString::fromStdString(node.partition.empty() ? "-" : node.partition)
                     .toHtmlEscaped(),
                 formatNumber(node.cpus), formatNumber(node.memoryGiB))
            .arg(node.gpus)
            .arg(QString::fromStdString(node.gpuType.empty() ? "GPU" : node.gpuType)
                     .toHtmlEscaped(),
                 nvlink ? QStringLiteral("NVLink") : QStringLiteral("PCIe"),
                 formatGbps(node.interconnect.bandwidthGbps),
                 links.isEmpty() ? tr("none") : links.join(QStringLiteral(", ")),
                 labels.isEmpty() ? tr("none") : labels.join(QStringLiteral(", "))));
}

void ClusterPanel::addNodeLikeSelected()
{
    const Cluster &c = m_document->scenario().cluster;
    int n = selectedNode();
    if (n < 0 && !c.nodes.empty())
        n = int(c.nodes.size()) - 1;
    Node node;
    std::vector<Link> links;
    if (n >= 0) {
        node = c.nodes[std::size_t(n)];
        for (int l : m_document->linksOf(node.id)) {
            Link link = c.links[std::size_t(l)];
            const std::string other = link.a == node.id ? link.b : link.a;
            if (c.node(other))
                continue; // keep only switch uplinks
            links.push_back(link);
        }
    } else {
        node.id = "node-1"; // (the next one is node-2)
        node.cpus = 32;
        node.memoryGiB = 128;
        // A server's own draw, as a generated or imported one has (0 W made a hand-built
        // cluster's energy and cost count its GPUs only).
        node.baseWatts = HostParams{}.baseWatts;
    }
    const Node source = node;
    const std::string oldId = node.id;
    node.id = m_document->uniqueNodeId(oldId);
    // The copy's own labels: its hostname, not the source's (two nodes with one hostname
    // break the exported node list).
    syncNodeLabels(node, source, c);
    for (Link &link : links) {
        if (link.a == oldId)
            link.a = node.id;
        if (link.b == oldId)
            link.b = node.id;
    }
    const int newIndex = int(c.nodes.size());
    m_document->undoStack()->push(new AddNodeCommand(m_document, node, std::move(links)));
    selectNode(newIndex);
}

int ClusterPanel::selectedSwitch() const
{
    const QVariant v = m_tree->currentIndex().siblingAtColumn(0).data(
        ClusterTreeModel::SwitchIndexRole);
    return v.isValid() ? v.toInt() : -1;
}

void ClusterPanel::selectSwitch(int switchIndex)
{
    const QModelIndex index = m_model->indexOfSwitch(switchIndex);
    if (!index.isValid())
        return;
    m_tree->setCurrentIndex(index);
    m_tree->scrollTo(index);
}

void ClusterPanel::updateActions()
{
    const bool sw = selectedSwitch() >= 0;
    m_editSwitch->setEnabled(sw);
    m_remove->setEnabled(sw || selectedNode() >= 0);
}

void ClusterPanel::showContextMenu(int nodeIndex, int switchIndex, const QPoint &globalPos,
                                   const QList<QAction *> &leading)
{
    if (switchIndex >= 0)
        selectSwitch(switchIndex);
    else if (nodeIndex >= 0)
        selectNode(nodeIndex);
    QMenu menu(this);
    if (!leading.isEmpty()) {
        menu.addActions(leading);
        menu.addSeparator();
    }
    if (switchIndex >= 0) {
        menu.addAction(m_editSwitch);
        menu.addSeparator();
    }
    menu.addAction(m_addNode);
    menu.addAction(m_addSwitch);
    if (switchIndex >= 0 || nodeIndex >= 0) {
        menu.addSeparator();
        menu.addAction(m_remove);
    }
    menu.exec(globalPos);
}

void ClusterPanel::addSwitch()
{
    SwitchDialog dialog(m_document, -1, this);
    if (dialog.exec() == QDialog::Accepted)
        selectSwitch(int(m_document->scenario().cluster.switches.size()) - 1);
}

void ClusterPanel::editSelectedSwitch()
{
    const int s = selectedSwitch();
    if (s < 0)
        return;
    SwitchDialog dialog(m_document, s, this);
    if (dialog.exec() == QDialog::Accepted)
        selectSwitch(s);
}

void ClusterPanel::removeSelected()
{
    if (const int s = selectedSwitch(); s >= 0) {
        m_document->undoStack()->push(new RemoveSwitchCommand(m_document, s));
        return;
    }
    const int n = selectedNode();
    if (n >= 0)
        m_document->undoStack()->push(new RemoveNodeCommand(m_document, n));
}

} // namespace cb::views
