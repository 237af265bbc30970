// Every undo command undoes and redoes exactly: the scenario after undo equals the one before
// (Scenario::operator==), and redo reproduces the edited scenario.

#include "commands/add_job_command.h"
#include "commands/add_link_command.h"
#include "commands/add_node_command.h"
#include "commands/add_switch_command.h"
#include "commands/duplicate_job_command.h"
#include "commands/edit_job_command.h"
#include "commands/edit_node_command.h"
#include "commands/edit_switch_command.h"
#include "commands/remove_job_command.h"
#include "commands/remove_link_command.h"
#include "commands/remove_node_command.h"
#include "commands/remove_switch_command.h"
#include "document/document.h"
#include "model/validation.h"
#include "test_scenarios.h"

#include <QUndoStack>
#include <QtTest>

#include <functional>

using namespace cb;
using namespace cb::views;

struct CommandCase
{
    std::function<QUndoCommand *(Document *)> make;
    std::function<bool(const Scenario &)> check; ///< what the edit must have done
};

class TestUndoCommands : public QObject
{
    Q_OBJECT

private slots:
    void undoRedoExact_data();
    void undoRedoExact();
    void longSequenceUndoesToStart();
    void removeSwitchWithThreeLinks();
    void switchEditsAreSeparateSteps();
    void switchProblems_data();
    void switchProblems();
    void helperScenarioIsValid();
};

void TestUndoCommands::helperScenarioIsValid()
{
    const Problems problems = validateScenario(testing::leafSpineScenario(2, 2, 2));
    QVERIFY2(problems.empty(), formatProblems(problems).c_str());
}

void TestUndoCommands::undoRedoExact_data()
{
    QTest::addColumn<CommandCase>("command");
    // Cluster: spine01, spine02, leaf001, leaf002; nodes r001-n01, r001-n02, r002-n01,
    // r002-n02; links: leaf001-spine01, leaf001-spine02, r001-n01-leaf001, r001-n02-leaf001, then the same for leaf002 (8 links).
    QTest::newRow("edit node cpus") << CommandCase{
        [](Document *d) {
            Node n = d->scenario().cluster.nodes[1];
            n.cpus = 96;
            return new EditNodeCommand(d, 1, n);
        },
        [](const Scenario &s) { return s.cluster.nodes[1].cpus == 96; }};
    QTest::newRow("rename node, links follow") << CommandCase{
        [](Document *d) {
            Node n = d->scenario().cluster.nodes[0];
            n.id = "gpu-a";
            return new EditNodeCommand(d, 0, n);
        },
        [](const Scenario &s) {
            return s.cluster.nodes[0].id == "gpu-a" && s.cluster.links[2].a == "gpu-a" &&
                   s.cluster.links[2].b == "leaf001";
        }};
    QTest::newRow("add node with uplink") << CommandCase{
        [](Document *d) {
            Node n = d->scenario().cluster.nodes[0];
            n.id = "extra";
            return new AddNodeCommand(d, n, {Link{"extra", "leaf002", 25, 1}});
        },
        [](const Scenario &s) {
            return s.cluster.nodes.size() == 5 && s.cluster.nodes[4].id == "extra" &&
                   s.cluster.links.size() == 9 && s.cluster.links[8].capacityGbps == 25;
        }};
    QTest::newRow("remove node and its links") << CommandCase{
        [](Document *d) { return new RemoveNodeCommand(d, 1); },
        [](const Scenario &s) {
            return s.cluster.nodes.size() == 3 && s.cluster.links.size() == 7 &&
                   !s.cluster.node("r001-n02");
        }};
    QTest::newRow("add link") << CommandCase{
        [](Document *d) { return new AddLinkCommand(d, Link{"r001-n01", "leaf002", 50, 3}); },
        [](const Scenario &s) {
            return s.cluster.links.size() == 9 && s.cluster.links.back().b == "leaf002";
        }};
    QTest::newRow("remove link in the middle") << CommandCase{
        [](Document *d) { return new RemoveLinkCommand(d, 3); },
        [](const Scenario &s) {
            return s.cluster.links.size() == 7 && s.cluster.links[3].a == "leaf002";
        }};
    QTest::newRow("add switch with links") << CommandCase{
        [](Document *d) {
            return new AddSwitchCommand(d, Switch{"tor9", "tor"},
                                        {Link{"tor9", "r001-n01", 25, 1},
                                         Link{"tor9", "spine02", 100, 2}});
        },
        [](const Scenario &s) {
            return s.cluster.switches.size() == 5 && s.cluster.switches[4] == Switch{"tor9", "tor"} &&
                   s.cluster.links.size() == 10 && s.cluster.links[8].b == "r001-n01" &&
                   s.cluster.links[9].b == "spine02" && s.cluster.links[9].capacityGbps == 100;
        }};
    QTest::newRow("add switch alone") << CommandCase{
        [](Document *d) { return new AddSwitchCommand(d, Switch{"spare", ""}); },
        [](const Scenario &s) {
            return s.cluster.switches.size() == 5 && s.cluster.switches[4].id == "spare" &&
                   s.cluster.links.size() == 8;
        }};
    QTest::newRow("remove switch and its links") << CommandCase{
        [](Document *d) { return new RemoveSwitchCommand(d, 1); }, // spine02: links 1 and 5
        [](const Scenario &s) {
            return s.cluster.switches.size() == 3 && s.cluster.switches[1].id == "leaf001" &&
                   s.cluster.links.size() == 6 && s.cluster.links[1].a == "r001-n01" &&
                   s.cluster.links[3].b == "spine01";
        }};
    QTest::newRow("edit switch tier") << CommandCase{
        [](Document *d) { return new EditSwitchCommand(d, 2, Switch{"leaf001", "tor"}); },
        [](const Scenario &s) {
            return s.cluster.switches[2].tier == "tor" && s.cluster.switches[2].id == "leaf001";
        }};
    QTest::newRow("rename switch, links follow") << CommandCase{
        [](Document *d) { return new EditSwitchCommand(d, 3, Switch{"tor-b", "leaf"}); },
        [](const Scenario &s) {
            // leaf002's links: 4, 5 (to the spines, a end), 6, 7 (from its hosts, b end).
            return s.cluster.switches[3].id == "tor-b" && s.cluster.links[4].a == "tor-b" &&
                   s.cluster.links[5].a == "tor-b" && s.cluster.links[6].b == "tor-b" &&
                   s.cluster.links[7].b == "tor-b" && s.cluster.links[3].b == "leaf001";
        }};
    QTest::newRow("edit job due date") << CommandCase{
        [](Document *d) {
            Job j = d->scenario().jobs[1];
            j.dueSeconds = 5000;
            return new EditJobCommand(d, 1, j);
        },
        [](const Scenario &s) { return s.jobs[1].dueSeconds == 5000.0; }};
    QTest::newRow("add job at end") << CommandCase{
        [](Document *d) {
            Job j = d->scenario().jobs[2];
            j.id = "new";
            return new AddJobCommand(d, j);
        },
        [](const Scenario &s) { return s.jobs.size() == 4 && s.jobs[3].id == "new"; }};
    QTest::newRow("add job at front") << CommandCase{
        [](Document *d) {
            Job j = d->scenario().jobs[2];
            j.id = "first";
            return new AddJobCommand(d, j, 0);
        },
        [](const Scenario &s) { return s.jobs.size() == 4 && s.jobs[0].id == "first"; }};
    QTest::newRow("remove middle job") << CommandCase{
        [](Document *d) { return new RemoveJobCommand(d, 1); },
        [](const Scenario &s) {
            return s.jobs.size() == 2 && s.jobs[0].id == "resnet50-ps" && s.jobs[1].id == "vgg16-1";
        }};
    QTest::newRow("duplicate job") << CommandCase{
        [](Document *d) { return new DuplicateJobCommand(d, 0); },
        [](const Scenario &s) {
            Job copy = s.jobs[1];
            copy.id = s.jobs[0].id;
            // (a display name of its own: the original's and " (copy)", when it has one)
            if (!s.jobs[0].name.empty() && copy.name != s.jobs[0].name + " (copy)")
                return false;
            copy.name = s.jobs[0].name;
            return s.jobs.size() == 4 && s.jobs[1].id == "resnet50-ps-2" && copy == s.jobs[0];
        }};
}

void TestUndoCommands::undoRedoExact()
{
    QFETCH(CommandCase, command);
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 2));
    const Scenario before = doc.scenario();
    QVERIFY(!doc.isModified());

    doc.undoStack()->push(command.make(&doc));
    const Scenario after = doc.scenario();
    QVERIFY(after != before);
    QVERIFY(command.check(after));
    QVERIFY(doc.isModified());

    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
    QVERIFY(!doc.isModified());
    doc.undoStack()->redo();
    QVERIFY(doc.scenario() == after);
    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
}

void TestUndoCommands::longSequenceUndoesToStart()
{
    Document doc;
    doc.setScenario(testing::leafSpineScenario(3, 2, 3));
    const Scenario start = doc.scenario();
    QUndoStack *stack = doc.undoStack();
    stack->push(new RemoveNodeCommand(&doc, 4));
    Node n = doc.scenario().cluster.nodes[0];
    n.id = "renamed";
    n.gpus = 2;
    stack->push(new EditNodeCommand(&doc, 0, n));
    stack->push(new DuplicateJobCommand(&doc, 2));
    stack->push(new RemoveLinkCommand(&doc, 0));
    stack->push(new RemoveJobCommand(&doc, 0));
    stack->push(new AddLinkCommand(&doc, Link{"renamed", "leaf003", 10, 1}));
    const Scenario end = doc.scenario();
    QCOMPARE(stack->count(), 6);
    while (stack->canUndo())
        stack->undo();
    QVERIFY(doc.scenario() == start);
    while (stack->canRedo())
        stack->redo();
    QVERIFY(doc.scenario() == end);
    QCOMPARE(end.jobs.size(), std::size_t(3));
    // The copy has an id and a display name of its own.
    {
        Document copies;
        Scenario named = testing::leafSpineScenario(3, 2, 3);
        named.jobs[0].name = "AlexNet, 1 PS + 2 workers";
        copies.setScenario(named);
        copies.undoStack()->push(new DuplicateJobCommand(&copies, 0));
        QCOMPARE(copies.scenario().jobs[1].name, std::string("AlexNet, 1 PS + 2 workers (copy)"));
        QVERIFY(copies.scenario().jobs[1].id != named.jobs[0].id);
    }
    QCOMPARE(end.cluster.nodes.size(), std::size_t(8));
    QCOMPARE(end.cluster.links.back().a, std::string("renamed"));
}

void TestUndoCommands::removeSwitchWithThreeLinks()
{
    // leafSpine(3, 2, 1): switches spine01, spine02, leaf001..leaf003; links per leaf:
    // leaf-spine01, leaf-spine02, host-leaf. spine01 has links 0, 3 and 6.
    Document doc;
    doc.setScenario(testing::leafSpineScenario(3, 2, 1));
    const Scenario before = doc.scenario();
    QCOMPARE(doc.linksOf("spine01"), (std::vector<int>{0, 3, 6}));
    doc.undoStack()->push(new RemoveSwitchCommand(&doc, 0));
    QCOMPARE(doc.undoStack()->text(0), QStringLiteral("Remove switch spine01 and 3 link(s)"));
    const Cluster &after = doc.scenario().cluster;
    QCOMPARE(after.switches.size(), std::size_t(4));
    QCOMPARE(after.switches[0].id, std::string("spine02"));
    QCOMPARE(after.links.size(), std::size_t(6));
    const std::vector<std::string> left = {"leaf001", "r001-n01", "leaf002",
                                           "r002-n01", "leaf003", "r003-n01"};
    for (std::size_t i = 0; i < left.size(); ++i)
        QCOMPARE(after.links[i].a, left[i]);
    QVERIFY(doc.linksOf("spine01").empty());
    const Scenario removed = doc.scenario();

    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before); // switch and the 3 links, at their old indices
    QCOMPARE(doc.linksOf("spine01"), (std::vector<int>{0, 3, 6}));
    doc.undoStack()->redo();
    QVERIFY(doc.scenario() == removed);
    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
}

void TestUndoCommands::switchEditsAreSeparateSteps()
{
    // Switch commands never merge: two edits of one switch are two undo steps, and the
    // command texts name the switch as it was.
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 2));
    const Scenario start = doc.scenario();
    QUndoStack *stack = doc.undoStack();
    stack->push(new EditSwitchCommand(&doc, 0, Switch{"core-a", "spine"}));
    stack->push(new EditSwitchCommand(&doc, 0, Switch{"core-a", "core"}));
    stack->push(new AddSwitchCommand(&doc, Switch{"edge9", "edge"}, {Link{"edge9", "core-a", 40, 1}}));
    stack->push(new RemoveSwitchCommand(&doc, 0)); // core-a and its 3 links
    QCOMPARE(stack->count(), 4);
    QCOMPARE(stack->command(0)->id(), -1);
    QCOMPARE(stack->text(0), QStringLiteral("Rename switch spine01 to core-a"));
    QCOMPARE(stack->text(1), QStringLiteral("Edit switch core-a"));
    QCOMPARE(stack->text(2), QStringLiteral("Add switch edge9"));
    QCOMPARE(stack->text(3), QStringLiteral("Remove switch core-a and 3 link(s)"));
    const Scenario end = doc.scenario();
    QCOMPARE(end.cluster.switches.size(), std::size_t(4));
    QCOMPARE(end.cluster.switches.back().id, std::string("edge9"));
    QCOMPARE(end.cluster.links.size(), std::size_t(6));
    stack->undo();
    QCOMPARE(doc.scenario().cluster.switches[0], (Switch{"core-a", "core"}));
    QCOMPARE(doc.scenario().cluster.links.back().b, std::string("core-a"));
    stack->undo();
    stack->undo();
    QCOMPARE(doc.scenario().cluster.switches[0], (Switch{"core-a", "spine"}));
    QCOMPARE(doc.scenario().cluster.links[0].b, std::string("core-a"));
    stack->undo();
    QVERIFY(doc.scenario() == start);
    while (stack->canRedo())
        stack->redo();
    QVERIFY(doc.scenario() == end);
    QVERIFY(validateScenario(end).empty());
}

void TestUndoCommands::switchProblems_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("problem");
    const QString none;
    QTest::newRow("unchanged") << 0 << QStringLiteral("spine01") << none;
    QTest::newRow("new name") << 0 << QStringLiteral("core1") << none;
    QTest::newRow("new switch") << -1 << QStringLiteral("core1") << none;
    QTest::newRow("empty") << 2 << QString()
                           << QStringLiteral("expected a non-empty switch id");
    QTest::newRow("a later switch's id") << 0 << QStringLiteral("leaf002")
                                         << QStringLiteral("duplicate id \"leaf002\" (also used "
                                                           "at /cluster/switches/3)");
    QTest::newRow("an earlier switch's id") << 3 << QStringLiteral("spine01")
                                            << QStringLiteral("duplicate id \"spine01\" (first "
                                                              "used at /cluster/switches/0)");
    QTest::newRow("a node's id") << -1 << QStringLiteral("r002-n01")
                                 << QStringLiteral("duplicate id \"r002-n01\" (first used at "
                                                   "/cluster/nodes/2)");
    QTest::newRow("blank at the end") << 1 << QStringLiteral("spine02 ")
                                      << QStringLiteral("the id \"spine02 \" starts or ends "
                                                        "with a blank");
}

void TestUndoCommands::switchProblems()
{
    QFETCH(int, index);
    QFETCH(QString, id);
    QFETCH(QString, problem);
    const Scenario s = testing::leafSpineScenario(2, 2, 2);
    QCOMPARE(switchProblem(s.cluster, Switch{id.toStdString(), "leaf"}, index), problem);
}

QTEST_MAIN(TestUndoCommands)
#include "tst_undo_commands.moc"
