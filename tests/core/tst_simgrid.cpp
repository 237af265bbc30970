// Cross-check against SimGrid: random flow sets on generated leaf-spine and fat-tree
// clusters, routed by our Topology, all starting at time 0. Our MaxMinNetwork drives a fluid
// replay (re-solve whenever a flow ends); SimGrid's plain max-min model (CM02, no TCP
// corrections, see tests/simgrid/simgrid_maxmin.cpp) runs the same flows over the same
// directed links. Transfer completion times must agree to a relative 1e-6.
// Skips when the helper was not built (SimGrid absent).

#include "model/gen_fat_tree.h"
#include "model/gen_leaf_spine.h"
#include "net/maxmin_network.h"
#include "net/topology.h"
#include "util/rng.h"

#include <QtTest>

#include <cmath>
#include <fstream>

using namespace cb;

namespace {

struct FlowSet
{
    std::vector<double> capacityGbps;
    std::vector<std::vector<int>> routes;
    std::vector<std::uint64_t> bytes;
};

FlowSet randomFlows(const Cluster &cluster, int flows, std::uint64_t seed)
{
    const Topology topo(cluster);
    FlowSet s;
    for (int l = 0; l < topo.directedLinkCount(); ++l)
        s.capacityGbps.push_back(topo.capacityGbps(l));
    Rng rng(seed);
    const auto n = std::uint64_t(topo.nodeCount());
    while (int(s.routes.size()) < flows) {
        const int a = int(rng.below(n)), b = int(rng.below(n));
        if (a == b)
            continue;
        s.routes.push_back(topo.route(a, b, rng.next()));
        s.bytes.push_back(std::uint64_t(1 + rng.below(100)) * 100'000'000ULL);
    }
    return s;
}

/// Completion times with our solver: all flows start at 0; re-solve after every completion.
std::vector<double> ourCompletionTimes(const FlowSet &s)
{
    MaxMinNetwork net(s.capacityGbps);
    std::vector<int> ids;
    std::vector<double> left, finish(s.routes.size(), -1);
    for (std::size_t f = 0; f < s.routes.size(); ++f) {
        ids.push_back(net.addFlow(s.routes[f]));
        left.push_back(double(s.bytes[f]));
    }
    double t = 0;
    std::size_t active = s.routes.size();
    while (active > 0) {
        net.solve();
        double dt = std::numeric_limits<double>::infinity();
        for (std::size_t f = 0; f < ids.size(); ++f)
            if (finish[f] < 0)
                dt = std::min(dt, left[f] / (net.rate(ids[f]) * 1e9 / 8));
        t += dt;
        for (std::size_t f = 0; f < ids.size(); ++f) {
            if (finish[f] >= 0)
                continue;
            left[f] -= net.rate(ids[f]) * 1e9 / 8 * dt;
            if (left[f] <= 1e-9 * double(s.bytes[f])) {
                finish[f] = t;
                net.removeFlow(ids[f]);
                --active;
            }
        }
    }
    return finish;
}

QString helperPath() { return QStringLiteral(CB_BINARY_DIR "/tests/simgrid/cb_simgrid_maxmin"); }

} // namespace

class TestSimGrid : public QObject
{
    Q_OBJECT

private slots:
    void agreesWithSimGrid_data();
    void agreesWithSimGrid();
};

void TestSimGrid::agreesWithSimGrid_data()
{
    QTest::addColumn<QString>("fabric");
    QTest::addColumn<int>("flows");
    QTest::addColumn<int>("seed");
    QTest::newRow("leaf-spine 3:1, 40 flows") << "leaf-spine" << 40 << 1;
    QTest::newRow("leaf-spine 3:1, 200 flows") << "leaf-spine" << 200 << 2;
    QTest::newRow("fat-tree k=4, 60 flows") << "fat-tree" << 60 << 3;
    QTest::newRow("fat-tree k=8, 300 flows") << "fat-tree" << 300 << 4;
}

void TestSimGrid::agreesWithSimGrid()
{
    if (!QFileInfo::exists(helperPath()))
        QSKIP("SimGrid not installed (Debian: libsimgrid-dev); cb_simgrid_maxmin not built");
    QFETCH(QString, fabric);
    QFETCH(int, flows);
    QFETCH(int, seed);
    Result<Cluster> cluster = Result<Cluster>::failure("", "");
    if (fabric == "leaf-spine") {
        LeafSpineParams p;
        p.leaves = 4;
        p.spines = 2;
        p.hostsPerLeaf = 6;
        p.oversubscription = 3;
        p.hostLinkGbps = 25;
        cluster = generateLeafSpine(p);
    } else {
        FatTreeParams p;
        p.k = flows > 100 ? 8 : 4;
        p.linkGbps = 40;
        cluster = generateFatTree(p);
    }
    QVERIFY2(cluster.ok(), qPrintable(QString::fromStdString(cluster.error())));
    const FlowSet s = randomFlows(cluster.value(), flows, std::uint64_t(seed));
    const std::vector<double> ours = ourCompletionTimes(s);

    QTemporaryDir dir;
    const QString input = dir.filePath("flows.txt");
    {
        std::ofstream out(input.toStdString());
        out.precision(17);
        out << "links " << s.capacityGbps.size() << "\n";
        for (double c : s.capacityGbps)
            out << c * 1e9 / 8 << "\n";
        out << "flows " << s.routes.size() << "\n";
        for (std::size_t f = 0; f < s.routes.size(); ++f) {
            out << s.bytes[f] << " " << s.routes[f].size();
            for (int l : s.routes[f])
                out << " " << l;
            out << "\n";
        }
    }
    QProcess p;
    p.start(helperPath(), {input});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    const QStringList lines =
        QString::fromUtf8(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), int(ours.size()));
    double worst = 0;
    for (int f = 0; f < lines.size(); ++f) {
        const double theirs = lines[f].toDouble();
        const double rel = std::fabs(theirs - ours[std::size_t(f)]) / ours[std::size_t(f)];
        worst = std::max(worst, rel);
        QVERIFY2(rel < 1e-6, qPrintable(QString("flow %1: ours %2 s, SimGrid %3 s")
                                            .arg(f)
                                            .arg(ours[std::size_t(f)], 0, 'g', 17)
                                            .arg(theirs, 0, 'g', 17)));
    }
    qInfo("%d flows, worst relative difference %.3g", int(ours.size()), worst);
}

QTEST_APPLESS_MAIN(TestSimGrid)
#include "tst_simgrid.moc"
