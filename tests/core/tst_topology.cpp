// The network graph: hops, routes with deterministic ECMP, cuts, connectivity.

#include "net/topology.h"

#include <QtTest>

#include <set>

using namespace cb;

namespace {

// h1,h2 under leaf L1; h3,h4 under L2; L1 and L2 both linked to spines S1 and S2.
// Host links 10 Gbit/s, uplinks 5 Gbit/s: 2:1 oversubscribed.
Cluster twoLeafTwoSpine()
{
    Cluster c;
    for (const char *h : {"h1", "h2", "h3", "h4"}) {
        Node n;
        n.id = h;
        n.cpus = 4;
        n.memoryGiB = 8;
        c.nodes.push_back(n);
    }
    for (const char *s : {"L1", "L2", "S1", "S2"})
        c.switches.push_back({s, s[0] == 'L' ? "leaf" : "spine"});
    c.links = {{"h1", "L1", 10, 1}, {"h2", "L1", 10, 1}, {"h3", "L2", 10, 1},
               {"h4", "L2", 10, 1}, {"L1", "S1", 5, 2},  {"L1", "S2", 5, 2},
               {"L2", "S1", 5, 2},  {"L2", "S2", 5, 2}};
    return c;
}

} // namespace

class TestTopology : public QObject
{
    Q_OBJECT

private slots:
    void hops_data()
    {
        QTest::addColumn<int>("src");
        QTest::addColumn<int>("dst");
        QTest::addColumn<int>("hops");
        QTest::newRow("same node") << 0 << 0 << 0;
        QTest::newRow("same leaf") << 0 << 1 << 2;
        QTest::newRow("across spine") << 0 << 2 << 4;
        QTest::newRow("across spine reversed") << 3 << 1 << 4;
    }
    void hops()
    {
        QFETCH(int, src);
        QFETCH(int, dst);
        QFETCH(int, hops);
        const Topology t(twoLeafTwoSpine());
        QCOMPARE(t.hops(src, dst), hops);
        QCOMPARE(int(t.route(src, dst, 7).size()), hops);
    }

    void routeFollowsLinksInDirection()
    {
        const Cluster c = twoLeafTwoSpine();
        const Topology t(c);
        const std::vector<int> r = t.route(0, 2, 42);
        QCOMPARE(r.size(), std::size_t(4));
        // First hop h1 -> L1 is link 0 in the a->b direction: directed id 0.
        QCOMPARE(r[0], 0);
        // Last hop L2 -> h3 is link 2 in the b->a direction: directed id 5.
        QCOMPARE(r[3], 5);
        // Same hash, same route; the route is deterministic.
        QCOMPARE(t.route(0, 2, 42), r);
    }

    void ecmpUsesBothSpines()
    {
        const Topology t(twoLeafTwoSpine());
        std::set<int> secondHops;
        for (std::uint64_t h = 0; h < 64; ++h)
            secondHops.insert(t.route(0, 2, h)[1]);
        // L1->S1 is directed 8, L1->S2 is directed 10.
        QCOMPARE(secondHops, (std::set<int>{8, 10}));
    }

    void cuts()
    {
        const Topology t(twoLeafTwoSpine());
        // Hosts h1,h2 against h3,h4: limited by L1's two 5 Gbit/s uplinks.
        QCOMPARE(t.bisectionGbps(), 10.0);
        // One host to another under the same leaf: its 10 Gbit/s access link.
        QCOMPARE(t.maxFlowGbps({0}, {1}), 10.0);
        // Both leaves' uplinks together: h1 alone to h3 is capped by h1's access link.
        QCOMPARE(t.maxFlowGbps({0}, {2}), 10.0);
    }

    void components()
    {
        Cluster c = twoLeafTwoSpine();
        c.links.erase(c.links.begin() + 2); // h3 loses its only link
        const Topology t(c);
        const std::vector<int> comp = t.components();
        QCOMPARE(comp[0], comp[1]);
        QVERIFY(comp[2] != comp[0]);
        QCOMPARE(t.hops(0, 2), -1);
        QVERIFY(t.route(0, 2, 1).empty());
    }

    void modelCounts()
    {
        Cluster c = twoLeafTwoSpine();
        c.gpuTypes = {{"A100", 80, 1, 50, 400, 3}, {"T4", 16, 0.3, 10, 70, 0.5}};
        c.nodes[0].gpus = 8;
        c.nodes[0].gpuType = "A100";
        c.nodes[1].gpus = 4;
        c.nodes[1].gpuType = "T4";
        c.nodes[2].gpus = 8;
        c.nodes[2].gpuType = "A100";
        QCOMPARE(c.totalGpus(), 20);
        QCOMPARE(c.gpusByType(), (std::map<std::string, int>{{"A100", 16}, {"T4", 4}}));
        QCOMPARE(c.gpuType("T4")->busyWatts, 70.0);
        QVERIFY(c.gpuType("H100") == nullptr);
        QCOMPARE(*c.nodeIndex("h3"), std::size_t(2));
        QVERIFY(!c.nodeIndex("L1")); // switches are not nodes
    }
};

QTEST_APPLESS_MAIN(TestTopology)
#include "tst_topology.moc"
