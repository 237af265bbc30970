// The simulator's and placer's fast paths change no answer: every sample scenario and a
// generated, overloaded fat-tree are simulated twice, once as usual and once in the
// exhaustive reference mode (every task scored, the whole network re-solved at every change),
// and the two run files must be byte-identical. The placer's gang fast path is also checked
// decision by decision on a queue that mostly does not fit. The simulator's skipped re-offers
// are checked the same way in tst_reoffers.

#include "io/scenario_json.h"
#include "sched/placer.h"

#include "../common/philly_shaped.h"
#include "tst_fast_paths_fixtures.h"

#include <QtTest>

using namespace cb;
using namespace cb::fastpaths;

class TestFastPaths : public QObject
{
    Q_OBJECT

private slots:
    void samplesSimulateIdentically_data();
    void samplesSimulateIdentically();
    void generatedSimulatesIdentically();
    void phillyShapedSimulatesIdentically();
    void gangFastPathDecisionsIdentical();
};

void TestFastPaths::samplesSimulateIdentically_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("policy");
    const QDir dir(QStringLiteral(CB_SOURCE_DIR "/sample-clusters"));
    for (const QString &f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        for (const char *p : {"k8s-default", "dltap", "binpack"}) {
#ifdef CB_SANITIZED
            // The default build checks it; under the sanitizers one exhaustive run of it
            // takes over a minute and reaches no code the other samples do not.
            if (f == QLatin1String("fat-tree-1024.json"))
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
    const std::string fast = simulated(s.value(), *builtinPolicy(policy.toStdString()), false).text;
    const std::string exact = simulated(s.value(), *builtinPolicy(policy.toStdString()), true).text;
    QVERIFY2(fast.rfind("error", 0) != 0, fast.c_str());
    QCOMPARE(fast.size(), exact.size());
    QVERIFY(fast == exact);
}

void TestFastPaths::generatedSimulatesIdentically()
{
    const Scenario s = overloaded(kOverloadedJobs);
    for (const char *policy : {"k8s-default", "dltap"}) {
        const std::string fast = simulated(s, *builtinPolicy(policy), false).text;
        const std::string exact = simulated(s, *builtinPolicy(policy), true).text;
        QVERIFY2(fast.rfind("error", 0) != 0, fast.c_str());
        QCOMPARE(fast.size(), exact.size());
        QVERIFY2(fast == exact, policy);
    }
}

void TestFastPaths::phillyShapedSimulatesIdentically()
{
    // bench_sim's 1,000-job trace on its 1,024-host fat-tree: ring all-reduce jobs spread by
    // k8s-default share the host links in one large component, where the network's local
    // repair does most of the re-solving (it once let a late share through here: the run
    // files differed while every sample's matched).
    FatTreeParams p;
    p.k = 16;
    Scenario s;
    s.name = "philly-shaped";
    s.cluster = generateFatTree(p).value();
#ifdef CB_SANITIZED
    const int jobs = 400;
#else
    const int jobs = 1000;
#endif
    s.jobs = testdata::phillyShaped(jobs, s.cluster.totalGpus(), 7);
    // (seed 1: the placement under which the late share showed)
    const Policy policy = *builtinPolicy("k8s-default");
    const std::string fast = simulated(s, policy, false, {}, 1).text;
    const std::string exact = simulated(s, policy, true, {}, 1).text;
    QVERIFY2(fast.rfind("error", 0) != 0, fast.c_str());
    QCOMPARE(fast.size(), exact.size());
    QVERIFY(fast == exact);
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

QTEST_GUILESS_MAIN(TestFastPaths)
#include "tst_fast_paths.moc"
