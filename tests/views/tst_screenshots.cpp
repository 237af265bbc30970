// Loads each sample scenario (and one built in code) into the MainWindow at 1400x900 and
// writes PNGs into CB_BINARY_DIR/screenshots/ for people to look at. Also checks that what
// should be visible is: the workspace instead of the start page, a fitted topology, filled
// docks.

#include "analysis/decision_stepper.h"
#include "analysis/run_session.h"
#include "analysis/run_timeline.h"
#include "analysis/traffic_heatmap.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "models/cluster_tree_model.h"
#include "models/job_queue_model.h"
#include "test_scenarios.h"
#include "topology/topology_scene.h"
#include "topology/topology_view.h"
#include "window/cluster_panel.h"
#include "window/job_queue_panel.h"
#include "window/main_window.h"
#include "window/start_page.h"

#include <QDir>
#include <QDockWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace cb;
using namespace cb::views;

class TestScreenshots : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void startPage();
    void samples_data();
    void samples();
    void builtInCode();
    void analysisViews_data();
    void analysisViews();

private:
    void shoot(MainWindow &window, const QString &name);
    void shootZoomed(MainWindow &window, const QString &name);
    QDir m_out;
};

void TestScreenshots::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ClusterBenchTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_screenshots"));
    QSettings().clear(); // recent files and window state from earlier runs
    m_out = QDir(QStringLiteral(CB_BINARY_DIR "/screenshots"));
    QVERIFY(m_out.mkpath(QStringLiteral(".")));
}

void TestScreenshots::shoot(MainWindow &window, const QString &name)
{
    window.setWindowState(Qt::WindowNoState); // the offscreen screen is small: not maximised
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    window.topologyView()->fitAll();
    QCoreApplication::processEvents();
    const QImage image = window.grab().toImage();
    QCOMPARE(image.size(), QSize(1400, 900) * window.devicePixelRatio());
    const QString path = m_out.filePath(name + QStringLiteral(".png"));
    QVERIFY2(image.save(path), qPrintable(path));
    qInfo("wrote %s", qPrintable(path));
}

void TestScreenshots::shootZoomed(MainWindow &window, const QString &name)
{
    // Close up on the first node: the detailed level (names, GPU chips) must be drawn.
    window.topologyView()->setZoom(1.6);
    window.clusterPanel()->selectNode(0);
    QCoreApplication::processEvents();
    QCOMPARE(window.topologyView()->zoom(), 1.6);
    QCOMPARE(window.topologyScene()->selectedNode(), 0);
    const QImage image = window.grab().toImage();
    const QString path = m_out.filePath(name + QStringLiteral("-zoomed.png"));
    QVERIFY2(image.save(path), qPrintable(path));
    qInfo("wrote %s", qPrintable(path));
}

void TestScreenshots::startPage()
{
    MainWindow window;
    QVERIFY(window.isShowingStartPage());
    window.show();
    QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("clusterDock"))->isHidden());
    QVERIFY(window.startPage()->sampleCount() >= 0);
    shoot(window, QStringLiteral("start-page"));
}

void TestScreenshots::samples_data()
{
    QTest::addColumn<QString>("file");
    for (const char *name : {"dltap-testbed.json", "leaf-spine-gpu.json", "dgx-nvlink.json",
                             "sts-datacenter.json", "fat-tree-1024.json"})
        QTest::newRow(name) << QStringLiteral(CB_SOURCE_DIR "/sample-clusters/%1")
                                   .arg(QLatin1String(name));
}

void TestScreenshots::samples()
{
    QFETCH(QString, file);
    if (!QFileInfo::exists(file))
        QSKIP(qPrintable(QStringLiteral("%1 does not exist yet (being written by another "
                                        "engineer)").arg(file)));
    MainWindow window;
    QVERIFY2(window.openFile(file), qPrintable(file));
    QVERIFY(!window.isShowingStartPage());
    QVERIFY(!window.clusterPanel()->isHidden());
    QVERIFY(!window.jobQueuePanel()->isHidden());
    const Scenario &s = window.document()->scenario();
    QCOMPARE(window.jobQueuePanel()->model()->rowCount(), int(s.jobs.size()));
    QVERIFY(window.clusterPanel()->model()->rowCount() >= 1);
    const QString base = QFileInfo(file).completeBaseName();
    shoot(window, base);
    // The fitted scene fills the view in at least one direction.
    TopologyView *view = window.topologyView();
    const QRectF shown = view->mapToScene(view->viewport()->rect()).boundingRect();
    const QRectF scene = view->scene()->sceneRect();
    QVERIFY(shown.width() <= scene.width() * 1.6 || shown.height() <= scene.height() * 1.6 ||
            view->zoom() >= 1.49);
    shootZoomed(window, base);
}

void TestScreenshots::builtInCode()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("built-in-code.json"));
    QVERIFY(saveScenarioFile(path.toStdString(), testing::leafSpineScenario(6, 2, 4)).ok());
    MainWindow window;
    QVERIFY(window.openFile(path));
    QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("jobDock"))->isVisibleTo(&window));
    QCOMPARE(window.jobQueuePanel()->model()->rowCount(), 3);
    QCOMPARE(window.clusterPanel()->model()->rowCount(), 7);
    shoot(window, QStringLiteral("built-in-code"));
    shootZoomed(window, QStringLiteral("built-in-code"));

    // A big generated fabric, zoomed out: the aggregated level of detail.
    const QString big = dir.filePath(QStringLiteral("leaf-spine-2048.json"));
    QVERIFY(saveScenarioFile(big.toStdString(), testing::leafSpineScenario(64, 8, 32)).ok());
    QVERIFY(window.openFile(big));
    shoot(window, QStringLiteral("built-in-code-2048"));
}

void TestScreenshots::analysisViews_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("jobs"); // the first N jobs of the file (0: all)
    QTest::newRow("dltap-testbed") << QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json") << 0;
    // All 300 jobs (4,013 decisions): the log keeps the 32 best of the 1,024 nodes per decision.
    QTest::newRow("fat-tree-1024") << QStringLiteral(CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json") << 0;
}

void TestScreenshots::analysisViews()
{
    // A dltap run, simulated: the window with the stepper mid-way (topology coloured by
    // score, the chosen node marked), then each analysis view on its own at a useful size.
    QFETCH(QString, file);
    QFETCH(int, jobs);
    auto loaded = loadScenarioFile(file.toStdString());
    QVERIFY2(loaded.ok(), loaded.error().c_str());
    Scenario s = loaded.value();
    if (jobs > 0 && int(s.jobs.size()) > jobs)
        s.jobs.resize(std::size_t(jobs));
    QTemporaryDir dir;
    const QString path = dir.filePath(QFileInfo(file).fileName());
    QVERIFY(saveScenarioFile(path.toStdString(), s).ok());
    MainWindow window;
    QVERIFY(window.openFile(path));
    auto computed = computeRunSession(window.document()->scenario(), "dltap", 1, true);
    QVERIFY2(computed.ok(), computed.error().c_str());
    auto run = std::make_shared<const RunSession>(std::move(computed.value()));
    window.showRun(run);
    DecisionStepper *stepper = window.decisionStepper();
    QVERIFY(stepper->decisionCount() > 0);
    stepper->seek(stepper->decisionCount() / 2);
    const QString base = QFileInfo(file).completeBaseName();
    shoot(window, base + QStringLiteral("-run"));
    QVERIFY(window.topologyScene()->nodeOverlay().active());

    auto grabAlone = [this](QWidget *w, QSize size, const QString &name) {
        w->resize(size);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        for (QCustomPlot *plot : w->findChildren<QCustomPlot *>())
            plot->replot(QCustomPlot::rpImmediateRefresh);
        QCoreApplication::processEvents();
        const QImage image = w->grab().toImage();
        const QString out = m_out.filePath(name + QStringLiteral(".png"));
        QVERIFY2(image.save(out), qPrintable(out));
        qInfo("wrote %s", qPrintable(out));
    };
    // The same run in views of their own, at sizes a user would give them.
    DecisionStepper aloneStepper;
    aloneStepper.setSession(run);
    aloneStepper.seek(stepper->decisionCount() / 2);
    grabAlone(&aloneStepper, QSize(760, 820), base + QStringLiteral("-stepper"));
    TrafficHeatmap heatmap;
    aloneStepper.last();
    heatmap.setSession(run, aloneStepper.replay());
    grabAlone(&heatmap, QSize(820, 760), base + QStringLiteral("-heatmap-decision"));
    heatmap.setSource(TrafficHeatmap::Source::Cumulative);
    heatmap.setTime(run->result->makespanSeconds * 0.4);
    heatmap.setLogScale(true);
    grabAlone(&heatmap, QSize(820, 760), base + QStringLiteral("-heatmap-cumulative-log"));
    heatmap.setLogScale(false);
    heatmap.setSource(TrafficHeatmap::Source::Links);
    grabAlone(&heatmap, QSize(820, 760), base + QStringLiteral("-heatmap-links"));
    RunTimeline timeline;
    timeline.setSession(run);
    timeline.setTime(run->result->makespanSeconds * 0.4);
    grabAlone(&timeline, QSize(1200, 760), base + QStringLiteral("-timeline"));
}

QTEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
