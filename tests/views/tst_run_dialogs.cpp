// The dialogs and views of the run side that need no running: comparison deltas on a
// hand-checked case (and PNG/PDF export), the export dialog's preview against the written
// files, trace import (a failed or cancelled import leaves the scenario untouched; a good
// one is one undo step) and the cluster generator as an undoable replacement.

#include "analysis/job_states.h"
#include "analysis/run_session.h"
#include "document/document.h"
#include "io/export/export_writer.h"
#include "io/export/kubernetes_names.h"
#include "io/scenario_json.h"
#include "model/gen_fat_tree.h"
#include "model/model_catalog.h"
#include "runs/cluster_import_dialog.h"
#include "runs/comparison_view.h"
#include "runs/export_dialog.h"
#include "runs/generator_dialog.h"
#include "runs/import_format.h"
#include "runs/link_dialog.h"
#include "runs/run_comparison.h"
#include "runs/trace_import_dialog.h"
#include "sched/placer.h"
#include "sched/policy.h"
#include "sim/simulator.h"
#include "test_scenarios.h"
#include "window/english_plurals.h"
#include "window/job_dialog.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace cb;
using namespace cb::views;

namespace {

Scenario testbed()
{
    auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
    return s ? s.value() : testing::leafSpineScenario(2, 1, 4);
}

std::string readAll(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

ComparedRun handRun(std::int64_t id, double jct, double cross, std::vector<double> jcts)
{
    ComparedRun r;
    r.id = id;
    r.label = QStringLiteral("#%1").arg(id);
    r.metrics = {{"mean_jct_s", jct}, {"cross_node_bytes", cross}, {"makespan_s", 1000}};
    r.jctSeconds = std::move(jcts);
    return r;
}

/// The application's English plurals ("1 node", "2 nodes"), installed for one test.
struct PluralsInstalled
{
    EnglishPlurals plurals;
    PluralsInstalled() { QCoreApplication::installTranslator(&plurals); }
    ~PluralsInstalled() { QCoreApplication::removeTranslator(&plurals); }
    PluralsInstalled(const PluralsInstalled &) = delete;
    PluralsInstalled &operator=(const PluralsInstalled &) = delete;
};

} // namespace

class TestRunDialogs : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // (what the dialogs remember goes to a test folder, never the user's settings)
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("generate"));
        QSettings().remove(QStringLiteral("importTrace"));
    }

    void exportFolderIsOneFolderPerScenario()
    {
        // The default folder (until one is remembered) names the scenario in a word a shell
        // takes as it is: a "/" in its name ("9 PS/worker jobs") would split it into two
        // folders, spaces and brackets would need quoting.
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("export/folders"));
        Scenario s;
        s.name = "DLTAP testbed (8 servers, 9 PS/worker jobs)\\x";
        QCOMPARE(ExportDialog::defaultFolder(s),
                 QDir::home().filePath(QStringLiteral(
                     "clusterbench-export/dltap-testbed-8-servers-9-ps-worker-jobs-x")));
        s.name = "  Größe 2 — Ü ";
        QCOMPARE(ExportDialog::defaultFolder(s),
                 QDir::home().filePath(QStringLiteral("clusterbench-export/größe-2-ü")));
        s.name = "..";
        QCOMPARE(ExportDialog::defaultFolder(s),
                 QDir::home().filePath(QStringLiteral("clusterbench-export/scenario")));
    }

    // The folder written is remembered for that scenario only; a shown run of another
    // scenario than the open one is said to be, and goes to its own scenario's folder.
    void exportFolderFollowsTheExportedScenario()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("export/folders"));
        const Scenario open = testbed();
        Scenario other = testbed();
        other.name = "Other testbed";
        other.cluster.nodes.pop_back(); // (another cluster)
        const QString otherDefault =
            QDir::home().filePath(QStringLiteral("clusterbench-export/other-testbed"));
        QCOMPARE(ExportDialog::defaultFolder(other), otherDefault);
        {
            ExportDialog dialog(open);
            dialog.setPolicy(QStringLiteral("dltap"), 1);
            dialog.setFormat(QStringLiteral("slurm"));
            QCOMPARE(dialog.outputFolder(), ExportDialog::defaultFolder(open));
            const QString chosen = m_dir.filePath(QStringLiteral("testbed-out"));
            dialog.setOutputFolder(chosen);
            QVERIFY(dialog.writeFiles(false));
            QCOMPARE(ExportDialog::defaultFolder(open), chosen);
        }
        QCOMPARE(ExportDialog::defaultFolder(other), otherDefault); // not the testbed's
        const Topology topology(other.cluster);
        ExportDialog dialog(open, placeScenario(other, topology, *builtinPolicy("dltap"), 1),
                            QStringLiteral("#3 dltap"));
        dialog.setShownScenario(other);
        dialog.setFormat(QStringLiteral("slurm"));
        QVERIFY(dialog.exportsShownRun());
        QCOMPARE(dialog.sourceText(),
                 QStringLiteral("Shown run: #3 dltap (of Other testbed, not the open scenario)"));
        QCOMPARE(dialog.outputFolder(), otherDefault);
        // Placed anew, the files are the open scenario's: its folder.
        dialog.setPolicy(QStringLiteral("dltap"), 1);
        QCOMPARE(dialog.outputFolder(), ExportDialog::defaultFolder(open));
    }

    void comparisonDeltasExact()
    {
        ComparisonModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({handRun(1, 200, 0, {100, 300}), handRun(2, 150, 4e9, {50, 100, 300})}, 0);
        // comparedMetrics(): six, then tardiness cost, total cost, violations, stranded GPU-h
        QCOMPARE(model.rowCount(), 10);
        // Metric, the baseline's value, run 2's value, delta and percent.
        QCOMPARE(model.columnCount(), 5);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("#1 (baseline)"));
        // Row 1 = mean JCT; run 2's value, delta and percent.
        const int v = model.valueColumn(1);
        QCOMPARE(v, 2);
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("Mean JCT"));
        QCOMPARE(model.index(1, v).data(ComparisonModel::ValueRole).toDouble(), 150.0);
        QCOMPARE(model.index(1, v + 1).data(ComparisonModel::ValueRole).toDouble(), -50.0);
        QCOMPARE(model.index(1, v + 2).data(ComparisonModel::ValueRole).toDouble(), -25.0);
        QCOMPARE(model.index(1, v + 2).data().toString(), QStringLiteral("−25 %"));
        QCOMPARE(model.index(1, v + 1).data().toString(), QStringLiteral("−0:00:50"));
        // Cross-node: the baseline has 0 bytes, so there is no percentage.
        QCOMPARE(model.index(0, v + 1).data(ComparisonModel::ValueRole).toDouble(), 4e9);
        QVERIFY(!model.index(0, v + 2).data(ComparisonModel::ValueRole).isValid());
        QCOMPARE(model.index(0, v + 2).data().toString(), QStringLiteral("n/a"));
        // Energy is recorded by neither run.
        QCOMPARE(model.index(3, v).data().toString(), QStringLiteral("—"));
        // Switch the baseline: the deltas flip sign and the percent is against 150.
        model.setBaseline(1);
        const int b = model.valueColumn(0);
        QCOMPARE(b, 1);
        QCOMPARE(model.valueColumn(1), 4);
        QCOMPARE(model.headerData(4, Qt::Horizontal).toString(), QStringLiteral("#2 (baseline)"));
        QCOMPARE(model.index(1, b + 1).data(ComparisonModel::ValueRole).toDouble(), 50.0);
        QCOMPARE(model.index(1, b + 2).data(ComparisonModel::ValueRole).toDouble(), 100.0 / 3.0);
        QCOMPARE(model.index(1, b + 2).data().toString(), QStringLiteral("+33.3 %"));

        // A placed run beside a simulated one: its cross-node bytes are per iteration, so
        // they are not set against the simulated run's whole run (no bar, no delta).
        ComparedRun placedRun = handRun(3, 0, 16e9, {});
        placedRun.metrics.erase("mean_jct_s");
        placedRun.metrics.erase("makespan_s");
        ComparedRun simulatedRun = handRun(4, 150, 226e12, {150});
        simulatedRun.metrics["iteration_cross_node_bytes"] = 11e9;
        ComparisonModel mixed;
        mixed.setRuns({placedRun, simulatedRun}, 0);
        QCOMPARE(mixed.runs()[0].metrics.count("cross_node_bytes"), std::size_t(0));
        QCOMPARE(mixed.runs()[0].metrics.at("iteration_cross_node_bytes"), 16e9);
        QCOMPARE(mixed.runs()[1].metrics.at("cross_node_bytes"), 226e12);
        QCOMPARE(mixed.index(0, mixed.valueColumn(0)).data().toString(), QStringLiteral("—"));
        QVERIFY(
            !mixed.index(0, mixed.valueColumn(1) + 1).data(ComparisonModel::ValueRole).isValid());

        const auto cdf = empiricalCdf({300, 50, 100});
        QCOMPARE(cdf.size(), std::size_t(3));
        QCOMPARE(cdf[0], std::make_pair(50.0, 1.0 / 3.0));
        QCOMPARE(cdf[2], std::make_pair(300.0, 1.0));

        ComparisonView view;
        view.resize(1200, 800);
        // Runs without completion times (placements only): the CDF says so, with no numbers
        // on its axes.
        view.setRuns({handRun(1, 200, 0, {}), handRun(2, 150, 0, {})});
        QCOMPARE(view.cdfPlot()->graphCount(), 0);
        QVERIFY(!view.cdfPlot()->xAxis->tickLabels());
        QVERIFY(!view.cdfPlot()->yAxis->tickLabels());
        QCOMPARE(view.cdfPlot()->xAxis->label(), QStringLiteral("Job completion time"));
        view.setRuns({handRun(1, 200, 0, {100, 300}), handRun(2, 150, 4e9, {50, 100, 300})});
        QCOMPARE(view.cdfPlot()->graphCount(), 2);
        QVERIFY(view.cdfPlot()->xAxis->tickLabels());
        QCOMPARE(view.barsPlot()->axisRectCount(), 10);
        {
            // The CDF's legend names both runs, under the title and above the chart (below
            // it, a laptop's dock scrolled it out of view).
            QCustomPlot *plot = view.cdfPlot();
            plot->replot();
            QVERIFY(plot->legend->visible());
            QCOMPARE(plot->legend->itemCount(), 2);
            QVERIFY2(plot->legend->outerRect().bottom() <= plot->axisRect()->outerRect().top(),
                     qPrintable(QStringLiteral("legend ends at %1, the chart starts at %2")
                                    .arg(plot->legend->outerRect().bottom())
                                    .arg(plot->axisRect()->outerRect().top())));
        }
        {
            // Runs of two versions of the scenario (a trace imported between them) are said to
            // be, with each version's job count; runs of one version say nothing of it.
            auto *note = view.findChild<QLabel *>(QStringLiteral("comparisonNote"));
            QVERIFY(note);
            QVERIFY(note->isHidden());
            std::vector<ComparedRun> runs = {handRun(19, 200, 0, {100}), handRun(29, 150, 0, {50}),
                                             handRun(30, 150, 0, {50})};
            runs[0].metrics["jobs"] = 10;
            runs[1].metrics["jobs"] = 70;
            runs[2].metrics["jobs"] = 70;
            for (ComparedRun &r : runs)
                r.scenarioDigest = r.id == 19 ? "aaa" : "bbb";
            QCOMPARE(scenarioVersionsCompared(runs),
                     QStringList({QStringLiteral("#19: 10 job(s)"),
                                  QStringLiteral("#29, #30: 70 job(s)")}));
            view.setRuns(runs);
            QVERIFY(!note->isHidden());
            QCOMPARE(note->text(), QStringLiteral("These runs are of different versions of the "
                                                  "scenario (#19: 10 job(s); #29, #30: 70 "
                                                  "job(s)): the differences include the edits "
                                                  "between them, not only the policies."));
            runs.erase(runs.begin());
            QCOMPARE(scenarioVersionsCompared(runs), QStringList());
            view.setRuns(runs);
            QVERIFY(note->isHidden());
            view.setRuns({handRun(1, 200, 0, {100, 300}), handRun(2, 150, 4e9, {50, 100, 300})});
        }
        {
            // The table is tall enough for every metric's row; the view scrolls, not it.
            auto *table = view.findChild<QTableView *>(QStringLiteral("comparisonTable"));
            QVERIFY(table);
            QVERIFY(table->minimumHeight() >= 10 * table->verticalHeader()->defaultSectionSize());
        }
        // Empty charts say why: neither run records tardiness, energy or cost here.
        auto noteOf = [&view](const char *key) {
            auto *note = view.barsPlot()->findChild<QCPItemText *>(QStringLiteral("note:") +
                                                                   QLatin1String(key));
            return note ? note->text() : QString();
        };
        QCOMPARE(noteOf("tardiness_s"), QStringLiteral("not recorded"));
        QCOMPARE(noteOf("mean_jct_s"), QString());
        std::vector<ComparedRun> onTime = {handRun(1, 200, 0, {100, 300}),
                                           handRun(2, 150, 0, {50, 100, 300})};
        for (ComparedRun &r : onTime)
            r.metrics["tardiness_s"] = 0;
        view.setRuns(onTime);
        QCOMPARE(noteOf("tardiness_s"),
                 QStringLiteral("no tardiness:\nno job ended past a due date"));
        QCOMPARE(noteOf("cross_node_bytes"), QStringLiteral("zero in every run"));
        QCOMPARE(noteOf("violations"), QStringLiteral("not recorded"));
        QCOMPARE(noteOf("tardiness_cost"), QStringLiteral("not recorded"));
        QCOMPARE(noteOf("total_cost"), QStringLiteral("not recorded"));
        QCOMPARE(noteOf("stranded_gpu_h"), QStringLiteral("not recorded"));
        // A chart of zeros has no tick labels (0 ... 1 of nothing); one with values has them;
        // the note fits its chart (it was cut at both ends on a laptop).
        auto rectOf = [&view](int index) { return view.barsPlot()->axisRect(index); };
        for (int i = 0; i < view.barsPlot()->axisRectCount(); ++i) {
            const QString label = rectOf(i)->axis(QCPAxis::atBottom)->label();
            if (label == QStringLiteral("Tardiness") ||
                label == QStringLiteral("Cross-node traffic"))
                QVERIFY2(!rectOf(i)->axis(QCPAxis::atLeft)->tickLabels(), qPrintable(label));
            if (label == QStringLiteral("Mean JCT"))
                QVERIFY(rectOf(i)->axis(QCPAxis::atLeft)->tickLabels());
        }
        {
            auto *note =
                view.barsPlot()->findChild<QCPItemText *>(QStringLiteral("note:tardiness_s"));
            QVERIFY(note);
            // (against the least width a chart is given, which a laptop's dock shows)
            const int least = note->clipAxisRect()->minimumSize().width();
            const int width =
                QFontMetrics(note->font()).boundingRect(QRect(), 0, note->text()).width();
            QVERIFY2(width < least,
                     qPrintable(
                         QStringLiteral("note %1 px, chart at least %2 px").arg(width).arg(least)));
        }
        // tardiness, traffic, energy, cost, violations, tardiness cost, total cost, stranded
        QCOMPARE(view.barsPlot()->itemCount(), 8);
        view.setRuns({handRun(1, 200, 0, {100, 300}), handRun(2, 150, 4e9, {50, 100, 300})});
        const QString png = m_dir.filePath(QStringLiteral("compare.png"));
        const QString pdf = m_dir.filePath(QStringLiteral("compare.pdf"));
        QVERIFY(view.exportPng(png));
        QVERIFY(view.exportPdf(pdf));
        QVERIFY(QFileInfo(png).size() > 1000);
        QVERIFY(readAll(pdf).rfind("%PDF", 0) == 0);

        // A run keeps its colour from one comparison to the next: #2 stays orange beside a
        // new run, which takes the free blue; with #1 back, #1 gets blue again only when
        // free, else the next free colour.
        auto colourOf = [&view](std::int64_t id) {
            for (int r = 0; r < int(view.model()->runs().size()); ++r)
                if (view.model()->runs()[std::size_t(r)].id == id)
                    return view.runColor(r);
            return QColor();
        };
        const QColor blue = ComparisonView::paletteColor(0), orange = ComparisonView::paletteColor(1),
                     green = ComparisonView::paletteColor(2);
        QCOMPARE(colourOf(1), blue);
        QCOMPARE(colourOf(2), orange);
        view.setRuns({handRun(3, 120, 0, {60}), handRun(2, 150, 4e9, {50, 100, 300})});
        QCOMPARE(colourOf(3), blue);
        QCOMPARE(colourOf(2), orange);
        QCOMPARE(view.cdfPlot()->graph(1)->pen().color(), orange); // the chart follows
        view.setRuns({handRun(2, 150, 4e9, {50, 100, 300}), handRun(1, 200, 0, {100, 300}),
                      handRun(3, 120, 0, {60})});
        QCOMPARE(colourOf(2), orange);
        QCOMPARE(colourOf(1), blue);   // its own, free again
        QCOMPARE(colourOf(3), green);  // blue was #1's first: the next free one

        // The delta table: beside the CDF in a wide dock, below it in a laptop's, where all
        // of it shows without sideways scrolling.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.resize(1900, 800);
        QTRY_VERIFY(view.tableBesideCdf());
        QTRY_COMPARE(view.table()->horizontalScrollBar()->maximum(), 0);
        view.resize(800, 600);
        QTRY_VERIFY(!view.tableBesideCdf());
        QTRY_COMPARE(view.table()->horizontalScrollBar()->maximum(), 0);
        // Narrower than the table: the table scrolls sideways by itself, its scroll bar below
        // its last row; the view does not, so the charts keep the dock's width (when the
        // view scrolled, the charts grew past the dock: a third run's bars out of sight).
        view.resize(300, 600);
        auto *outer = view.findChild<QScrollArea *>(QStringLiteral("comparisonScroll"));
        QVERIFY(outer);
        QTRY_VERIFY(view.table()->horizontalScrollBar()->maximum() > 0);
        QTRY_COMPARE(outer->horizontalScrollBar()->maximum(), 0);
        QCOMPARE(view.table()->horizontalScrollBarPolicy(), Qt::ScrollBarAlwaysOn);
        QVERIFY(view.barsPlot()->width() <= outer->viewport()->width());
        const int rowsHeight = view.table()->model()->rowCount() *
                               view.table()->verticalHeader()->defaultSectionSize();
        QVERIFY2(
            view.table()->viewport()->height() >= rowsHeight,
            qPrintable(
                QStringLiteral("%1 < %2").arg(view.table()->viewport()->height()).arg(rowsHeight)));

        // A short view scrolls with the wheel over a chart too (the charts do not zoom, and
        // QCustomPlot had taken the wheel for itself).
        view.resize(800, 300);
        auto *scroll = view.findChild<QScrollArea *>(QStringLiteral("comparisonScroll"));
        QVERIFY(scroll);
        QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0);
        QCOMPARE(scroll->verticalScrollBar()->value(), 0);
        QCustomPlot *bars = view.barsPlot();
        const QPointF at(bars->width() / 2.0, 20);
        QWheelEvent wheel(at, bars->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(bars, &wheel);
        QVERIFY(scroll->verticalScrollBar()->value() > 0);
    }

    void exportPreviewEqualsWrittenFiles()
    {
        const Scenario s = testbed();
        ExportDialog dialog(s);
        dialog.setPolicy(QStringLiteral("dltap"), 1);
        const QString out = m_dir.filePath(QStringLiteral("export"));
        dialog.setOutputFolder(out);
        for (const QString &format : {QStringLiteral("volcano"), QStringLiteral("slurm")}) {
            dialog.setFormat(format);
            QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));
            const QStringList files = dialog.fileNames();
            QVERIFY(!files.isEmpty());
            QVERIFY(dialog.writeFiles(false));
            for (int i = 0; i < files.size(); ++i)
                QCOMPARE(QString::fromStdString(readAll(QDir(out).filePath(files[i]))),
                         dialog.previewText(i));
        }
        // The preview follows the options.
        dialog.setFormat(QStringLiteral("k8s-pods"));
        QVERIFY(dialog.previewText(0).contains(QStringLiteral("nodeName")));
        // Each file says where its schedule came from, as the terminal's export of the same
        // placement does (the same line).
        const QString origin =
            QStringLiteral("# Scheduled by ClusterBench " CB_VERSION ": dltap, seed 1: every job "
                           "placed at once; %1\n")
                .arg(QString::fromStdString(ExportWriter::scenarioTag(s)));
        QVERIFY2(dialog.previewText(0).startsWith(origin), qPrintable(dialog.previewText(0)));

        // A script an earlier export left in the folder (another job's) is named after the
        // write, and left alone: `sbatch DIR/*.sbatch` would submit it too.
        dialog.setFormat(QStringLiteral("slurm"));
        {
            QFile old(QDir(out).filePath(QStringLiteral("old-job.sbatch")));
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("#!/bin/bash\n");
        }
        QVERIFY(dialog.writeFiles(false));
        QVERIFY2(dialog.statusText().contains(
                     QStringLiteral("Not part of this export, 1 file(s) left from an earlier "
                                    "one (remove before submitting the folder):</b> "
                                    "old-job.sbatch")),
                 qPrintable(dialog.statusText()));
        QVERIFY(QFileInfo::exists(QDir(out).filePath(QStringLiteral("old-job.sbatch"))));
    }

    // Writing again what a folder holds asks nothing (no file changes); a file that changes
    // is asked about by name, and "No" keeps it as it was.
    void exportAsksOnlyAboutFilesItChanges()
    {
        const Scenario s = testbed();
        ExportDialog dialog(s);
        dialog.setPolicy(QStringLiteral("dltap"), 1);
        const QString out = m_dir.filePath(QStringLiteral("export-again"));
        dialog.setOutputFolder(out);
        dialog.setFormat(QStringLiteral("slurm"));
        QVERIFY(dialog.writeFiles(false));
        // (any question box shown is answered by the timer, its text kept)
        QString asked;
        QMessageBox::StandardButton answer = QMessageBox::No;
        auto answerBoxes = [&] {
            QTimer::singleShot(0, [&] {
                if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                    asked = box->text();
                    box->button(answer)->click();
                }
            });
        };
        answerBoxes();
        QVERIFY(dialog.writeFiles(true));
        QCOMPARE(asked, QString());
        const QString first = dialog.fileNames().front();
        const QString path = QDir(out).filePath(first);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("#!/bin/bash\necho edited\n");
        }
        answerBoxes();
        QVERIFY(!dialog.writeFiles(true));
        QCOMPARE(asked, QStringLiteral("1 file(s) in %1 will be replaced:\n%2").arg(out, first));
        QCOMPARE(QString::fromStdString(readAll(path)),
                 QStringLiteral("#!/bin/bash\necho edited\n"));
        answer = QMessageBox::Yes;
        asked.clear();
        answerBoxes();
        QVERIFY(dialog.writeFiles(true));
        QVERIFY(!asked.isEmpty());
        QCOMPARE(QString::fromStdString(readAll(path)), dialog.previewText(0));
    }

    // A shown run whose job went past its time limit: every job format says the deployed job
    // would not run to the end; a placement placed anew (no run) says nothing of it.
    void exportOfARunPastItsTimeLimitWarns()
    {
        Scenario s = testbed();
        s.jobs[0].timeLimitSeconds = 600;
        SimOptions o;
        o.policy = *builtinPolicy("dltap");
        const auto run = simulate(s, o);
        QVERIFY2(run.ok(), run.error().c_str());
        const Problems overruns = timeLimitOverruns(s, run.value());
        QCOMPARE(int(overruns.size()), 1);
        // The job queue's reason says it too.
        RunSession session;
        session.scenario = s;
        session.result = run.value();
        const auto states = jobStates(session);
        QVERIFY2(states.at(s.jobs[0].id)
                     .reason.endsWith(QStringLiteral(", past its time limit of 0:10:00")),
                 qPrintable(states.at(s.jobs[0].id).reason));
        QVERIFY(!states.at(s.jobs[1].id).reason.contains(QStringLiteral("time limit")));
        const Topology topology(s.cluster);
        ExportDialog dialog(s, placeScenario(s, topology, o.policy, 1), QStringLiteral("dltap"));
        std::vector<std::string> messages;
        for (const Problem &p : overruns)
            messages.push_back(p.message);
        dialog.setShownRunWarnings(messages);
        dialog.setFormat(QStringLiteral("slurm"));
        QVERIFY(dialog.exportsShownRun());
        const QString expected = QStringLiteral("slurm: ") + QString::fromStdString(messages[0]);
        QVERIFY2(dialog.warnings().contains(expected), qPrintable(dialog.warnings().join('\n')));
        // Every Kubernetes kind writes it as activeDeadlineSeconds: the same warning.
        for (const char *format : {"k8s-pods", "volcano", "pytorchjob", "jobset"}) {
            dialog.setFormat(QString::fromLatin1(format));
            QVERIFY2(dialog.warnings().contains(QString::fromLatin1(format) + QStringLiteral(": ") +
                                                QString::fromStdString(messages[0])),
                     qPrintable(dialog.warnings().join('\n')));
        }
        QVERIFY(messages[0].find("activeDeadlineSeconds") != std::string::npos);
        dialog.setFormat(QStringLiteral("slurm"));
        dialog.setPolicy(QStringLiteral("dltap"), 1);
        QVERIFY(!dialog.warnings().join('\n').contains(QStringLiteral("time limit")));
    }

    // The model list opens on the job's model (it opened on the first, alexnet, with the
    // job's name only typed in its box).
    void jobEditorModelListOpensOnTheJobsModel()
    {
        Document doc;
        Scenario s = testing::leafSpineScenario(2, 1, 4);
        QVERIFY(!s.jobs.empty());
        s.jobs[0].model.name = "resnet50";
        doc.setScenario(s);
        JobDialog dialog(&doc, 0);
        auto *model = dialog.findChild<QComboBox *>(QStringLiteral("jobModel"));
        QVERIFY(model);
        QVERIFY(model->findText(QStringLiteral("resnet50")) > 0);
        QCOMPARE(model->currentIndex(), model->findText(QStringLiteral("resnet50")));
        QCOMPARE(model->currentText(), QStringLiteral("resnet50"));
        dialog.setModel(QStringLiteral("vgg16"));
        QCOMPARE(model->currentIndex(), model->findText(QStringLiteral("vgg16")));
        // A name the catalogue does not have is kept as typed.
        dialog.setModel(QStringLiteral("my-own-net"));
        QCOMPARE(model->currentText(), QStringLiteral("my-own-net"));
    }

    // The training estimate comes from the model's fields alone: a due date half typed (not
    // yet a time) blocks OK but does not hide it (it went blank until the form was valid).
    void jobEditorKeepsTheEstimateWhileADueDateIsTyped()
    {
        Document doc;
        Scenario s = testing::leafSpineScenario(2, 1, 4);
        QVERIFY(!s.jobs.empty());
        s.jobs[0].model.iterations = 1000;
        s.jobs[0].model.computeSecondsPerIteration = 0.25;
        doc.setScenario(s);
        JobDialog dialog(&doc, 0);
        auto *note = dialog.findChild<QLabel *>(QStringLiteral("trainingNote"));
        QVERIFY(note);
        const QString estimate =
            QStringLiteral("1,000 iterations of 0.25 s each: about 0:04:10 of "
                           "compute on the reference GPU, without communication");
        QCOMPARE(note->text(), estimate);
        dialog.setDue(QStringLiteral("2:3x"));
        QVERIFY(!dialog.problem().isEmpty());
        QCOMPARE(note->text(), estimate);
        dialog.setIterations(2000);
        QCOMPARE(note->text(),
                 QStringLiteral("2,000 iterations of 0.25 s each: about 0:08:20 of "
                                "compute on the reference GPU, without communication"));
    }

    // A command typed with shell syntax runs under /bin/sh -c as typed (with the note that
    // says so); words and quotes alone are the argv; an open quote is a problem; a job's
    // command shows as the line that gives it back.
    void jobEditorKeepsAShellCommandWhole()
    {
        Document doc;
        Scenario s = testing::leafSpineScenario(2, 1, 4);
        QVERIFY(!s.jobs.empty());
        s.jobs[0].id = "train";
        s.jobs[0].command = {"/bin/sh", "-c", "python t.py | tee log"};
        doc.setScenario(s);
        JobDialog dialog(&doc, 0);
        auto *line = dialog.findChild<QLineEdit *>(QStringLiteral("jobCommand"));
        QVERIFY(line);
        QCOMPARE(line->text(), QStringLiteral("python t.py | tee log"));
        auto *problem = dialog.findChild<QLabel *>(QStringLiteral("jobProblem"));
        QVERIFY(problem);
        QVERIFY2(problem->text().contains(QStringLiteral("/bin/sh -c")),
                 qPrintable(problem->text()));
        const QString typed =
            QStringLiteral("python train.py --data \"/data/img net\" && echo 'done'");
        dialog.setCommand(typed);
        auto job = dialog.job();
        QVERIFY2(job, qPrintable(dialog.problem()));
        QCOMPARE(job->command, (std::vector<std::string>{"/bin/sh", "-c", typed.toStdString()}));
        dialog.setCommand(QStringLiteral("python train.py --data \"/data/img net\""));
        job = dialog.job();
        QVERIFY(job);
        QCOMPARE(job->command,
                 (std::vector<std::string>{"python", "train.py", "--data", "/data/img net"}));
        QVERIFY(!problem->text().contains(QStringLiteral("/bin/sh")));
        dialog.setCommand(QStringLiteral("python train.py --name 'x"));
        QCOMPARE(dialog.problem(),
                 QStringLiteral("Command: the ' quote at character 24 is not closed."));
    }

    // The editor rounds what it shows (0.1 MB, 0.1 ms), never what it keeps: a job opened and
    // accepted untouched keeps its exact size and step time; a value the user typed is taken.
    void jobEditorKeepsExactValues()
    {
        Document doc;
        Scenario s = testing::leafSpineScenario(2, 1, 4);
        QVERIFY(!s.jobs.empty());
        s.jobs[0].model.parameterBytes = 123'456'789;
        s.jobs[0].model.computeSecondsPerIteration = 0.123456789;
        doc.setScenario(s);
        {
            JobDialog dialog(&doc, 0);
            const auto job = dialog.job();
            QVERIFY2(job, qPrintable(dialog.problem()));
            QCOMPARE(job->model.parameterBytes, std::int64_t(123'456'789));
            QCOMPARE(job->model.computeSecondsPerIteration, 0.123456789);
            QVERIFY(!dialog.apply()); // nothing changed: nothing pushed
        }
        {
            JobDialog dialog(&doc, 0);
            auto *size = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("jobModelSize"));
            QVERIFY(size);
            size->setValue(50.5);
            const auto job = dialog.job();
            QVERIFY(job);
            QCOMPARE(job->model.parameterBytes, std::int64_t(50'500'000));
            QCOMPARE(job->model.computeSecondsPerIteration, 0.123456789);
        }
        {
            // "Start with at least" is the job's min_available; as many as it has workers is
            // all or nothing, stored as no minimum.
            JobDialog dialog(&doc, 0);
            auto *workers = dialog.findChild<QSpinBox *>(QStringLiteral("jobMinWorkers"));
            QVERIFY(workers);
            QCOMPARE(workers->value(), 0);
            QCOMPARE(workers->specialValueText(), QStringLiteral("all workers"));
            const int all = doc.scenario().jobs[0].workerCount();
            QVERIFY(all >= 2);
            QCOMPARE(workers->maximum(), all);
            workers->setValue(all - 1);
            QCOMPARE(dialog.job()->minAvailable, std::optional<int>(all - 1));
            workers->setValue(all);
            QCOMPARE(dialog.job()->minAvailable, std::optional<int>());
            workers->setValue(1);
            QVERIFY(dialog.apply());
            QCOMPARE(doc.scenario().jobs[0].minAvailable, std::optional<int>(1));
            JobDialog again(&doc, 0); // opens at what was applied
            QCOMPARE(again.findChild<QSpinBox *>(QStringLiteral("jobMinWorkers"))->value(), 1);
        }
        {
            // Nine workers of 8 GPUs on the 64 GPUs of 8 hosts: every task fits a host, the
            // job does not fit the cluster; it is said, and starting with 8 of them fits.
            QCOMPARE(doc.scenario().cluster.totalGpus(), 64);
            JobDialog dialog(&doc, 0);
            auto *workers = dialog.findChild<QSpinBox *>(QStringLiteral("jobWorkers"));
            auto *gpus = dialog.findChild<QSpinBox *>(QStringLiteral("jobGpus"));
            auto *least = dialog.findChild<QSpinBox *>(QStringLiteral("jobMinWorkers"));
            QVERIFY(workers && gpus && least);
            gpus->setValue(8);
            workers->setValue(9);
            least->setValue(0);
            QCOMPARE(dialog.warning(),
                     QStringLiteral("The job can never start: it needs 72 GPUs at once (every "
                                    "task), the cluster has 64: fewer workers, a lower \"Start "
                                    "with at least\", or more nodes would let it start."));
            QVERIFY(dialog.problem().isEmpty()); // a warning: the user may add nodes next
            least->setValue(8);
            QCOMPARE(dialog.warning(), QString());
        }
        // A new job is named after its model while the user has not typed an id (the test
        // scenario already has a vgg16-1).
        const TrainingModel *vgg = findTrainingModel("vgg16");
        QVERIFY(vgg);
        JobDialog fresh(&doc, -1);
        fresh.setModel(QStringLiteral("vgg16"));
        auto made = fresh.job();
        QVERIFY(made);
        QCOMPARE(QString::fromStdString(made->id), QStringLiteral("vgg16-2"));
        QCOMPARE(made->model.parameterBytes, vgg->parameterBytes());
        auto *id = fresh.findChild<QLineEdit *>(QStringLiteral("jobId"));
        QVERIFY(id);
        id->setText(QStringLiteral("mine"));
        fresh.setModel(QStringLiteral("alexnet"));
        made = fresh.job();
        QVERIFY(made);
        QCOMPARE(QString::fromStdString(made->id), QStringLiteral("mine"));
        QCOMPARE(made->model.name, std::string("alexnet"));
        QCOMPARE(fresh.warning(), QString());
        // An id that exports rename is said, with the name they give it (not an error).
        id->setText(QStringLiteral("My Job_1"));
        const std::string exported = KubernetesNames::jobNames({"My Job_1"}).front();
        QCOMPARE(QString::fromStdString(exported).left(9), QStringLiteral("my-job-1-"));
        QCOMPARE(fresh.warning(), QStringLiteral("Exports name this job \"%1\" (Kubernetes names "
                                                 "take lowercase letters, digits and '-').")
                                      .arg(QString::fromStdString(exported)));
        QVERIFY(fresh.problem().isEmpty());
        // An id that is a Slurm name (a trace's "Job_1") is kept by Slurm's exports.
        id->setText(QStringLiteral("Job_1"));
        const std::string k8s = KubernetesNames::jobNames({"Job_1"}).front();
        QCOMPARE(fresh.warning(), QStringLiteral("Kubernetes exports name this job \"%1\" (their "
                                                 "names take lowercase letters, digits and '-'); "
                                                 "Slurm's keep its id.")
                                      .arg(QString::fromStdString(k8s)));

        // Where every other job has a due date (a scenario for STS), a new job without one is
        // said: STS and its baselines refuse to run then.
        {
            Document dated;
            Scenario s = doc.scenario();
            for (Job &job : s.jobs)
                job.dueSeconds = job.submitSeconds + 86400;
            dated.setScenario(s);
            JobDialog undated(&dated, -1);
            QCOMPARE(undated.warning(), QString()); // (due as the others, see below)
            undated.setDue(QString());
            QCOMPARE(undated.warning(),
                     QStringLiteral("Every other job has a due date and this one has none: STS "
                                    "and its baselines need one for every job (they will refuse "
                                    "to run)."));
            undated.setDue(QStringLiteral("30:00:00"));
            QCOMPARE(undated.warning(), QString());
            // A new job of a job-NN scenario with due dates is the next of the series, due
            // as the others are after their submission, at their median weight: no warning.
            Scenario series = s;
            for (std::size_t k = 0; k < series.jobs.size(); ++k) {
                series.jobs[k].id = "job-" + std::string(k < 10 ? "0" : "") + std::to_string(k);
                series.jobs[k].tardinessWeight = 0.5;
            }
            Document numbered;
            numbered.setScenario(series);
            JobDialog next(&numbered, -1);
            const auto made = next.job();
            QVERIFY(made);
            QCOMPARE(made->id, "job-" + std::string(series.jobs.size() < 10 ? "0" : "") +
                                   std::to_string(series.jobs.size()));
            QCOMPARE(made->dueSeconds.value_or(-1), made->submitSeconds + 86400);
            QCOMPARE(made->tardinessWeight, 0.5);
            QCOMPARE(next.warning(), QString());
            next.setModel(QStringLiteral("vgg16")); // the series id stays
            QCOMPARE(next.job()->id, made->id);
            // Its step reads in seconds, not as a clock ("0:00:00.18").
            QString note;
            for (const QLabel *label : next.findChildren<QLabel *>())
                if (label->text().contains(QStringLiteral("iterations of")))
                    note = label->text();
            QVERIFY2(note.contains(QStringLiteral(" s each: about")) &&
                         !note.contains(QStringLiteral("0:00:00.")),
                     qPrintable(note));
            // Editing one of them, its own due date aside, is the same question.
            JobDialog first(&dated, 0);
            QCOMPARE(first.warning(), QString());
            first.setDue(QString());
            QVERIFY(first.warning().startsWith(QStringLiteral("Every other job has a due date")));
        }
    }

    void clusterImportSaysItsCounts()
    {
        // The window's texts as the application shows them, with its English plurals.
        EnglishPlurals plurals;
        QCoreApplication::installTranslator(&plurals);
        Document doc;
        doc.setScenario(testing::leafSpineScenario(2, 1, 4));
        ClusterImportDialog dialog(&doc);
        dialog.setFormat(QStringLiteral("k8s-nodes"));
        dialog.setFiles({QStringLiteral(CB_TEST_DATA "/import/handmade/k8s_nodes_list.json")});
        const bool imported = dialog.runImport();
        QCoreApplication::removeTranslator(&plurals);
        QVERIFY2(imported, qPrintable(dialog.error()));
        // Each count with its own noun: "(0 skipped lines, 1 assumption)", not "line(s)".
        const QStringList lines = dialog.reportLines();
        const auto count = [&](const QString &kind) {
            return int(std::count_if(lines.begin(), lines.end(),
                                     [&](const QString &l) { return l.startsWith(kind); }));
        };
        const int skipped = count(QStringLiteral("skipped")),
                  assumed = count(QStringLiteral("assumed"));
        const auto noun = [](int n, const char *one, const char *many) {
            return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
        };
        QVERIFY2(
            dialog.statusText().contains(QStringLiteral("(%1, %2).")
                                             .arg(noun(skipped, "skipped line", "skipped lines"),
                                                  noun(assumed, "assumption", "assumptions"))),
            qPrintable(dialog.statusText() + QStringLiteral(" / ") + lines.join(QLatin1Char('|'))));
        QVERIFY(!dialog.statusText().contains(QStringLiteral("(s)")));

        // The terminal's --gpu-type is the dialog's GPU type choice, and the report says so
        // (it told a window user to pass --gpu-type).
        {
            Document nodes;
            nodes.setScenario(testing::leafSpineScenario(2, 1, 4));
            ClusterImportDialog yaml(&nodes);
            yaml.setFormat(QStringLiteral("k8s-nodes"));
            yaml.setFiles({QStringLiteral(
                CB_TEST_DATA "/import/k8s-nodes/alibaba_openb2023_gpu_nodes_sample.yaml")});
            QVERIFY2(yaml.runImport(), qPrintable(yaml.error()));
            const QString report = yaml.reportLines().join(QLatin1Char('\n'));
            // (Alibaba names its models, G2 and G3, which the catalogue does not know: the
            // help is their entry in the scenario, not a GPU type for unnamed GPUs.)
            QVERIFY2(!report.contains(QLatin1String("--gpu-type")), qPrintable(report));
            QVERIFY2(!report.contains(QLatin1String("the GPU type choice")), qPrintable(report));
            QVERIFY2(report.contains(QLatin1String(
                         "a model the source names keeps its name: give its memory, power and "
                         "relative speed in the scenario's cluster.gpu_types")),
                     qPrintable(report));
            // A slurm.conf whose GPUs are counted, not named: "unknown-gpu", or the choice.
            ClusterImportDialog conf(&nodes);
            conf.setFormat(QStringLiteral("slurm"));
            conf.setFiles({QStringLiteral(CB_TEST_DATA
                                          "/import/slurm/slurm-testsuite_test7.17.1_slurm.conf")});
            conf.setReplaceOpenCluster(true);
            QVERIFY2(conf.runImport(), qPrintable(conf.error()));
            QVERIFY(conf.reportLines()
                        .join(QLatin1Char('\n'))
                        .contains(QLatin1String(
                            "name no GPU type: \"unknown-gpu\" (the GPU type choice names it)")));
            QVERIFY(conf.reportLines()
                        .join(QLatin1Char('\n'))
                        .contains(QLatin1String("price 0); the GPU type choice names the model of "
                                                "GPUs a source does not name")));
            QVERIFY(!conf.reportLines()
                         .join(QLatin1Char('\n'))
                         .contains(QLatin1String("keeps its name")));
            QCOMPARE(nodes.scenario().cluster.gpuTypes.front().name, std::string("unknown-gpu"));
            conf.setGpuType(QStringLiteral("V100"));
            QVERIFY2(conf.runImport(), qPrintable(conf.error()));
            QCOMPARE(nodes.scenario().cluster.gpuTypes.size(), std::size_t(1));
            QCOMPARE(nodes.scenario().cluster.gpuTypes.front().name, std::string("V100"));
        }

        // A slurm.conf none of whose node lines can be read gives no cluster: refused, as the
        // terminal's import refuses it, with the skipped lines listed and the scenario as it
        // was (it opened an empty scenario of 0 nodes and said "Imported").
        QFile conf(QStringLiteral(CB_TEST_DATA
                                  "/import/slurm/giovtorres_docker-centos7-slurm_slurm.conf"));
        QVERIFY(conf.open(QIODevice::ReadOnly));
        QStringList confLines = QString::fromUtf8(conf.readAll()).split(QLatin1Char('\n'));
        int broken = 0;
        for (QString &line : confLines)
            if (line.startsWith(QLatin1String("NodeName="))) {
                line += QStringLiteral(" CPUs=abc");
                ++broken;
            }
        QCOMPARE(broken, 4);
        const QString badConf = m_dir.filePath(QStringLiteral("all-nodes-bad.conf"));
        QFile out(badConf);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(confLines.join(QLatin1Char('\n')).toUtf8());
        out.close();
        const Scenario before = doc.scenario();
        const int steps = doc.undoStack()->count();
        for (const bool asNew : {true, false}) {
            ClusterImportDialog bad(&doc);
            bad.setFormat(QStringLiteral("slurm"));
            bad.setFiles({badConf});
            bad.setReplaceOpenCluster(!asNew);
            QVERIFY(!bad.runImport());
            // (the partitions naming those nodes are skipped with them)
            const QStringList report = bad.reportLines();
            const int skipped =
                int(std::count_if(report.begin(), report.end(), [](const QString &l) {
                    return l.startsWith(QLatin1String("skipped"));
                }));
            QCOMPARE(skipped, 8);
            QCOMPARE(bad.error(),
                     QStringLiteral("%1: no node could be imported (8 skipped line(s): "
                                    "see the list); the scenario is unchanged.")
                         .arg(badConf));
            QVERIFY2(bad.reportLines()
                             .filter(QStringLiteral("CPUs: expected a positive number"))
                             .size() == 4,
                     qPrintable(bad.reportLines().join(QLatin1Char('|'))));
            QVERIFY(doc.scenario() == before);
            QCOMPARE(doc.undoStack()->count(), steps);
        }
    }

    void importFieldShowsPathsApart()
    {
        // The import dialogs' file field: two files chosen read apart ("a; b"), and what is
        // typed there splits at ";" whatever the spaces, an empty part dropped.
        QCOMPARE(joinImportPaths({QStringLiteral("/d/slurm.conf"), QStringLiteral("/d/gres.conf")}),
                 QStringLiteral("/d/slurm.conf; /d/gres.conf"));
        const std::vector<std::string> want{"/d/slurm.conf", "/d/gres.conf"};
        QCOMPARE(splitImportPaths(QStringLiteral(" /d/slurm.conf ;/d/gres.conf; ;")), want);
        QCOMPARE(splitImportPaths(QStringLiteral("/d/slurm.conf; /d/gres.conf")), want);
        QCOMPARE(splitImportPaths(QStringLiteral(" ; ")).size(), std::size_t(0));
    }

    void clusterImportDetectsTheFormat()
    {
        // "Detect from the files" is the first choice; a slurm.conf read with it says what it
        // was read as.
        PluralsInstalled plurals;
        Document doc;
        doc.setScenario(testing::leafSpineScenario(2, 1, 4));
        const QString conf =
            QStringLiteral(CB_TEST_DATA "/import/slurm/giovtorres_docker-centos7-slurm_slurm.conf");
        {
            ClusterImportDialog dialog(&doc);
            auto *formats = dialog.findChild<QComboBox *>(QStringLiteral("clusterFormat"));
            QVERIFY(formats);
            QCOMPARE(formats->itemText(0), QStringLiteral("Detect from the files"));
            dialog.setFormat(QString());
            QCOMPARE(formats->currentIndex(), 0);
            dialog.setFiles({conf});
            dialog.setReplaceOpenCluster(true);
            QVERIFY2(dialog.runImport(), qPrintable(dialog.error()));
            QVERIFY2(dialog.statusText().startsWith(
                         QStringLiteral("Imported 4 nodes from %1, read as slurm (").arg(conf)),
                     qPrintable(dialog.statusText()));
            QCOMPARE(doc.scenario().cluster.nodes.size(), std::size_t(4));
            // Each node draws a server's power besides its GPUs, as the terminal's import
            // gives it (the window's nodes drew 0 W), and the report says so as it does.
            for (const Node &n : doc.scenario().cluster.nodes)
                QCOMPARE(n.baseWatts, 400.0);
            QVERIFY2(dialog.reportLines()
                         .join(QLatin1Char('\n'))
                         .contains(QStringLiteral(
                             "no host power in the input: each node draws 400 W besides its GPUs")),
                     qPrintable(dialog.reportLines().join(QLatin1Char('\n'))));
        }
        // The wrong format chosen: the file is named with what it looks like (it gave a line
        // of "expected a Node object" per line of the slurm.conf).
        const Scenario before = doc.scenario();
        ClusterImportDialog wrong(&doc);
        wrong.setFormat(QStringLiteral("k8s-nodes"));
        wrong.setFiles({conf});
        QVERIFY(!wrong.runImport());
        QVERIFY2(wrong.error().startsWith(QStringLiteral("%1: this is not k8s-nodes input; it "
                                                         "looks like slurm (")
                                              .arg(conf)),
                 qPrintable(wrong.error()));
        QVERIFY(wrong.error().endsWith(QStringLiteral("): choose slurm as the format")));
        QCOMPARE(wrong.reportLines().size(), 0);
        // A job trace is not a cluster.
        wrong.setFormat(QString());
        wrong.setFiles({QStringLiteral(CB_TEST_DATA "/import/traces/tiresias/60_job.csv")});
        QVERIFY(!wrong.runImport());
        QVERIFY2(wrong.error().endsWith(QStringLiteral(
                     ": this is a job trace (tiresias), not a cluster: import it with Import "
                     "Job Trace")),
                 qPrintable(wrong.error()));
        QVERIFY(doc.scenario() == before);
    }

    void clusterImportRefusesAClusterWithoutGpus()
    {
        // Slurm's example slurm.conf has 32 nodes and no GPU: refused, as the terminal's
        // import refuses it, with the scenario as it was (it replaced the open cluster with
        // 32 CPU-only nodes, on which no job could run).
        PluralsInstalled plurals;
        Document doc;
        doc.setScenario(testing::leafSpineScenario(2, 1, 4));
        const Scenario before = doc.scenario();
        const int steps = doc.undoStack()->count();
        const QString conf =
            QStringLiteral(CB_TEST_DATA "/import/slurm/slurm-22.05.8_etc_slurm.conf.example");
        for (const bool asNew : {false, true}) {
            ClusterImportDialog dialog(&doc);
            dialog.setFormat(QString());
            dialog.setFiles({conf});
            dialog.setReplaceOpenCluster(!asNew);
            QVERIFY(!dialog.runImport());
            QCOMPARE(dialog.error(),
                     QStringLiteral("%1: no node of the 32 imported has a GPU, so no training "
                                    "job runs on the cluster: give the nodes GPUs (slurm.conf: "
                                    "Gres=gpu:N or a gres.conf; a Kubernetes node: "
                                    "nvidia.com/gpu); the scenario is unchanged.")
                         .arg(conf));
            // (the report's notes say why: no Gres=gpu)
            QVERIFY2(!dialog.reportLines().filter(QStringLiteral("no node has a GPU")).isEmpty(),
                     qPrintable(dialog.reportLines().join(QLatin1Char('|'))));
            QVERIFY(doc.scenario() == before);
            QCOMPARE(doc.undoStack()->count(), steps);
        }
    }

    void failedImportLeavesScenarioUntouched()
    {
        Document doc;
        doc.setScenario(testing::leafSpineScenario(2, 1, 4));
        const Scenario before = doc.scenario();
        TraceImportDialog dialog(&doc);
        dialog.setFormat(QStringLiteral("tiresias"));
        dialog.setFiles({QStringLiteral(CB_TEST_DATA "/import/malformed/tiresias_bad_number.csv")});
        const bool imported = dialog.runImport();
        if (imported || dialog.error().isEmpty()) // the importer may skip rather than fail
            QVERIFY(!dialog.skippedRows().isEmpty());
        dialog.setFiles({m_dir.filePath(QStringLiteral("missing.csv"))});
        QVERIFY(!dialog.runImport());
        QVERIFY(dialog.error().contains(QStringLiteral("missing.csv")));
        QVERIFY(doc.scenario() == before || imported);

        Document clean;
        clean.setScenario(testing::leafSpineScenario(2, 1, 4));
        const Scenario original = clean.scenario();
        TraceImportDialog bad(&clean);
        bad.setFormat(QStringLiteral("tiresias"));
        bad.setFiles({m_dir.filePath(QStringLiteral("missing.csv"))});
        QVERIFY(!bad.runImport());
        QVERIFY(clean.scenario() == original);
        QCOMPARE(clean.undoStack()->count(), 0);
        // Cancelled: unchanged as well, even though the file is fine.
        TraceImportDialog cancelled(&clean);
        cancelled.setFormat(QStringLiteral("tiresias"));
        cancelled.setFiles({QStringLiteral(CB_TEST_DATA "/import/traces/tiresias/60_job.csv")});
        cancelled.setCancelImmediately(true);
        QVERIFY(!cancelled.runImport());
        QVERIFY(clean.scenario() == original);

        // A good trace adds its jobs as one undo step.
        TraceImportDialog good(&clean);
        good.setFormat(QStringLiteral("tiresias"));
        good.setFiles({QStringLiteral(CB_TEST_DATA "/import/traces/tiresias/60_job.csv")});
        QVERIFY2(good.runImport(), qPrintable(good.error()));
        QCOMPARE(clean.undoStack()->count(), 1);
        const std::size_t added = clean.scenario().jobs.size() - original.jobs.size();
        QVERIFY(added > 0);
        QCOMPARE(added + std::size_t(good.skippedRows().size()), std::size_t(60));
        clean.undoStack()->undo();
        QVERIFY(clean.scenario() == original);
        clean.undoStack()->redo();
        QCOMPARE(clean.scenario().jobs.size(), original.jobs.size() + added);

        // By default the format is told from the file, as the terminal's import does; a
        // format named wrongly is refused naming the one the file looks like (it said only
        // which columns were missing).
        Document detect;
        detect.setScenario(testing::leafSpineScenario(2, 1, 4));
        TraceImportDialog detected(&detect);
        detected.setFormat(QString()); // (it opens with the last import's format: tiresias)
        detected.setFiles({QStringLiteral(CB_TEST_DATA "/import/traces/tiresias/60_job.csv")});
        QVERIFY2(detected.runImport(), qPrintable(detected.error()));
        QCOMPARE(detect.scenario().jobs.size(), original.jobs.size() + added);
        QVERIFY2(detected.statusText().contains(QStringLiteral("(read as tiresias)")),
                 qPrintable(detected.statusText()));
        TraceImportDialog wrong(&detect);
        wrong.setFormat(QStringLiteral("alibaba-gpu2023"));
        wrong.setFiles({QStringLiteral(CB_TEST_DATA "/import/traces/tiresias/60_job.csv")});
        QVERIFY(!wrong.runImport());
        QVERIFY2(wrong.error().contains(
                     QStringLiteral("this is not alibaba-gpu2023 input; it looks like tiresias")),
                 qPrintable(wrong.error()));
        QCOMPARE(detect.undoStack()->count(), 1);

        // Every row skipped: a failure (the terminal exits 1), not "Added 0 jobs". (32 GPUs:
        // each job of the file asks 48 or more.)
        Document small;
        small.setScenario(testing::leafSpineScenario(2, 1, 2));
        TraceImportDialog none(&small);
        none.setFormat(QString());
        const QString tooBig =
            QStringLiteral(CB_TEST_DATA "/import/malformed/tiresias_all_too_big.csv");
        none.setFiles({tooBig});
        QVERIFY(!none.runImport());
        QVERIFY2(none.error().startsWith(QStringLiteral("No job could be kept from %1 (read as "
                                                        "tiresias): ")
                                             .arg(tooBig)),
                 qPrintable(none.error()));
        QVERIFY2(none.error().endsWith(QStringLiteral(" skipped (see the list); the scenario is "
                                                      "unchanged.")),
                 qPrintable(none.error()));
        QVERIFY(none.statusText().startsWith(QStringLiteral("<b>Import failed:</b> ")));
        QVERIFY(!none.skippedRows().isEmpty());
        QCOMPARE(small.undoStack()->count(), 0);
    }

    // Each dialog opens with what the user last did with it: a generator with the last
    // generated fabric and parameters, a trace import with the last import's format and
    // defaults, browsing in its folder. Only work done is remembered: not a cancelled
    // generator, nor an import that failed.
    void dialogsOpenAsLastUsed()
    {
        QSettings().remove(QStringLiteral("generate"));
        QSettings().remove(QStringLiteral("importTrace"));
        {
            GeneratorDialog fresh;
            QCOMPARE(fresh.kind(), GeneratorDialog::Kind::LeafSpine);
            QCOMPARE(fresh.fatTreeK()->value(), FatTreeParams{}.k);
            QVERIFY(fresh.replaceOpenScenario());
            fresh.setKind(GeneratorDialog::Kind::FatTree);
            fresh.fatTreeK()->setValue(8);
            fresh.leaves()->setValue(7);
            fresh.setReplaceOpenScenario(false);
            fresh.accept();
        }
        {
            GeneratorDialog again;
            QCOMPARE(again.kind(), GeneratorDialog::Kind::FatTree);
            QCOMPARE(again.fatTreeK()->value(), 8);
            QCOMPARE(again.leaves()->value(), 7);
            QVERIFY(!again.replaceOpenScenario());
            QCOMPARE(again.describe(), QStringLiteral("Fat-tree k=8"));
            again.fatTreeK()->setValue(12);
            again.setReplaceOpenScenario(true);
            again.reject(); // cancelled: not remembered
        }
        {
            GeneratorDialog third;
            QCOMPARE(third.fatTreeK()->value(), 8);
            QVERIFY(!third.replaceOpenScenario());
            third.setReplaceOpenScenario(true);
            third.accept();
        }
        QVERIFY(GeneratorDialog().replaceOpenScenario());

        Document doc;
        doc.setScenario(testing::leafSpineScenario(2, 1, 4));
        {
            TraceImportDialog fresh(&doc);
            QCOMPARE(fresh.format(), QString()); // told from the files
            fresh.setFormat(QStringLiteral("tiresias"));
            fresh.findChild<QDoubleSpinBox *>()->setValue(0.25);
            fresh.setFiles({QStringLiteral(CB_TEST_DATA "/import/traces/tiresias/60_job.csv")});
            QVERIFY2(fresh.runImport(), qPrintable(fresh.error()));
        }
        QCOMPARE(QSettings().value(QStringLiteral("importTrace/folder")).toString(),
                 QDir(QStringLiteral(CB_TEST_DATA "/import/traces/tiresias")).absolutePath());
        {
            TraceImportDialog again(&doc);
            QCOMPARE(again.format(), QStringLiteral("tiresias"));
            QCOMPARE(again.secondsPerIteration(), 0.25);
            again.setFormat(QStringLiteral("gavel"));
            again.setFiles({m_dir.filePath(QStringLiteral("missing.trace"))});
            QVERIFY(!again.runImport()); // failed: not remembered
        }
        TraceImportDialog third(&doc);
        QCOMPARE(third.format(), QStringLiteral("tiresias"));
        QCOMPARE(third.defaultModel(), QString::fromStdString(ImportOptions{}.defaultModel));
    }

    void generatorReplacesClusterUndoably()
    {
        Document doc;
        doc.setScenario(testing::leafSpineScenario(2, 1, 4));
        const Scenario original = doc.scenario();
        GeneratorDialog dialog;
        dialog.setKind(GeneratorDialog::Kind::FatTree);
        dialog.fatTreeK()->setValue(4);
        auto cluster = dialog.generate();
        QVERIFY(cluster.ok());
        QCOMPARE(cluster->nodes.size(), std::size_t(16));   // k^3/4
        QCOMPARE(cluster->switches.size(), std::size_t(20)); // k^2 + k^2/4
        QCOMPARE(dialog.describe(), QStringLiteral("Fat-tree k=4"));
        dialog.fatTreeK()->setValue(5); // odd radix: refused with the parameter named
        QVERIFY(!dialog.generate().ok());
        dialog.fatTreeK()->setValue(4);
        replaceCluster(&doc, cluster.value(), dialog.describe());
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Generate Fat-tree k=4"));
        QVERIFY(doc.scenario().cluster == cluster.value());
        QVERIFY(doc.scenario().jobs == original.jobs); // jobs are kept
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == original);
        doc.undoStack()->redo();
        QVERIFY(doc.scenario().cluster == cluster.value());

        dialog.setKind(GeneratorDialog::Kind::LeafSpine);
        dialog.leaves()->setValue(3);
        dialog.spines()->setValue(2);
        dialog.hostsPerLeaf()->setValue(5);
        auto ls = dialog.generate();
        QVERIFY(ls.ok());
        QCOMPARE(ls->nodes.size(), std::size_t(15));
        QCOMPARE(ls->links.size(), std::size_t(15 + 3 * 2));

        dialog.setKind(GeneratorDialog::Kind::Dgx);
        dialog.dgxNodes()->setValue(4);
        auto dgx = dialog.generate();
        QVERIFY(dgx.ok());
        QCOMPARE(dgx->nodes.size(), std::size_t(4));
        QCOMPARE(dgx->nodes.front().gpus, 8);
    }

    void linksAddAndRemoveUndoably()
    {
        Document doc;
        doc.setScenario(testing::leafSpineScenario(2, 1, 2));
        const Scenario original = doc.scenario();
        const std::size_t links = original.cluster.links.size();
        LinkDialog dialog(&doc);
        dialog.setLink(Link{"r001-n01", "r002-n01", 25, 3});
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
        QVERIFY(dialog.addLink());
        QCOMPARE(doc.scenario().cluster.links.size(), links + 1);
        QVERIFY(doc.scenario().cluster.links.back() == (Link{"r001-n01", "r002-n01", 25, 3}));
        // The add is confirmed, and no red "already linked" right after it.
        QCOMPARE(dialog.statusText(), QStringLiteral("Added r001-n01 — r002-n01, 25 Gbit/s, 3 µs"));
        QCOMPARE(dialog.findChild<QLabel *>(QStringLiteral("linkProblem"))->text(), QString());
        // The same pair again (either direction), a self-link, an unknown endpoint, no capacity.
        dialog.setLink(Link{"r002-n01", "r001-n01", 25, 3});
        QCOMPARE(dialog.problem(), QStringLiteral("r002-n01 and r001-n01 are already linked"));
        QVERIFY(!dialog.addLink());
        dialog.setLink(Link{"leaf001", "leaf001", 25, 3});
        QCOMPARE(dialog.problem(), QStringLiteral("a link needs two different endpoints"));
        dialog.setLink(Link{"leaf001", "nowhere", 25, 3});
        QCOMPARE(dialog.problem(), QStringLiteral("no node or switch named \"nowhere\""));
        dialog.setLink(Link{"leaf001", "leaf002", 0, 3});
        QCOMPARE(dialog.problem(), QStringLiteral("capacity must be positive"));
        QCOMPARE(doc.undoStack()->count(), 1);

        // Edit a link: choose it, change its capacity, apply; one undo step.
        dialog.selectLink(0);
        QCOMPARE(dialog.link().a, original.cluster.links[0].a);
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem())); // not "already linked"
        Link changed = original.cluster.links[0];
        changed.capacityGbps = 40;
        dialog.setLink(changed);
        QVERIFY(dialog.applyEdit());
        QCOMPARE(doc.scenario().cluster.links[0].capacityGbps, 40.0);
        QCOMPARE(doc.scenario().cluster.links.size(), links + 1);
        QVERIFY(dialog.statusText().startsWith(QStringLiteral("Changed the link to")));
        QVERIFY(!dialog.applyEdit()); // nothing changed: nothing pushed
        // Editing into a duplicate of another link is refused.
        dialog.setLink(Link{"r001-n01", "r002-n01", 25, 3});
        QCOMPARE(dialog.problem(), QStringLiteral("r001-n01 and r002-n01 are already linked"));
        QVERIFY(!dialog.applyEdit());
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().cluster.links[0].capacityGbps, original.cluster.links[0].capacityGbps);

        QVERIFY(dialog.removeLink(0));
        QCOMPARE(doc.scenario().cluster.links.size(), links);
        QVERIFY(doc.scenario().cluster.links.front() == original.cluster.links[1]);
        QVERIFY(!dialog.removeLink(int(links) + 5));
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == original);
        doc.undoStack()->redo();
        QCOMPARE(doc.scenario().cluster.links.size(), links + 1);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestRunDialogs)
#include "tst_run_dialogs.moc"
