// The communication model (net/comm_model.h): each collective's closed α-β time on tiny cases
// (2 and 4 ranks, 1 and 2 nodes) worked out by hand, the plans' transfers, the plans timed
// against the closed forms, and whole iterations through the simulator (max-min network)
// for ring, tree and hierarchical all-reduce, rails, per-flow caps and the straggler wait.

#include "net/comm_model.h"
#include "net/job_flows.h"
#include "net/topology.h"
#include "sim/simulator.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace cb;

namespace {

bool near(double a, double b, double rel = 1e-12)
{
    return std::fabs(a - b) <= rel * std::max(1.0, std::fabs(b));
}

#define CB_NEAR(a, b)                                                                          \
    QVERIFY2(near((a), (b)), qPrintable(QString("%1 = %2, expected %3")                        \
                                            .arg(#a).arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))

// α = 1 ms per step, B = 1e9 bytes/s, S = 1e9 bytes: the bandwidth term is the factor in s.
const StepCost kNet{1e-3, 1e9};
// Inside a node: α = 0.1 ms, B = 4e9 bytes/s (32 Gbit/s).
const StepCost kNode{1e-4, 4e9};
constexpr double kS = 1e9;

QString transfersText(const CommPlan &plan)
{
    QStringList out;
    for (const CommTransfer &t : plan.transfers)
        out << QStringLiteral("p%1 %2->%3 %4x%5 s%6%7")
                   .arg(t.phase)
                   .arg(t.src)
                   .arg(t.dst)
                   .arg(t.bytes)
                   .arg(t.copies)
                   .arg(t.steps)
                   .arg(t.rail >= 0 ? QStringLiteral(" r%1").arg(t.rail) : QString());
    return out.join(", ");
}

/// Two nodes with 2 GPUs each (interconnect 32 Gbit/s, 100 us per step) on one switch,
/// 8 Gbit/s links of 500 us each (a step between the nodes: 1 ms); with `rails` = 2 each node
/// has a second NIC to a second switch.
Scenario twoNodes(int rails = 1, double flowCapGbps = 0)
{
    Scenario s;
    GpuType t;
    t.name = "G";
    s.cluster.gpuTypes = {t};
    for (const char *id : {"h0", "h1"}) {
        Node n;
        n.id = id;
        n.cpus = 16;
        n.memoryGiB = 64;
        n.gpus = 2;
        n.gpuType = "G";
        n.interconnect.bandwidthGbps = 32;
        n.interconnect.latencyUs = 100;
        s.cluster.nodes.push_back(n);
    }
    for (int r = 0; r < rails; ++r) {
        const std::string sw = "sw" + std::to_string(r);
        s.cluster.switches.push_back({sw, "leaf"});
        for (const char *id : {"h0", "h1"}) {
            Link l;
            l.a = id;
            l.b = sw;
            l.capacityGbps = 8;
            l.latencyUs = 500;
            l.flowCapGbps = flowCapGbps;
            s.cluster.links.push_back(l);
        }
    }
    return s;
}

/// An all-reduce job of `tasks` workers with `gpus` GPUs each, S bytes, 1 s compute.
Job allReduceJob(int tasks, int gpus)
{
    Job j;
    j.id = "ar";
    j.kind = JobKind::AllReduce;
    TaskGroup g;
    g.role = TaskRole::Worker;
    g.replicas = tasks;
    g.cpus = 1;
    g.memoryGiB = 1;
    g.gpus = gpus;
    j.tasks = {g};
    j.model.name = "m";
    j.model.parameterBytes = std::int64_t(kS);
    j.model.iterations = 10;
    j.model.computeSecondsPerIteration = 1.0;
    return j;
}

double iterationOf(const Scenario &s)
{
    SimOptions o;
    o.policy = *builtinPolicy("spread");
    o.policy.tieBreak = TieBreak::First;
    auto r = simulate(s, o);
    if (!r)
        qFatal("simulate: %s", r.error().c_str());
    return r->jobs.front().iterationSeconds;
}

} // namespace

class TestCommModel : public QObject
{
    Q_OBJECT

private slots:
    // Per phase the largest latency plus the largest transfer, phases added: a few phases
    // and more than fit on the stack (a 64-worker ring has 126), flows inside a node left
    // out when only cross-node time is asked for.
    void commSecondsAddsPhases()
    {
        for (const int phases : {3, 32, 33, 126}) {
            std::vector<SimFlow> flows;
            std::vector<double> rates;
            for (int p = 0; p < phases; ++p) {
                SimFlow a; // 1 Gbit at 1 Gbit/s, 2 steps of 1 ms: 1.002 s
                a.src = 0;
                a.dst = 1;
                a.bytes = 1.25e8;
                a.phase = p;
                a.steps = 2;
                a.latencySeconds = 0.001;
                SimFlow b = a; // 2 Gbit at 4 Gbit/s (0.5 s) inside a node, 1 step of 3 ms
                b.dst = 0;
                b.bytes = 2.5e8;
                b.steps = 1;
                b.latencySeconds = 0.003;
                flows.push_back(a);
                rates.push_back(1);
                flows.push_back(b);
                rates.push_back(4);
            }
            // per phase: latency max(0.002, 0.003), transfer max(1, 0.5)
            QCOMPARE(commSeconds(flows, rates, false), phases * (0.003 + 1.0));
            QCOMPARE(commSeconds(flows, rates, true), phases * (0.002 + 1.0));
        }
        QCOMPARE(commSeconds({}, {}, false), 0.0);
    }

    void busBandwidthFactors()
    {
        QCOMPARE(busBandwidthFactor(Collective::AllReduce, 4), 1.5);
        QCOMPARE(busBandwidthFactor(Collective::AllReduce, 2), 1.0);
        QCOMPARE(busBandwidthFactor(Collective::ReduceScatter, 4), 0.75);
        QCOMPARE(busBandwidthFactor(Collective::AllGather, 8), 0.875);
        QCOMPARE(busBandwidthFactor(Collective::AllToAll, 2), 0.5);
        QCOMPARE(busBandwidthFactor(Collective::Broadcast, 8), 1.0);
    }

    void closedForms_data()
    {
        QTest::addColumn<QString>("collective");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<double>("seconds");
        // ring: 2 (n-1) x 1 ms + 2 (n-1)/n x 1 s
        QTest::newRow("ring 2") << "ring" << 2 << 0.002 + 1.0;
        QTest::newRow("ring 4") << "ring" << 4 << 0.006 + 1.5;
        QTest::newRow("ring 1") << "ring" << 1 << 0.0;
        // tree: 2 ceil(log2 n) x 1 ms + L(n) x S/2 / B; L(2) = 2, L(4) = 3, L(8) = 4
        QTest::newRow("tree 2") << "tree" << 2 << 0.002 + 1.0;
        QTest::newRow("tree 4") << "tree" << 4 << 0.004 + 1.5;
        QTest::newRow("tree 8") << "tree" << 8 << 0.006 + 2.0;
        // (n-1) x 1 ms + (n-1)/n x 1 s
        QTest::newRow("reduce-scatter 2") << "reduce-scatter" << 2 << 0.001 + 0.5;
        QTest::newRow("reduce-scatter 4") << "reduce-scatter" << 4 << 0.003 + 0.75;
        QTest::newRow("all-gather 4") << "all-gather" << 4 << 0.003 + 0.75;
        QTest::newRow("all-to-all 4") << "all-to-all" << 4 << 0.003 + 0.75;
    }

    void closedForms()
    {
        QFETCH(QString, collective);
        QFETCH(int, ranks);
        QFETCH(double, seconds);
        double t = -1;
        if (collective == "ring")
            t = ringAllReduceSeconds(ranks, kS, kNet);
        else if (collective == "tree")
            t = treeAllReduceSeconds(ranks, kS, kNet);
        else if (collective == "reduce-scatter")
            t = reduceScatterSeconds(ranks, kS, kNet);
        else if (collective == "all-gather")
            t = allGatherSeconds(ranks, kS, kNet);
        else
            t = allToAllSeconds(ranks, kS, kNet);
        CB_NEAR(t, seconds);
    }

    void treeEdges()
    {
        QCOMPARE(treeEdgesAtBusiestRank(1), 0);
        QCOMPARE(treeEdgesAtBusiestRank(2), 2);
        QCOMPARE(treeEdgesAtBusiestRank(3), 3);
        QCOMPARE(treeEdgesAtBusiestRank(4), 3);
        QCOMPARE(treeEdgesAtBusiestRank(8), 4);
        QCOMPARE(treeEdgesAtBusiestRank(64), 4);
        QCOMPARE(treeParent(0), -1);
        QCOMPARE(treeParent(4), 1);
    }

    void acrossNodes()
    {
        // 2 nodes x 2 GPUs: n = 4. Flat ring: 6 steps x max(0.1, 1) ms + 1.5 S over the
        // slower of the node (4e9) and the NIC (1e9): 0.006 + 1.5; with 2 rails the NICs give
        // 2e9: 0.006 + 0.75.
        CB_NEAR(flatRingAllReduceSeconds({2, 2}, kS, kNode, kNet, 1), 1.506);
        CB_NEAR(flatRingAllReduceSeconds({2, 2}, kS, kNode, kNet, 2), 0.756);
        // One node: the ring inside it, 2 x 3 x 0.1 ms + 1.5 S / 4e9.
        CB_NEAR(flatRingAllReduceSeconds({4}, kS, kNode, kNet, 1), 0.0006 + 0.375);
        // Hierarchical: reduce-scatter in the node 0.1 ms + 0.5 S / 4e9 = 0.1251, ring
        // across 2 nodes 2 ms + 1 s = 1.002, all-gather 0.1251.
        const HierarchicalSeconds h = hierarchicalAllReduceSeconds({2, 2}, kS, kNode, kNet, 1);
        CB_NEAR(h.reduceScatter, 0.1251);
        CB_NEAR(h.acrossNodes, 1.002);
        CB_NEAR(h.allGather, 0.1251);
        CB_NEAR(h.total(), 1.2522);
        // Two rails halve the part across the nodes: 2 ms + 0.5 s.
        CB_NEAR(hierarchicalAllReduceSeconds({2, 2}, kS, kNode, kNet, 2).acrossNodes, 0.502);
        // Uneven nodes: the node with 4 GPUs governs the parts inside (3 x 0.1 ms + 0.75 S /
        // 4e9 = 0.1878 each).
        CB_NEAR(hierarchicalAllReduceSeconds({1, 4}, kS, kNode, kNet, 1).total(),
                2 * 0.1878 + 1.002);
    }

    void parameterServers()
    {
        // 4 workers, 2 servers: a server's NIC carries 4 x S/2 = 2 S each way: push 1 ms + 2 s,
        // then pull as long.
        CB_NEAR(parameterServerSeconds(4, 2, kS, kNet), 2 * 2.001);
        // 1 worker, 2 servers: the worker's NIC (S) governs.
        CB_NEAR(parameterServerSeconds(1, 2, kS, kNet), 2 * 1.001);
        QCOMPARE(parameterServerSeconds(0, 2, kS, kNet), 0.0);
    }

    void plans_data()
    {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<QVector<int>>("ranks"); // per node 0, 1, ...
        QTest::addColumn<int>("rails");
        QTest::addColumn<QString>("transfers");
        // S = 1000. One node, 4 GPUs: 4 ring edges of 2 x 3/4 x 1000, 6 steps.
        QTest::newRow("ring, 1 node x 4") << "ring" << QVector<int>{4} << 1 << "p0 0->0 1500x4 s6";
        // 2 nodes x 1 GPU: 1000 each way, 2 steps.
        QTest::newRow("ring, 2 x 1") << "ring" << QVector<int>{1, 1} << 1
                                     << "p0 0->1 1000x1 s2 r0, p0 1->0 1000x1 s2 r0";
        // 2 nodes x 2 GPUs: n = 4, edges of 1500; one edge inside each node, one across.
        QTest::newRow("ring, 2 x 2") << "ring" << QVector<int>{2, 2} << 1
                                     << "p0 0->0 1500x1 s6, p0 0->1 1500x1 s6 r0, "
                                        "p0 1->1 1500x1 s6, p0 1->0 1500x1 s6 r0";
        // Two rails: one channel per NIC, each with half of the bytes across.
        QTest::newRow("ring, 2 x 2, 2 rails")
            << "ring" << QVector<int>{2, 2} << 2
            << "p0 0->0 1500x1 s6, p0 0->1 750x1 s6 r0, p0 0->1 750x1 s6 r1, "
               "p0 1->1 1500x1 s6, p0 1->0 750x1 s6 r0, p0 1->0 750x1 s6 r1";
        // Hierarchical: reduce-scatter (500 per GPU, 1 step), ring across (1000, 2 steps),
        // all-gather.
        QTest::newRow("hierarchical, 2 x 2")
            << "hierarchical" << QVector<int>{2, 2} << 1
            << "p0 0->0 500x2 s1, p2 0->0 500x2 s1, p0 1->1 500x2 s1, p2 1->1 500x2 s1, "
               "p1 0->1 1000x1 s2 r0, p1 1->0 1000x1 s2 r0";
        // Tree over 2 nodes: each tree moves 500 up and 500 down; a chain of 2 GPUs in each
        // node moves 1000 each way; 2 x (1 + 2 - 1) steps.
        QTest::newRow("tree, 2 x 2")
            << "tree" << QVector<int>{2, 2} << 1
            << "p0 0->0 1000x2 s4, p0 1->1 1000x2 s4, p0 1->0 500x1 s4 r0, "
               "p0 0->1 500x1 s4 r0, p0 0->1 500x1 s4 r0, p0 1->0 500x1 s4 r0";
        QTest::newRow("one rank") << "ring" << QVector<int>{1} << 1 << "";
    }

    void plans()
    {
        QFETCH(QString, algorithm);
        QFETCH(QVector<int>, ranks);
        QFETCH(int, rails);
        QFETCH(QString, transfers);
        std::vector<RankGroup> groups;
        for (int i = 0; i < ranks.size(); ++i)
            groups.push_back({i, ranks[i]});
        const auto a = allReduceAlgorithmFromString(algorithm.toStdString());
        QVERIFY(a.has_value());
        QCOMPARE(transfersText(allReducePlan(*a, groups, 1000, rails)), transfers);
    }

    void parameterServerPlanPhases()
    {
        // Worker 0 on node 0 (1 GPU), worker 1 on node 1 (2 GPUs, all-reduced first), one
        // server on node 2: push 1000 each, then pull.
        const CommPlan p = parameterServerPlan({{0, 1}, {1, 2}}, {2}, 1000);
        QCOMPARE(transfersText(p), QStringLiteral("p0 1->1 1000x2 s2, p1 0->2 1000x1 s1, "
                                                  "p1 1->2 1000x1 s1, p2 2->0 1000x1 s1, "
                                                  "p2 2->1 1000x1 s1"));
        QCOMPARE(p.phaseCount(), 3);
        // Two servers: 500 to each.
        QCOMPARE(transfersText(parameterServerPlan({{0, 1}}, {1, 2}, 1000)),
                 QStringLiteral("p0 0->1 500x1 s1, p0 0->2 500x1 s1, p1 1->0 500x1 s1, "
                                "p1 2->0 500x1 s1"));
    }

    void allToAll()
    {
        // 2 nodes x 2 GPUs, 1000 bytes per rank: 250 to every rank; inside a node each GPU
        // sends 250 to the other; across, 2 x 2 x 250 = 1000 per node pair; 3 steps.
        QCOMPARE(transfersText(allToAllPlan({{0, 2}, {1, 2}}, 1000)),
                 QStringLiteral("p0 0->0 250x2 s3, p0 0->1 1000x1 s3, p0 1->1 250x2 s3, "
                                "p0 1->0 1000x1 s3"));
    }

    void plansTimedAsClosedForms()
    {
        // With the node's cost inside and the NIC's across (no other traffic), a plan takes
        // what the closed form says.
        const auto cost = [](const CommPlan &plan) {
            return [&plan](std::size_t i) {
                const CommTransfer &t = plan.transfers[i];
                return t.src == t.dst ? kNode : kNet;
            };
        };
        const CommPlan ring = allReducePlan(AllReduceAlgorithm::Ring, {{0, 2}, {1, 2}}, kS, 1);
        CB_NEAR(planSeconds(ring, cost(ring)), flatRingAllReduceSeconds({2, 2}, kS, kNode, kNet, 1));
        const CommPlan h =
            allReducePlan(AllReduceAlgorithm::Hierarchical, {{0, 2}, {1, 2}}, kS, 1);
        CB_NEAR(planSeconds(h, cost(h)), 1.2522);
        const CommPlan one = allReducePlan(AllReduceAlgorithm::Ring, {{0, 4}}, kS, 1);
        CB_NEAR(planSeconds(one, cost(one)), ringAllReduceSeconds(4, kS, kNode));
        // A transfer with no bandwidth never ends.
        QVERIFY(std::isinf(planSeconds(ring, [](std::size_t) { return StepCost{0, 0}; })));
    }

    void iterationsThroughTheNetwork_data()
    {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<int>("rails");
        QTest::addColumn<double>("flowCap");
        QTest::addColumn<double>("iteration");
        // Two tasks of 2 GPUs on h0 and h1, S = 1e9 bytes, compute 1 s. Inside a node 4e9
        // bytes/s and 0.1 ms a step; across, 8 Gbit/s = 1e9 bytes/s and 2 x 0.5 ms a step.
        // Ring: 1 + 6 x 1 ms + 1.5e9 / 1e9.
        QTest::newRow("ring") << "ring" << 1 << 0.0 << 1.0 + 0.006 + 1.5;
        // Hierarchical: 1 + (0.1 ms + 0.125) + (2 ms + 1 s) + (0.1 ms + 0.125).
        QTest::newRow("hierarchical") << "hierarchical" << 1 << 0.0 << 1.0 + 1.2522;
        // Tree: each NIC sends two flows of 5e8 (tree 0 down, tree 1 up) sharing 1e9: 1 s;
        // the chains inside move 1e9 at 4e9 (0.25 s); 4 steps x 1 ms.
        QTest::newRow("tree") << "tree" << 1 << 0.0 << 1.0 + 0.004 + 1.0;
        // Two rails: each channel's 7.5e8 leaves by its own NIC.
        QTest::newRow("ring, 2 rails") << "ring" << 2 << 0.0 << 1.0 + 0.006 + 0.75;
        // A 4 Gbit/s (5e8 bytes/s) per-flow cap: the ring edge across takes 3 s.
        QTest::newRow("ring, flow cap 4 Gbit/s") << "ring" << 1 << 4.0 << 1.0 + 0.006 + 3.0;
    }

    void iterationsThroughTheNetwork()
    {
        QFETCH(QString, algorithm);
        QFETCH(int, rails);
        QFETCH(double, flowCap);
        QFETCH(double, iteration);
        Scenario s = twoNodes(rails, flowCap);
        s.settings.allreduce = *allReduceAlgorithmFromString(algorithm.toStdString());
        s.jobs = {allReduceJob(2, 2)};
        CB_NEAR(iterationOf(s), iteration);
    }

    void multiGpuTaskIsSeveralRanks()
    {
        // One task with both GPUs of h0: a ring of 2 inside the node, 1e9 / 4e9 s + 2 x 0.1
        // ms (the old model counted the task as one rank and exchanged nothing).
        Scenario s = twoNodes();
        s.jobs = {allReduceJob(1, 2)};
        CB_NEAR(iterationOf(s), 1.0 + 0.0002 + 0.25);
    }

    void overlapAndStragglers()
    {
        // compute + max(comm - overlap x compute, exposed x comm)
        CB_NEAR(iterationSeconds(1, 4, 0), 5.0);
        CB_NEAR(iterationSeconds(1, 4, 0.5), 4.5);
        CB_NEAR(iterationSeconds(1, 4, 1), 4.0);
        CB_NEAR(iterationSeconds(2, 1, 1), 2.0);
        CB_NEAR(iterationSeconds(2, 1, 1, 0.25), 2.25);
        CB_NEAR(iterationSeconds(2, 1, 2, 0), 2.0); // clamped to 1
        // E[max of n standard normals]: 1/sqrt(pi), 3/(2 sqrt(pi)), and the tabulated 1.0294,
        // 1.1630 (Tippett 1925).
        QCOMPARE(expectedMaxOfNormals(1), 0.0);
        CB_NEAR(expectedMaxOfNormals(2), 1.0 / std::sqrt(std::numbers::pi));
        CB_NEAR(expectedMaxOfNormals(3), 1.5 / std::sqrt(std::numbers::pi));
        QVERIFY(near(expectedMaxOfNormals(4), 1.02937537, 1e-8));
        QVERIFY(near(expectedMaxOfNormals(5), 1.16296447, 1e-8));
        ModelProfile m;
        m.computeCv = 0.1;
        CB_NEAR(stragglerSeconds(m, 2.0, 2), 0.2 / std::sqrt(std::numbers::pi));
        QCOMPARE(stragglerSeconds(m, 2.0, 1), 0.0);
        // Through the simulator: 4 ranks, cv 0.1, compute 1 s scaled by the co-location
        // slowdown 0.05 (2 GPUs on a node): 1.05; plus the ring (1.506); overlap 0.5 hides
        // 0.525 of it; the straggler wait 0.1 x 1.05 x 1.0294.
        Scenario s = twoNodes();
        Job j = allReduceJob(2, 2);
        j.model.computeCv = 0.1;
        j.model.colocationSlowdown = 0.05;
        j.model.overlap = 0.5;
        s.jobs = {j};
        CB_NEAR(iterationOf(s),
                1.05 + (1.506 - 0.525) + 0.1 * 1.05 * expectedMaxOfNormals(4));
    }
};

QTEST_APPLESS_MAIN(TestCommModel)
#include "tst_comm_model.moc"
