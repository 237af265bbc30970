// Benchmarks for the analysis views on the 1,024-node fat-tree (sample-clusters, its first
// 24 jobs): one decision-stepper move (replay, the three models, the topology colouring)
// and the heatmap's recolour and replot of its 1,024 x 1,024 cells after a move. Figures are
// printed by QBENCHMARK with the 64-node case as the baseline measured in the same run;
// nothing asserts wall-clock time (the goals are < 16 ms each).

#include "runs/decision_replay.h"
#include "analysis/decision_stepper.h"
#include "analysis/run_session.h"
#include "analysis/traffic_heatmap.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "test_scenarios.h"
#include "topology/topology_scene.h"
#include "topology/topology_view.h"

#include <QElapsedTimer>
#include <QtTest>
#include <qcustomplot.h>

using namespace cb;
using namespace cb::views;

class TestAnalysisBench : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void stepperMove_data();
    void stepperMove();
    void heatmapRecolourReplot_data();
    void heatmapRecolourReplot();
    void printFigures();

private:
    std::shared_ptr<const RunSession> m_big, m_small;
    std::map<QString, double> m_ms;
};

namespace {
double msPer(QElapsedTimer &t, int n)
{
    return double(t.nsecsElapsed()) / 1e6 / n;
}
} // namespace

void TestAnalysisBench::initTestCase()
{
    auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json");
    if (!loaded)
        QSKIP("fat-tree-1024.json not readable");
    Scenario big = loaded.value();
    big.jobs.resize(std::min<std::size_t>(big.jobs.size(), 24));
    QCOMPARE(int(big.cluster.nodes.size()), 1024);
    QElapsedTimer t;
    t.start();
    auto b = computeRunSession(big, "dltap", 1, false);
    QVERIFY2(b.ok(), b.error().c_str());
    qInfo("placement with decision log, 1,024 nodes, %zu decisions: %.0f ms",
          b->log.decisions.size(), msPer(t, 1));
    m_big = std::make_shared<const RunSession>(std::move(b.value()));
    auto s = computeRunSession(testing::leafSpineScenario(8, 2, 8, 8), "dltap", 1, false);
    QVERIFY(s.ok());
    m_small = std::make_shared<const RunSession>(std::move(s.value()));
}

void TestAnalysisBench::stepperMove_data()
{
    QTest::addColumn<bool>("big");
    QTest::newRow("64 nodes") << false;
    QTest::newRow("1024 nodes") << true;
}

void TestAnalysisBench::stepperMove()
{
    // What one step costs in the window: the replay and the models move, the heatmap takes
    // the changed cells, the topology gets its new colouring (painting happens later).
    QFETCH(bool, big);
    auto run = big ? m_big : m_small;
    Document doc;
    doc.setScenario(run->scenario);
    TopologyScene scene(&doc);
    DecisionStepper stepper;
    stepper.setSession(run);
    const int n = stepper.decisionCount();
    QVERIFY(n > 10);
    QElapsedTimer t;
    int moves = 0;
    t.start();
    // From the middle of the run, 40 decisions forward and back again.
    const int span = std::min(40, n / 2 - 1);
    stepper.seek(n / 2 - span / 2);
    QBENCHMARK {
        for (int i = 0; i < span; ++i) {
            stepper.step();
            scene.setNodeOverlay(decisionOverlay(stepper));
        }
        for (int i = 0; i < span; ++i) {
            stepper.back();
            scene.setNodeOverlay(decisionOverlay(stepper));
        }
        moves += 2 * span;
    }
    const double ms = msPer(t, moves);
    m_ms[big ? QStringLiteral("step1024") : QStringLiteral("step64")] = ms;
    qInfo("one stepper move (%d nodes, %d decisions): %.3f ms", int(run->log.nodeNames.size()), n,
          ms);
}

void TestAnalysisBench::heatmapRecolourReplot_data()
{
    stepperMove_data();
}

void TestAnalysisBench::heatmapRecolourReplot()
{
    QFETCH(bool, big);
    auto run = big ? m_big : m_small;
    DecisionStepper stepper;
    stepper.setSession(run);
    TrafficHeatmap heatmap;
    heatmap.setCells(TrafficHeatmap::Cells::Node); // (what the figures measured: racks
                                                   // are the default above 128 nodes)
    heatmap.resize(900, 800);
    heatmap.setSession(run, stepper.replay());
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    const int n = stepper.decisionCount();
    const int nodes = int(run->scenario.cluster.nodes.size());
    QCOMPARE(heatmap.columns(), nodes);
    stepper.seek(n / 2);
    heatmap.decisionMoved();
    QElapsedTimer t;
    int replots = 0;
    t.start();
    QBENCHMARK {
        // Alternate between two cursors: each replot recolours the whole map image.
        stepper.seek(stepper.cursor() == n / 2 ? n / 2 + 1 : n / 2);
        heatmap.decisionMoved();
        heatmap.plot()->replot(QCustomPlot::rpImmediateRefresh);
        ++replots;
    }
    const double ms = msPer(t, replots);
    m_ms[big ? QStringLiteral("heat1024") : QStringLiteral("heat64")] = ms;
    qInfo("heatmap recolour + replot, %d x %d cells: %.2f ms", nodes, nodes, ms);
}

void TestAnalysisBench::printFigures()
{
    if (m_ms.size() < 4)
        QSKIP("figures incomplete");
    qInfo("stepper move: %.3f ms at 1,024 nodes, %.3f ms at 64 nodes (x%.1f); goal < 16 ms",
          m_ms[QStringLiteral("step1024")], m_ms[QStringLiteral("step64")],
          m_ms[QStringLiteral("step1024")] / m_ms[QStringLiteral("step64")]);
    qInfo("heatmap recolour + replot: %.2f ms for 1,024 x 1,024 cells, %.2f ms for 64 x 64 "
          "(x%.1f); goal < 16 ms",
          m_ms[QStringLiteral("heat1024")], m_ms[QStringLiteral("heat64")],
          m_ms[QStringLiteral("heat1024")] / m_ms[QStringLiteral("heat64")]);
}

QTEST_MAIN(TestAnalysisBench)
#include "tst_analysis_bench.moc"
