// The placer's incremental scoring (per task shape, every node's scores kept between
// decisions, only nodes whose load changed rescored) makes exactly the decisions of full
// scoring (every node, every plugin, every decision): the picked node, its total and the
// number of nodes tied on it (so the seeded tie-break draws among the same set) are compared
// decision by decision on every sample scenario and on a generated 5,000-node cluster with
// two GPU types, varied task shapes, node selectors, GPU shares and typed GPU requests, for
// every built-in policy and a first-in-order tie-break; jobs are also released and placed
// again (unbinds). With a decision log both paths must log the same decisions row for row.

#include "io/scenario_json.h"
#include "model/gen_host.h"
#include "model/gen_jobs.h"
#include "model/gen_leaf_spine.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "sched/policy.h"

#include <QtTest>

#include <map>

using namespace cb;

namespace {

using Trace = std::vector<Placer::DecisionTrace>;

std::vector<Policy> policiesUnderTest()
{
    std::vector<Policy> out;
    for (const std::string &name : builtinPolicyNames())
        out.push_back(*builtinPolicy(name));
    Policy first = *builtinPolicy("k8s-default");
    first.name = "k8s-default-first";
    first.tieBreak = TieBreak::First;
    out.push_back(first);
    Policy affinity = *builtinPolicy("dltap");
    affinity.name = "dltap-affinity-nvlink";
    PluginConfig a;
    a.kind = PluginKind::NodeAffinity;
    a.weight = 1.5;
    a.preferredLabels = {{"clusterbench.io/rack", "leaf-001"}};
    PluginConfig nv;
    nv.kind = PluginKind::NvlinkPacking;
    nv.weight = 0.5;
    affinity.plugins.push_back(a);
    affinity.plugins.push_back(nv);
    out.push_back(affinity);
    for (DltapVariant v : {DltapVariant::Job, DltapVariant::Traffic}) {
        Policy d = *builtinPolicy("dltap");
        d.name = std::string("dltap-") + toString(v);
        d.plugins.back().variant = v;
        d.taskOrder = v == DltapVariant::Job ? TaskOrder::Interleaved : TaskOrder::PsFirst;
        out.push_back(d);
    }
    return out;
}

/// Whether the policy is one the incremental scorer takes (the others always score fully).
/// The policies the incremental scorer takes: not those whose plugins change scores on nodes
/// other than the bound one (TopologyDistance, Random, and NvlinkDomain, whose score follows
/// the free GPUs of the node's whole domain).
bool incrementalPolicy(const Policy &p)
{
    return !p.plugin(PluginKind::Random) && !p.plugin(PluginKind::TopologyDistance) &&
           !p.plugin(PluginKind::NvlinkDomain);
}

struct Run
{
    Trace trace;
    Placement first, second;
    bool incremental = false;
};

/// Places the jobs, releases every other placed job, places the waiting ones again.
Run run(const Scenario &s, const Topology &topo, const Policy &policy, bool full)
{
    Run r;
    Placer placer(s.cluster, topo, policy, 7);
    placer.setFullScoring(full);
    placer.traceDecisions(&r.trace);
    r.incremental = placer.scoresIncrementally();
    r.first = placer.place(s.jobs);
    std::map<std::string, const Job *> byId;
    for (const Job &j : s.jobs)
        byId[j.id] = &j;
    for (std::size_t k = 0; k < r.first.jobs.size(); k += 2)
        placer.release(*byId[r.first.jobs[k].jobId], r.first.jobs[k]);
    std::vector<const Job *> again;
    for (const std::string &id : r.first.waiting)
        again.push_back(byId[id]);
    r.second = placer.place(again);
    return r;
}

QString firstDifference(const Trace &a, const Trace &b)
{
    for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k)
        if (!(a[k] == b[k]))
            return QStringLiteral("decision %1: incremental node %2 total %3 ties %4, full "
                                  "node %5 total %6 ties %7")
                .arg(a[k].index)
                .arg(a[k].node)
                .arg(a[k].total, 0, 'g', 17)
                .arg(a[k].ties)
                .arg(b[k].node)
                .arg(b[k].total, 0, 'g', 17)
                .arg(b[k].ties);
    return QStringLiteral("lengths %1 and %2").arg(a.size()).arg(b.size());
}

void compareRuns(const Scenario &s, const Policy &policy)
{
    const Topology topo(s.cluster);
    const Run inc = run(s, topo, policy, false);
    const Run full = run(s, topo, policy, true);
    QCOMPARE(inc.incremental, incrementalPolicy(policy));
    QVERIFY(!full.incremental);
    QVERIFY(!inc.trace.empty());
    QVERIFY2(inc.trace == full.trace,
             qPrintable(QString::fromStdString(policy.name) + QStringLiteral(": ") +
                        firstDifference(inc.trace, full.trace)));
    QCOMPARE(inc.first.waiting, full.first.waiting);
    QCOMPARE(inc.second.waiting, full.second.waiting);
    for (const auto *pair : {&inc.first, &inc.second}) {
        const Placement &other = pair == &inc.first ? full.first : full.second;
        QCOMPARE(pair->jobs.size(), other.jobs.size());
        for (std::size_t k = 0; k < pair->jobs.size(); ++k) {
            QCOMPARE(pair->jobs[k].tasks.size(), other.jobs[k].tasks.size());
            for (std::size_t t = 0; t < pair->jobs[k].tasks.size(); ++t) {
                QCOMPARE(pair->jobs[k].tasks[t].node, other.jobs[k].tasks[t].node);
                QCOMPARE(pair->jobs[k].tasks[t].gpuIndices, other.jobs[k].tasks[t].gpuIndices);
            }
        }
    }
}

/// 125 leaves of 40 hosts (5,000 nodes), every other leaf with V100s instead of A100s.
Scenario generated5000()
{
    LeafSpineParams p;
    p.leaves = 125;
    p.hostsPerLeaf = 40;
    p.spines = 8;
    Scenario s;
    s.name = "leaf-spine-5000";
    s.cluster = generateLeafSpine(p).value();
    gen::addGpuType(s.cluster, "V100");
    for (std::size_t i = 0; i < s.cluster.nodes.size(); ++i)
        if ((i / 40) % 2 == 1) {
            s.cluster.nodes[i].gpuType = "V100";
            s.cluster.nodes[i].labels["nvidia.com/gpu.product"] = "Tesla-V100-SXM2-32GB";
        }
    JobSetParams j;
#ifdef CB_SANITIZED
    j.jobs = 400;
#else
    j.jobs = 3000;
#endif
    j.minWorkers = 2;
    j.maxWorkers = 24;
    j.seed = 5;
    s.jobs = generateJobs(j).value();
    // Vary the shapes: CPU asks, GPU shares, typed GPUs, a node selector.
    for (std::size_t k = 0; k < s.jobs.size(); ++k) {
        Job &job = s.jobs[k];
        for (TaskGroup &g : job.tasks) {
            g.cpus += double(k % 4) * 2;
            if (k % 7 == 3 && g.gpus == 1)
                g.gpuFraction = 0.5;
            if (k % 11 == 5 && g.gpus > 0)
                g.gpuType = "V100";
            if (k % 13 == 6)
                g.nodeSelector["clusterbench.io/rack"] = gen::indexedName("leaf", int(k % 5), 125);
        }
    }
    return s;
}

} // namespace

class TestIncrementalScoring : public QObject
{
    Q_OBJECT

private slots:
    void samplesDecideIdentically_data();
    void samplesDecideIdentically();
    void generated5000DecidesIdentically_data();
    void generated5000DecidesIdentically();
    void logsAreIdentical();
    void weightOverrideIsHonoured();
};

void TestIncrementalScoring::samplesDecideIdentically_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("policy");
    const QDir dir(QStringLiteral(CB_SOURCE_DIR "/sample-clusters"));
    const std::vector<Policy> policies = policiesUnderTest();
    for (const QString &f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        for (std::size_t p = 0; p < policies.size(); ++p)
            QTest::newRow(qPrintable(f + QLatin1Char(' ') +
                                     QString::fromStdString(policies[p].name)))
                << f << int(p);
}

void TestIncrementalScoring::samplesDecideIdentically()
{
    QFETCH(QString, file);
    QFETCH(int, policy);
    auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/" + file.toStdString());
    QVERIFY2(s.ok(), s ? "" : s.error().c_str());
    compareRuns(s.value(), policiesUnderTest()[std::size_t(policy)]);
}

void TestIncrementalScoring::generated5000DecidesIdentically_data()
{
    QTest::addColumn<int>("policy");
    const std::vector<Policy> policies = policiesUnderTest();
    for (std::size_t p = 0; p < policies.size(); ++p) {
#ifdef CB_SANITIZED
        if (!incrementalPolicy(policies[p]))
            continue; // full scoring on both sides: slow under the sanitizers, nothing to learn
#endif
        QTest::newRow(policies[p].name.c_str()) << int(p);
    }
}

void TestIncrementalScoring::generated5000DecidesIdentically()
{
    QFETCH(int, policy);
    static const Scenario s = generated5000();
    QCOMPARE(int(s.cluster.nodes.size()), 5000);
    compareRuns(s, policiesUnderTest()[std::size_t(policy)]);
}

void TestIncrementalScoring::logsAreIdentical()
{
    auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
    QVERIFY(s.ok());
    const Topology topo(s.value().cluster);
    for (const char *name : {"k8s-default", "dltap", "dltap-due-energy", "binpack"}) {
        for (LogDetail::Kind kind : {LogDetail::Kind::Full, LogDetail::Kind::Top}) {
            DecisionLog a, b;
            a.detail.kind = b.detail.kind = kind;
            a.detail.top = b.detail.top = 2;
            Placer inc(s.value().cluster, topo, *builtinPolicy(name), 3);
            Placer full(s.value().cluster, topo, *builtinPolicy(name), 3);
            full.setFullScoring(true);
            QVERIFY(inc.scoresIncrementally());
            inc.place(s.value().jobs, &a);
            full.place(s.value().jobs, &b);
            QVERIFY(!a.decisions.empty());
            QCOMPARE(a.decisions.size(), b.decisions.size());
            for (std::size_t k = 0; k < a.decisions.size(); ++k) {
                QCOMPARE(a.decisions[k].why, b.decisions[k].why);
                QVERIFY2(a.decisions[k] == b.decisions[k], name);
            }
            QCOMPARE(a.reasons, b.reasons);
            QCOMPARE(a.events.size(), b.events.size());
        }
    }
}

void TestIncrementalScoring::weightOverrideIsHonoured()
{
    // A weight that changes mid-run (the decision contrast's counterfactual) must reach the
    // cached totals too.
    auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
    QVERIFY(s.ok());
    const Topology topo(s.value().cluster);
    Trace a, b;
    Placer inc(s.value().cluster, topo, *builtinPolicy("dltap"), 3);
    Placer full(s.value().cluster, topo, *builtinPolicy("dltap"), 3);
    full.setFullScoring(true);
    inc.traceDecisions(&a);
    full.traceDecisions(&b);
    inc.overrideWeightFrom(3, 3, 9);
    full.overrideWeightFrom(3, 3, 9);
    inc.place(s.value().jobs);
    full.place(s.value().jobs);
    QVERIFY(a.size() > 3);
    QVERIFY2(a == b, qPrintable(firstDifference(a, b)));
}

QTEST_GUILESS_MAIN(TestIncrementalScoring)
#include "tst_incremental_scoring.moc"
