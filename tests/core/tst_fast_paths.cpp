// The simulator's and placer's fast paths change no answer: every sample scenario and a
// generated, overloaded fat-tree are simulated twice, once as usual and once in the
// exhaustive reference mode (every task scored, the whole network re-solved at every change),
// and the two run files must be byte-identical. The placer's gang fast path is also checked
// decision by decision on a queue that mostly does not fit. The simulator's skipped re-offers
// (sim/reoffer_index.h: waiting jobs that provably cannot be placed are not offered, their
// decisions counted) are checked by hand on a two-node cluster and against the reference,
// which offers every waiting job, run file and decision count alike.

#include "io/run_json.h"
#include "io/scenario_json.h"
#include "model/gen_fat_tree.h"
#include "model/gen_jobs.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "sched/policy.h"
#include "sim/reoffer_index.h"
#include "sim/simulator.h"

#include <QtTest>

using namespace cb;

namespace {

std::string runText(const Scenario &s, const std::string &policy, bool exhaustive)
{
    SimOptions o;
    o.policy = *builtinPolicy(policy);
    o.seed = 3;
    o.exhaustive = exhaustive;
    auto r = simulate(s, o);
    if (!r)
        return "error: " + r.error();
    const Topology topo(s.cluster);
    return runToJson(r.value(), s.cluster, topo).dump();
}

/// A k = 8 fat-tree (128 hosts, 8 GPUs each) under a queue of all-reduce and PS jobs of up
/// to 40 workers arriving faster than they finish: most passes try jobs that do not fit.
Scenario overloaded(int jobs)
{
    FatTreeParams p;
    p.k = 8;
    Scenario s;
    s.name = "overloaded-fat-tree";
    s.cluster = generateFatTree(p).value();
    JobSetParams j;
    j.jobs = jobs;
    j.meanInterarrivalSeconds = 20;
    j.minWorkers = 2;
    j.maxWorkers = 40;
    j.singleFraction = 0.3;
    j.seed = 11;
    s.jobs = generateJobs(j).value();
    return s;
}

struct SimText
{
    std::string text;
    std::int64_t decisions = 0;
    std::int64_t skipped = 0;
};

SimText simulated(const Scenario &s, const Policy &policy, bool exhaustive,
                  std::vector<NodeFailure> failures = {})
{
    SimOptions o;
    o.policy = policy;
    o.seed = 3;
    o.exhaustive = exhaustive;
    o.failures = std::move(failures);
    Simulator sim(s, o);
    auto r = sim.run();
    SimText out;
    if (!r) {
        out.text = "error: " + r.error();
        return out;
    }
    const Topology topo(s.cluster);
    out.text = runToJson(r.value(), s.cluster, topo).dump();
    out.decisions = sim.placer().decisionCount();
    out.skipped = sim.skippedOffers();
    return out;
}

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

class TestFastPaths : public QObject
{
    Q_OBJECT

private slots:
    void samplesSimulateIdentically_data();
    void samplesSimulateIdentically();
    void generatedSimulatesIdentically();
    void gangFastPathDecisionsIdentical();
    void reofferIndexByHand();
    void skippedReoffersIdentical_data();
    void skippedReoffersIdentical();
};

void TestFastPaths::samplesSimulateIdentically_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("policy");
    const QDir dir(QStringLiteral(CB_SOURCE_DIR "/sample-clusters"));
    for (const QString &f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        for (const char *p : {"k8s-default", "dltap", "binpack"}) {
#ifdef CB_SANITIZED
            if (f == QLatin1String("fat-tree-1024.json") && std::string(p) != "dltap")
                continue;
#endif
            QTest::newRow(qPrintable(f + QLatin1Char(' ') + QLatin1String(p)))
                << f << QString::fromLatin1(p);
        }
}

void TestFastPaths::samplesSimulateIdentically()
{
    QFETCH(QString, file);
    QFETCH(QString, policy);
    auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/" + file.toStdString());
    QVERIFY2(s.ok(), s ? "" : s.error().c_str());
    const std::string fast = runText(s.value(), policy.toStdString(), false);
    const std::string exact = runText(s.value(), policy.toStdString(), true);
    QVERIFY2(fast.rfind("error", 0) != 0, fast.c_str());
    QCOMPARE(fast.size(), exact.size());
    QVERIFY(fast == exact);
}

void TestFastPaths::generatedSimulatesIdentically()
{
#ifdef CB_SANITIZED
    const Scenario s = overloaded(150);
#else
    const Scenario s = overloaded(600);
#endif
    for (const char *policy : {"k8s-default", "dltap"}) {
        const std::string fast = runText(s, policy, false);
        const std::string exact = runText(s, policy, true);
        QVERIFY2(fast.rfind("error", 0) != 0, fast.c_str());
        QCOMPARE(fast.size(), exact.size());
        QVERIFY2(fast == exact, policy);
    }
}

void TestFastPaths::gangFastPathDecisionsIdentical()
{
    // All jobs offered at once to the 128-host cluster (1,024 GPUs): the first ones fill it,
    // the later big ones cannot fit and are rejected without scoring; smaller ones after
    // them still fit (backfill). Random tie-breaks make every later pick depend on the
    // decision count, so a miscount shows as a different node.
    const Scenario s = overloaded(120);
    const Topology topo(s.cluster);
    for (const char *name : {"k8s-default", "dltap", "random"}) {
        const Policy policy = *builtinPolicy(name);
        Placer fast(s.cluster, topo, policy, 5);
        Placer exact(s.cluster, topo, policy, 5);
        exact.setExhaustive(true);
        const Placement a = fast.place(s.jobs);
        const Placement b = exact.place(s.jobs);
        QCOMPARE(fast.decisionCount(), exact.decisionCount());
        QVERIFY2(fast.fastRejections() > 0, name); // the fast path was taken
        QCOMPARE(exact.fastRejections(), std::int64_t(0));
        QCOMPARE(a.waiting, b.waiting);
        QCOMPARE(a.jobs.size(), b.jobs.size());
        for (std::size_t k = 0; k < a.jobs.size(); ++k) {
            QCOMPARE(a.jobs[k].jobId, b.jobs[k].jobId);
            QCOMPARE(a.jobs[k].tasks.size(), b.jobs[k].tasks.size());
            for (std::size_t t = 0; t < a.jobs[k].tasks.size(); ++t) {
                QCOMPARE(a.jobs[k].tasks[t].node, b.jobs[k].tasks[t].node);
                QCOMPARE(a.jobs[k].tasks[t].gpuIndices, b.jobs[k].tasks[t].gpuIndices);
            }
        }
        // The state after the pass is the same too: a second pass decides alike.
        const Placement a2 = fast.place(s.jobs);
        const Placement b2 = exact.place(s.jobs);
        QCOMPARE(a2.waiting, b2.waiting);
        QCOMPARE(fast.decisionCount(), exact.decisionCount());
    }
}

void TestFastPaths::reofferIndexByHand()
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

void TestFastPaths::skippedReoffersIdentical_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("variant");
    for (const char *p : {"k8s-default", "dltap", "binpack", "random", "dltap-due-energy"})
        QTest::newRow(p) << QString::fromLatin1(p) << QString();
    QTest::newRow("k8s-default no backfill") << "k8s-default" << "no-backfill";
    QTest::newRow("k8s-default gang off") << "k8s-default" << "no-gang";
    QTest::newRow("k8s-default interleaved") << "k8s-default" << "interleaved";
    QTest::newRow("k8s-default failures") << "k8s-default" << "failures";
}

void TestFastPaths::skippedReoffersIdentical()
{
    QFETCH(QString, policy);
    QFETCH(QString, variant);
#ifdef CB_SANITIZED
    const Scenario s = overloaded(150);
#else
    const Scenario s = overloaded(600);
#endif
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

QTEST_GUILESS_MAIN(TestFastPaths)
#include "tst_fast_paths.moc"
