// The window's interactions on a 16,384-node cluster (`generate fat-tree --k 32
// --hosts-per-edge 32`: 512 racks of 32 hosts with 8 V100 each, 131,072 GPUs; 300 generated
// jobs placed by dltap), each timed against the 1,024-node sample (fat-tree-1024.json, its
// first 300 jobs) in the same run: open the scenario (the scene and the fitted view), a
// repaint of the fitted view and of one zoomed in four times, show a run (the stepper's replay
// and models, the heatmap's fill and repaint, the topology's colouring and repaint; the window
// makes the stepper and the heatmap at startup, so their first show, empty, is timed apart),
// one stepper move (replay,
// models, the topology colouring and the fitted view's repaint, the heatmap's changed cells
// and its replot) and switching
// the heatmap's source. Above 1,024 nodes the heatmap is drawn per rack. Figures and ratios
// are printed; nothing asserts time (the goal is < 100 ms per interaction), only what each
// view shows.

#include "analysis/decision_stepper.h"
#include "analysis/run_session.h"
#include "analysis/traffic_heatmap.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "model/gen_fat_tree.h"
#include "model/gen_jobs.h"
#include "runs/decision_replay.h"
#include "topology/link_layer_item.h"
#include "topology/topology_scene.h"
#include "topology/topology_view.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QtTest>
#include <qcustomplot.h>

#include <sys/resource.h>

using namespace cb;
using namespace cb::views;

namespace {

double msSince(const QElapsedTimer &t, int n = 1)
{
    return double(t.nsecsElapsed()) / 1e6 / n;
}

double peakResidentMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

Scenario largeScenario()
{
    FatTreeParams p;
    p.k = 32;
    p.hostsPerEdge = 32;
    p.host.gpus = 8;
    p.host.gpuType = "V100";
    p.host.cpus = 64;
    p.host.memoryGiB = 512;
    auto cluster = generateFatTree(p);
    if (!cluster)
        qFatal("16k fat-tree: %s", cluster.error().c_str());
    Scenario s;
    s.name = "fat-tree k=32 x32";
    s.cluster = std::move(cluster.value());
    JobSetParams jp;
    jp.jobs = 300;
    jp.maxWorkers = 16;
    jp.gpusPerWorker = 4;
    jp.seed = 3;
    auto jobs = generateJobs(jp);
    if (!jobs)
        qFatal("jobs: %s", jobs.error().c_str());
    s.jobs = std::move(jobs.value());
    return s;
}

} // namespace

class TestLargeClusterBench : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        auto sample = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json");
        QVERIFY2(sample.ok(), "fat-tree-1024.json");
        m_scenarios[0] = sample.value();
        m_scenarios[0].jobs.resize(std::min<std::size_t>(m_scenarios[0].jobs.size(), 300));
        m_scenarios[1] = largeScenario();
        QCOMPARE(int(m_scenarios[1].cluster.nodes.size()), 16384);
        for (int i = 0; i < 2; ++i) {
            QElapsedTimer t;
            t.start();
            auto run = computeRunSession(m_scenarios[i], "dltap", 1, false);
            QVERIFY2(run.ok(), run.error().c_str());
            m_place[i] = msSince(t);
            m_runs[i] = std::make_shared<const RunSession>(std::move(run.value()));
        }
    }

    void interactions_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("1,024 nodes") << 0;
        QTest::newRow("16,384 nodes") << 1;
    }

    void interactions()
    {
        QFETCH(int, which);
        const Scenario &s = m_scenarios[which];
        const auto run = m_runs[which];
        const int nodes = int(s.cluster.nodes.size());
        Figures &f = m_figures[which];
        f.decisions = int(run->log.decisions.size());
        QVERIFY(f.decisions > 100);

        // Open: the document, the scene's items and the fitted view.
        QElapsedTimer t;
        t.start();
        Document doc;
        doc.setScenario(s);
        TopologyScene scene(&doc);
        TopologyView view(&scene);
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.fitAll();
        QCoreApplication::processEvents();
        f.open = msSince(t);
        QVERIFY(scene.groupItemCount() > 0);
        // A repaint of the fitted view (a pan), and one zoomed in four times.
        t.restart();
        view.viewport()->repaint();
        f.repaint = msSince(t);
        view.scale(4, 4);
        t.restart();
        view.viewport()->repaint();
        f.repaintZoomed = msSince(t);
        view.fitAll();

        // The window makes its stepper and heatmap at startup, empty; timed apart.
        t.restart();
        DecisionStepper stepper;
        TrafficHeatmap heatmap;
        heatmap.setCells(TrafficHeatmap::Cells::Node); // (what the figures measured: racks
                                                       // are the default above 128 nodes)
        heatmap.resize(900, 700);
        heatmap.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        heatmap.plot()->replot(QCustomPlot::rpImmediateRefresh);
        f.emptyShow = msSince(t);
        // Show a run: the stepper replays to the first decision, the heatmap fills and
        // repaints, the topology colours its nodes.
        t.restart();
        stepper.setSession(run);
        heatmap.setSession(run, stepper.replay());
        scene.setNodeOverlay(decisionOverlay(stepper));
        heatmap.plot()->replot(QCustomPlot::rpImmediateRefresh);
        view.viewport()->repaint();
        f.show = msSince(t);
        // Per rack above 1,024 nodes: the fat-tree's edge switches.
        QCOMPARE(heatmap.grouped(), nodes > TrafficHeatmap::kAggregateAbove);
        QCOMPARE(heatmap.columns(), nodes > TrafficHeatmap::kAggregateAbove ? 512 : nodes);
        if (heatmap.grouped())
            QVERIFY2(heatmap.findChild<QLabel *>(QStringLiteral("heatmapSummary"))->text().endsWith(
                         QStringLiteral(" · per rack: 16,384 nodes in 512 racks")),
                     qPrintable(heatmap.findChild<QLabel *>(QStringLiteral("heatmapSummary"))->text()));

        // One move: 40 decisions forward and back from the middle, each with the overlay,
        // the heatmap's changed cells and an immediate replot.
        const int span = 40;
        stepper.seek(f.decisions / 2 - span / 2);
        heatmap.decisionMoved(); // as the window's cursorChanged does
        int moves = 0;
        t.restart();
        for (int round = 0; round < 2; ++round)
            for (int i = 0; i < span; ++i) {
                if (round == 0)
                    stepper.step();
                else
                    stepper.back();
                scene.setNodeOverlay(decisionOverlay(stepper));
                heatmap.decisionMoved();
                heatmap.plot()->replot(QCustomPlot::rpImmediateRefresh);
                view.viewport()->repaint(); // the recoloured nodes, fitted
                ++moves;
            }
        f.move = msSince(t, moves);
        // The heatmap shows what the replay holds: its total is the replay's.
        double shown = 0, held = 0;
        for (double v : heatmap.values())
            shown += v;
        for (const auto &[key, bytes] : stepper.replay()->cells())
            held += bytes;
        QVERIFY(held > 0);
        QVERIFY2(std::abs(shown - held) <= 1e-9 * held,
                 qPrintable(QStringLiteral("%1 vs %2").arg(shown, 0, 'g', 17).arg(held, 0, 'g', 17)));

        // Switch the source to the links and back.
        t.restart();
        heatmap.setSource(TrafficHeatmap::Source::Links);
        heatmap.plot()->replot(QCustomPlot::rpImmediateRefresh);
        heatmap.setSource(TrafficHeatmap::Source::Decision);
        heatmap.plot()->replot(QCustomPlot::rpImmediateRefresh);
        f.source = msSince(t, 2);
        f.peakMiB = peakResidentMiB();
        qInfo("%d nodes, %d decisions: place %.0f ms; open %.1f ms, repaint %.1f ms (zoomed x4 "
              "%.1f ms), the empty stepper and heatmap's first show %.1f ms, show the run %.1f ms, "
              "one move %.2f ms, switch the heatmap's source %.1f ms; peak resident %.0f MiB",
              nodes, f.decisions, m_place[which], f.open, f.repaint, f.repaintZoomed, f.emptyShow,
              f.show,
              f.move, f.source, f.peakMiB);
    }

    void linkLayerPaint()
    {
        // The links of the fitted 16,384-node view (1000 x 700) drawn by the layer, which
        // writes them into the pixels itself, against the same lines stroked by the painter
        // in runs of one pen (what the layer did before), alternating, the best of five each.
        Document doc;
        doc.setScenario(m_scenarios[1]);
        TopologyScene scene(&doc);
        LinkLayerItem *links = nullptr;
        for (QGraphicsItem *item : scene.items())
            if (auto *layer = dynamic_cast<LinkLayerItem *>(item))
                links = layer;
        QVERIFY(links);
        const QRectF rect = scene.sceneRect();
        const double scale = std::min(1000 / rect.width(), 700 / rect.height());
        QTransform t;
        t.scale(scale, scale);
        t.translate(-rect.left(), -rect.top());
        QStyleOptionGraphicsItem option;
        option.exposedRect = rect;
        double direct = 1e9, stroked = 1e9;
        std::vector<QLineF> batch;
        qsizetype directInk = 0, strokedInk = 0;
        for (int round = 0; round < 5; ++round) {
            QImage a(1000, 700, QImage::Format_ARGB32_Premultiplied), b = a;
            a.fill(Qt::white);
            b.fill(Qt::white);
            QElapsedTimer timer;
            timer.start();
            {
                QPainter p(&a);
                p.setWorldTransform(t);
                links->paint(&p, &option, nullptr);
            }
            direct = std::min(direct, msSince(timer));
            timer.restart();
            {
                QPainter p(&b);
                p.setWorldTransform(t);
                QRgb color = 0;
                double width = -1;
                auto flush = [&] {
                    if (batch.empty())
                        return;
                    QPen pen(QColor::fromRgba(color), width);
                    pen.setCapStyle(Qt::FlatCap);
                    p.setPen(pen);
                    p.drawLines(batch.data(), int(batch.size()));
                    batch.clear();
                };
                for (int i = 0; i < links->bundleCount(); ++i) {
                    const auto &bundle = links->bundle(i);
                    const double w = bundle.width * scale < 1 ? 0.0 : bundle.width;
                    if (bundle.color.rgba() != color || w != width) {
                        flush();
                        color = bundle.color.rgba();
                        width = w;
                    }
                    batch.push_back(bundle.line);
                }
                flush();
            }
            stroked = std::min(stroked, msSince(timer));
            directInk = strokedInk = 0;
            for (int y = 0; y < 700; ++y)
                for (int x = 0; x < 1000; ++x) {
                    directInk += a.pixel(x, y) != 0xffffffffu;
                    strokedInk += b.pixel(x, y) != 0xffffffffu;
                }
        }
        // Both drew the fabric, about as many pixels.
        QVERIFY(strokedInk > 50000);
        QVERIFY2(std::abs(double(directInk - strokedInk)) < 0.05 * double(strokedInk),
                 qPrintable(QStringLiteral("%1 against %2 pixels").arg(directInk).arg(strokedInk)));
        qInfo("the fitted 16,384-node view's %d link bundles: written into the pixels %.1f ms, "
              "stroked by the painter %.1f ms (x%.2f); %lld and %lld pixels inked",
              links->bundleCount(), direct, stroked, direct / stroked, qlonglong(directInk),
              qlonglong(strokedInk));
    }

    void printFigures()
    {
        const Figures &a = m_figures[0], &b = m_figures[1];
        if (a.decisions == 0 || b.decisions == 0)
            QSKIP("figures incomplete");
        qInfo("16,384 nodes against 1,024 (goal < 100 ms each): open %.1f ms (x%.1f), repaint "
              "%.1f ms (x%.1f), zoomed x4 %.1f ms (x%.1f), show the run %.1f ms (x%.1f), one "
              "move %.2f ms (x%.1f), heatmap source %.1f ms (x%.1f); placing the 300 jobs "
              "%.0f ms (x%.1f); peak resident %.0f MiB after both",
              b.open, b.open / a.open, b.repaint, b.repaint / a.repaint, b.repaintZoomed,
              b.repaintZoomed / a.repaintZoomed, b.show, b.show / a.show, b.move,
              b.move / a.move, b.source, b.source / a.source, m_place[1],
              m_place[1] / m_place[0], b.peakMiB);
    }

private:
    struct Figures
    {
        int decisions = 0;
        double open = 0, repaint = 0, repaintZoomed = 0, emptyShow = 0, show = 0, move = 0,
               source = 0;
        double peakMiB = 0;
    };
    Scenario m_scenarios[2];
    std::shared_ptr<const RunSession> m_runs[2];
    double m_place[2] = {0, 0};
    Figures m_figures[2];
};

QTEST_MAIN(TestLargeClusterBench)
#include "tst_large_cluster_bench.moc"
