// Loads each sample scenario (and one built in code) into the MainWindow at 1400x900 and
// writes PNGs into CB_BINARY_DIR/screenshots/ for people to look at. Also checks that what
// should be visible is: the workspace instead of the start page, a fitted topology, filled
// docks.

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

QTEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
