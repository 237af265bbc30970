// Item models over the Document: QAbstractItemModelTester through edits, undo, redo and
// resets; exact displayed values; setData goes through the undo stack; layout geometry.

#include "commands/add_job_command.h"
#include "commands/add_link_command.h"
#include "commands/add_node_command.h"
#include "commands/add_switch_command.h"
#include "commands/duplicate_job_command.h"
#include "commands/edit_node_command.h"
#include "commands/edit_switch_command.h"
#include "commands/remove_job_command.h"
#include "commands/remove_link_command.h"
#include "commands/remove_node_command.h"
#include "commands/remove_switch_command.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "model/gen_host.h"
#include "model/validation.h"
#include "models/cluster_tree_model.h"
#include "models/job_queue_model.h"
#include "models/quantity_format.h"
#include "test_scenarios.h"
#include "topology/cluster_layout.h"
#include "topology/link_layer_item.h"
#include "topology/topology_scene.h"
#include "topology/topology_view.h"
#include "window/cluster_panel.h"
#include "window/english_plurals.h"
#include "window/switch_dialog.h"

#include <QAbstractItemModelTester>
#include <QUndoStack>
#include <QtTest>

using namespace cb;
using namespace cb::views;

class TestModels : public QObject
{
    Q_OBJECT

private slots:
    void jobQueueModelPassesTester();
    void jobQueueDisplay_data();
    void jobQueueDisplay();
    void jobQueueSetDataPushesCommand_data();
    void jobQueueSetDataPushesCommand();
    void clusterTreeModelPassesTester();
    void englishPlurals();
    void clusterTreeStructure();
    void clusterTreeSetDataPushesCommand();
    void clusterTreeEditsTheGpuLink();
    void clusterTreeBuildsAValidGpuNode();
    void addNodeNumbersFromOne();
    void clusterTreeSwitchEdits();
    void switchDialogAddsAndEdits();
    void formatting_data();
    void formatting();
    void parsingDurations_data();
    void parsingDurations();
    void layoutTiersAndGroups();
    void layoutKeepsRailOrder();
    void sceneToolTipsAndHitTest();
    void fitBesideOrBelowTheLegend();
};

namespace {
void exerciseDocument(Document &doc)
{
    QUndoStack *stack = doc.undoStack();
    Job j = doc.scenario().jobs[0];
    j.id = "added";
    stack->push(new AddJobCommand(&doc, j, 1));
    stack->push(new DuplicateJobCommand(&doc, 0));
    stack->push(new RemoveJobCommand(&doc, 2));
    Node n = doc.scenario().cluster.nodes[0];
    n.id = "new-node";
    n.rack = "r099";
    stack->push(new AddNodeCommand(&doc, n, {Link{"new-node", "leaf002", 100, 1}}));
    Node edited = doc.scenario().cluster.nodes[1];
    edited.cpus = 8;
    stack->push(new EditNodeCommand(&doc, 1, edited));
    edited.rack = "moved"; // regroups: the tree resets
    stack->push(new EditNodeCommand(&doc, 1, edited));
    stack->push(new RemoveNodeCommand(&doc, 0));
    stack->push(new AddLinkCommand(&doc, Link{"leaf001", "leaf002", 10, 1}));
    stack->push(new RemoveLinkCommand(&doc, 0));
    stack->push(new AddSwitchCommand(&doc, Switch{"tor9", "tor"}, {Link{"tor9", "leaf001", 40, 1}}));
    stack->push(new EditSwitchCommand(&doc, 0, Switch{"core1", "core"})); // spine01
    stack->push(new RemoveSwitchCommand(&doc, 2)); // leaf001 and its links
    stack->push(new EditSwitchCommand(&doc, 0, Switch{"core1", "spine"}));
    while (stack->canUndo())
        stack->undo();
    while (stack->canRedo())
        stack->redo();
    doc.setScenario(testing::leafSpineScenario(1, 1, 1));
    doc.setScenario(Scenario{});
    doc.setScenario(testing::leafSpineScenario(3, 2, 2));
}
} // namespace

void TestModels::jobQueueModelPassesTester()
{
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 2));
    JobQueueModel model(&doc);
    QAbstractItemModelTester tester(&model,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(JobQueueModel::ColumnCount));
    exerciseDocument(doc);
    QCOMPARE(model.rowCount(), 3);
}

void TestModels::jobQueueDisplay_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("display");
    QTest::newRow("id") << 0 << int(JobQueueModel::Id) << QStringLiteral("resnet50-ps");
    QTest::newRow("kind ps") << 0 << int(JobQueueModel::Kind)
                             << QStringLiteral("parameter server");
    QTest::newRow("tasks 2+4") << 0 << int(JobQueueModel::Tasks) << QStringLiteral("6");
    QTest::newRow("gpus 4x1") << 0 << int(JobQueueModel::Gpus) << QStringLiteral("4");
    QTest::newRow("due 2 h") << 0 << int(JobQueueModel::Due) << QStringLiteral("2:00:00");
    QTest::newRow("no due") << 1 << int(JobQueueModel::Due) << QStringLiteral("—");
    QTest::newRow("submit 10 min") << 1 << int(JobQueueModel::Submit)
                                   << QStringLiteral("0:10:00");
    QTest::newRow("size 1.34 GB") << 1 << int(JobQueueModel::Parameters)
                                  << QStringLiteral("1.34 GB");
    QTest::newRow("submit 3725 s") << 2 << int(JobQueueModel::Submit)
                                   << QStringLiteral("1:02:05");
    QTest::newRow("due over a day") << 2 << int(JobQueueModel::Due)
                                    << QStringLiteral("1d 1:01:01");
    QTest::newRow("size 553 MB") << 2 << int(JobQueueModel::Parameters)
                                 << QStringLiteral("553 MB");
}

void TestModels::jobQueueDisplay()
{
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, display);
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 2));
    JobQueueModel model(&doc);
    QCOMPARE(model.index(row, column).data().toString(), display);
}

void TestModels::jobQueueSetDataPushesCommand_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QString>("display");
    QTest::newRow("name") << int(JobQueueModel::Name) << QVariant(QStringLiteral("Renamed"))
                          << true << QStringLiteral("Renamed");
    QTest::newRow("submit") << int(JobQueueModel::Submit) << QVariant(90.0) << true
                            << QStringLiteral("0:01:30");
    QTest::newRow("negative submit") << int(JobQueueModel::Submit) << QVariant(-1.0) << false
                                     << QString();
    // The editor takes what the column shows (it took seconds: 1.5 became 0:00:01).
    QTest::newRow("submit as shown") << int(JobQueueModel::Submit)
                                     << QVariant(QStringLiteral("1:02:03")) << true
                                     << QStringLiteral("1:02:03");
    QTest::newRow("submit 1.5 s") << int(JobQueueModel::Submit) << QVariant(QStringLiteral("1.5"))
                                  << true << QStringLiteral("0:00:01.50");
    QTest::newRow("submit words") << int(JobQueueModel::Submit)
                                  << QVariant(QStringLiteral("soon")) << false << QString();
    QTest::newRow("due as shown") << int(JobQueueModel::Due)
                                  << QVariant(QStringLiteral("1d 2:00:00")) << true
                                  << QStringLiteral("1d 2:00:00");
    QTest::newRow("clear due") << int(JobQueueModel::Due) << QVariant(QString()) << true
                               << QStringLiteral("—");
    QTest::newRow("duplicate id") << int(JobQueueModel::Id)
                                  << QVariant(QStringLiteral("bert-ar")) << false << QString();
    QTest::newRow("empty id") << int(JobQueueModel::Id) << QVariant(QStringLiteral(" "))
                              << false << QString();
    QTest::newRow("new id") << int(JobQueueModel::Id) << QVariant(QStringLiteral("rn50"))
                            << true << QStringLiteral("rn50");
    QTest::newRow("size") << int(JobQueueModel::Parameters) << QVariant(qint64(2'500'000))
                          << true << QStringLiteral("2.5 MB");
    QTest::newRow("kind is read-only") << int(JobQueueModel::Kind)
                                       << QVariant(QStringLiteral("single")) << false
                                       << QString();
}

void TestModels::jobQueueSetDataPushesCommand()
{
    QFETCH(int, column);
    QFETCH(QVariant, value);
    QFETCH(bool, accepted);
    QFETCH(QString, display);
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 2));
    const Scenario before = doc.scenario();
    JobQueueModel model(&doc);
    QAbstractItemModelTester tester(&model,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const QModelIndex index = model.index(0, column);
    QCOMPARE(model.setData(index, value), accepted);
    QCOMPARE(doc.undoStack()->count(), accepted ? 1 : 0);
    if (!accepted) {
        QVERIFY(doc.scenario() == before);
        return;
    }
    QCOMPARE(index.data().toString(), display);
    QCOMPARE(changed.count(), 1);
    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
    QCOMPARE(changed.count(), 2);
}

void TestModels::englishPlurals()
{
    EnglishPlurals plurals;
    QCoreApplication::installTranslator(&plurals);
    const auto tr = [](const char *text, int n) {
        return QCoreApplication::translate("Test", text, nullptr, n);
    };
    QCOMPARE(tr("%n run(s) in %1", 1), QStringLiteral("1 run in %1"));
    QCOMPARE(tr("%n run(s) in %1", 3), QStringLiteral("3 runs in %1"));
    QCOMPARE(tr("%n run(s) in %1", 0), QStringLiteral("0 runs in %1"));
    // Words between the count and its noun; a "(s)" not counted by %n stays.
    QCOMPARE(tr("Cancelled after %n stored run(s).", 1),
             QStringLiteral("Cancelled after 1 stored run."));
    QCOMPARE(tr("at %6, %n due-date violation(s)", 2),
             QStringLiteral("at %6, 2 due-date violations"));
    QCOMPARE(tr("%n file(s), %1, %2 warning(s)", 1), QStringLiteral("1 file, %1, %2 warning(s)"));
    // No count: untouched.
    QCOMPARE(QCoreApplication::translate("Test", "file(s)"), QStringLiteral("file(s)"));
    QCoreApplication::removeTranslator(&plurals);
    QCOMPARE(tr("%n run(s) in %1", 1), QStringLiteral("1 run(s) in %1"));
}

void TestModels::clusterTreeModelPassesTester()
{
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 2));
    ClusterTreeModel model(&doc);
    QAbstractItemModelTester tester(&model,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    exerciseDocument(doc);
    QCOMPARE(model.rowCount(), 4); // switches + 3 racks
}

void TestModels::clusterTreeStructure()
{
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 3));
    ClusterTreeModel model(&doc);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("Switches (4)"));
    QCOMPARE(model.rowCount(model.index(0, 0)), 4);
    QCOMPARE(model.index(3, ClusterTreeModel::Type, model.index(0, 0)).data().toString(),
             QStringLiteral("leaf"));
    const QModelIndex rack2 = model.index(2, 0);
    QCOMPARE(rack2.data().toString(), QStringLiteral("r002 (3)"));
    QCOMPARE(model.index(2, ClusterTreeModel::Gpus).data().toInt(), 24);
    QCOMPARE(model.index(2, ClusterTreeModel::Cpus).data().toString(), QStringLiteral("192"));
    QCOMPARE(model.index(2, ClusterTreeModel::Memory).data().toString(),
             QStringLiteral("1,536 GiB"));
    QCOMPARE(model.rowCount(rack2), 3);
    const QModelIndex node = model.index(1, 0, rack2);
    QCOMPARE(node.data().toString(), QStringLiteral("r002-n02"));
    QCOMPARE(node.data(ClusterTreeModel::NodeIndexRole).toInt(), 4);
    QCOMPARE(model.indexOfNode(4), node);
    QCOMPARE(node.siblingAtColumn(ClusterTreeModel::Type).data().toString(),
             QStringLiteral("V100"));
    const QModelIndex spine = model.index(0, 0, model.index(0, 0));
    QVERIFY(model.flags(spine) & Qt::ItemIsEditable); // name
    QVERIFY(model.flags(spine.siblingAtColumn(ClusterTreeModel::Type)) & Qt::ItemIsEditable);
    QVERIFY(!(model.flags(spine.siblingAtColumn(ClusterTreeModel::Cpus)) & Qt::ItemIsEditable));
    QVERIFY(!(model.flags(model.index(0, 0)) & Qt::ItemIsEditable)); // a group
    QCOMPARE(spine.data(ClusterTreeModel::SwitchIndexRole).toInt(), 0);
    QCOMPARE(model.indexOfSwitch(3), model.index(3, 0, model.index(0, 0)));
    QVERIFY(!model.indexOfSwitch(4).isValid());
    QVERIFY(model.flags(node) & Qt::ItemIsEditable);
}

void TestModels::clusterTreeEditsTheGpuLink()
{
    // A node's NVLink is set in the cluster panel (there was no control for it): kind,
    // bandwidth and domains, one undo step each, the scenario valid after every edit.
    Document doc;
    Scenario pcie = testing::leafSpineScenario(2, 2, 2); // 8 x V100 per node
    for (Node &n : pcie.cluster.nodes)
        n.interconnect = GpuInterconnect{};
    doc.setScenario(pcie);
    ClusterTreeModel model(&doc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndex link = model.indexOfNode(1).siblingAtColumn(ClusterTreeModel::GpuLink);
    QVERIFY(model.flags(link) & Qt::ItemIsEditable);
    QCOMPARE(model.headerData(ClusterTreeModel::GpuLink, Qt::Horizontal).toString(),
             QStringLiteral("GPU link"));
    QCOMPARE(link.data().toString(), QStringLiteral("PCIe 128"));
    const auto node = [&doc] { return doc.scenario().cluster.nodes[1]; };
    QVERIFY(model.setData(link, QStringLiteral("nvlink 2400")));
    QCOMPARE(node().interconnect.kind, GpuInterconnect::Kind::Nvlink);
    QCOMPARE(node().interconnect.bandwidthGbps, 2400.0);
    QCOMPARE(node().interconnect.nvlinkDomains,
             (std::vector<std::vector<int>>{{0, 1, 2, 3, 4, 5, 6, 7}}));
    QCOMPARE(link.data().toString(), QStringLiteral("NVLink 2,400"));
    QVERIFY(validateScenario(doc.scenario()).empty());
    // Domains of 4 (two NVLink islands), shown as written.
    QVERIFY(model.setData(link, QStringLiteral(" NVLink 1200 / 4 ")));
    QCOMPARE(node().interconnect.nvlinkDomains,
             (std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
    QCOMPARE(link.data().toString(), QStringLiteral("NVLink 1,200 / 4"));
    // The cell's own text, edited, reads back (its thousands grouped).
    QVERIFY(model.setData(
        link,
        link.data(Qt::EditRole).toString().replace(QStringLiteral("/ 4"), QStringLiteral("/ 2"))));
    QCOMPARE(node().interconnect.bandwidthGbps, 1200.0);
    QCOMPARE(node().interconnect.nvlinkDomains.size(), std::size_t(4));
    QVERIFY(model.setData(link, QStringLiteral("NVLink 1,200 / 4")));
    // The GPU count follows: domains of 4 stay where 4 divides it.
    QVERIFY(model.setData(link.siblingAtColumn(ClusterTreeModel::Gpus), 12));
    QCOMPARE(node().interconnect.nvlinkDomains.size(), std::size_t(3));
    QVERIFY(model.setData(link.siblingAtColumn(ClusterTreeModel::Gpus), 6));
    QCOMPARE(node().interconnect.nvlinkDomains,
             (std::vector<std::vector<int>>{{0, 1, 2, 3, 4, 5}}));
    QVERIFY(validateScenario(doc.scenario()).empty());
    // Refused, the node unchanged: a domain size that does not divide the GPUs, domains on
    // PCIe, no kind, a zero bandwidth.
    const Node before = node();
    const int steps = doc.undoStack()->count();
    for (const char *bad : {"nvlink 900 / 4", "pcie 64 / 2", "900", "nvlink 0", "infiniband"})
        QVERIFY2(!model.setData(link, QString::fromLatin1(bad)), bad);
    QCOMPARE(node(), before);
    QCOMPARE(doc.undoStack()->count(), steps);
    // Back to PCIe: no domains; the kind alone takes PCIe's usual bandwidth.
    QVERIFY(model.setData(link, QStringLiteral("pcie")));
    QCOMPARE(node().interconnect.kind, GpuInterconnect::Kind::Pcie);
    QCOMPARE(node().interconnect.bandwidthGbps, 128.0);
    QVERIFY(node().interconnect.nvlinkDomains.empty());
    doc.undoStack()->undo();
    QCOMPARE(node(), before);
}

void TestModels::clusterTreeSetDataPushesCommand()
{
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 2));
    const Scenario before = doc.scenario();
    ClusterTreeModel model(&doc);
    QAbstractItemModelTester tester(&model,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndex node = model.indexOfNode(1); // r001-n02
    QVERIFY(!model.setData(node.siblingAtColumn(ClusterTreeModel::Name),
                           QStringLiteral("r002-n01"))); // taken
    QVERIFY(!model.setData(node.siblingAtColumn(ClusterTreeModel::Type),
                           QStringLiteral("GTX-9999"))); // in neither the cluster nor the catalogue
    QVERIFY(!model.setData(node.siblingAtColumn(ClusterTreeModel::Type), QString())); // it has GPUs
    QVERIFY(!model.setData(node.siblingAtColumn(ClusterTreeModel::Cpus), 0));
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(model.setData(node.siblingAtColumn(ClusterTreeModel::Cpus), 12.5));
    QCOMPARE(doc.scenario().cluster.nodes[1].cpus, 12.5);
    QVERIFY(model.setData(node.siblingAtColumn(ClusterTreeModel::Name), QStringLiteral("gpu-x")));
    QCOMPARE(doc.scenario().cluster.links[3].a, std::string("gpu-x"));
    QCOMPARE(doc.undoStack()->count(), 2);
    QCOMPARE(model.indexOfNode(1).data().toString(), QStringLiteral("gpu-x"));
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
}

void TestModels::clusterTreeBuildsAValidGpuNode()
{
    // A cluster made in the window from nothing: two nodes without GPUs on one switch (no
    // racks: the tree groups them by their switch).
    Document doc;
    Scenario s;
    s.name = "built";
    Node a;
    a.id = "node";
    a.cpus = 8;
    a.memoryGiB = 32;
    Node b = a;
    b.id = "node-2";
    s.cluster.nodes = {a, b};
    s.cluster.switches = {Switch{"switch", "tor"}};
    s.cluster.links = {Link{"switch", "node", 100, 1}, Link{"switch", "node-2", 100, 1}};
    doc.setScenario(s);
    ClusterTreeModel model(&doc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto type = [&](int n) {
        return model.indexOfNode(n).siblingAtColumn(ClusterTreeModel::Type);
    };

    // The Type cell offers "no GPUs" and the catalogue (the cluster has no type yet).
    const QStringList choices = type(0).data(ClusterTreeModel::GpuTypeChoicesRole).toStringList();
    QCOMPARE(choices.value(0), QString());
    QVERIFY(choices.contains(QStringLiteral("V100")));
    QVERIFY(choices.contains(QStringLiteral("A100-80GB")));

    // GPUs given without a type take the generators' default one, added to the cluster: the
    // scenario is valid at once (it saved "gpus": 4 with no gpu_type, which validate refused).
    QVERIFY(model.setData(type(0).siblingAtColumn(ClusterTreeModel::Gpus), 4));
    QCOMPARE(doc.scenario().cluster.nodes[0].gpuType, std::string("A100-40GB"));
    QCOMPARE(doc.scenario().cluster.gpuTypes.size(), std::size_t(1));
    QCOMPARE(validateScenario(doc.scenario()), Problems{});
    QCOMPARE(doc.undoStack()->text(0), QStringLiteral("Set node's GPUs to 4 A100-40GB"));
    QCOMPARE(type(0).data().toString(), QStringLiteral("A100-40GB"));
    // Now the cluster's own type comes first, and a node with GPUs cannot be "CPU only".
    QCOMPARE(type(0).data(ClusterTreeModel::GpuTypeChoicesRole).toStringList().value(0),
             QStringLiteral("A100-40GB"));

    // A catalogue type by any spelling: its catalogue name, added to the cluster.
    QVERIFY(model.setData(type(0), QStringLiteral("v100")));
    QCOMPARE(doc.scenario().cluster.nodes[0].gpuType, std::string("V100"));
    QCOMPARE(doc.scenario().cluster.gpuTypes.size(), std::size_t(2));
    QCOMPARE(doc.scenario().cluster.gpuTypes[1].name, std::string("V100"));
    QCOMPARE(validateScenario(doc.scenario()), Problems{});
    QCOMPARE(doc.undoStack()->text(1), QStringLiteral("Set node's GPU type to V100"));
    // Undone, the type goes with it; redone, it is back.
    doc.undoStack()->undo();
    QCOMPARE(doc.scenario().cluster.gpuTypes.size(), std::size_t(1));
    QCOMPARE(doc.scenario().cluster.nodes[0].gpuType, std::string("A100-40GB"));
    doc.undoStack()->redo();
    QCOMPARE(doc.scenario().cluster.gpuTypes.size(), std::size_t(2));

    // Renamed, a node stays in its switch's group (it went to a group of nodes on no switch
    // until another edit), and the undo step says what it did.
    const QString groupBefore = model.indexOfNode(0).parent().data().toString();
    QVERIFY(model.setData(model.indexOfNode(0), QStringLiteral("gpu-a")));
    QCOMPARE(model.indexOfNode(0).data().toString(), QStringLiteral("gpu-a"));
    QCOMPARE(model.indexOfNode(0).parent().data().toString(), groupBefore);
    QCOMPARE(model.rowCount(), 2); // the switches and the one group
    QCOMPARE(doc.undoStack()->text(2), QStringLiteral("Rename node to gpu-a"));
    while (doc.undoStack()->canUndo())
        doc.undoStack()->undo();
    QVERIFY(doc.scenario() == s);
}

void TestModels::addNodeNumbersFromOne()
{
    // In an empty cluster Add node makes node-1, then node-2 (it made "node", then "node-2").
    Document doc;
    doc.setScenario(Scenario{});
    ClusterPanel panel(&doc);
    panel.addNodeAction()->trigger();
    panel.addNodeAction()->trigger();
    QCOMPARE(doc.scenario().cluster.nodes.size(), std::size_t(2));
    QCOMPARE(doc.scenario().cluster.nodes[0].id, std::string("node-1"));
    QCOMPARE(doc.scenario().cluster.nodes[1].id, std::string("node-2"));
    // A server's own draw, as a generated or imported node's (not 0 W: the energy counted
    // the GPUs only); the copy keeps it.
    QCOMPARE(doc.scenario().cluster.nodes[0].baseWatts, HostParams{}.baseWatts);
    QCOMPARE(doc.scenario().cluster.nodes[1].baseWatts, HostParams{}.baseWatts);
    QVERIFY(HostParams{}.baseWatts > 0);
    // The summary counts in English: "1 switch", not "1 switches".
    Scenario one = doc.scenario();
    one.cluster.switches.push_back({"sw", "leaf"});
    doc.setScenario(one);
    const auto *details = panel.findChild<QLabel *>(QStringLiteral("nodeDetails"));
    QVERIFY(details);
    QVERIFY2(details->text().contains(QStringLiteral("2 nodes, 1 switch, 0 links")),
             qPrintable(details->text()));
}

void TestModels::clusterTreeSwitchEdits()
{
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 2));
    const Scenario before = doc.scenario();
    ClusterTreeModel model(&doc);
    QAbstractItemModelTester tester(&model,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    const QModelIndex leaf = model.indexOfSwitch(3); // leaf002
    QCOMPARE(leaf.data().toString(), QStringLiteral("leaf002"));
    QCOMPARE(leaf.data(Qt::EditRole).toString(), QStringLiteral("leaf002"));
    {
        // As the window shows it, with its English plurals installed (and "(s)" without).
        EnglishPlurals plurals;
        QCoreApplication::installTranslator(&plurals);
        QCOMPARE(leaf.data(Qt::ToolTipRole).toString(), QStringLiteral("leaf002 (leaf): 4 links"));
        QCoreApplication::removeTranslator(&plurals);
    }
    QCOMPARE(leaf.data(Qt::ToolTipRole).toString(), QStringLiteral("leaf002 (leaf): 4 link(s)"));
    QVERIFY(!model.setData(leaf, QStringLiteral("spine01")));  // another switch's
    QVERIFY(!model.setData(leaf, QStringLiteral("r001-n01"))); // a node's
    QVERIFY(!model.setData(leaf, QString()));
    QVERIFY(!model.setData(leaf.siblingAtColumn(ClusterTreeModel::Gpus), 3));
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(model.setData(leaf, QStringLiteral("  tor-b "))); // trimmed
    QCOMPARE(doc.scenario().cluster.switches[3].id, std::string("tor-b"));
    QCOMPARE(doc.scenario().cluster.links[6].b, std::string("tor-b"));
    QCOMPARE(model.indexOfSwitch(3).data().toString(), QStringLiteral("tor-b"));
    QVERIFY(model.setData(leaf.siblingAtColumn(ClusterTreeModel::Type), QStringLiteral("tor")));
    QCOMPARE(model.indexOfSwitch(3).siblingAtColumn(ClusterTreeModel::Type).data().toString(),
             QStringLiteral("tor"));
    QCOMPARE(doc.undoStack()->count(), 2);
    QCOMPARE(reset.count(), 0); // racks are named by rack, not switch: rows only change
    QVERIFY(changed.count() >= 2);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
    QCOMPARE(model.indexOfSwitch(3).data().toString(), QStringLiteral("leaf002"));
}

void TestModels::switchDialogAddsAndEdits()
{
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 2));
    const Scenario before = doc.scenario();
    {
        SwitchDialog add(&doc, -1);
        QVERIFY(add.isNew());
        QCOMPARE(add.value().id, std::string("switch")); // a free id to start with
        add.setId(QStringLiteral("leaf001"));
        QCOMPARE(add.problem(), QStringLiteral("duplicate id \"leaf001\" (first used at "
                                               "/cluster/switches/2)"));
        QVERIFY(!add.apply());
        add.setId(QStringLiteral("leaf003"));
        add.setTier(QStringLiteral("tor"));
        add.setConnected(QStringLiteral("spine02"), true);
        add.setConnected(QStringLiteral("r002-n02"), true);
        add.setCapacity(25);
        QVERIFY(add.problem().isEmpty());
        QVERIFY(add.apply());
    }
    const Cluster &c = doc.scenario().cluster;
    QCOMPARE(c.switches.back(), (Switch{"leaf003", "tor"}));
    QCOMPARE(c.links.size(), std::size_t(10));
    QCOMPARE(c.links[8], (Link{"leaf003", "spine02", 25, 1}));
    QCOMPARE(c.links[9], (Link{"leaf003", "r002-n02", 25, 1}));
    {
        SwitchDialog edit(&doc, 4);
        QVERIFY(!edit.isNew());
        QCOMPARE(edit.value(), (Switch{"leaf003", "tor"}));
        QVERIFY(edit.links().empty());
        QVERIFY(!edit.apply()); // nothing changed: nothing pushed
        edit.setId(QStringLiteral("tor3"));
        QVERIFY(edit.apply());
    }
    QCOMPARE(doc.undoStack()->count(), 2);
    QCOMPARE(doc.scenario().cluster.links[9].a, std::string("tor3"));
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
}

void TestModels::formatting_data()
{
    QTest::addColumn<QString>("actual");
    QTest::addColumn<QString>("expected");
    QTest::newRow("bytes") << formatBytes(999) << QStringLiteral("999 B");
    QTest::newRow("kilobytes") << formatBytes(1536) << QStringLiteral("1.54 KB");
    QTest::newRow("megabytes") << formatBytes(548'000'000) << QStringLiteral("548 MB");
    QTest::newRow("zero duration") << formatDuration(0) << QStringLiteral("0:00:00");
    QTest::newRow("negative") << formatDuration(-61) << QStringLiteral("-0:01:01");
    QTest::newRow("gbps") << formatGbps(100) << QStringLiteral("100 Gbit/s");
    QTest::newRow("tbps") << formatGbps(1600) << QStringLiteral("1.6 Tbit/s");
    QTest::newRow("number") << formatNumber(0.5) << QStringLiteral("0.5");
    // One number format: grouped thousands, at most two decimals, no trailing zeros.
    QTest::newRow("number grouped") << formatNumber(1024) << QStringLiteral("1,024");
    QTest::newRow("number repeating") << formatNumber(533.3333333) << QStringLiteral("533.33");
    QTest::newRow("number tiny") << formatNumber(0.001234) << QStringLiteral("0.00123");
    QTest::newRow("number minus zero") << formatNumber(-0.0001) << QStringLiteral("-0.0001");
    // The "533.333333333 Gbit/s": three significant digits.
    QTest::newRow("gbps third") << formatGbps(1600.0 / 3) << QStringLiteral("533 Gbit/s");
    QTest::newRow("gbps fraction") << formatGbps(12.5) << QStringLiteral("12.5 Gbit/s");
    QTest::newRow("gbps small") << formatGbps(0.25) << QStringLiteral("250 Mb/s");
    QTest::newRow("bytes double") << formatByteAmount(2e9) << QStringLiteral("2 GB");
    QTest::newRow("bytes double zero") << formatByteAmount(0) << QStringLiteral("0 B");
    QTest::newRow("days") << formatDuration(426557) << QStringLiteral("4d 22:29:17");
    QTest::newRow("short job") << formatDuration(0.42) << QStringLiteral("0:00:00.42");
    QTest::newRow("short whole") << formatDuration(3) << QStringLiteral("0:00:03");
    QTest::newRow("ten seconds drop fraction") << formatDuration(10.6) << QStringLiteral("0:00:10");
    // An event at 2:26:17.9 reads 2:26:17 in the event table and on the scrubber alike; a
    // sum of phases one rounding below a whole second reads as that second.
    QTest::newRow("clock floors") << formatDuration(8777.9) << QStringLiteral("2:26:17");
    QTest::newRow("rounding below a second")
        << formatDuration(1749.9999999999998) << QStringLiteral("0:29:10");
    QTest::newRow("rounding below a second, short")
        << formatDuration(2.9999999999999996) << QStringLiteral("0:00:03");
    QTest::newRow("money") << formatMoney(1234.5, QStringLiteral("EUR"))
                           << QStringLiteral("1,234.50 EUR");
    QTest::newRow("energy") << formatEnergy(12.345) << QStringLiteral("12.3 kWh");
    QTest::newRow("energy mwh") << formatEnergy(4321) << QStringLiteral("4.32 MWh");
    QTest::newRow("power") << formatPower(1500) << QStringLiteral("1.5 kW");
    QTest::newRow("power watts") << formatPower(250) << QStringLiteral("250 W");
    QTest::newRow("percent") << formatPercent(0.4567) << QStringLiteral("45.7 %");
    QTest::newRow("percent whole") << formatPercent(1) << QStringLiteral("100 %");
}

void TestModels::parsingDurations_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("seconds"); // -1: refused
    QTest::newRow("clock") << QStringLiteral("1:02:03") << 3723.0;
    QTest::newRow("as shown with days") << QStringLiteral("4d 22:29:17") << 426557.0;
    QTest::newRow("minutes:seconds") << QStringLiteral("2:05") << 125.0;
    QTest::newRow("seconds") << QStringLiteral("90") << 90.0;
    QTest::newRow("fraction") << QStringLiteral("1.5") << 1.5;
    QTest::newRow("short job as shown") << QStringLiteral("0:00:00.42") << 0.42;
    QTest::newRow("units") << QStringLiteral("1h 30m") << 5400.0;
    QTest::newRow("hours") << QStringLiteral("1.5h") << 5400.0;
    QTest::newRow("days alone") << QStringLiteral("2d") << 172800.0;
    QTest::newRow("bad minutes") << QStringLiteral("1:60:00") << -1.0;
    QTest::newRow("bad seconds") << QStringLiteral("1:75") << -1.0;
    QTest::newRow("negative") << QStringLiteral("-5") << -1.0;
    QTest::newRow("words") << QStringLiteral("soon") << -1.0;
    QTest::newRow("dangling colon") << QStringLiteral("5:") << -1.0;
    QTest::newRow("empty") << QString() << -1.0;
}

void TestModels::parsingDurations()
{
    QFETCH(QString, text);
    QFETCH(double, seconds);
    const std::optional<double> parsed = parseDuration(text);
    QCOMPARE(parsed.value_or(-1), seconds);
    // What the editor shows reads back to the same value.
    if (parsed)
        QCOMPARE(parseDuration(formatDuration(*parsed)).value_or(-1), std::floor(*parsed) == *parsed || *parsed < 10 ? *parsed : std::floor(*parsed));
}

void TestModels::formatting()
{
    QFETCH(QString, actual);
    QFETCH(QString, expected);
    QCOMPARE(actual, expected);
}

void TestModels::layoutKeepsRailOrder()
{
    // dgx-nvlink's eight rails of a scalable unit each reach the same nodes: they stand in
    // their file order (rail-0 stood fourth, its mean position a rounding to the right).
    const auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dgx-nvlink.json");
    QVERIFY(s.ok());
    const Cluster &c = s.value().cluster;
    const ClusterLayout layout(c);
    std::vector<std::pair<double, std::string>> rails;
    for (std::size_t k = 0; k < c.switches.size(); ++k)
        if (c.switches[k].id.starts_with("su-0-rail-"))
            rails.emplace_back(layout.switchCenter(int(k)).x(), c.switches[k].id);
    QCOMPARE(int(rails.size()), 8);
    std::stable_sort(rails.begin(), rails.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    QStringList order;
    for (const auto &[x, id] : rails)
        order << QString::fromStdString(id).mid(5);
    QCOMPARE(order.join(QLatin1Char(' ')),
             QStringLiteral("rail-0 rail-1 rail-2 rail-3 rail-4 rail-5 rail-6 rail-7"));
}

void TestModels::layoutTiersAndGroups()
{
    const Scenario s = testing::leafSpineScenario(4, 2, 3);
    const ClusterLayout layout(s.cluster);
    QCOMPARE(layout.tierCount(), 2);
    QCOMPARE(layout.switchTier(0), 0); // spine01
    QCOMPARE(layout.switchTier(2), 1); // leaf001
    QCOMPARE(int(layout.groups().size()), 4);
    for (std::size_t g = 0; g < layout.groups().size(); ++g) {
        const ClusterLayout::Group &group = layout.groups()[g];
        QCOMPARE(group.nodes.size(), std::size_t(3));
        QCOMPARE(group.title, QStringLiteral("r00%1").arg(g + 1));
        // The leaf sits centred above its rack; the rack is below the leaf.
        const QRectF leaf = layout.switchRect(group.homeSwitch);
        QCOMPARE(leaf.center().x(), group.rect.center().x());
        QVERIFY(leaf.bottom() < group.rect.top());
        for (int n : group.nodes)
            QVERIFY(group.rect.contains(layout.nodeRect(n)));
        if (g > 0)
            QVERIFY(layout.groups()[g - 1].rect.right() < group.rect.left());
    }
    // Spines above leaves, not overlapping each other.
    QVERIFY(layout.switchRect(0).bottom() < layout.switchRect(2).top());
    QVERIFY(!layout.switchRect(0).intersects(layout.switchRect(1)));
    QVERIFY(layout.bounds().contains(layout.switchRect(1)));
}

void TestModels::fitBesideOrBelowTheLegend()
{
    // A wide cluster (8 racks in a row) with the summary box bottom left and both legends
    // (six rows) top right: fitted clear of both boxes where it is drawn largest: beside a
    // one-column legend in a wide short view, below it in a taller one, and below a
    // two-column legend (shorter, so more room below) in a view about the size of the
    // window's on a laptop screen, where it is drawn larger than the old fit drew it (the
    // larger of beside and below a one-column legend, with as much room kept free at the
    // bottom as the legend took at the top).
    Document doc;
    doc.setScenario(testing::leafSpineScenario(8, 2, 2));
    TopologyScene scene(&doc);
    TopologyView view(&scene);
    view.setOverlayText(
        QStringLiteral("16 nodes · 10 switches in 2 tiers · 32 links\nGPUs: 128"));
    view.setLegends(TopologyView::NodeLegend::Scores, true);
    const QRectF rect = scene.clusterRect();
    auto fitIn = [&rect](const QRectF &room) {
        return std::min(room.width() / rect.width(), room.height() / rect.height());
    };
    QStringList placements;
    for (const QSize size : {QSize(1400, 260), QSize(600, 500), QSize(590, 330)}) {
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.fitAll();
        const QRect legend = view.legendRect(), summary = view.summaryRect();
        QVERIFY(!legend.isEmpty());
        QVERIFY(!summary.isEmpty());
        QCOMPARE(summary.bottom(), view.viewport()->height() - 11);
        QVERIFY(view.zoom() < 2.0); // (shrunk to fit: not the readable cap)
        const QRect cluster = view.mapFromScene(rect).boundingRect();
        const QString where = QStringLiteral("%1x%2: cluster %3,%4 %5x%6, legend %7,%8 %9x%10, "
                                             "summary top %11")
                                  .arg(size.width()).arg(size.height())
                                  .arg(cluster.x()).arg(cluster.y())
                                  .arg(cluster.width()).arg(cluster.height())
                                  .arg(legend.x()).arg(legend.y())
                                  .arg(legend.width()).arg(legend.height())
                                  .arg(summary.top());
        QVERIFY2(!cluster.intersects(legend), qPrintable(where));
        QVERIFY2(!cluster.intersects(summary), qPrintable(where));
        QVERIFY2(view.viewport()->rect().contains(cluster), qPrintable(where));
        const int columns = legend == view.legendRect(1) ? 1 : legend == view.legendRect(2) ? 2 : 3;
        placements << QStringLiteral("%1, %2 column(s)")
                          .arg(cluster.top() > legend.bottom() ? "below" : "beside")
                          .arg(columns);
        const QRect one = view.legendRect(1);
        const QRectF room = QRectF(view.viewport()->rect()).adjusted(8, 8, -8, -8);
        const double band = one.bottom() + 10 - room.top();
        const double before = std::max(fitIn(room.adjusted(0, 0, -(one.width() + 10), 0)),
                                       fitIn(room.adjusted(0, band, 0, -band)));
        if (columns == 2)
            QVERIFY2(view.zoom() > 1.5 * before,
                     qPrintable(QStringLiteral("%1; zoom %2, the old fit %3")
                                    .arg(where).arg(view.zoom()).arg(before)));
    }
    QCOMPARE(placements, QStringList({QStringLiteral("beside, 1 column(s)"),
                                      QStringLiteral("below, 1 column(s)"),
                                      QStringLiteral("below, 2 column(s)")}));

    // A small cluster fills the room it is fitted in: the scene's margin to pan into is not
    // fitted (it drew the 8-node testbed at 70 % of the room on a laptop screen).
    Document small;
    small.setScenario(testing::leafSpineScenario(2, 1, 4));
    TopologyScene smallScene(&small);
    TopologyView smallView(&smallScene);
    smallView.resize(600, 400);
    smallView.show();
    QVERIFY(QTest::qWaitForWindowExposed(&smallView));
    smallView.fitAll();
    QVERIFY(smallView.zoom() < 2.0); // (not the readable cap)
    const QRect drawn =
        smallView.mapFromScene(ClusterLayout(small.scenario().cluster).bounds()).boundingRect();
    const QRect room = smallView.viewport()->rect().adjusted(8, 8, -8, -8);
    QVERIFY2(room.contains(drawn),
             qPrintable(QStringLiteral("%1x%2").arg(drawn.width()).arg(drawn.height())));
    const double filled =
        std::max(double(drawn.width()) / room.width(), double(drawn.height()) / room.height());
    QVERIFY2(filled > 0.9, qPrintable(QStringLiteral("%1 of the room").arg(filled)));
}

void TestModels::sceneToolTipsAndHitTest()
{
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 1, 2));
    TopologyScene scene(&doc);
    const ClusterLayout layout(doc.scenario().cluster);
    const QPointF nodeCenter = layout.nodeRect(3).center();
    QCOMPARE(scene.nodeAt(nodeCenter), 3);
    const QString tip = scene.toolTipAt(nodeCenter);
    QVERIFY2(tip.contains(QStringLiteral("r002-n02")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("64 CPUs, 512 GiB memory")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("8 × V100 (32 GiB each)")), qPrintable(tip));
    const QString switchTip = scene.toolTipAt(layout.switchRect(0).center());
    QVERIFY2(switchTip.contains(QStringLiteral("spine01")), qPrintable(switchTip));
    QVERIFY2(switchTip.contains(QStringLiteral("2 links, 800 Gbit/s")), qPrintable(switchTip));
    QCOMPARE(scene.nodeAt(QPointF(-1000, -1000)), -1);

    // Links are one item, hit-tested by geometry: spine-leaf twice, each leaf to its rack.
    const LinkLayerItem *links = scene.linkLayer();
    QVERIFY(links);
    QCOMPARE(links->bundleCount(), 4);
    const QLineF up = links->bundle(0).line;
    QCOMPARE(links->bundle(0).links, std::vector<int>{0});
    const QPointF mid = up.center();
    QCOMPARE(links->bundleAt(mid), 0);
    const QString linkTip = scene.toolTipAt(mid);
    QCOMPARE(linkTip, QStringLiteral("spine01 ↔ leaf001<br>400 Gbit/s per direction"));
    // The hit margin is half the line's width, at least 3 units: 20 units across is nothing.
    const QPointF normal = QPointF(-up.dy(), up.dx()) / up.length();
    QCOMPARE(links->bundleAt(mid + 20 * normal), -1);
    QCOMPARE(scene.toolTipAt(mid + 20 * normal), QString());
    // Utilisation colours a bundle by its busiest link and shows in its tooltip.
    std::vector<double> perLink(doc.scenario().cluster.links.size(), 0.0);
    perLink[0] = 0.5;
    scene.setLinkUtilisation(perLink);
    QCOMPARE(links->utilisation(0), 0.5);
    QCOMPARE(links->utilisation(1), 0.0);
    QCOMPARE(scene.toolTipAt(mid),
             QStringLiteral("spine01 ↔ leaf001<br>400 Gbit/s per direction<br>utilisation ") +
                 formatPercent(0.5));
    scene.setLinkUtilisation({});
    QCOMPARE(links->utilisation(0), -1.0);
    QCOMPARE(scene.toolTipAt(mid), linkTip);
    // An edit schedules one rebuild; the tooltip follows.
    Node n = doc.scenario().cluster.nodes[3];
    n.cpus = 16;
    doc.undoStack()->push(new EditNodeCommand(&doc, 3, n));
    QSignalSpy rebuilt(&scene, &TopologyScene::rebuilt);
    QVERIFY(rebuilt.wait(1000));
    QVERIFY(scene.toolTipAt(nodeCenter).contains(QStringLiteral("16 CPUs")));
}

QTEST_MAIN(TestModels)
#include "tst_models.moc"
