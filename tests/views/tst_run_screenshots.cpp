// Screenshots of the run side on the DLTAP testbed and the 1,024-node fat-tree, written into
// CB_BINARY_DIR/screenshots/ (next to tst_screenshots' pictures): the run and history docks
// after a two-policy batch, the comparison view, the export dialog with its preview, the
// generator and the trace import report, and the decision stepper's STS mode after an STS
// run of sts-datacenter.json; two runs of the DLTAP testbed stepped together and a pinned
// what-if beside the run it changed. Runs go to a temporary workspace.

#include "analysis/decision_stepper.h"
#include "analysis/sts_decision_models.h"
#include "analysis/sts_stepper.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "runs/comparison_view.h"
#include "runs/export_dialog.h"
#include "runs/generator_dialog.h"
#include "runs/history_panel.h"
#include "runs/run_diff_dialog.h"
#include "runs/run_history_model.h"
#include "runs/run_panel.h"
#include "runs/run_views.h"
#include "runs/trace_import_dialog.h"
#include "topology/topology_view.h"
#include "window/main_window.h"

#include <QDockWidget>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QPointer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QScrollBar>
#include <QtTest>

using namespace cb;
using namespace cb::views;

class TestRunScreenshots : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ClusterBenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_run_screenshots"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        qputenv("CLUSTERBENCH_WORKSPACE", m_dir.filePath(QStringLiteral("ws.sqlite")).toUtf8());
        m_out = QDir(QStringLiteral(CB_BINARY_DIR "/screenshots"));
        QVERIFY(m_out.mkpath(QStringLiteral(".")));
    }

    void samples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("simulate");
        QTest::newRow("dltap-testbed")
            << QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json") << true;
        QTest::newRow("fat-tree-1024")
            << QStringLiteral(CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json") << true;
    }

    void samples()
    {
        QFETCH(QString, file);
        QFETCH(bool, simulate);
        // The 1,024-node fat-tree keeps its first 12 jobs: its 300 jobs log cheaply now (top:32,
        // ~0.3 s), but simulating and storing two full runs takes ~30 s on the 2-core machine.
        auto scenario = loadScenarioFile(file.toStdString());
        QVERIFY(scenario.ok());
        if (scenario->jobs.size() > 12) {
            scenario->jobs.resize(12);
            file = m_dir.filePath(QFileInfo(file).fileName());
            QVERIFY(saveScenarioFile(file.toStdString(), scenario.value()).ok());
        }
        MainWindow window;
        auto *views = window.findChild<RunViews *>();
        QVERIFY(views);
        QCOMPARE(views->historyPanel()->workspacePath(),
                 m_dir.filePath(QStringLiteral("ws.sqlite")));
        QVERIFY2(window.openFile(file), qPrintable(file));
        const QString base = QFileInfo(file).completeBaseName();
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        RunPanel *panel = views->runPanel();
        for (const QString &p : panel->checkedPolicies())
            panel->setPolicyChecked(p, false);
        panel->setPolicyChecked(QStringLiteral("k8s-default"), true);
        panel->setPolicyChecked(QStringLiteral("dltap"), true);
        panel->setSimulate(simulate);
        views->historyPanel()->setScenarioFilter(
            QString::fromStdString(window.document()->scenario().name));
        QSignalSpy finished(panel, &RunPanel::batchFinished);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(panel->start());
        QVERIFY(finished.wait(120000));
        qInfo("%s: two runs computed and stored in %lld ms", qPrintable(base), timer.elapsed());
        QCOMPARE(panel->storedRuns().size(), std::size_t(2));
        HistoryPanel *history = views->historyPanel();
        QVERIFY(history->proxy()->rowCount() >= 2);

        window.findChild<QDockWidget *>(QStringLiteral("runDock"))->raise();
        window.findChild<QDockWidget *>(QStringLiteral("historyDock"))->raise();
        window.topologyView()->fitAll();
        QCoreApplication::processEvents();
        save(window.grab(), QStringLiteral("runs-%1").arg(base));

        // Compare the two runs, k8s-default as the baseline.
        history->selectRuns(panel->storedRuns());
        QVERIFY(history->compareRuns(panel->storedRuns()));
        ComparisonView *comparison = views->comparisonView();
        QCOMPARE(comparison->model()->runs().size(), std::size_t(2));
        QCOMPARE(comparison->model()->runs().front().id, panel->storedRuns().front());
        QCoreApplication::processEvents();
        save(window.grab(), QStringLiteral("runs-%1-comparison-docked").arg(base));
        ComparisonView alone;
        std::vector<ComparedRun> runs = comparison->model()->runs();
        alone.setRuns(runs);
        alone.resize(1300, 850);
        alone.show();
        QVERIFY(QTest::qWaitForWindowExposed(&alone));
        // The delta table is placed (beside the CDF or below it) once its columns are sized.
        QTRY_COMPARE(alone.table()->horizontalScrollBar()->maximum(), 0);
        save(alone.grab(), QStringLiteral("comparison-%1").arg(base));

        ExportDialog dialog(window.document()->scenario(), std::nullopt, {}, &window);
        dialog.setPolicy(QStringLiteral("dltap"), 1);
        dialog.setFormat(QStringLiteral("tfjob"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));
        save(dialog.grab(), QStringLiteral("export-dialog-%1").arg(base));
    }

    void stsStepper()
    {
        const QString file = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json");
        MainWindow window;
        auto *views = window.findChild<RunViews *>();
        QVERIFY(views);
        QVERIFY2(window.openFile(file), qPrintable(file));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        RunPanel *panel = views->runPanel();
        for (const QString &p : panel->checkedPolicies())
            panel->setPolicyChecked(p, false);
        panel->setPolicyChecked(QStringLiteral("sts"), true);
        QSignalSpy finished(panel, &RunPanel::batchFinished);
        QVERIFY(panel->start());
        QVERIFY(finished.wait(60000));
        StsStepper *sts = window.stsStepper();
        QVERIFY(sts->isVisible());
        QVERIFY(!window.decisionStepper()->isVisible());
        QVERIFY(sts->eventCount() > 100);
        // An event where several jobs are planned; show a job after the first that runs its
        // cheaper plan of the two GPU types.
        int event = -1, job = -1;
        for (int e = 0; e < sts->eventCount() && event < 0; ++e) {
            if (sts->eventModel()->index(e, StsEventListModel::Jobs).data().toInt() < 4)
                continue;
            sts->seek(e);
            for (int j = 1; j < sts->jobModel()->rowCount() && event < 0; ++j) {
                sts->selectJob(j);
                if (sts->candidateModel()->rowCount() == 2 && sts->candidateModel()->chosenRow() == 0) {
                    event = e;
                    job = j;
                }
            }
        }
        QVERIFY(event >= 0);
        qInfo("STS stepper: %d events, showing event %d job %d", sts->eventCount(), event + 1,
              job + 1);
        window.findChild<QDockWidget *>(QStringLiteral("stepperDock"))->raise();
        QCoreApplication::processEvents();
        save(window.grab(), QStringLiteral("runs-sts-datacenter-sts"));
        StsStepper alone;
        alone.setSession(sts->session());
        alone.seek(event);
        alone.selectJob(job);
        alone.resize(1000, 820);
        alone.show();
        QVERIFY(QTest::qWaitForWindowExposed(&alone));
        save(alone.grab(), QStringLiteral("sts-stepper-sts-datacenter"));
    }

    void twoRunsAndWhatIf()
    {
        // The DLTAP testbed placed by k8s-default and by dltap: they part at decision 2
        // (alexnet-a worker-0: node-03 against node-02). Step both from there, then drag
        // dltap's pick onto node-05 (what if).
        const QString file = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
        MainWindow window;
        auto *views = window.findChild<RunViews *>();
        QVERIFY2(window.openFile(file), qPrintable(file));
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &MainWindow::runShown);
        std::vector<std::int64_t> ids;
        for (const char *policy : {"k8s-default", "dltap"}) {
            QVERIFY(window.startRun(policy, 1, false));
            QTRY_COMPARE_WITH_TIMEOUT(shown.count(), int(ids.size()) + 1, 30000);
            QTRY_VERIFY(!window.isRunning());
            ids.push_back(window.currentRun()->id);
        }
        QVERIFY(views->historyPanel()->diffRuns(ids[0], ids[1]));
        RunDiffDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<RunDiffDialog *>()) != nullptr);
        QCoreApplication::processEvents();
        save(dialog->grab(), QStringLiteral("where-they-part-dltap-testbed"));
        const QPointer<RunDiffDialog> open(dialog);
        dialog->stepButton(2)->click();
        DecisionStepper *stepper = window.decisionStepper();
        QTRY_VERIFY(stepper->partner() != nullptr);
        QCOMPARE(stepper->cursor(), 1);
        QTRY_VERIFY(!open); // Step both closes the dialog: the stepper shows both sides
        window.findChild<QDockWidget *>(QStringLiteral("stepperDock"))->raise();
        window.topologyView()->fitAll();
        QCoreApplication::processEvents();
        save(window.grab(), QStringLiteral("two-run-stepper-dltap-testbed"));
        DecisionStepper alone;
        alone.setSession(stepper->session());
        alone.setPartner(stepper->partner());
        alone.seek(1);
        alone.resize(900, 700);
        alone.show();
        QVERIFY(QTest::qWaitForWindowExposed(&alone));
        save(alone.grab(), QStringLiteral("two-run-stepper-alone-dltap-testbed"));

        // What if: the shown run (k8s-default, the older one) with alexnet-a worker-0 on node-05.
        const Scenario &s = stepper->session()->scenario;
        int node05 = -1;
        for (std::size_t i = 0; i < s.cluster.nodes.size(); ++i)
            if (s.cluster.nodes[i].id == "node-05")
                node05 = int(i);
        QVERIFY(node05 >= 0);
        const int before = shown.count();
        QVERIFY(window.whatIfHere(node05));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), before + 1, 30000);
        QTRY_VERIFY(!window.isRunning());
        QCOMPARE(window.currentRun()->pins.size(), std::size_t(1));
        QTRY_COMPARE(views->comparisonView()->model()->runs().size(), std::size_t(2));
        window.findChild<QDockWidget *>(QStringLiteral("comparisonDock"))->raise();
        QCoreApplication::processEvents();
        save(window.grab(), QStringLiteral("what-if-dltap-testbed"));
    }

    void dialogs()
    {
        GeneratorDialog generator;
        generator.setKind(GeneratorDialog::Kind::FatTree);
        generator.fatTreeK()->setValue(16);
        generator.show();
        QVERIFY(QTest::qWaitForWindowExposed(&generator));
        save(generator.grab(), QStringLiteral("generator-dialog"));

        Document doc;
        auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
        QVERIFY(s.ok());
        doc.setScenario(s.value());
        TraceImportDialog import(&doc);
        import.setFormat(QStringLiteral("tiresias"));
        import.setFiles({QStringLiteral(CB_TEST_DATA "/import/traces/tiresias/60_job.csv")});
        import.show();
        QVERIFY(QTest::qWaitForWindowExposed(&import));
        QVERIFY2(import.runImport(), qPrintable(import.error()));
        save(import.grab(), QStringLiteral("trace-import"));
    }

private:
    void save(const QPixmap &pixmap, const QString &name)
    {
        const QString path = m_out.filePath(name + QStringLiteral(".png"));
        QVERIFY2(pixmap.toImage().save(path), qPrintable(path));
        qInfo("wrote %s", qPrintable(path));
    }

    QTemporaryDir m_dir;
    QDir m_out;
};

QTEST_MAIN(TestRunScreenshots)
#include "tst_run_screenshots.moc"
