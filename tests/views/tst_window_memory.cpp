// Peak memory of the window as a user meets it: fat-tree-1024 opened, two policies
// (k8s-default and dltap, simulated, every decision kept) run from the run panel and stored
// in a fresh workspace, the last run shown in the stepper, heatmap and timeline, then both
// runs compared. Prints the process's peak resident set (VmHWM) and the workspace's growth
// per stored run. A figure, not a limit: nothing here fails on the size.
//
// The whole scenario (300 jobs) takes about a minute on the 2-core machine: it runs with
// CB_WINDOW_MEMORY=full. By default the first 24 jobs are kept (a few seconds), which checks
// the path and prints the same figures for the smaller queue.

#include "analysis/decision_stepper.h"
#include "analysis/run_timeline.h"
#include "analysis/traffic_heatmap.h"
#include "io/scenario_json.h"
#include "runs/comparison_view.h"
#include "runs/history_panel.h"
#include "runs/run_panel.h"
#include "runs/run_views.h"
#include "window/main_window.h"

#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace cb;
using namespace cb::views;

namespace {

/// A field of /proc/self/status in kB (VmHWM, VmRSS), or -1.
long long statusKb(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').front().toLongLong();
    return -1;
}

} // namespace

class TestWindowMemory : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ClusterBenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_window_memory"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        qputenv("CLUSTERBENCH_WORKSPACE", m_dir.filePath(QStringLiteral("ws.sqlite")).toUtf8());
    }

    void fatTree1024TwoRuns()
    {
        const bool full = qEnvironmentVariable("CB_WINDOW_MEMORY") == QStringLiteral("full");
        QString file = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json");
        std::size_t jobs = 0;
        {
            auto scenario = loadScenarioFile(file.toStdString());
            QVERIFY(scenario.ok());
            QCOMPARE(int(scenario->cluster.nodes.size()), 1024);
            if (!full && scenario->jobs.size() > 24) {
                scenario->jobs.resize(24);
                file = m_dir.filePath(QStringLiteral("fat-tree-1024-24.json"));
                QVERIFY(saveScenarioFile(file.toStdString(), scenario.value()).ok());
            }
            jobs = scenario->jobs.size();
        }
        const long long atStart = statusKb("VmRSS");

        MainWindow window;
        auto *views = window.findChild<RunViews *>();
        QVERIFY(views);
        window.resize(1920, 1080);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.openFile(file), qPrintable(file));
        QCoreApplication::processEvents();
        const long long opened = statusKb("VmRSS");

        RunPanel *panel = views->runPanel();
        for (const QString &p : panel->checkedPolicies())
            panel->setPolicyChecked(p, false);
        panel->setPolicyChecked(QStringLiteral("k8s-default"), true);
        panel->setPolicyChecked(QStringLiteral("dltap"), true);
        panel->setSimulate(true);
        panel->setKeepDecisionLog(true);
        QSignalSpy finished(panel, &RunPanel::batchFinished);
        const QString ws = m_dir.filePath(QStringLiteral("ws.sqlite"));
        // The workspace writes ahead: fold the log into the file before measuring it.
        auto wsSize = [ws] {
            sqlite3 *db = nullptr;
            if (sqlite3_open(ws.toUtf8().constData(), &db) == SQLITE_OK)
                sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
            sqlite3_close(db);
            return QFileInfo(ws).size();
        };
        std::vector<qint64> sizes;
        connect(panel, &RunPanel::runStored, this, [&] { sizes.push_back(wsSize()); });
        QElapsedTimer timer;
        timer.start();
        QVERIFY(panel->start());
        QVERIFY(finished.wait(full ? 600000 : 120000));
        const qint64 ms = timer.elapsed();
        QCOMPARE(panel->storedRuns().size(), std::size_t(2));
        QVERIFY(window.currentRun());
        // The user looks at the run: steps, scrubs, compares.
        window.decisionStepper()->last();
        window.runTimeline()->setTime(window.currentRun()->result->makespanSeconds / 2);
        QVERIFY(views->historyPanel()->compareRuns(panel->storedRuns()));
        QCoreApplication::processEvents();
        const long long afterRuns = statusKb("VmRSS");
        const long long peak = statusKb("VmHWM");
        QCOMPARE(sizes.size(), std::size_t(2));

        qInfo("fat-tree-1024, %zu jobs, two simulated runs with decision logs in %lld ms", jobs,
              ms);
        qInfo("resident: %lld MB at start, %lld MB with the scenario open, %lld MB after two "
              "runs; peak %lld MB",
              atStart / 1024, opened / 1024, afterRuns / 1024, peak / 1024);
        qInfo("workspace: %lld bytes after the first run (with the scenario), %lld bytes after "
              "the second: %lld bytes for the second stored run",
              sizes[0], sizes[1], sizes[1] - sizes[0]);
        QVERIFY(peak > 0);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestWindowMemory)
#include "tst_window_memory.moc"
