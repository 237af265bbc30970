// The traffic heatmap, the timelines and their wiring: stepping forward then back restores
// the same heatmap cells exactly; log scale blanks zero cells without changing the data;
// simulated buckets and the cumulative matrix add up to the run's figures; tooltips name
// nodes and links with exact bytes; PNG, PDF and SVG export; derived power and cost match
// the simulator's totals; the Gantt chart's bars and rows; the shared scrubber; the wrapped
// topology layout for many racks; and the main window running a policy end to end.

#include "analysis/decision_stepper.h"
#include "analysis/frozen_column_table.h"
#include "analysis/named_ticker.h"
#include "analysis/plot_export.h"
#include "analysis/run_session.h"
#include "analysis/run_timeline.h"
#include "analysis/traffic_heatmap.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "model/gen_fat_tree.h"
#include "plot_checks.h"
#include "runs/decision_replay.h"
#include "runs/timeline_series.h"
#include "test_scenarios.h"
#include "topology/cluster_layout.h"
#include "topology/topology_scene.h"
#include "window/main_window.h"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QWheelEvent>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>
#include <numeric>
#include <set>

using namespace cb;
using namespace cb::views;

class TestAnalysisViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void namedTickerCapsTicks();
    void heatmapForwardThenBack();
    void heatmapSaysWhenNoTrafficYet();
    void heatmapScaleHoldsWhileStepping();
    void steppingShowsThePick();
    void candidatesNeverCutBesideTheFrozenColumns();
    void heatmapLogScale();
    void heatmapCells();
    void heatmapCellsDefault();
    void heatmapPoolsCellsToThePixels();
    void heatmapSimulatedSources();
    void heatmapToolTips();
    void exportFormats();
    void timelineSeriesMatchesRun();
    void ganttBarsAndRows();
    void scrubberDrivesHeatmap();
    void timelineZoomStaysInTheRun();
    void timelineChartsCanBeHidden();
    void timesOfDaysSayTheirFormat();
    void linkUtilisation();
    void layoutWrapsManyRacks();
    void mainWindowRunsPolicy();
    void plotsStayReadable_data();
    void plotsStayReadable();
    void timelineDrawsStrandedGpus();
};

namespace {

std::shared_ptr<const RunSession> session(const Scenario &s, bool simulate,
                                          const std::string &policy = "dltap")
{
    auto r = computeRunSession(s, policy, 1, simulate);
    if (!r)
        qFatal("computeRunSession: %s", r.error().c_str());
    return std::make_shared<const RunSession>(std::move(r.value()));
}

std::vector<double> mapCells(QCPColorMap *map)
{
    std::vector<double> out;
    QCPColorMapData *d = map->data();
    for (int y = 0; y < d->valueSize(); ++y)
        for (int x = 0; x < d->keySize(); ++x)
            out.push_back(d->cell(x, y));
    return out;
}

bool sameBits(const std::vector<double> &a, const std::vector<double> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
            return false;
    return true;
}

double sum(const std::vector<double> &v)
{
    return std::accumulate(v.begin(), v.end(), 0.0);
}

/// Shows `run` in the stepper and the heatmap, the heatmap following the stepper's moves.
void showInBoth(const std::shared_ptr<const RunSession> &run, DecisionStepper &stepper,
                TrafficHeatmap &heatmap)
{
    stepper.setSession(run);
    heatmap.setSession(run, stepper.replay());
    QObject::connect(&stepper, &DecisionStepper::cursorChanged, &heatmap,
                     &TrafficHeatmap::decisionMoved);
}

} // namespace

void TestAnalysisViews::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ClusterBenchTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_analysis_views"));
    QSettings().clear();
}

void TestAnalysisViews::namedTickerCapsTicks()
{
    auto names = [](int n) {
        QStringList out;
        for (int i = 0; i < n; ++i)
            out << QStringLiteral("link %1").arg(i);
        return out;
    };
    QVector<double> ticks, subTicks;
    QVector<QString> labels;
    // A few names: every position, or every k-th once the minimum step says so.
    NamedTicker few(names(10));
    few.generate(QCPRange(-0.5, 9.5), QLocale::c(), QLatin1Char('g'), 6, ticks, &subTicks,
                 &labels);
    QCOMPARE(ticks.size(), 10);
    QCOMPARE(labels.front(), QStringLiteral("link 0"));
    QCOMPARE(labels.back(), QStringLiteral("link 9"));
    few.setMinimumStep(2.5);
    few.generate(QCPRange(-0.5, 9.5), QLocale::c(), QLatin1Char('g'), 6, ticks, &subTicks,
                 &labels);
    QCOMPARE(ticks, (QVector<double>{0, 3, 6, 9}));
    QCOMPARE(labels, (QVector<QString>{"link 0", "link 3", "link 6", "link 9"}));
    QVERIFY(subTicks.isEmpty());
    // 65,536 directed links before the first layout (step 1): at most kMaxTicks, here every
    // 66th of the 65,536 positions, 0 ... 65,472 (993 ticks).
    NamedTicker many(names(65536));
    many.generate(QCPRange(-0.5, 65535.5), QLocale::c(), QLatin1Char('g'), 6, ticks,
                  &subTicks, &labels);
    QCOMPARE(ticks.size(), 993);
    QCOMPARE(ticks[1], 66.0);
    QCOMPARE(labels.back(), QStringLiteral("link 65472"));
}

void TestAnalysisViews::candidatesNeverCutBesideTheFrozenColumns()
{
    // dgx-nvlink under dltap in a laptop's candidates pane: stepping scrolls the deciding
    // plugin into view, and no sliver of a column shows beside the frozen Node and Total
    // columns (an "8/7/2" read as part of the total).
    const auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dgx-nvlink.json");
    QVERIFY(loaded.ok());
    DecisionStepper stepper;
    stepper.setSession(session(loaded.value(), false, "dltap"));
    stepper.resize(440, 760);
    stepper.show();
    QVERIFY(QTest::qWaitForWindowExposed(&stepper));
    auto *table = qobject_cast<FrozenColumnTableView *>(stepper.tableView());
    QVERIFY(table);
    QStringList cut;
    for (int c = 0; c < stepper.decisionCount(); ++c) {
        stepper.seek(c);
        QCoreApplication::processEvents();
        int edge = 0;
        for (int k = 0; k < table->frozenColumns(); ++k)
            edge += table->columnWidth(k);
        const int under = table->columnAt(edge);
        if (under < table->frozenColumns())
            continue;
        // (Mostly hidden, it is covered by the frozen columns' pane; else most of it shows.)
        const int left = table->columnViewportPosition(under);
        const int shown = left + table->columnWidth(under) - edge;
        const int covered = table->findChild<QTableView *>()->geometry().width() - edge;
        if (left < edge && shown > covered && 2 * shown < table->columnWidth(under))
            cut << QStringLiteral("decision %1: column %2 at %3..%4, frozen to %5")
                       .arg(c + 1)
                       .arg(under)
                       .arg(left)
                       .arg(left + table->columnWidth(under))
                       .arg(edge);
    }
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
}

void TestAnalysisViews::heatmapSaysWhenNoTrafficYet()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), false, "k8s-default");
    DecisionStepper stepper;
    TrafficHeatmap heatmap;
    showInBoth(run, stepper, heatmap);
    auto *summary = heatmap.findChild<QLabel *>(QStringLiteral("heatmapSummary"));
    auto *scale = qobject_cast<QCPColorScale *>(heatmap.plot()->plotLayout()->element(0, 1));
    QVERIFY(summary && scale);
    // The first decision places a PS alone: no traffic, and no scale made up for it.
    stepper.seek(0);
    QCOMPARE(sum(heatmap.values()), 0.0);
    QCOMPARE(summary->text(),
             QStringLiteral("Decision 1: no traffic yet between the tasks placed"));
    QVERIFY(!scale->axis()->tickLabels());
    stepper.last();
    QVERIFY(sum(heatmap.values()) > 0);
    QVERIFY2(summary->text().contains(QStringLiteral(" per iteration in total")),
             qPrintable(summary->text()));
    // (its cells without traffic are blank, not the scale's "0 B" colour: said)
    QVERIFY2(summary->text().endsWith(QStringLiteral(" · blank: no traffic")),
             qPrintable(summary->text()));
    QVERIFY(scale->axis()->tickLabels());
    stepper.seek(0); // and back
    QVERIFY(!scale->axis()->tickLabels());
}

void TestAnalysisViews::heatmapScaleHoldsWhileStepping()
{
    // Stepping changes the cells of the job placed, not the colours of the others: the scale
    // spans the run's whole placement at every decision, linear and log, per node and per
    // rack.
    auto run = session(testing::leafSpineScenario(4, 2, 4), false, "k8s-default");
    DecisionStepper stepper;
    TrafficHeatmap heatmap;
    showInBoth(run, stepper, heatmap);
    for (const bool log : {false, true})
        for (const auto cells : {TrafficHeatmap::Cells::Node, TrafficHeatmap::Cells::Rack}) {
            heatmap.setLogScale(log);
            heatmap.setCells(cells);
            stepper.last();
            const QCPRange whole = heatmap.colorMap()->dataRange();
            QVERIFY(whole.upper > whole.lower && whole.lower >= 0);
            double peak = 0;
            for (int c = 0; c < stepper.decisionCount(); ++c) {
                stepper.seek(c);
                QCOMPARE(heatmap.colorMap()->dataRange(), whole);
                for (double v : heatmap.values())
                    peak = std::max(peak, v);
            }
            // The scale's top is the busiest cell of any decision (a job partly placed may
            // send more between two nodes than when whole).
            QCOMPARE(whole.upper, peak);
        }
    // Another source and back: the same scale.
    const QCPRange before = heatmap.colorMap()->dataRange();
    heatmap.setSource(TrafficHeatmap::Source::Links);
    heatmap.setSource(TrafficHeatmap::Source::Decision);
    QCOMPARE(heatmap.colorMap()->dataRange(), before);
}

void TestAnalysisViews::steppingShowsThePick()
{
    // 16 nodes: more candidates than a short stepper shows.
    auto run = session(testing::leafSpineScenario(4, 2, 4), false, "k8s-default");
    DecisionStepper stepper;
    stepper.resize(520, 420);
    stepper.setSession(run);
    stepper.show();
    QVERIFY(QTest::qWaitForWindowExposed(&stepper));
    QTableView *table = stepper.tableView();
    QScrollBar *bar = table->verticalScrollBar();
    QCoreApplication::processEvents();
    QVERIFY2(bar->maximum() > 0, "the candidates fit: nothing to scroll");
    // Scrolled down to look at the last candidates, then a step: the new pick is in view.
    bar->setValue(bar->maximum());
    stepper.step();
    QCOMPARE(bar->value(), 0);
    QCOMPARE(table->rowAt(0), 0); // (the chosen node leads the table)
}

void TestAnalysisViews::heatmapForwardThenBack()
{
    // 16 nodes in 4 racks, all jobs placed by k8s-default.
    auto run = session(testing::leafSpineScenario(4, 2, 4), false, "k8s-default");
    DecisionStepper stepper;
    TrafficHeatmap heatmap;
    showInBoth(run, stepper, heatmap);
    QCOMPARE(heatmap.columns(), 16);
    QCOMPARE(heatmap.rows(), 16);
    const int n = stepper.decisionCount();
    QVERIFY(n >= 15);
    int changedSomewhere = 0;
    for (int c = 0; c < n; ++c) {
        stepper.seek(c);
        const std::vector<double> values = heatmap.values();
        const std::vector<double> cells = mapCells(heatmap.colorMap());
        QVERIFY(values == stepper.replay()->denseMatrix());
        for (int f = c + 1; f < std::min(n, c + 5); ++f)
            stepper.step();
        changedSomewhere += heatmap.values() != values;
        while (stepper.cursor() > c)
            stepper.back();
        QVERIFY2(heatmap.values() == values, qPrintable(QStringLiteral("decision %1").arg(c)));
        QVERIFY(sameBits(mapCells(heatmap.colorMap()), cells));
    }
    QVERIFY(changedSomewhere > 0); // the forward steps did change the map
    {
        // The map keeps its size from one decision to the next: the colour bar's labels
        // ("5 GB", "2.5 GB", "819.2 MB") change width, the room kept for them does not.
        heatmap.resize(520, 400);
        heatmap.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        auto *plot = heatmap.findChild<QCustomPlot *>(QStringLiteral("heatmapPlot"));
        QVERIFY(plot);
        QSet<int> widths;
        QSet<QString> labels;
        for (int c = 0; c < n; ++c) {
            stepper.seek(c);
            plot->replot();
            widths.insert(plot->axisRect()->rect().width());
            for (const QString &l :
                 heatmap.findChild<QCPColorScale *>()->axis()->tickVectorLabels())
                labels.insert(l);
        }
        QVERIFY2(labels.size() > 3, qPrintable(QStringList(labels.values()).join(u',')));
        QCOMPARE(widths.size(), 1);
    }
    // Jumping (first, last) goes through the same cells as stepping.
    stepper.last();
    const std::vector<double> atEnd = heatmap.values();
    stepper.first();
    stepper.last();
    QVERIFY(heatmap.values() == atEnd);
    // All placed: 819.2 MB (PS) + 18.76 GB (ring) per iteration.
    QCOMPARE(sum(atEnd), 19'579'200'000.0);
}

void TestAnalysisViews::heatmapLogScale()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), false);
    DecisionStepper stepper;
    stepper.setSession(run);
    stepper.last();
    TrafficHeatmap heatmap;
    heatmap.setSession(run, stepper.replay());
    const std::vector<double> values = heatmap.values();
    int zeros = 0;
    for (double v : values)
        zeros += v == 0;
    QVERIFY(zeros > 0 && zeros < int(values.size()));
    heatmap.setLogScale(true);
    QVERIFY(heatmap.values() == values);
    const std::vector<double> cells = mapCells(heatmap.colorMap());
    for (std::size_t i = 0; i < values.size(); ++i)
        QVERIFY(values[i] == 0 ? std::isnan(cells[i]) : cells[i] == values[i]);
    QCOMPARE(heatmap.colorMap()->dataScaleType(), QCPAxis::stLogarithmic);
    double lowPositive = 1e300;
    for (double v : values)
        if (v > 0)
            lowPositive = std::min(lowPositive, v);
    QCOMPARE(heatmap.colorMap()->dataRange().lower, lowPositive);
    heatmap.setLogScale(false);
    // On the linear scale too, a pair without traffic is blank, not the lowest colour (the
    // first small flows looked like none).
    const std::vector<double> linear = mapCells(heatmap.colorMap());
    for (std::size_t i = 0; i < values.size(); ++i)
        QVERIFY(values[i] == 0 ? std::isnan(linear[i]) : linear[i] == values[i]);
    QCOMPARE(heatmap.colorMap()->dataRange().lower, 0.0);
}

void TestAnalysisViews::heatmapCellsDefault()
{
    // 160 nodes in 20 racks: until the user chooses, a cell is a rack pair (160 x 160 node
    // cells leave a node pair a pixel or less in the dock); choosing per node shows them, and
    // the choice holds for the next run shown.
    const Scenario racks20 = testing::leafSpineScenario(20, 2, 8);
    DecisionStepper stepper;
    TrafficHeatmap heatmap;
    // Shown with each policy in turn: racks first, then the choice of nodes kept.
    QList<int> columns;
    for (const char *policy : {"k8s-default", "dltap"}) {
        showInBoth(session(racks20, false, policy), stepper, heatmap);
        columns << heatmap.columns();
        if (columns.size() == 1) {
            QCOMPARE(heatmap.shownCells(), TrafficHeatmap::Cells::Rack);
            auto *cellsBox = heatmap.findChild<QComboBox *>(QStringLiteral("heatmapCells"));
            QCOMPARE(cellsBox->currentText(), QStringLiteral("Per rack"));
            emit cellsBox->activated(cellsBox->findData(int(TrafficHeatmap::Cells::Node)));
            columns << heatmap.columns();
        }
    }
    QCOMPARE(columns, (QList<int>{20, 160, 160}));
    QCOMPARE(heatmap.shownCells(), TrafficHeatmap::Cells::Node);
}

void TestAnalysisViews::heatmapPoolsCellsToThePixels()
{
    // 160 nodes per node in a plot a hundred-odd pixels tall: the drawn blocks pool the
    // cells (their largest) so that each is at least a pixel, and the summary says so; the
    // values per cell are kept whole, and the largest is drawn.
    const Scenario racks20 = testing::leafSpineScenario(20, 2, 8);
    DecisionStepper stepper;
    TrafficHeatmap heatmap;
    heatmap.setCells(TrafficHeatmap::Cells::Node);
    heatmap.resize(420, 260);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    showInBoth(session(racks20, false, "k8s-default"), stepper, heatmap);
    stepper.last();
    QTRY_VERIFY(heatmap.colorMap()->data()->valueSize() <=
                heatmap.plot()->axisRect()->rect().height());
    const QRect area = heatmap.plot()->axisRect()->rect();
    QVERIFY2(area.height() < 160, qPrintable(QString::number(area.height())));
    QCOMPARE(heatmap.rows(), 160);
    QVERIFY(heatmap.colorMap()->data()->keySize() <= area.width());
    QVERIFY(heatmap.colorMap()->data()->valueSize() < 160);
    auto *summary = heatmap.findChild<QLabel *>(QStringLiteral("heatmapSummary"));
    QVERIFY(summary);
    QVERIFY2(summary->text().contains(QStringLiteral("a drawn cell is the largest of")),
             qPrintable(summary->text()));
    const double largest = *std::max_element(heatmap.values().begin(), heatmap.values().end());
    QVERIFY(largest > 0);
    double drawn = 0;
    QCPColorMapData *data = heatmap.colorMap()->data();
    for (int x = 0; x < data->keySize(); ++x)
        for (int y = 0; y < data->valueSize(); ++y)
            if (!std::isnan(data->cell(x, y)))
                drawn = std::max(drawn, data->cell(x, y));
    QCOMPARE(drawn, largest);
    // Room for every cell again: one block per cell.
    heatmap.resize(900, 900);
    QTRY_COMPARE(heatmap.colorMap()->data()->valueSize(), 160);
    QVERIFY(!summary->text().contains(QStringLiteral("a drawn cell is the largest of")));
}

void TestAnalysisViews::heatmapCells()
{
    // 16 nodes in 4 racks of 4 (a leaf-spine: no pods), all jobs placed by k8s-default; the
    // user picks "Per rack" in the cells box.
    auto run = session(testing::leafSpineScenario(4, 2, 4), true, "k8s-default");
    DecisionStepper stepper;
    TrafficHeatmap heatmap;
    showInBoth(run, stepper, heatmap);
    auto *box = heatmap.findChild<QComboBox *>(QStringLiteral("heatmapCells"));
    QVERIFY(box);
    QVERIFY(box->isEnabled());
    QCOMPARE(box->count(), 2); // per node, per rack: a leaf-spine has no pods
    QCOMPARE(box->currentText(), QStringLiteral("Per node"));
    QCOMPARE(heatmap.columns(), 16);
    stepper.last();
    const std::vector<double> perNode = heatmap.values();

    emit box->activated(box->findData(int(TrafficHeatmap::Cells::Rack)));
    QCOMPARE(heatmap.cells(), TrafficHeatmap::Cells::Rack);
    QVERIFY(heatmap.grouped());
    QCOMPARE(heatmap.columns(), 4);
    QCOMPARE(heatmap.rows(), 4);
    // Each rack pair's cell is the sum of its 4 x 4 node pairs.
    const NodeGroups &racks = stepper.replay()->groups();
    QCOMPARE(racks.count(), 4);
    std::vector<double> expected(16, 0.0);
    for (int a = 0; a < 16; ++a)
        for (int b = 0; b < 16; ++b)
            expected[std::size_t(racks.groupOf[std::size_t(a)] * 4 +
                                 racks.groupOf[std::size_t(b)])] +=
                perNode[std::size_t(a * 16 + b)];
    for (std::size_t i = 0; i < expected.size(); ++i)
        QCOMPARE(heatmap.values()[i], expected[i]);
    QCOMPARE(sum(heatmap.values()), 19'579'200'000.0); // all placed, as per node
    QVERIFY(heatmap.findChild<QLabel *>(QStringLiteral("heatmapSummary"))
                ->text()
                .contains(QStringLiteral("per rack: 16 nodes in 4 racks")));
    // Stepping back and forth per rack gives the same cells again.
    const std::vector<double> atEnd = heatmap.values();
    stepper.first();
    QCOMPARE(sum(heatmap.values()), 0.0);
    stepper.last();
    QVERIFY(heatmap.values() == atEnd);

    // The link view has a row per link: the box is disabled, and back with the nodes.
    heatmap.setSource(TrafficHeatmap::Source::Links);
    QVERIFY(!heatmap.grouped());
    QVERIFY(!box->isEnabled());
    heatmap.setSource(TrafficHeatmap::Source::Cumulative);
    QVERIFY(box->isEnabled());
    QCOMPARE(heatmap.columns(), 4);
    heatmap.setTime(run->result->makespanSeconds); // the whole run
    double total = 0;
    for (const auto &[pair, bytes] : run->result->pairBytes)
        total += bytes;
    QVERIFY(total > 0);
    QCOMPARE(sum(heatmap.values()), total);
    // Asked for pods on a network without them, it shows racks.
    heatmap.setCells(TrafficHeatmap::Cells::Pod);
    QCOMPARE(heatmap.shownCells(), TrafficHeatmap::Cells::Rack);
    QCOMPARE(heatmap.columns(), 4);

    // A k = 4 fat-tree: 16 hosts, 8 racks (edge switches) in 4 pods, the same jobs. The
    // choice (pods) holds for the next run shown, which has pods.
    Scenario tree = testing::leafSpineScenario(1, 1, 1);
    FatTreeParams params;
    params.k = 4;
    params.host.gpuType = "V100";
    tree.cluster = generateFatTree(params).value();
    tree.cluster.gpuTypes = testing::leafSpineScenario(1, 1, 1).cluster.gpuTypes;
    auto treeRun = session(tree, false, "k8s-default");
    DecisionStepper treeStepper;
    heatmap.setSource(TrafficHeatmap::Source::Decision);
    showInBoth(treeRun, treeStepper, heatmap);
    QCOMPARE(heatmap.shownCells(), TrafficHeatmap::Cells::Pod);
    QCOMPARE(box->count(), 3);
    QCOMPARE(box->currentText(), QStringLiteral("Per pod"));
    QCOMPARE(heatmap.columns(), 4);
    QCOMPARE(heatmap.cellText(2, 1).section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("pod-1 (4 nodes) → pod-2 (4 nodes)"));
    treeStepper.last();
    const std::vector<double> perPod = heatmap.values();
    // Per node, then summed by the pod in each host's label.
    heatmap.setCells(TrafficHeatmap::Cells::Node);
    QCOMPARE(heatmap.columns(), 16);
    const std::vector<double> treeNodes = heatmap.values();
    std::vector<double> byLabel(16, 0.0);
    std::map<std::string, int> podIndex; // "pod-0" ... "pod-3", in host order
    auto podOf = [&](int n) {
        const std::string &pod =
            tree.cluster.nodes[std::size_t(n)].labels.at("clusterbench.io/pod");
        return podIndex.emplace(pod, int(podIndex.size())).first->second;
    };
    for (int a = 0; a < 16; ++a)
        for (int b = 0; b < 16; ++b)
            byLabel[std::size_t(podOf(a) * 4 + podOf(b))] += treeNodes[std::size_t(a * 16 + b)];
    for (std::size_t i = 0; i < byLabel.size(); ++i)
        QCOMPARE(perPod[i], byLabel[i]);
    QVERIFY(sum(perPod) > 0);
    // Per pod, every path to a decision gives the same bits.
    heatmap.setCells(TrafficHeatmap::Cells::Pod);
    QVERIFY(heatmap.values() == perPod);
    const int n = treeStepper.decisionCount();
    for (int c = 0; c < n; c += 3) {
        treeStepper.seek(c);
        const std::vector<double> here = heatmap.values();
        treeStepper.last();
        treeStepper.seek(c);
        QVERIFY2(heatmap.values() == here, qPrintable(QStringLiteral("decision %1").arg(c)));
    }
}

void TestAnalysisViews::heatmapSimulatedSources()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), true);
    const RunResult &r = *run->result;
    QVERIFY(r.series.pairBytes.size() >= 2);
    DecisionStepper stepper;
    stepper.setSession(run);
    TrafficHeatmap heatmap;
    heatmap.setSession(run, stepper.replay());
    // One bucket: exactly that bucket's pairs.
    heatmap.setSource(TrafficHeatmap::Source::Bucket);
    const double bs = r.series.bucketSeconds;
    heatmap.setTime(1.5 * bs);
    QCOMPARE(heatmap.bucket(), 1);
    double expected = 0;
    for (const auto &[pair, bytes] : r.series.pairBytes[1]) {
        expected += bytes;
        QCOMPARE(heatmap.value(pair.second, pair.first), bytes);
    }
    QCOMPARE(sum(heatmap.values()), expected);
    // Cumulative to the last bucket: the run's whole node x node matrix.
    heatmap.setSource(TrafficHeatmap::Source::Cumulative);
    heatmap.setTime(r.makespanSeconds);
    for (const auto &[pair, bytes] : r.pairBytes)
        QVERIFY(std::abs(heatmap.value(pair.second, pair.first) - bytes) <= 1e-9 * bytes);
    // Links: only loaded links, utilisation = bytes / (capacity x bucket).
    heatmap.setSource(TrafficHeatmap::Source::Links);
    int loaded = 0;
    for (double b : r.linkBytes)
        loaded += b > 0;
    QCOMPARE(heatmap.rows(), loaded);
    QCOMPARE(heatmap.columns(), int(r.series.linkBytes.size()));
    double busiest = 0;
    for (double v : heatmap.values()) {
        QVERIFY(v >= 0 && v <= 1 + 1e-9);
        busiest = std::max(busiest, v);
    }
    QVERIFY(busiest > 0);
}

void TestAnalysisViews::heatmapToolTips()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), false);
    DecisionStepper stepper;
    stepper.setSession(run);
    stepper.last();
    TrafficHeatmap heatmap;
    heatmap.setSession(run, stepper.replay());
    int a = -1, b = -1;
    for (int y = 0; y < 4 && a < 0; ++y)
        for (int x = 0; x < 4; ++x)
            if (x != y && heatmap.value(x, y) > 0) {
                a = y;
                b = x;
                break;
            }
    QVERIFY(a >= 0);
    const QString text = heatmap.cellText(b, a);
    QVERIFY2(text.startsWith(QString::fromStdString(run->scenario.cluster.nodes[std::size_t(a)].id) +
                             QStringLiteral(" → ") +
                             QString::fromStdString(run->scenario.cluster.nodes[std::size_t(b)].id)),
             qPrintable(text));
    QLocale c(QLocale::English);
    QVERIFY2(text.contains(c.toString(heatmap.value(b, a), 'f', 0) + QStringLiteral(" bytes")),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("per iteration")));
    // The diagonal: traffic between tasks on one node, named once, with no stray argument
    // (it read "node-02978 MB" and warned about QString::arg).
    QTest::failOnWarning(QRegularExpression(QStringLiteral("QString::arg")));
    int diagonal = -1;
    for (int n = 0; n < heatmap.rows() && diagonal < 0; ++n)
        if (heatmap.value(n, n) > 0)
            diagonal = n;
    QVERIFY(diagonal >= 0);
    QCOMPARE(heatmap.cellText(diagonal, diagonal),
             QString::fromStdString(run->scenario.cluster.nodes[std::size_t(diagonal)].id) +
                 QStringLiteral(" (within the node)\n") + formatBytesExact(heatmap.value(diagonal, diagonal)) +
                 QStringLiteral(" per iteration"));
    QCOMPARE(heatmap.cellText(0, 0), QStringLiteral("r001-n01 (within the node)\n14.2 GB "
                                                    "(14,172,400,000 bytes) per iteration"));
    QCOMPARE(formatBytesExact(1'230'000'000), QStringLiteral("1.23 GB (1,230,000,000 bytes)"));
    QCOMPARE(formatBytesExact(512), QStringLiteral("512 B"));
    QCOMPARE(formatBytesExact(819'200'000), QStringLiteral("819 MB (819,200,000 bytes)"));
}

void TestAnalysisViews::exportFormats()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), false);
    DecisionStepper stepper;
    stepper.setSession(run);
    stepper.last();
    TrafficHeatmap heatmap;
    heatmap.resize(640, 520);
    heatmap.setSession(run, stepper.replay());
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("h.png"));
    const QString pdf = dir.filePath(QStringLiteral("h.pdf"));
    const QString svg = dir.filePath(QStringLiteral("h.svg"));
    QVERIFY(exportPlot(heatmap.plot(), png, QSize(600, 500)).ok());
    QVERIFY(exportPlot(heatmap.plot(), pdf, QSize(600, 500)).ok());
    QVERIFY(exportPlot(heatmap.plot(), svg, QSize(600, 500)).ok());
    QImage image(png);
    QCOMPARE(image.size(), QSize(600, 500));
    // The map is drawn: more than a handful of distinct colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4)
            colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 8);
    QFile p(pdf), s(svg);
    QVERIFY(p.open(QIODevice::ReadOnly) && s.open(QIODevice::ReadOnly));
    QVERIFY(p.read(5) == "%PDF-");
    const QByteArray svgText = s.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.contains("</svg>"));
    const auto bad = exportPlot(heatmap.plot(), dir.filePath(QStringLiteral("h.bmpx")));
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().find("h.bmpx") != std::string::npos);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("h.bmpx"))));
}

void TestAnalysisViews::timelineSeriesMatchesRun()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), true);
    const RunResult &r = *run->result;
    const TimelineSeries t = timelineSeries(run->scenario, r);
    QCOMPARE(t.buckets(), int(r.series.gpuBusySeconds.size()));
    QVERIFY(t.buckets() > 0);
    // No failures: the derived energy and cost add up to the simulator's totals.
    QVERIFY2(std::abs(t.energyKWh.back() - r.energyKWh) <= 1e-9 * r.energyKWh,
             qPrintable(QStringLiteral("%1 vs %2").arg(t.energyKWh.back()).arg(r.energyKWh)));
    QVERIFY2(std::abs(t.cost.back() - r.cost) <= 1e-9 * r.cost,
             qPrintable(QStringLiteral("%1 vs %2").arg(t.cost.back()).arg(r.cost)));
    // Utilisation: busy GPU-seconds / (32 GPUs x bucket), never above 1; the last bucket
    // counts only up to the makespan.
    for (int k = 0; k < t.buckets(); ++k) {
        const double bs = r.series.bucketSeconds;
        const double width = std::min((k + 1) * bs, r.makespanSeconds) - k * bs;
        QCOMPARE(t.gpuUtilisation[std::size_t(k)],
                 r.series.gpuBusySeconds[std::size_t(k)] / (32 * width));
        QVERIFY(t.gpuUtilisation[std::size_t(k)] <= 1 + 1e-12);
    }
    // Idle cluster draw: 4 nodes x (400 W + 8 x 50 W) = 3.2 kW; busy never below it.
    for (int k = 0; k < t.buckets(); ++k)
        QVERIFY(t.powerWatts[std::size_t(k)] >= 3200 - 1e-9);
    QVERIFY(std::is_sorted(t.cost.begin(), t.cost.end()));
}

void TestAnalysisViews::ganttBarsAndRows()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), true);
    RunTimeline timeline;
    timeline.resize(900, 600);
    timeline.setSession(run);
    // One bar per task: 2 ps + 4 workers + 8 workers + 1 single.
    QCOMPARE(timeline.bars().size(), std::size_t(15));
    std::set<int> nodes;
    for (const GanttBar &b : timeline.bars()) {
        nodes.insert(b.node);
        const JobRun &jr = run->result->jobs[std::size_t(b.job)];
        QCOMPARE(b.start, *jr.startSeconds);
        QCOMPARE(b.end, *jr.finishSeconds);
        const Job *job = run->scenario.job(jr.id);
        QVERIFY(job);
    }
    QCOMPARE(timeline.rowNodes(), std::vector<int>(nodes.begin(), nodes.end()));
    // A tooltip over the middle of a GPU bar names the job and its node.
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    timeline.plot()->replot();
    const GanttBar &bar = timeline.bars().back(); // the single job's one GPU task
    auto *rect = timeline.plot()->axisRects().first();
    const int row = int(std::find(timeline.rowNodes().begin(), timeline.rowNodes().end(), bar.node) -
                        timeline.rowNodes().begin());
    const double gpus = run->scenario.cluster.nodes[std::size_t(bar.node)].gpus;
    const double laneCentre = row - 0.42 + (bar.gpus.front() + 0.5) * 0.84 / gpus;
    const QPoint pos(int(rect->axis(QCPAxis::atBottom)->coordToPixel((bar.start + bar.end) / 2)),
                     int(rect->axis(QCPAxis::atLeft)->coordToPixel(laneCentre)));
    const QString tip = timeline.toolTipAt(pos);
    QVERIFY2(tip.startsWith(QString::fromStdString(run->result->jobs[std::size_t(bar.job)].id) +
                            QStringLiteral(" on ") +
                            QString::fromStdString(run->scenario.cluster.nodes[std::size_t(bar.node)].id)),
             qPrintable(tip));
}

void TestAnalysisViews::scrubberDrivesHeatmap()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), true);
    RunTimeline timeline;
    TrafficHeatmap heatmap;
    timeline.setSession(run);
    heatmap.setSession(run, nullptr);
    heatmap.setSource(TrafficHeatmap::Source::Bucket);
    QObject::connect(&timeline, &RunTimeline::timeChanged, &heatmap, &TrafficHeatmap::setTime);
    QSignalSpy spy(&timeline, &RunTimeline::timeChanged);
    const double bs = run->result->series.bucketSeconds;
    timeline.setTime(2.5 * bs);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(heatmap.time(), 2.5 * bs);
    QCOMPARE(heatmap.bucket(), 2);
    timeline.setTime(1e18); // clamped to the end of the run
    QCOMPARE(timeline.time(), run->result->makespanSeconds);
    QCOMPARE(heatmap.bucket(), int(run->result->series.pairBytes.size()) - 1);
}

void TestAnalysisViews::timelineZoomStaysInTheRun()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), true);
    RunTimeline timeline;
    timeline.resize(600, 300); // shorter than the charts: the dock scrolls
    timeline.setSession(run);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QCustomPlot *plot = timeline.plot();
    QCPAxis *time = plot->axisRect(0)->axis(QCPAxis::atBottom);
    const double end = run->result->makespanSeconds;
    QCOMPARE(time->range(), QCPRange(0, end));
    QScrollBar *scroll = timeline.scrollArea()->verticalScrollBar();
    QVERIFY(scroll->maximum() > 0);
    QCOMPARE(scroll->value(), 0);
    const QPointF at = plot->axisRect(0)->rect().center();
    auto wheel = [&](Qt::KeyboardModifiers modifiers, int notches) {
        QWheelEvent e(at, plot->mapToGlobal(at), QPoint(), QPoint(0, -120 * notches), Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(plot, &e);
    };
    // A plain wheel scrolls the dock down to the power and cost charts; the time stays.
    wheel(Qt::NoModifier, 3);
    QVERIFY(scroll->value() > 0);
    QCOMPARE(time->range(), QCPRange(0, end));
    // Ctrl+wheel zooms; out, it stops at the whole run (it went on into negative time).
    wheel(Qt::ControlModifier, -2);
    QVERIFY(time->range().size() < end);
    QVERIFY(time->range().lower >= 0 && time->range().upper <= end);
    wheel(Qt::ControlModifier, 10);
    QCOMPARE(time->range(), QCPRange(0, end));
    // Panned past the start, it stops at 0; every chart shows the same time.
    time->setRange(QCPRange(-0.4 * end, 0.1 * end));
    QCOMPARE(time->range().lower, 0.0);
    QVERIFY(std::abs(time->range().upper - 0.5 * end) <= 1e-9 * end); // (its width kept)
    QCOMPARE(plot->axisRect(2)->axis(QCPAxis::atBottom)->range(), time->range());
    // A double-click shows the whole run again.
    QTest::mouseDClick(plot, Qt::LeftButton, Qt::NoModifier, at.toPoint());
    QCOMPARE(time->range(), QCPRange(0, end));
}

void TestAnalysisViews::timesOfDaysSayTheirFormat()
{
    // The DLTAP testbed runs for days: the time axis's title says days ("5d 0:00:00" ticks
    // under "(h:mm:ss)" before), and the header keeps each value whole when it wraps ("mean
    // JCT 4d" on one line, "5:32:10" on the next).
    auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
    QVERIFY(s.ok());
    auto run = session(s.value(), true, "dltap");
    QVERIFY(run->result->makespanSeconds > 86400);
    RunTimeline timeline;
    timeline.setSession(run);
    QCustomPlot *plot = timeline.plot();
    QCOMPARE(plot->axisRects().back()->axis(QCPAxis::atBottom)->label(),
             QStringLiteral("simulated time (d h:mm:ss)"));
    auto *summary = timeline.findChild<QLabel *>(QStringLiteral("timelineSummary"));
    QVERIFY(summary);
    const QString jct = formatDuration(run->result->meanJctSeconds());
    QVERIFY(jct.contains(QLatin1Char(' ')));
    QVERIFY2(summary->text().contains(QStringLiteral("mean JCT ") + unbroken(jct)),
             qPrintable(summary->text()));
    QCOMPARE(durationFormatName(86399), QStringLiteral("h:mm:ss"));
    QCOMPARE(durationFormatName(86400), QStringLiteral("d h:mm:ss"));
}

void TestAnalysisViews::timelineChartsCanBeHidden()
{
    using Chart = RunTimeline::Chart;
    // (the choice is a setting: gone after the test, even a failed one, so that no later
    // timeline starts with charts hidden)
    struct ForgetChoice
    {
        ~ForgetChoice() { QSettings().remove(QStringLiteral("timeline/charts")); }
    } forget;
    auto run = session(testing::leafSpineScenario(2, 1, 2), true);
    RunTimeline timeline;
    timeline.resize(600, 300); // a laptop's dock: the three charts do not fit
    timeline.setSession(run);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QCustomPlot *plot = timeline.plot();
    QScrollBar *scroll = timeline.scrollArea()->verticalScrollBar();
    QCOMPARE(plot->axisRects().size(), 3);
    QVERIFY(scroll->maximum() > 0);
    // Hiding the Gantt chart leaves use and cost, in that order; the time's title goes under
    // the lowest.
    timeline.chartAction(Chart::Jobs)->trigger();
    QVERIFY(!timeline.isChartShown(Chart::Jobs));
    QCOMPARE(plot->axisRects().size(), 2);
    QCOMPARE(plot->axisRect(0)->axis(QCPAxis::atLeft)->label(), QStringLiteral("GPUs busy (%)"));
    QCOMPARE(plot->axisRect(1)->axis(QCPAxis::atBottom)->label(),
             QStringLiteral("simulated time (h:mm:ss)"));
    // The Gantt chart alone fits the dock: nothing to scroll; its axis takes the title.
    timeline.chartAction(Chart::Jobs)->trigger();
    timeline.chartAction(Chart::Use)->trigger();
    timeline.chartAction(Chart::Cost)->trigger();
    QCoreApplication::processEvents();
    QCOMPARE(plot->axisRects().size(), 1);
    QCOMPARE(plot->axisRect(0)->axis(QCPAxis::atLeft)->label(), QString());
    QCOMPARE(plot->axisRect(0)->axis(QCPAxis::atBottom)->label(),
             QStringLiteral("simulated time (h:mm:ss)"));
    QCOMPARE(scroll->maximum(), 0);
    // The last chart shown stays.
    QVERIFY(!timeline.chartAction(Chart::Jobs)->isEnabled());
    timeline.setChartShown(Chart::Jobs, false);
    QVERIFY(timeline.isChartShown(Chart::Jobs));
    QVERIFY(timeline.chartAction(Chart::Jobs)->isChecked());
    // A shift-click on the chart shown moves the scrubber to the time under it.
    plot->replot();
    QCPAxis *time = plot->axisRect(0)->axis(QCPAxis::atBottom);
    const double end = run->result->makespanSeconds;
    const QPoint at(int(time->coordToPixel(0.25 * end)), plot->axisRect(0)->rect().center().y());
    QTest::mouseClick(plot, Qt::LeftButton, Qt::ShiftModifier, at);
    QVERIFY2(std::abs(timeline.time() - time->pixelToCoord(at.x())) <= 1e-9 * end,
             qPrintable(QString::number(timeline.time())));
    // Nothing of a hidden chart is drawn; the choice is kept for the next timeline.
    for (int i = 0; i < plot->graphCount(); ++i)
        QVERIFY2(!plot->graph(i)->visible(), qPrintable(plot->graph(i)->name()));
    RunTimeline next;
    QVERIFY(next.isChartShown(Chart::Jobs));
    QVERIFY(!next.isChartShown(Chart::Use));
    QVERIFY(!next.isChartShown(Chart::Cost));
    QVERIFY(!next.chartAction(Chart::Use)->isChecked());
    next.setChartShown(Chart::Use, true);
    next.setChartShown(Chart::Cost, true);
    QCOMPARE(RunTimeline().plot()->axisRects().size(), 3);
}

void TestAnalysisViews::linkUtilisation()
{
    auto run = session(testing::leafSpineScenario(2, 1, 2), true);
    const RunResult &r = *run->result;
    const double t = 0.5 * r.series.bucketSeconds;
    const std::vector<double> u = linkUtilisationAt(run->scenario, r, t);
    QCOMPARE(u.size(), run->scenario.cluster.links.size());
    double busiest = 0;
    for (std::size_t l = 0; l < u.size(); ++l) {
        const auto &bucket = r.series.linkBytes[0];
        double expected = 0;
        for (int dir : {0, 1}) {
            auto it = bucket.find(int(2 * l) + dir);
            if (it != bucket.end())
                expected = std::max(expected, it->second / (run->scenario.cluster.links[l].capacityGbps *
                                                            1e9 / 8 * r.series.bucketSeconds));
        }
        QCOMPARE(u[l], expected);
        busiest = std::max(busiest, u[l]);
    }
    QVERIFY(busiest > 0 && busiest <= 1 + 1e-9);
    // The topology scene colours its link items by it.
    Document doc;
    doc.setScenario(run->scenario);
    TopologyScene scene(&doc);
    scene.setLinkUtilisation(u);
    QCOMPARE(scene.linkUtilisation(), u);
    scene.setLinkUtilisation({1.0}); // wrong size: ignored, cleared
    QVERIFY(scene.linkUtilisation().empty());
}

void TestAnalysisViews::layoutWrapsManyRacks()
{
    // 128 racks of 8 nodes (like the 1,024-node fat-tree): a grid, not a strip.
    const Scenario big = testing::leafSpineScenario(128, 8, 8, 4);
    const ClusterLayout wide(big.cluster);
    QVERIFY(wide.groupsPerRow() < 128);
    const QRectF b = wide.bounds();
    const double aspect = b.width() / b.height();
    QVERIFY2(aspect > 1.0 && aspect < 2.6, qPrintable(QString::number(aspect)));
    // Every rack sits below its leaf switch, and racks never overlap.
    const auto &groups = wide.groups();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const QPointF leaf = wide.switchCenter(groups[g].homeSwitch);
        QVERIFY(leaf.y() < groups[g].rect.top());
        QVERIFY(groups[g].rect.top() - leaf.y() < 100);
        QVERIFY(std::abs(leaf.x() - groups[g].rect.center().x()) < 1e-6);
        if (g > 0)
            QVERIFY(!groups[g].rect.intersects(groups[g - 1].rect));
    }
    // A few racks stay in one row.
    const ClusterLayout small(testing::leafSpineScenario(4, 2, 3).cluster);
    QCOMPARE(small.groupsPerRow(), 4);
}

void TestAnalysisViews::mainWindowRunsPolicy()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("small.json"));
    QVERIFY(saveScenarioFile(path.toStdString(), testing::leafSpineScenario(2, 1, 2)).ok());
    MainWindow window;
    QVERIFY(window.openFile(path));
    QSignalSpy shown(&window, &MainWindow::runShown);
    QVERIFY(window.startRun("dltap", 3, true));
    QVERIFY(!window.startRun("dltap", 3, true)); // one at a time
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
    // The last run is shown from a queued call; the worker thread ends just after it.
    QTRY_VERIFY(!window.isRunning());
    auto run = window.currentRun();
    QVERIFY(run && run->result);
    QCOMPARE(run->seed, std::uint64_t(3));
    QCOMPARE(window.decisionStepper()->decisionCount(), 15);
    QCOMPARE(window.decisionStepper()->cursor(), 0);
    QVERIFY(window.topologyScene()->nodeOverlay().active());
    QCOMPARE(window.topologyScene()->nodeOverlay().marked, run->log.decisions[0].pick);
    window.decisionStepper()->last();
    QCOMPARE(window.topologyScene()->nodeOverlay().marked, run->log.decisions.back().pick);
    QCOMPARE(window.runTimeline()->bars().size(), std::size_t(15));
    QCOMPARE(sum(window.trafficHeatmap()->values()), 19'579'200'000.0);
    QCOMPARE(window.topologyScene()->linkUtilisation().size(),
             run->scenario.cluster.links.size());
    // Another scenario: the run no longer applies.
    window.document()->setScenario(testing::leafSpineScenario(1, 1, 1));
    QVERIFY(!window.currentRun());
    QVERIFY(!window.topologyScene()->nodeOverlay().active());
    QCOMPARE(window.decisionStepper()->decisionCount(), 0);
    // A failing run reports a null session.
    QVERIFY(window.startRun("no-such-policy", 1, false));
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 3, 20000); // the reset above, then the failure
    QVERIFY(!shown.last().at(0).value<std::shared_ptr<const RunSession>>());
}

void TestAnalysisViews::plotsStayReadable_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("cramped dock") << QSize(420, 230);
    QTest::newRow("laptop dock") << QSize(900, 300);
    QTest::newRow("desktop dock") << QSize(1800, 420);
}

void TestAnalysisViews::plotsStayReadable()
{
    QFETCH(QSize, size);
    // 8 leaves x 8 hosts: 64 nodes, more names than fit on a small heatmap's axes.
    auto run = session(testing::leafSpineScenario(8, 2, 8), true);
    RunTimeline timeline;
    timeline.setSession(run);
    timeline.resize(size);
    timeline.show();
    TrafficHeatmap heatmap;
    heatmap.setSession(run, nullptr);
    heatmap.setSource(TrafficHeatmap::Source::Cumulative);
    heatmap.setTime(run->result->makespanSeconds);
    heatmap.resize(std::min(size.width(), 700), std::max(size.height(), 260));
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    // The tick spacing settles after a layout: let the queued replots run.
    for (int i = 0; i < 4; ++i) {
        timeline.plot()->replot();
        heatmap.plot()->replot();
        QCoreApplication::processEvents();
    }
    QStringList problems = testing::shortCharts(timeline.plot(), QStringLiteral("timeline")) +
                           testing::tickProblems(timeline.plot(), QStringLiteral("timeline")) +
                           testing::tickProblems(heatmap.plot(), QStringLiteral("heatmap"));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    // Every axis says what it measures: time, GPUs busy, power and cost with their units.
    auto *use = timeline.plot()->axisRects().at(1);
    QCOMPARE(use->axis(QCPAxis::atLeft)->label(), QStringLiteral("GPUs busy (%)"));
    QCOMPARE(timeline.plot()->axisRects().at(2)->axis(QCPAxis::atLeft)->label(),
             QStringLiteral("energy cost (USD)"));
    QCOMPARE(timeline.plot()->axisRects().at(2)->axis(QCPAxis::atBottom)->label(),
             QStringLiteral("simulated time (h:mm:ss)"));
    for (const QString &tick : use->axis(QCPAxis::atRight)->tickVectorLabels())
        QVERIFY2(tick.endsWith(QStringLiteral(" W")) || tick.endsWith(QStringLiteral(" kW")),
                 qPrintable(tick));
    for (const QString &tick : timeline.plot()->axisRects().at(2)->axis(QCPAxis::atBottom)->tickVectorLabels())
        QVERIFY2(tick.contains(QLatin1Char(':')), qPrintable(tick));
}

void TestAnalysisViews::timelineDrawsStrandedGpus()
{
    // Two 4-GPU nodes; "a" holds 2 GPUs for 100 s from t = 0, "b" (a PS and two 4-GPU
    // workers, all or nothing) arrives at 10 and waits until 100 while one node's 4 GPUs
    // are free, enough for one of its workers: 4 GPUs x 90 s = 360 GPU-seconds stranded.
    const auto doc = nlohmann::json::parse(R"({
      "format": "clusterbench-scenario", "version": 1, "name": "stranded",
      "cluster": {
        "gpu_types": [{"name": "G", "memory_gib": 16, "relative_speed": 1}],
        "nodes": [{"id": "n0", "cpus": 16, "memory_gib": 64, "gpus": 4, "gpu_type": "G"},
                  {"id": "n1", "cpus": 16, "memory_gib": 64, "gpus": 4, "gpu_type": "G"}],
        "switches": [{"id": "sw", "tier": "tor"}],
        "links": [{"a": "n0", "b": "sw", "capacity_gbps": 100}, {"a": "n1", "b": "sw", "capacity_gbps": 100}]
      },
      "jobs": [
        {"id": "a", "kind": "single", "tasks": [{"role": "single", "gpus": 2}],
         "model": {"parameter_bytes": 0, "iterations": 100, "compute_s_per_iteration": 1}},
        {"id": "b", "kind": "ps", "submit_s": 10,
         "tasks": [{"role": "ps", "replicas": 1}, {"role": "worker", "replicas": 2, "gpus": 4}],
         "model": {"parameter_bytes": 0, "iterations": 50, "compute_s_per_iteration": 1}}
      ]})");
    auto s = scenarioFromJson(doc);
    QVERIFY2(s.ok(), qPrintable(QString::fromStdString(s.error())));
    auto run = session(s.value(), true, "k8s-default");
    QCOMPARE(run->result->strandedGpuSeconds, 360.0);
    RunTimeline timeline;
    timeline.setSession(run);
    QCPGraph *stranded = nullptr;
    for (int i = 0; i < timeline.plot()->graphCount(); ++i)
        if (timeline.plot()->graph(i)->name() == QStringLiteral("GPUs stranded"))
            stranded = timeline.plot()->graph(i);
    QVERIFY(stranded);
    // Step values in % of the 8 GPUs per bucket; their integral is the run's figure.
    const double width = run->result->series.bucketSeconds;
    double gpuSeconds = 0;
    const int n = stranded->data()->size();
    QVERIFY(n >= 2);
    for (int k = 0; k + 1 < n; ++k)
        gpuSeconds += stranded->data()->at(k)->value / 100 * 8 *
                      std::min(width, run->result->makespanSeconds - k * width);
    QCOMPARE(std::round(gpuSeconds * 1e6) / 1e6, 360.0);
    QCOMPARE(timeline.plot()->axisRects().at(1)->axis(QCPAxis::atLeft)->label(),
             QStringLiteral("busy, stranded (%)"));
}

QTEST_MAIN(TestAnalysisViews)
#include "tst_analysis_views.moc"
