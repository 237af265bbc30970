// The simulator's skipped re-offers (sim/reoffer_index.h: waiting jobs that provably cannot
// be placed are not offered, their decisions counted) change no answer: checked by hand on a
// two-node cluster and against the exhaustive reference, which offers every waiting job, run
// file and decision count alike, under every policy and queue variant.

#include "sim/reoffer_index.h"

#include "tst_fast_paths_fixtures.h"

#include <QtTest>

using namespace cb;
using namespace cb::fastpaths;

namespace {

TaskGroup taskShape(TaskRole role, int replicas, double cpus, int gpus)
{
    TaskGroup g;
    g.role = role;
    g.replicas = replicas;
    g.cpus = cpus;
    g.memoryGiB = 16;
    g.gpus = gpus;
    return g;
}

} // namespace

class TestReoffers : public QObject
{
    Q_OBJECT

private slots:
    void reofferIndexByHand();
    void skippedReoffersIdentical_data();
    void skippedReoffersIdentical();
};

void TestReoffers::reofferIndexByHand()
{
    // Two hosts of 4 GPUs, 32 CPUs and 256 GiB each (k = 2 fat-tree).
    FatTreeParams p;
    p.k = 2;
    p.host.gpus = 4;
    p.host.cpus = 32;
    p.host.memoryGiB = 256;
    const Cluster cluster = generateFatTree(p).value();
    QCOMPARE(int(cluster.nodes.size()), 2);
    ClusterState state(cluster);
    std::vector<Job> jobs(4);
    jobs[0].tasks = {taskShape(TaskRole::Worker, 6, 4, 1)}; // 6 workers alike
    jobs[1].tasks = {taskShape(TaskRole::Single, 1, 4, 1)}; // one task
    jobs[2].tasks = {taskShape(TaskRole::Ps, 1, 4, 0), taskShape(TaskRole::Worker, 6, 4, 1)};
    jobs[3].tasks = {taskShape(TaskRole::Worker, 2, 4, 1), taskShape(TaskRole::Ps, 1, 4, 0),
                     taskShape(TaskRole::Worker, 1, 4, 1)}; // three runs: first task only
    const Policy policy = *builtinPolicy("k8s-default");
    ReofferIndex index(cluster, state, policy);
    index.build(jobs);
    QCOMPARE(index.shapeCount(), 2); // a single task has the workers' shape
    // Empty: 8 workers fit, everything can be placed.
    for (int j = 0; j < 4; ++j)
        QVERIFY(!index.blocked(j));

    // Node 0 full (4 one-GPU tasks): 4 workers fit, 6 do not: the gang count's 4 + 1.
    state.bind(0, 16, 64, {0, 1, 2, 3}, 1.0);
    index.refreshNode(0);
    QCOMPARE(index.blocked(0)->decisions, std::int64_t(5));
    QVERIFY(index.blocked(0)->fastRejection);
    QVERIFY(!index.blocked(1));
    // The PS lands on either node without lowering node 1's 4 workers: 1 + 4 + 1.
    QCOMPARE(index.blocked(2)->decisions, std::int64_t(6));
    QVERIFY(!index.blocked(3)); // two workers and the PS fit

    // 24 CPUs taken on node 1: 2 workers fit there, and a PS there would leave room for 1,
    // so where the PS lands matters: offered.
    state.bind(1, 24, 16, {}, 1.0);
    index.refreshNode(1);
    QCOMPARE(index.blocked(0)->decisions, std::int64_t(3));
    QVERIFY(!index.blocked(2));

    // Node 1's CPUs full too: no GPU task fits; one failed decision each. The PS still fits
    // on node 0 (scored, placed) and then no worker does: 1 + 0 + 1.
    state.bind(1, 8, 16, {0, 1}, 1.0);
    index.refreshNode(1);
    for (int j : {0, 1, 3}) {
        QVERIFY(index.blocked(j));
        QCOMPARE(index.blocked(j)->decisions, std::int64_t(1));
    }
    QVERIFY(index.blocked(0)->fastRejection);
    QVERIFY(!index.blocked(1)->fastRejection);
    QCOMPARE(index.blocked(2)->decisions, std::int64_t(2));
    QVERIFY(index.blocked(2)->fastRejection);

    // A change the index did not hear of is found by refreshChanged().
    state.unbind(0, 16, 64, {0, 1, 2, 3}, 1.0);
    QCOMPARE(index.blocked(1)->decisions, std::int64_t(1));
    index.refreshChanged();
    QVERIFY(!index.blocked(1));
    QCOMPARE(index.blocked(0)->decisions, std::int64_t(5));
}

void TestReoffers::skippedReoffersIdentical_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("variant");
#ifdef CB_SANITIZED
    // Under the sanitizers (where this test took 134 s, a fifth of their suite) the two
    // placements, the random plugin and failures; the default build runs every row.
    for (const char *p : {"k8s-default", "dltap", "random"})
        QTest::newRow(p) << QString::fromLatin1(p) << QString();
#else
    for (const char *p : {"k8s-default", "dltap", "binpack", "random", "dltap-due-energy"})
        QTest::newRow(p) << QString::fromLatin1(p) << QString();
    QTest::newRow("k8s-default no backfill") << "k8s-default" << "no-backfill";
    QTest::newRow("k8s-default gang off") << "k8s-default" << "no-gang";
    QTest::newRow("k8s-default interleaved") << "k8s-default" << "interleaved";
#endif
    QTest::newRow("k8s-default failures") << "k8s-default" << "failures";
}

void TestReoffers::skippedReoffersIdentical()
{
    QFETCH(QString, policy);
    QFETCH(QString, variant);
    const Scenario s = overloaded(kOverloadedJobs);
    Policy pol = *builtinPolicy(policy.toStdString());
    std::vector<NodeFailure> failures;
    if (variant == QLatin1String("no-backfill"))
        pol.backfill = false;
    if (variant == QLatin1String("no-gang"))
        pol.gang = false;
    if (variant == QLatin1String("interleaved"))
        pol.taskOrder = TaskOrder::Interleaved;
    if (variant == QLatin1String("failures"))
        for (int k = 0; k < 6; ++k)
            failures.push_back({s.cluster.nodes[std::size_t(k * 20)].id, 200.0 + 500 * k,
                                k % 2 == 0 ? std::optional<double>(900) : std::nullopt});
    const SimText fast = simulated(s, pol, false, failures);
    const SimText exact = simulated(s, pol, true, failures);
    QVERIFY2(fast.text.rfind("error", 0) != 0, fast.text.c_str());
    QCOMPARE(fast.decisions, exact.decisions);
    QCOMPARE(exact.skipped, std::int64_t(0));
    QVERIFY(fast.skipped > 0); // the skip was taken
    QCOMPARE(fast.text.size(), exact.text.size());
    QVERIFY(fast.text == exact.text);
}

QTEST_GUILESS_MAIN(TestReoffers)
#include "tst_reoffers.moc"
