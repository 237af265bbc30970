// Every undo command undoes and redoes exactly: the scenario after undo equals the one before
// (Scenario::operator==), and redo reproduces the edited scenario.

#include "commands/add_job_command.h"
#include "commands/add_link_command.h"
#include "commands/add_node_command.h"
#include "commands/duplicate_job_command.h"
#include "commands/edit_job_command.h"
#include "commands/edit_node_command.h"
#include "commands/remove_job_command.h"
#include "commands/remove_link_command.h"
#include "commands/remove_node_command.h"
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
Q_DECLARE_METATYPE(CommandCase)

class TestUndoCommands : public QObject
{
    Q_OBJECT

private slots:
    void undoRedoExact_data();
    void undoRedoExact();
    void longSequenceUndoesToStart();
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
    QCOMPARE(end.cluster.nodes.size(), std::size_t(8));
    QCOMPARE(end.cluster.links.back().a, std::string("renamed"));
}

QTEST_MAIN(TestUndoCommands)
#include "tst_undo_commands.moc"
