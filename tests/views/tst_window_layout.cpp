// The window at a laptop's and a desktop's size (1366x768, 1920x1080), offscreen, as a user
// meets it: every dock and every tab can be reached and sits inside the window with the
// status bar; no chart is shorter than a readable minimum and no axis crowds its tick labels
// (checked against the font); the stepper's selected row is the cursor after step, back,
// play and the n / p / space keys, also as painted; a picture of every view and dialog at
// both sizes goes to build*/screenshots/window-WxH-*.png; and a job made in the job editor
// (2 parameter servers and 4 workers of resnet50, through Add job and the dialog's OK) is
// placed, simulated and exported from the window with exactly those six tasks.

#include "analysis/decision_models.h"
#include "analysis/decision_stepper.h"
#include "analysis/job_states.h"
#include "analysis/jobs_at_time_view.h"
#include "analysis/named_ticker.h"
#include "analysis/run_timeline.h"
#include "analysis/sts_stepper.h"
#include "analysis/traffic_heatmap.h"
#include "commands/add_job_command.h"
#include "commands/replace_scenario_command.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "model/model_catalog.h"
#include "models/cluster_tree_model.h"
#include "models/job_queue_model.h"
#include "plot_checks.h"
#include "runs/cluster_import_dialog.h"
#include "runs/comparison_view.h"
#include "runs/export_dialog.h"
#include "runs/history_panel.h"
#include "runs/link_dialog.h"
#include "runs/run_history_model.h"
#include "runs/run_panel.h"
#include "runs/run_service.h"
#include "runs/run_store.h"
#include "runs/run_views.h"
#include "store/workspace.h"
#include "topology/topology_view.h"
#include "window/job_dialog.h"
#include "window/job_queue_panel.h"
#include "window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>
#include <QtTest>
#include <qcustomplot.h>

using namespace cb;
using namespace cb::views;

namespace {

const char *const kDocks[] = {"clusterDock", "runDock",      "jobDock",     "stepperDock",
                              "heatmapDock", "timelineDock", "jobsAtTimeDock",
                              "historyDock", "comparisonDock"};

/// Rows of `view` painted with the selection colour (sampled left of the text of each row).
QList<int> paintedSelection(QTableView *view)
{
    QList<int> rows;
    const QImage image = view->viewport()->grab().toImage();
    const QColor active = view->palette().color(QPalette::Active, QPalette::Highlight);
    const QColor inactive = view->palette().color(QPalette::Inactive, QPalette::Highlight);
    auto near = [](QColor a, QColor b) {
        return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
                   std::abs(a.blue() - b.blue()) <
               40;
    };
    const double ratio = image.devicePixelRatio();
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QRect rect = view->visualRect(view->model()->index(r, 0));
        if (!rect.isValid() || rect.bottom() < 0 || rect.top() > view->viewport()->height())
            continue;
        const QPoint p(int((rect.left() + 2) * ratio), int(rect.center().y() * ratio));
        if (!image.rect().contains(p))
            continue;
        const QColor c = image.pixelColor(p);
        if (near(c, active) || near(c, inactive))
            rows << r;
    }
    return rows;
}

/// Rows of `view` shown whole in its viewport.
int wholeRows(const QTableView *view)
{
    return view->viewport()->height() / view->verticalHeader()->defaultSectionSize();
}

/// Qt's warnings of painting into an empty buffer (a plot replotted at 0 pixels), collected
/// while an instance lives; other messages go on to the handler before it.
class PaintWarnings
{
public:
    PaintWarnings() { s_previous = qInstallMessageHandler(&PaintWarnings::handle); }
    ~PaintWarnings() { qInstallMessageHandler(s_previous); }
    QStringList take() { return std::exchange(s_seen, {}); }

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &text)
    {
        if (type == QtWarningMsg && (text.startsWith(QLatin1String("QPainter::")) ||
                                     text.contains(QLatin1String("paint buffer"))))
            s_seen.append(text);
        else if (s_previous)
            s_previous(type, context, text);
    }
    static inline QtMessageHandler s_previous = nullptr;
    static inline QStringList s_seen;
};

} // namespace

class TestWindowLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ClusterBenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_window_layout"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        qputenv("CLUSTERBENCH_WORKSPACE", m_dir.filePath(QStringLiteral("ws.sqlite")).toUtf8());
        m_out = QDir(QStringLiteral(CB_BINARY_DIR "/screenshots"));
        QVERIFY(m_out.mkpath(QStringLiteral(".")));
    }

    void window_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<QSize>("window");
        // A maximised window: the screen less a panel and the title bar.
        QTest::newRow("1366x768") << QSize(1366, 768) << QSize(1366, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080) << QSize(1920, 1030);
    }

    void window()
    {
        QFETCH(QSize, screen);
        QFETCH(QSize, window);
        const QString size = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
        PaintWarnings paintWarnings;
        MainWindow w;
        w.setWindowState(Qt::WindowNoState); // the offscreen screen is small: not maximised
        w.resize(window);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        save(w.grab(), size, QStringLiteral("start-page"));
        QVERIFY(w.openFile(QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json")));
        w.applyLayoutFor(screen);
        settle();
        QCOMPARE(MainWindow::isCompactScreen(screen), screen.width() < 1600);

        // The window fits: its minimum is within the window, the status bar is in view.
        const QSize minimum = w.minimumSizeHint();
        QVERIFY2(minimum.width() <= window.width() && minimum.height() <= window.height(),
                 qPrintable(QStringLiteral("minimum %1x%2").arg(minimum.width()).arg(minimum.height())));
        QVERIFY(w.rect().contains(w.statusBar()->geometry()));
        QVERIFY(w.statusBar()->isVisible());

        // A run: two policies from the run panel, so history and comparison have content.
        auto *views = w.findChild<RunViews *>();
        QVERIFY(views);
        RunPanel *panel = views->runPanel();
        QVERIFY(
            runFromPanel(panel, {QStringLiteral("k8s-default"), QStringLiteral("dltap")}, true));
        // The batch landed in the comparison without asking.
        QCOMPARE(views->comparisonView()->model()->runs().size(), std::size_t(2));
        QVERIFY(w.currentRun() && w.currentRun()->result);
        // The status bar says what the simulation did, as the timeline does (it said "35 jobs
        // placed, 5 waiting" of the first pass beside "40 of 40 jobs finished").
        QVERIFY2(w.statusBar()->currentMessage().contains(
                     QStringLiteral(" decisions; simulated: 9 of 9 jobs finished, makespan ")),
                 qPrintable(w.statusBar()->currentMessage()));

        // Every dock reachable: raised, it is visible, inside the window, with some room.
        for (const char *name : kDocks) {
            auto *dock = w.findChild<QDockWidget *>(QLatin1String(name));
            QVERIFY2(dock, name);
            dock->raise();
            settle();
            QVERIFY2(dock->isVisible() && !dock->visibleRegion().isEmpty(), name);
            QVERIFY2(w.rect().contains(dock->geometry()),
                     qPrintable(QStringLiteral("%1 at %2,%3 %4x%5").arg(QLatin1String(name))
                                    .arg(dock->x()).arg(dock->y()).arg(dock->width()).arg(dock->height())));
            QVERIFY2(dock->widget()->height() >= 120 && dock->widget()->width() >= 200,
                     qPrintable(QStringLiteral("%1: %2x%3").arg(QLatin1String(name))
                                    .arg(dock->widget()->width()).arg(dock->widget()->height())));
            save(w.grab(), size, QStringLiteral("dock-%1").arg(QLatin1String(name)));
            if (QLatin1String(name) == QLatin1String("historyDock")) {
                // The policy and seed of each run in view, the long scenario name after them
                // (it pushed them out of a laptop's dock).
                QTableView *history = w.findChild<HistoryPanel *>()->table();
                QHeaderView *header = history->horizontalHeader();
                columnsInView(history, header,
                              {int(RunHistoryModel::Policy), int(RunHistoryModel::Seed)});
                if (QTest::currentTestFailed())
                    return;
                QCOMPARE(header->visualIndex(RunHistoryModel::Scenario),
                         RunHistoryModel::ColumnCount - 1);
            }
            if (QLatin1String(name) == QLatin1String("clusterDock")) {
                // A node's GPU type and count in view beside its name (the GPUs column was
                // cut at the dock's edge, after CPUs and memory).
                auto *tree = dock->findChild<QTreeView *>(QStringLiteral("clusterTree"));
                QVERIFY(tree);
                columnsInView(tree, tree->header(),
                              {int(ClusterTreeModel::Type), int(ClusterTreeModel::Gpus)});
                if (QTest::currentTestFailed())
                    return;
            }
        }
        // The run panel fits its dock's width (nothing of it hides sideways), and its Run
        // button is in view below the settings however short the dock.
        auto *runScroll = panel->findChild<QScrollArea *>(QStringLiteral("runPanelScroll"));
        QVERIFY(runScroll && runScroll->widget());
        QVERIFY2(runScroll->widget()->minimumSizeHint().width() <= runScroll->viewport()->width(),
                 qPrintable(QStringLiteral("run settings need %1 px, their dock shows %2")
                                .arg(runScroll->widget()->minimumSizeHint().width())
                                .arg(runScroll->viewport()->width())));
        QCOMPARE(runScroll->horizontalScrollBar()->maximum(), 0);
        // ... and its policy list shows whole lines.
        auto *policyList = panel->findChild<QListWidget *>(QStringLiteral("runPolicies"));
        QVERIFY(policyList);
        QCOMPARE(policyList->horizontalScrollBar()->maximum(), 0);
        {
            w.findChild<QDockWidget *>(QStringLiteral("runDock"))->raise();
            settle();
            auto *runButton = panel->findChild<QPushButton *>(QStringLiteral("runButton"));
            QVERIFY(runButton);
            QCOMPARE(runButton->visibleRegion().boundingRect().size(), runButton->size());
            // So are the seeds and what to run, outside the scrolled settings (they were
            // below the fold at 1366 x 768).
            for (QWidget *field : {static_cast<QWidget *>(panel->findChild<QComboBox *>(
                                       QStringLiteral("runCostModel"))),
                                   static_cast<QWidget *>(panel->findChild<QCheckBox *>(
                                       QStringLiteral("runKeepLog")))}) {
                QVERIFY(field);
                QVERIFY(!runScroll->isAncestorOf(field));
                QCOMPARE(field->visibleRegion().boundingRect().size(), field->size());
            }
        }
        // Run > Choose Policies brings the policy list into view however the settings were
        // scrolled (the focus went to a list scrolled out of sight).
        {
            runScroll->verticalScrollBar()->setValue(runScroll->verticalScrollBar()->maximum());
            settle();
            auto *choose = w.findChild<QAction *>(QStringLiteral("choosePoliciesAction"));
            QVERIFY(choose);
            choose->trigger();
            settle();
            QVERIFY(policyList->hasFocus());
            const QRect shown = policyList->visibleRegion().boundingRect();
            QVERIFY2(shown.height() >= std::min(policyList->height(), 60),
                     qPrintable(QStringLiteral("policy list shows %1 of %2 px")
                                    .arg(shown.height())
                                    .arg(policyList->height())));
        }
        // Every tab bar of the docks is in the window.
        for (QTabBar *bar : w.findChildren<QTabBar *>(QString(), Qt::FindDirectChildrenOnly))
            if (bar->isVisible())
                QVERIFY(w.rect().contains(bar->geometry()));

        // The stepper, the heatmap and the timeline at once, after a run.
        w.findChild<QDockWidget *>(QStringLiteral("timelineDock"))->raise();
        settle();
        for (const char *name : {"stepperDock", "heatmapDock", "timelineDock"})
            QVERIFY2(!w.findChild<QDockWidget *>(QLatin1String(name))->visibleRegion().isEmpty(),
                     name);
        save(w.grab(), size, QStringLiteral("analysis"));

        // Readable charts and ticks: the timeline, the heatmap, the comparison.
        QStringList problems;
        problems << testing::shortCharts(w.runTimeline()->plot(), QStringLiteral("timeline"))
                 << testing::tickProblems(w.runTimeline()->plot(), QStringLiteral("timeline"))
                 << testing::tickProblems(w.trafficHeatmap()->plot(), QStringLiteral("heatmap"));
        const QRect heat = w.trafficHeatmap()->plot()->axisRect()->rect();
        if (heat.height() < testing::kReadableChartHeight || heat.width() < testing::kReadableChartHeight)
            problems << QStringLiteral("heatmap: %1x%2").arg(heat.width()).arg(heat.height());
        w.findChild<QDockWidget *>(QStringLiteral("comparisonDock"))->raise();
        settle();
        // Every bar is named (at 1366 only the first of two was: "#7 k8s-default" was too
        // wide for half the chart).
        for (QCPAxisRect *rect : views->comparisonView()->barsPlot()->axisRects()) {
            auto *named =
                dynamic_cast<NamedTicker *>(rect->axis(QCPAxis::atBottom)->ticker().data());
            if (named && named->stride() != 1)
                problems << QStringLiteral("bars %1: every %2nd run named")
                                .arg(rect->axis(QCPAxis::atBottom)->label())
                                .arg(named->stride());
        }
        problems << testing::shortCharts(views->comparisonView()->barsPlot(), QStringLiteral("bars"))
                 << testing::tickProblems(views->comparisonView()->barsPlot(), QStringLiteral("bars"))
                 << testing::shortCharts(views->comparisonView()->cdfPlot(), QStringLiteral("cdf"))
                 << testing::tickProblems(views->comparisonView()->cdfPlot(), QStringLiteral("cdf"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));

        // The stepper's selected row is the cursor, selected and painted, however it moved.
        DecisionStepper *stepper = w.decisionStepper();
        auto *list = stepper->findChild<QTableView *>(QStringLiteral("decisionList"));
        QVERIFY(list);
        w.findChild<QDockWidget *>(QStringLiteral("stepperDock"))->raise();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto checkSelection = [&](const char *after) {
            settle();
            QModelIndexList selected = list->selectionModel()->selectedRows();
            QVERIFY2(selected.size() == 1 && selected.front().row() == stepper->cursor(),
                     qPrintable(QStringLiteral("after %1: %2 rows selected, cursor %3")
                                    .arg(QLatin1String(after)).arg(selected.size()).arg(stepper->cursor())));
            QCOMPARE(list->currentIndex().row(), stepper->cursor());
            const QList<int> painted = paintedSelection(list);
            QVERIFY2(painted == QList<int>{stepper->cursor()},
                     qPrintable(QStringLiteral("after %1: painted rows %2, cursor %3")
                                    .arg(QLatin1String(after))
                                    .arg([&] {
                                        QStringList l;
                                        for (int r : painted)
                                            l << QString::number(r);
                                        return l.join(QLatin1Char(','));
                                    }())
                                    .arg(stepper->cursor())));
        };
        stepper->first();
        checkSelection("first");
        stepper->step();
        stepper->step();
        stepper->step();
        checkSelection("three steps");
        QCOMPARE(stepper->cursor(), 3);
        stepper->back();
        checkSelection("back");
        QCOMPARE(stepper->cursor(), 2);
        stepper->setSpeed(200);
        stepper->play();
        QTRY_VERIFY_WITH_TIMEOUT(stepper->cursor() >= 7, 5000);
        stepper->pause();
        checkSelection("play");
        // Keys: n, p, space with the focus in the stepper.
        list->setFocus();
        const int before = stepper->cursor();
        QTest::keyClick(list, Qt::Key_N);
        QCOMPARE(stepper->cursor(), before + 1);
        checkSelection("n");
        QTest::keyClick(list, Qt::Key_P);
        QTest::keyClick(list, Qt::Key_P);
        QCOMPARE(stepper->cursor(), before - 1);
        checkSelection("p");
        QTest::keyClick(list, Qt::Key_Space);
        QVERIFY(stepper->isPlaying());
        QTest::keyClick(list, Qt::Key_Space);
        QVERIFY(!stepper->isPlaying());
        checkSelection("space");
        // The plugin that decided the pick is in view beside the frozen node column.
        auto *table = stepper->tableView();
        const int deciding = stepper->tableModel()->decidingColumn();
        if (deciding >= 0) {
            const int x = table->columnViewportPosition(deciding);
            QVERIFY2(x >= table->columnWidth(0) && x + table->columnWidth(deciding) <= table->viewport()->width(),
                     qPrintable(QStringLiteral("deciding column at %1, width %2, viewport %3")
                                    .arg(x).arg(table->columnWidth(deciding)).arg(table->viewport()->width())));
            // Its raw column (the plugin's name) beside it: a lone "×1" header read as
            // nothing.
            const int raw = table->columnViewportPosition(deciding - 1);
            QVERIFY2(raw >= table->columnWidth(0),
                     qPrintable(QStringLiteral("raw column at %1, frozen %2")
                                    .arg(raw)
                                    .arg(table->columnWidth(0))));
        }
        save(w.grab(), size, QStringLiteral("stepper"));
        // The stepper's column is as tall as the window at both sizes: the decisions and the
        // candidates each show several rows, not the one or two a laptop's right corner left.
        QVERIFY2(wholeRows(list) >= 5,
                 qPrintable(QStringLiteral("decisions: %1 rows").arg(wholeRows(list))));
        QVERIFY2(wholeRows(table) >= 7,
                 qPrintable(QStringLiteral("candidates: %1 rows").arg(wholeRows(table))));
        // Stepped forward in a tall floating dock, then docked again, the stepper still shows
        // the decision it is on (the list kept its top row, and the shorter dock left the
        // decision, which stepping had put at the bottom, below it).
        {
            auto *dock = w.findChild<QDockWidget *>(QStringLiteral("stepperDock"));
            QVERIFY(dock);
            dock->setFloating(true);
            dock->resize(dock->width(), 1000);
            settle();
            stepper->first();
            for (int k = 0; k < 30; ++k)
                stepper->step();
            settle();
            auto shownAt = [&] { return list->visualRect(list->model()->index(30, 0)); };
            QVERIFY(list->viewport()->rect().contains(shownAt()));
            dock->setFloating(false);
            settle();
            QCOMPARE(stepper->cursor(), 30);
            QVERIFY2(list->viewport()->rect().contains(shownAt()),
                     qPrintable(QStringLiteral("decision 31 at y %1, list viewport %2 px")
                                    .arg(shownAt().y())
                                    .arg(list->viewport()->height())));
        }

        // The topology says what its colours mean.
        QVERIFY(w.topologyView()->scoreLegendShown());
        QVERIFY(w.topologyView()->viewport()->rect().contains(w.topologyView()->legendRect()));
        // ... and the fitted cluster sits beside the legend, not under it.
        w.topologyView()->fitAll();
        const QRect cluster =
            w.topologyView()->mapFromScene(w.topologyScene()->clusterRect()).boundingRect();
        QVERIFY2(!cluster.intersects(w.topologyView()->legendRect()),
                 qPrintable(QStringLiteral("cluster %1,%2 %3x%4, legend left %5")
                                .arg(cluster.x()).arg(cluster.y()).arg(cluster.width())
                                .arg(cluster.height()).arg(w.topologyView()->legendRect().left())));

        // The job queue says where each job stands and why, in view without scrolling.
        {
            w.findChild<QDockWidget *>(QStringLiteral("jobDock"))->raise();
            settle();
            auto *queue = w.jobQueuePanel()->findChild<QTableView *>();
            QVERIFY(queue);
            const int right = queue->columnViewportPosition(JobQueueModel::Reason) +
                              queue->columnWidth(JobQueueModel::Reason);
            QVERIFY2(queue->columnViewportPosition(JobQueueModel::Status) >= 0 &&
                         right <= queue->viewport()->width(),
                     qPrintable(QStringLiteral("reason ends at %1 of %2")
                                    .arg(right)
                                    .arg(queue->viewport()->width())));
            // Each column as wide as what it holds: no name, status or reason cut short.
            for (const int c : {int(JobQueueModel::Id), int(JobQueueModel::Name),
                                int(JobQueueModel::Status), int(JobQueueModel::Reason)})
                for (int r = 0; r < queue->model()->rowCount(); ++r) {
                    const QString text = queue->model()->index(r, c).data().toString();
                    QVERIFY2(queue->fontMetrics().horizontalAdvance(text) < queue->columnWidth(c),
                             qPrintable(QStringLiteral("column %1 is %2 px, \"%3\" needs %4")
                                            .arg(c).arg(queue->columnWidth(c)).arg(text)
                                            .arg(queue->fontMetrics().horizontalAdvance(text))));
                }
            // A column the user sizes keeps its width when the next run's states come in.
            queue->setColumnWidth(JobQueueModel::Name, 333);
            w.jobQueuePanel()->model()->setRunStates(jobStates(*w.currentRun()));
            QCOMPARE(queue->columnWidth(JobQueueModel::Name), 333);
        }

        // Jobs at the scrubber's time.
        w.runTimeline()->setTime(w.currentRun()->result->makespanSeconds / 3);
        w.findChild<QDockWidget *>(QStringLiteral("jobsAtTimeDock"))->raise();
        settle();
        QVERIFY(w.jobsAtTime()->model()->rowCount() > 0);
        save(w.grab(), size, QStringLiteral("jobs-at-time"));

        // Reset Layout puts a dock that was closed and one that floats back.
        auto *heatmapDock = w.findChild<QDockWidget *>(QStringLiteral("heatmapDock"));
        heatmapDock->setFloating(true);
        w.findChild<QDockWidget *>(QStringLiteral("historyDock"))->close();
        w.applyLayoutFor(screen);
        settle();
        QVERIFY(!heatmapDock->isFloating());
        QVERIFY(w.findChild<QDockWidget *>(QStringLiteral("historyDock"))->isVisible());

        // The dialogs, at this size.
        dialog(new JobDialog(w.document(), 0, -1, &w), size, QStringLiteral("job-editor"));
        dialog(new ExportDialog(w.document()->scenario(), w.currentRun()->placement,
                                w.currentRun()->label, &w),
               size, QStringLiteral("export"));
        dialog(new ClusterImportDialog(w.document(), &w), size, QStringLiteral("cluster-import"));
        dialog(new LinkDialog(w.document(), &w), size, QStringLiteral("links"));
        // No plot was painted at 0 pixels on the way (Qt warns on the terminal for each).
        QCOMPARE(paintWarnings.take(), QStringList());
    }

    void openedBeforeShown()
    {
        // As `clusterbench FILE` starts: the document opened, then the window shown. No plot
        // is painted at 0 pixels (Qt warns on the terminal for each: 12 warnings before).
        PaintWarnings paintWarnings;
        MainWindow w;
        w.setWindowState(Qt::WindowNoState);
        w.resize(1366, 720);
        QVERIFY(w.openFile(QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json")));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        settle();
        QCOMPARE(paintWarnings.take(), QStringList());
    }

    void saveAsHasAShortcut()
    {
        // Save As answers Ctrl+Shift+S where the platform binds nothing to it (no desktop
        // theme: the key did nothing).
        MainWindow w;
        auto *saveAs = w.findChild<QAction *>(QStringLiteral("saveAsAction"));
        QVERIFY(saveAs);
        QVERIFY(!saveAs->shortcuts().isEmpty());
        if (QKeySequence::keyBindings(QKeySequence::SaveAs).isEmpty())
            QCOMPARE(saveAs->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    }

    void runPanelUsesTheScenariosSeed()
    {
        // leaf-spine-gpu.json's settings.seed is 7: the run panel runs with it, as the
        // terminal does (a user saw the window's runs stored with seed 1).
        MainWindow w;
        w.resize(1366, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // (after another document, as a user goes from one sample to the next)
        QVERIFY(w.openFile(QStringLiteral(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json")));
        settle();
        QVERIFY(w.openFile(QStringLiteral(CB_SOURCE_DIR "/sample-clusters/leaf-spine-gpu.json")));
        settle();
        QCOMPARE(w.document()->scenario().settings.seed, std::uint64_t(7));
        RunPanel *panel = w.findChild<RunViews *>()->runPanel();
        QVERIFY(runFromPanel(panel, {QStringLiteral("k8s-default")}, false));
        QVERIFY(w.currentRun());
        QCOMPARE(w.currentRun()->seed, std::uint64_t(7));
        // The field says it holds seeds, not a count of them (a user wrote 1 over the 3 of
        // fat-tree-1024.json, meaning one seed, and ran everything with seed 1).
        auto *seeds = panel->findChild<QLineEdit *>(QStringLiteral("runSeeds"));
        QVERIFY(seeds);
        QCOMPARE(seeds->text(), QStringLiteral("7"));
        QStringList labels; // (a form row's label has its field as buddy)
        for (QLabel *l : panel->findChildren<QLabel *>())
            if (l->buddy() == seeds)
                labels << l->text();
        QCOMPARE(labels, QStringList{QStringLiteral("Seed list:")});
        QVERIFY(seeds->toolTip().startsWith(QStringLiteral("The seeds to run, not how many")));
    }

    void stsStepper_data() { window_data(); }

    /// An STS run stepped in the window: its events, jobs and candidates each show rows.
    void stsStepper()
    {
        QFETCH(QSize, screen);
        QFETCH(QSize, window);
        const QString size = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
        MainWindow w;
        w.setWindowState(Qt::WindowNoState);
        w.resize(window);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(QStringLiteral(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json")));
        w.applyLayoutFor(screen);
        settle();
        QSignalSpy shown(&w, &MainWindow::runShown);
        QVERIFY(w.startRun("sts", 1, true));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 60000);
        QTRY_VERIFY(!w.isRunning());
        w.findChild<QDockWidget *>(QStringLiteral("stepperDock"))->raise();
        StsStepper *sts = w.stsStepper();
        QVERIFY(sts->isVisible());
        sts->seek(2);
        settle();
        const auto *events = sts->findChild<QTableView *>(QStringLiteral("stsEvents"));
        const auto *jobs = sts->findChild<QTableView *>(QStringLiteral("stsJobs"));
        const auto *candidates = sts->findChild<QTableView *>(QStringLiteral("stsCandidates"));
        QVERIFY(events && jobs && candidates);
        save(w.grab(), size, QStringLiteral("sts-stepper"));
        // (every candidate: one per GPU type)
        QVERIFY2(wholeRows(events) >= 4 && wholeRows(jobs) >= 4 &&
                     wholeRows(candidates) >= candidates->model()->rowCount(),
                 qPrintable(QStringLiteral("events %1, jobs %2, candidates %3 rows")
                                .arg(wholeRows(events))
                                .arg(wholeRows(jobs))
                                .arg(wholeRows(candidates))));
    }

    void jobEditorRunExport_data() { window_data(); }

    /// A user's real job, end to end: made in the editor, run, exported, the files read.
    // A document opened again shows the newest stored run of exactly its scenario (the runs
    // were still in the workspace, the window showed none); an edited copy shows none.
    void reopenedDocumentShowsItsNewestRun()
    {
        const QString path = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
        auto s = loadScenarioFile(path.toStdString());
        QVERIFY(s.ok());
        const QString wsPath = m_dir.filePath(QStringLiteral("reopen.sqlite"));
        std::int64_t newest = 0;
        {
            auto ws = Workspace::open(wsPath.toStdString());
            QVERIFY2(ws.ok(), ws.error().c_str());
            for (const char *policy : {"k8s-default", "dltap"}) {
                RunRequest request;
                request.policy = policy;
                request.seed = 1;
                request.simulate = false;
                request.decisionLog = true;
                auto run = executeRun(s.value(), request);
                QVERIFY2(run.ok(), run.error().c_str());
                auto id = saveRecord(*ws.value(), s.value(), runRecord(run.value(), s.value()));
                QVERIFY2(id.ok(), id.error().c_str());
                newest = id.value();
            }
        }
        Scenario edited = s.value();
        edited.jobs.pop_back();
        const QString editedPath = m_dir.filePath(QStringLiteral("edited.json"));
        QVERIFY(saveScenarioFile(editedPath.toStdString(), edited).ok());

        MainWindow w;
        w.findChild<RunViews *>()->setWorkspacePath(wsPath);
        QVERIFY(w.openFile(path));
        QTRY_VERIFY(w.currentRun() != nullptr);
        QCOMPARE(w.currentRun()->id, newest);
        QCOMPARE(w.currentRun()->policy, std::string("dltap"));
        QVERIFY2(
            w.statusBar()->currentMessage().contains(
                QStringLiteral("showing run #%1, the newest of its 2 stored runs").arg(newest)),
            qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(w.openFile(editedPath));
        QTest::qWait(50);
        QVERIFY(w.currentRun() == nullptr);
        // Another scenario: History keeps nothing selected from the testbed (Show would put
        // its run over this cluster); shown anyway, the status bar says whose run it is.
        auto *history = w.findChild<HistoryPanel *>();
        QVERIFY(history);
        history->selectRuns({newest});
        QVERIFY(w.openFile(QStringLiteral(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json")));
        QTest::qWait(50);
        QVERIFY(history->selectedRuns().empty());
        QVERIFY(history->showRun(newest));
        QVERIFY2(w.statusBar()->currentMessage().contains(
                     QStringLiteral("a run of %1, not of the open cluster")
                         .arg(QString::fromStdString(s.value().name))),
                 qPrintable(w.statusBar()->currentMessage()));
    }

    void jobEditorRunExport()
    {
        QFETCH(QSize, screen);
        QFETCH(QSize, window);
        MainWindow w;
        w.setWindowState(Qt::WindowNoState);
        w.resize(window);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json")));
        w.applyLayoutFor(screen);
        settle();
        const std::size_t jobsBefore = w.document()->scenario().jobs.size();

        // Job queue > Add job…: the editor opens modal; fill it in as a user would and OK.
        auto *add = w.jobQueuePanel()->findChild<QAction *>(QStringLiteral("addJobAction"));
        QVERIFY(add);
        const TrainingModel *resnet = findTrainingModel("resnet50");
        QVERIFY(resnet);
        QString seen;
        QTimer::singleShot(0, &w, [&] {
            auto *dialog = qobject_cast<JobDialog *>(QApplication::activeModalWidget());
            if (!dialog) {
                seen = QStringLiteral("no job editor");
                return;
            }
            // The editor fits the screen it opens on.
            if (dialog->width() > screen.width() || dialog->height() > screen.height())
                seen = QStringLiteral("editor %1x%2").arg(dialog->width()).arg(dialog->height());
            dialog->setKind(JobKind::ParameterServer);
            dialog->setParameterServers(2);
            dialog->setWorkers(4);
            dialog->setGpusPerWorker(1);
            dialog->setModel(QStringLiteral("resnet50"));
            dialog->setIterations(300);
            const auto job = dialog->job();
            if (!job)
                seen += QStringLiteral("; problem: ") + dialog->problem();
            else if (job->model.parameterBytes != resnet->parameterBytes() ||
                     job->model.computeSecondsPerIteration != resnet->computeSecondsPerIteration)
                seen += QStringLiteral("; the catalogue's resnet50 was not taken: %1 bytes, %2 s")
                            .arg(job->model.parameterBytes)
                            .arg(job->model.computeSecondsPerIteration);
            auto *buttons = dialog->findChild<QDialogButtonBox *>();
            QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
        });
        add->trigger();
        QVERIFY2(seen.isEmpty(), qPrintable(seen));
        const Scenario &scenario = w.document()->scenario();
        QCOMPARE(scenario.jobs.size(), jobsBefore + 1);
        const Job made = scenario.jobs.back();
        QCOMPARE(made.kind, JobKind::ParameterServer);
        QCOMPARE(made.id, std::string("resnet50-1"));
        QCOMPARE(made.model.name, std::string("resnet50"));
        QCOMPARE(made.model.parameterBytes, resnet->parameterBytes());
        QCOMPARE(made.model.iterations, std::int64_t(300));
        int ps = 0, workers = 0;
        for (const TaskGroup &group : made.tasks)
            (group.role == TaskRole::Ps ? ps : workers) += group.replicas;
        QCOMPARE(ps, 2);
        QCOMPARE(workers, 4);
        {
            // A job with a longer id than the queue's others widens the Id column (it was
            // elided, "my-be...", until the queue was reloaded).
            QTableView *queue = w.jobQueuePanel()->table();
            Job longer = made;
            longer.id = "my-bert-train-w2";
            w.document()->undoStack()->push(new AddJobCommand(w.document(), longer));
            settle();
            const int needed =
                queue->fontMetrics().horizontalAdvance(QStringLiteral("my-bert-train-w2"));
            QVERIFY2(queue->columnWidth(JobQueueModel::Id) > needed,
                     qPrintable(QStringLiteral("Id column %1 px, the id needs %2")
                                    .arg(queue->columnWidth(JobQueueModel::Id))
                                    .arg(needed)));
            w.document()->undoStack()->undo();
            QCOMPARE(scenario.jobs.size(), jobsBefore + 1);
        }

        // Run it: dltap, simulated.
        auto *views = w.findChild<RunViews *>();
        RunPanel *panel = views->runPanel();
        QVERIFY(runFromPanel(panel, {QStringLiteral("dltap")}, true));
        const auto run = w.currentRun();
        QVERIFY(run && run->result);
        {
            // An edit of the queue says the shown run is of the queue before it.
            Job another = made;
            another.id = "after-the-run";
            w.document()->undoStack()->push(new AddJobCommand(w.document(), another));
            QVERIFY2(w.statusBar()->currentMessage().startsWith(
                         QStringLiteral("The shown run %1 was made before this edit of the job "
                                        "queue")
                             .arg(run->label)),
                     qPrintable(w.statusBar()->currentMessage()));
            // ... and a note on the status bar stays while it is so (the message went with the
            // next step), until the queue is the run's again.
            auto *stale = w.findChild<QLabel *>(QStringLiteral("staleRunNote"));
            QVERIFY(stale);
            QVERIFY(!stale->isHidden());
            w.statusBar()->clearMessage();
            QVERIFY(!stale->isHidden());
            w.document()->undoStack()->undo();
            QVERIFY(stale->isHidden());
            // A queue replaced on the same cluster (a job trace imported) keeps the shown run
            // and says so, as an edit of one job does (it showed "No run yet"); undone, the
            // queue is the run's again.
            Scenario imported = w.document()->scenario();
            imported.jobs.push_back(another);
            w.document()->undoStack()->push(new ReplaceScenarioCommand(
                w.document(), imported, QStringLiteral("Import 1 job from a trace")));
            QCOMPARE(w.currentRun(), run);
            QVERIFY(!stale->isHidden());
            QVERIFY2(w.statusBar()->currentMessage().startsWith(
                         QStringLiteral("The shown run %1 was made before").arg(run->label)),
                     qPrintable(w.statusBar()->currentMessage()));
            w.document()->undoStack()->undo();
            QCOMPARE(w.currentRun(), run);
            QVERIFY(stale->isHidden());
        }
        QStringList placedNodes; // where the new job's six tasks were placed
        for (const auto &placed : run->placement.jobs)
            if (placed.jobId == made.id)
                for (const auto &task : placed.tasks)
                    placedNodes << QString::fromStdString(task.node);
        QCOMPARE(placedNodes.size(), qsizetype(6));

        // File > Export Placement: the shown run is the default; write k8s-pods to a folder.
        QTemporaryDir out;
        QVERIFY(out.isValid());
        const QString folder = out.filePath(QStringLiteral("manifests"));
        QString exportSeen;
        QTimer::singleShot(0, &w, [&] {
            auto *dialog = qobject_cast<ExportDialog *>(QApplication::activeModalWidget());
            if (!dialog) {
                exportSeen = QStringLiteral("no export dialog");
                return;
            }
            if (!dialog->exportsShownRun())
                exportSeen = QStringLiteral("the export does not default to the run on screen");
            dialog->setFormat(QStringLiteral("k8s-pods"));
            dialog->setOutputFolder(folder);
            QPushButton *write = nullptr;
            for (QPushButton *b : dialog->findChildren<QPushButton *>())
                if (b->text() == ExportDialog::tr("&Write Files"))
                    write = b;
            if (!write || !write->isEnabled()) {
                exportSeen += QStringLiteral("; cannot write: ") + dialog->error();
                dialog->reject();
                return;
            }
            QTest::mouseClick(write, Qt::LeftButton);
        });
        auto *exportAction = w.findChild<QAction *>(QStringLiteral("exportAction"));
        QVERIFY(exportAction);
        QCOMPARE(exportAction->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        exportAction->trigger();
        QVERIFY2(exportSeen.isEmpty(), qPrintable(exportSeen));
        // The window says what it wrote.
        QVERIFY2(w.statusBar()->currentMessage().contains(folder),
                 qPrintable(w.statusBar()->currentMessage()));

        // The files: one pod per task of the new job, 2 ps and 4 workers, on the run's nodes.
        QString text;
        for (const QFileInfo &f : QDir(folder).entryInfoList(QDir::Files)) {
            QFile file(f.filePath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString content = QString::fromUtf8(file.readAll());
            // (YAML strings are written quoted: clusterbench.io/job: "job-10".)
            if (content.contains(QStringLiteral("clusterbench.io/job: \"%1\"\n")
                                     .arg(QString::fromStdString(made.id))))
                text += content;
        }
        QVERIFY2(!text.isEmpty(), qPrintable(QStringLiteral("no file names job %1")
                                                 .arg(QString::fromStdString(made.id))));
        const QStringList documents = text.split(QRegularExpression(QStringLiteral("(^|\n)---\n")),
                                                 Qt::SkipEmptyParts);
        int pods = 0, psPods = 0, workerPods = 0;
        QStringList podNodes;
        for (const QString &d : documents) {
            if (!d.contains(QStringLiteral("\nkind: \"Pod\"\n")) &&
                !d.startsWith(QStringLiteral("kind: \"Pod\"")))
                continue;
            ++pods;
            const QString role = QRegularExpression(QStringLiteral("replica-type: \"?(\\w+)")).match(d).captured(1);
            psPods += role == QStringLiteral("ps");
            workerPods += role == QStringLiteral("worker");
            podNodes << QRegularExpression(QStringLiteral("nodeName: \"?([^\"\\s]+)")).match(d).captured(1);
        }
        QCOMPARE(pods, 6);
        QCOMPARE(psPods, 2);
        QCOMPARE(workerPods, 4);
        podNodes.sort();
        placedNodes.sort();
        QCOMPARE(podNodes, placedNodes);
    }

private:
    /// Each of `columns` ends within `view`'s viewport, unscrolled.
    static void columnsInView(QAbstractItemView *view, QHeaderView *header,
                              std::initializer_list<int> columns)
    {
        for (int column : columns) {
            const int end = header->sectionViewportPosition(column) + header->sectionSize(column);
            QVERIFY2(end <= view->viewport()->width(),
                     qPrintable(QStringLiteral("%1: column %2 ends at %3 of %4")
                                    .arg(view->objectName())
                                    .arg(column)
                                    .arg(end)
                                    .arg(view->viewport()->width())));
        }
    }

    static void settle()
    {
        for (int i = 0; i < 4; ++i) {
            QCoreApplication::processEvents();
            QTest::qWait(10);
        }
    }

    /// Runs exactly `policies` from the run panel, as a user ticks them; whether the batch
    /// finished within a minute.
    static bool runFromPanel(RunPanel *panel, const QStringList &policies, bool simulate)
    {
        for (const QString &p : panel->checkedPolicies())
            panel->setPolicyChecked(p, false);
        for (const QString &p : policies)
            panel->setPolicyChecked(p, true);
        panel->setSimulate(simulate);
        QSignalSpy finished(panel, &RunPanel::batchFinished);
        if (!panel->start() || !finished.wait(60000))
            return false;
        settle();
        return true;
    }

    void dialog(QDialog *d, const QString &size, const QString &name)
    {
        d->setAttribute(Qt::WA_DeleteOnClose);
        d->show();
        QVERIFY(QTest::qWaitForWindowExposed(d));
        settle();
        save(d->grab(), size, name);
        d->close();
    }

    void save(const QPixmap &pixmap, const QString &size, const QString &name)
    {
        const QString path = m_out.filePath(QStringLiteral("window-%1-%2.png").arg(size, name));
        QVERIFY2(pixmap.toImage().save(path), qPrintable(path));
    }

    QTemporaryDir m_dir;
    QDir m_out;
};

QTEST_MAIN(TestWindowLayout)
#include "tst_window_layout.moc"
