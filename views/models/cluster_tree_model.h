#pragma once
// The cluster as a two-level tree for the cluster panel: a "Switches" group, then one group
// per rack (nodes grouped as the topology view groups them), each holding its nodes.
// Node rows are editable (an edit becomes an EditNodeCommand on the document's undo stack),
// and so are a switch's name and tier (EditSwitchCommand; a name must pass switchProblem).
// Structural changes (nodes, switches or links added or removed) reset the model.

#include <QAbstractItemModel>

#include <vector>

namespace cb {
struct Node;
}

namespace cb::views {

class Document;

class ClusterTreeModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    /// GpuLink: how a node's GPUs talk to each other, shown and edited as text: "PCIe 128"
    /// or "NVLink 2400" (Gbit/s per GPU and direction), NVLink with one domain of all the
    /// node's GPUs, or "NVLink 2400 / 4" for domains of 4 GPUs each (interconnectText,
    /// parseInterconnect).
    enum Column { Name, Type, Gpus, Cpus, Memory, GpuLink, Partition, ColumnCount };
    /// Custom roles: the node index (int) of a node row, or the switch index of a switch row.
    /// GpuTypeChoicesRole: on a node's Type cell, the GPU types it may take (QStringList):
    /// the cluster's own, then the catalogue's others; "" (no GPUs) first on a node without
    /// GPUs. A catalogue type the cluster lacks is added to it with the edit (one undo step).
    enum Role { NodeIndexRole = Qt::UserRole + 1, SwitchIndexRole, GpuTypeChoicesRole };

    explicit ClusterTreeModel(Document *document, QObject *parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

    /// The index of a node's row (column 0), or an invalid index.
    QModelIndex indexOfNode(int nodeIndex) const;
    /// The index of a switch's row (column 0), or an invalid index.
    QModelIndex indexOfSwitch(int switchIndex) const;

    /// A node's interconnect as the GpuLink cell shows it ("NVLink 2400 / 4" when its
    /// domains are smaller than the node).
    static QString interconnectText(const Node &node);
    /// Sets `node`'s interconnect from a GpuLink cell's text; false (the node unchanged)
    /// when the text is not "KIND [GBIT/S] [/ DOMAIN SIZE]" with a positive bandwidth and a
    /// domain size that divides the node's GPUs.
    static bool parseInterconnect(const QString &text, Node &node);

private:
    struct Group
    {
        QString title;
        bool switches = false;
        std::vector<int> members; ///< switch or node indices
    };

    void rebuild();
    void onRowChanged(bool isSwitch, int memberIndex);
    /// Rebuilds the groups and resets the model when they changed; returns whether they did.
    bool regroup();
    bool setSwitchData(int switchIndex, int column, const QVariant &value);

    Document *m_document;
    std::vector<Group> m_groups;
    std::vector<std::pair<int, int>> m_nodeRow; ///< node index -> (group, row)
};

} // namespace cb::views
