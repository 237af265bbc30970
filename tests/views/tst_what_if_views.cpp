// Where two runs part, stepped together, and what if I put it here, in the window; checked
// by hand on three nodes (tests/views/test_scenarios.h): "spread-first" places j1, j2, j3 on
// a, b, c and "pack-first" all on a, so the runs part at decision 2 on the same cluster
// (spread scores b 8 and a 7; pack a 2 and b 0) and differ again at decision 3 (c against a).
// Pinning j1 to c under spread-first: j1 c, then j2 a and j3 b (tests/core/tst_task_pin.cpp
// has the scores).

#include "analysis/decision_models.h"
#include "analysis/decision_stepper.h"
#include "analysis/place_run_dialog.h"
#include "analysis/run_session.h"
#include "runs/comparison_view.h"
#include "runs/history_panel.h"
#include "runs/run_diff.h"
#include "runs/run_diff_dialog.h"
#include "runs/run_views.h"
#include "test_scenarios.h"
#include "topology/topology_scene.h"
#include "topology/topology_view.h"
#include "window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QTimer>
#include <QGraphicsSceneMouseEvent>
#include <QLabel>
#include <QPushButton>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace cb;
using namespace cb::views;

namespace {

std::shared_ptr<const RunSession> session(const Scenario &s, const std::string &policy)
{
    auto r = computeRunSession(s, policy, 1, false);
    if (!r)
        qFatal("computeRunSession: %s", r.error().c_str());
    return std::make_shared<const RunSession>(std::move(r.value()));
}

QString cell(const DecisionListModel *m, int row, int column, int role = Qt::DisplayRole)
{
    return m->index(row, column).data(role).toString();
}

int nodeIndex(const Scenario &s, const std::string &id)
{
    for (std::size_t i = 0; i < s.cluster.nodes.size(); ++i)
        if (s.cluster.nodes[i].id == id)
            return int(i);
    return -1;
}

/// A left-button press, move and release on the scene, as the view forwards them.
void dragOnScene(TopologyScene *scene, QPointF from, QPointF to)
{
    const auto send = [scene](QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
        QGraphicsSceneMouseEvent e(type);
        e.setScenePos(at);
        e.setButton(Qt::LeftButton);
        e.setButtons(buttons);
        e.setAccepted(false);
        QCoreApplication::sendEvent(scene, &e);
        return e.isAccepted();
    };
    QVERIFY(send(QEvent::GraphicsSceneMousePress, from, Qt::LeftButton));
    QVERIFY(scene->isDragging());
    send(QEvent::GraphicsSceneMouseMove, (from + to) / 2, Qt::LeftButton);
    send(QEvent::GraphicsSceneMouseMove, to, Qt::LeftButton);
    send(QEvent::GraphicsSceneMouseRelease, to, Qt::NoButton);
    QVERIFY(!scene->isDragging());
}

} // namespace

class TestWhatIfViews : public QObject
{
    Q_OBJECT

private slots:
    void stepsTwoRunsTogether()
    {
        const Scenario s = testing::threeNodeScenario();
        auto spread = session(s, "spread-first");
        auto pack = session(s, "pack-first");
        DecisionStepper stepper;
        stepper.setSession(spread);
        QSignalSpy partnerChanged(&stepper, &DecisionStepper::partnerChanged);
        QVERIFY(!stepper.findChild<QWidget *>(QStringLiteral("partnerBar"))->isVisibleTo(&stepper));
        stepper.setPartner(pack);
        QCOMPARE(partnerChanged.count(), 1);
        QVERIFY(stepper.findChild<QWidget *>(QStringLiteral("partnerBar"))->isVisibleTo(&stepper));
        QVERIFY(stepper.alignment());
        QCOMPARE(stepper.alignment()->differing(), (std::vector<int>{1, 2}));
        const auto *summary = stepper.findChild<QLabel *>(QStringLiteral("partnerSummary"));
        QCOMPARE(summary->text(),
                 QStringLiteral("<b>Beside pack-first seed 1</b>: 2 of 3 differ, the first at 2"));
        QVERIFY2(summary->toolTip().contains(QStringLiteral("Decision 1 is the same in both; "
                                                            "at decision 2 they part, on the "
                                                            "same cluster.")),
                 qPrintable(summary->toolTip()));

        // The list: this run's pick, the other's, the differing rows tinted.
        const DecisionListModel *list = stepper.listModel();
        QCOMPARE(cell(list, 0, DecisionListModel::Node), QStringLiteral("a"));
        QCOMPARE(cell(list, 1, DecisionListModel::Node), QStringLiteral("b"));
        QCOMPARE(cell(list, 2, DecisionListModel::Node), QStringLiteral("c"));
        for (int r = 0; r < 3; ++r)
            QCOMPARE(cell(list, r, DecisionListModel::Other), QStringLiteral("a"));
        QVERIFY(!list->index(0, 0).data(Qt::BackgroundRole).isValid());
        QVERIFY(list->index(1, 0).data(Qt::BackgroundRole).isValid());
        QVERIFY(list->index(2, DecisionListModel::Why).data(Qt::BackgroundRole).isValid());

        // At the first decision both agree.
        QCOMPARE(stepper.cursor(), 0);
        QVERIFY2(stepper.partnerText().contains(
                     QStringLiteral("Other run (pack-first seed 1): j1 single-0 → a")),
                 qPrintable(stepper.partnerText()));
        QVERIFY(stepper.partnerText().contains(QStringLiteral("The same as this run.")));
        auto *previous = stepper.findChild<QToolButton *>(QStringLiteral("previousDifferenceButton"));
        auto *next = stepper.findChild<QToolButton *>(QStringLiteral("nextDifferenceButton"));
        QVERIFY(!previous->isEnabled());
        QVERIFY(next->isEnabled());

        // Next difference: decision 2, where both saw the same cluster. Each pick in the
        // other run's scores: spread has a at 7 behind b's 8; pack has b at 0 behind a's 2.
        next->click();
        QCOMPARE(stepper.cursor(), 1);
        const QString at2 = stepper.partnerText();
        QVERIFY2(at2.contains(QStringLiteral("Other run (pack-first seed 1): j2 single-0 → a")),
                 qPrintable(at2));
        QVERIFY2(at2.contains(QStringLiteral("In this run's scores, vs a: total 7, 1 behind")),
                 qPrintable(at2));
        QVERIFY2(at2.contains(QStringLiteral("In the other run's scores, vs b: total 0, 2 behind")),
                 qPrintable(at2));
        QVERIFY2(at2.contains(QStringLiteral("The first difference: up to here both runs saw the "
                                             "same cluster.")),
                 qPrintable(at2));
        QCOMPARE(stepper.partnerPick(), nodeIndex(s, "a"));
        const NodeOverlay overlay = decisionOverlay(stepper);
        QCOMPARE(overlay.marked, nodeIndex(s, "b"));
        QCOMPARE(overlay.otherMarked, nodeIndex(s, "a"));

        next->click();
        QCOMPARE(stepper.cursor(), 2);
        QVERIFY2(stepper.partnerText().contains(QStringLiteral("After decision 2 the clusters differ")),
                 qPrintable(stepper.partnerText()));
        QVERIFY(!next->isEnabled()); // decision 3 is the last difference
        stepper.nextDifference();
        QCOMPARE(stepper.cursor(), 2);
        previous->click();
        QCOMPARE(stepper.cursor(), 1);
        QVERIFY(!previous->isEnabled());

        // Closing the mode, or showing another run, steps one run alone again.
        stepper.findChild<QToolButton *>(QStringLiteral("closePartnerButton"))->click();
        QVERIFY(!stepper.partner());
        QCOMPARE(partnerChanged.count(), 2);
        QCOMPARE(stepper.partnerText(), QString());
        QCOMPARE(decisionOverlay(stepper).otherMarked, -1);
        stepper.setPartner(pack);
        stepper.setSession(pack);
        QVERIFY(!stepper.partner());
        QVERIFY(!stepper.alignment());
    }

    void whatIfFromTheTopology()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("three.json"));
        QVERIFY(saveScenarioFile(path.toStdString(), testing::threeNodeScenario()).ok());
        MainWindow window;
        window.resize(1366, 768);
        QVERIFY(window.openFile(path));
        QSignalSpy shown(&window, &MainWindow::runShown);
        QVERIFY(window.startRun("spread-first", 1, false));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
        QTRY_VERIFY(!window.isRunning());
        const auto own = window.currentRun();
        QVERIFY(own && own->id > 0);

        // Place and Simulate opens with what the shown run did: spread-first, seed 1, placed
        // only (not simulated).
        bool checked = false;
        QTimer::singleShot(0, &window, [&checked] {
            auto *dialog = qobject_cast<PlaceRunDialog *>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            QCOMPARE(dialog->policy(), std::string("spread-first"));
            QCOMPARE(dialog->seed(), std::uint64_t(1));
            QVERIFY(!dialog->simulate());
            checked = true;
            dialog->reject();
        });
        window.findChild<QAction *>(QStringLiteral("placeAndSimulateAction"))->trigger();
        QVERIFY(checked);
        QCOMPARE(window.decisionStepper()->cursor(), 0);
        const Scenario &s = own->scenario;
        const int a = nodeIndex(s, "a"), c = nodeIndex(s, "c");
        TopologyScene *scene = window.topologyScene();
        QCOMPARE(scene->dragSource(), a); // j1's pick

        // The context menu offers the same what-if on any other node, not on the pick.
        std::unique_ptr<QAction> action(window.whatIfAction(c));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("What If j1 single-0 Ran Here?"));
        QVERIFY(!std::unique_ptr<QAction>(window.whatIfAction(a)));

        // Drag j1 from a onto c: the run again with j1 pinned to c, shown at decision 1.
        QSignalSpy dropped(scene, &TopologyScene::taskDropped);
        QSignalSpy clicked(scene, &TopologyScene::nodeClicked);
        const QRectF rectA = scene->selectNode(a), rectC = scene->selectNode(c);
        // Pressed and released on the pick without leaving it: a click, not a what-if.
        dragOnScene(scene, rectA.center(), rectA.center() + QPointF(1, 1));
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(dropped.count(), 0);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), a);
        QVERIFY(!window.isRunning());
        dragOnScene(scene, rectA.center(), rectC.center());
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(dropped.count(), 1);
        QCOMPARE(dropped.at(0).at(0).toInt(), a);
        QCOMPARE(dropped.at(0).at(1).toInt(), c);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 20000);
        QTRY_VERIFY(!window.isRunning());
        const auto pinned = window.currentRun();
        QVERIFY(pinned && pinned != own);
        QCOMPARE(pinned->pins.size(), std::size_t(1));
        QCOMPARE(toString(pinned->pins[0]), std::string("j1/single-0=c"));
        QVERIFY2(pinned->label.endsWith(QStringLiteral(" +pin")), qPrintable(pinned->label));
        QCOMPARE(window.decisionStepper()->cursor(), 0);
        // Stepped beside the run it changed: there j1 went to a, outlined in the topology.
        QVERIFY(window.decisionStepper()->partner() == own);
        QCOMPARE(window.decisionStepper()->partnerPick(), a);
        const auto &log = pinned->log;
        QCOMPARE(log.nodeNames[std::size_t(log.decisions[0].pick)], std::string("c"));
        QCOMPARE(log.nodeNames[std::size_t(log.decisions[1].pick)], std::string("a"));
        QCOMPARE(log.nodeNames[std::size_t(log.decisions[2].pick)], std::string("b"));
        QCOMPARE(scene->dragSource(), c);

        // The comparison: the pinned run against the run it changed (not whatever ran last).
        auto *views = window.findChild<RunViews *>();
        QVERIFY(views);
        QTRY_COMPARE(views->comparisonView()->model()->runs().size(), std::size_t(2));
        const auto &compared = views->comparisonView()->model()->runs();
        QCOMPARE(compared[0].id, own->id);
        QCOMPARE(compared[0].label, own->label);
        QCOMPARE(compared[1].id, pinned->id);
        QVERIFY2(compared[1].label.endsWith(QStringLiteral(" +pin")), qPrintable(compared[1].label));

        // Pinning again keeps the earlier pin: j2 (decision 2, now on a) to b.
        window.decisionStepper()->seek(1);
        QVERIFY(window.whatIfHere(nodeIndex(s, "b")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 3, 20000);
        QTRY_VERIFY(!window.isRunning());
        const auto twice = window.currentRun();
        QCOMPARE(twice->pins.size(), std::size_t(2));
        QCOMPARE(toString(twice->pins[0]), std::string("j1/single-0=c"));
        QCOMPARE(toString(twice->pins[1]), std::string("j2/single-0=b"));
        QCOMPARE(window.decisionStepper()->cursor(), 1);
        QVERIFY(window.decisionStepper()->partner() == pinned); // beside the run it changed

        // A press elsewhere than on the pick pans the view: no drag, no drop.
        QGraphicsSceneMouseEvent press(QEvent::GraphicsSceneMousePress);
        press.setScenePos(scene->selectNode(a).center());
        press.setButton(Qt::LeftButton);
        press.setButtons(Qt::LeftButton);
        QCoreApplication::sendEvent(scene, &press);
        QVERIFY(!scene->isDragging());
        QCOMPARE(dropped.count(), 1);

        // A node clicked to contrast: still contrasted in another run of this cluster ...
        const int b = nodeIndex(s, "b");
        TopologyView *view = window.topologyView();
        view->fitAll();
        const QPointF centre = view->mapToScene(view->viewport()->rect().center());
        const double zoom = view->zoom();
        emit scene->nodeClicked(b);
        QCOMPARE(scene->selectedNode(), b);
        // (the view stays where it was: the click had scrolled the fitted cluster under the
        // summary box, or zoomed in on a large one)
        QCOMPARE(view->mapToScene(view->viewport()->rect().center()), centre);
        QCOMPARE(view->zoom(), zoom);
        QCOMPARE(window.decisionStepper()->contrastNode(), b);
        QVERIFY(window.startRun("spread-first", 2, false));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 4, 20000);
        QTRY_VERIFY(!window.isRunning());
        QCOMPARE(window.decisionStepper()->contrastNode(), b);
        QVERIFY(!views->comparisonView()->model()->runs().empty());
        // ... but another document starts with nothing selected, contrasted or compared
        // (the node's index had carried over to some node of the next cluster).
        QVERIFY(
            window.openFile(QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json")));
        QCOMPARE(scene->selectedNode(), -1);
        QCOMPARE(window.decisionStepper()->contrastNode(), -1);
        QCOMPARE(views->comparisonView()->model()->runs().size(), std::size_t(0));
    }

    void stepBothFromWhereTheyPart()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("three.json"));
        QVERIFY(saveScenarioFile(path.toStdString(), testing::threeNodeScenario()).ok());
        MainWindow window;
        QVERIFY(window.openFile(path));
        QSignalSpy shown(&window, &MainWindow::runShown);
        QVERIFY(window.startRun("spread-first", 1, false));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
        QTRY_VERIFY(!window.isRunning());
        const std::int64_t first = window.currentRun()->id;
        QVERIFY(window.startRun("pack-first", 1, false));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 20000);
        QTRY_VERIFY(!window.isRunning());
        const std::int64_t second = window.currentRun()->id;
        HistoryPanel *history = window.findChild<RunViews *>()->historyPanel();
        QVERIFY(history->diffRuns(first, second));
        RunDiffDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<RunDiffDialog *>()) != nullptr);
        QVERIFY(dialog->stepButton(2)->isEnabled());
        const QPointer<RunDiffDialog> open(dialog);
        dialog->stepButton(2)->click();
        QTRY_VERIFY(window.decisionStepper()->partner() != nullptr);
        DecisionStepper *stepper = window.decisionStepper();
        QCOMPARE(stepper->session()->id, first);
        QCOMPARE(stepper->partner()->id, second);
        QCOMPARE(stepper->cursor(), 1); // the first difference
        QCOMPARE(window.topologyScene()->nodeOverlay().marked,
                 nodeIndex(stepper->session()->scenario, "b"));
        QCOMPARE(window.topologyScene()->nodeOverlay().otherMarked,
                 nodeIndex(stepper->session()->scenario, "a"));
        QVERIFY(window.topologyView()->otherPickLegendShown());
        stepper->clearPartner();
        QCOMPARE(window.topologyScene()->nodeOverlay().otherMarked, -1);
        QVERIFY(!window.topologyView()->otherPickLegendShown());
        QTRY_VERIFY(!open); // Step both closes the dialog: the stepper shows both sides
    }
};

QTEST_MAIN(TestWhatIfViews)
#include "tst_what_if_views.moc"
