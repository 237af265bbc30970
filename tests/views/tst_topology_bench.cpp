// Benchmarks for the topology view: building the scene for a generated 5,000-node
// leaf-spine fabric and fitting it into a 1400x900 view, and painting it fitted (aggregated
// level of detail) and zoomed in (full detail). Figures are printed by QBENCHMARK; the
// baseline measured in the same run is the 500-node fabric (ratio printed by the test).
// Nothing asserts wall-clock time.

#include "document/document.h"
#include "test_scenarios.h"
#include "topology/topology_scene.h"
#include "topology/topology_view.h"

#include <QElapsedTimer>
#include <QPainter>
#include <QtTest>

using namespace cb;
using namespace cb::views;

class TestTopologyBench : public QObject
{
    Q_OBJECT

private slots:
    void openAndFit_data();
    void openAndFit();
    void paintFitted_data();
    void paintFitted();
    void ratioToBaseline();
};

namespace {
Scenario fabric(int nodes)
{
    // 40 nodes of 8 GPUs per leaf, 8 spines: 5,000 nodes = 125 leaves.
    return testing::leafSpineScenario(nodes / 40, 8, 40);
}

double msToOpenAndFit(const Scenario &s)
{
    Document doc;
    QElapsedTimer timer;
    timer.start();
    doc.setScenario(s);
    TopologyScene scene(&doc);
    TopologyView view(&scene);
    view.resize(1400, 900);
    view.fitAll();
    return double(timer.nsecsElapsed()) / 1e6;
}
} // namespace

void TestTopologyBench::openAndFit_data()
{
    QTest::addColumn<int>("nodes");
    QTest::newRow("520 nodes") << 520;
    QTest::newRow("5000 nodes") << 5000;
}

void TestTopologyBench::openAndFit()
{
    QFETCH(int, nodes);
    const Scenario s = fabric(nodes);
    QCOMPARE(int(s.cluster.nodes.size()), nodes);
    Document doc;
    QBENCHMARK {
        doc.setScenario(s);
        TopologyScene scene(&doc);
        TopologyView view(&scene);
        view.resize(1400, 900);
        view.fitAll();
        QCOMPARE(scene.groupItemCount(), nodes / 40);
    }
}

void TestTopologyBench::paintFitted_data()
{
    QTest::addColumn<double>("zoom"); // 0 = fit
    QTest::newRow("5000 nodes fitted") << 0.0;
    QTest::newRow("5000 nodes at 100%") << 1.0;
}

void TestTopologyBench::paintFitted()
{
    QFETCH(double, zoom);
    Document doc;
    doc.setScenario(fabric(5000));
    TopologyScene scene(&doc);
    TopologyView view(&scene);
    view.resize(1400, 900);
    view.fitAll();
    if (zoom > 0) {
        view.setTransform(QTransform::fromScale(zoom, zoom));
        view.centerOn(scene.sceneRect().center());
    }
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    QBENCHMARK {
        QPainter painter(&image);
        view.render(&painter);
    }
}

void TestTopologyBench::ratioToBaseline()
{
    const Scenario small = fabric(520), large = fabric(5000);
    msToOpenAndFit(small); // warm up
    double base = 0, big = 0;
    for (int i = 0; i < 3; ++i) {
        base += msToOpenAndFit(small);
        big += msToOpenAndFit(large);
    }
    qInfo("open+fit: 520 nodes %.1f ms, 5000 nodes %.1f ms, ratio %.2f (goal: under 1000 ms)",
          base / 3, big / 3, big / base);
}

QTEST_MAIN(TestTopologyBench)
#include "tst_topology_bench.moc"
