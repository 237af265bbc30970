// Traffic accounting of a placement, checked by hand on a 3-node star (n1, n2 on switch s1,
// n3 on switch s2, s1-s2): parameter-server and ring all-reduce jobs, intra- versus cross-node
// bytes, per-link loads along routes and byte-weighted mean hops.

#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/traffic.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace cb;
using nlohmann::json;

namespace {

Scenario star(json jobs)
{
    json doc = {{"format", "clusterbench-scenario"},
                {"version", 1},
                {"cluster",
                 {{"nodes",
                   {{{"id", "n1"}, {"cpus", 8}, {"memory_gib", 8}},
                    {{"id", "n2"}, {"cpus", 8}, {"memory_gib", 8}},
                    {{"id", "n3"}, {"cpus", 8}, {"memory_gib", 8}}}},
                  {"switches", {{{"id", "s1"}}, {{"id", "s2"}}}},
                  {"links", {{{"a", "n1"}, {"b", "s1"}, {"capacity_gbps", 1}},
                             {{"a", "n2"}, {"b", "s1"}, {"capacity_gbps", 1}},
                             {{"a", "n3"}, {"b", "s2"}, {"capacity_gbps", 1}},
                             {{"a", "s1"}, {"b", "s2"}, {"capacity_gbps", 10}}}}}},
                {"jobs", jobs}};
    auto s = scenarioFromJson(doc);
    if (!s)
        qFatal("bad test scenario: %s", s.error().c_str());
    return s.value();
}

json psJob(int ps, int workers, std::int64_t bytes)
{
    return {{"id", "j"},
            {"kind", "ps"},
            {"tasks", {{{"role", "ps"}, {"replicas", ps}}, {{"role", "worker"}, {"replicas", workers}}}},
            {"model", {{"name", "m"}, {"parameter_bytes", bytes}}}};
}

TaskAssignment task(TaskRole role, int group, int index, const char *node)
{
    TaskAssignment a;
    a.role = role;
    a.group = group;
    a.indexInRole = index;
    a.node = node;
    return a;
}

} // namespace

class TestTraffic : public QObject
{
    Q_OBJECT

private slots:
    void parameterServer_data()
    {
        QTest::addColumn<QStringList>("psNodes");
        QTest::addColumn<QStringList>("workerNodes");
        QTest::addColumn<double>("total");
        QTest::addColumn<double>("cross");
        QTest::addColumn<double>("meanHops");
        // 1 ps, 2 workers, 1000 bytes: each worker sends 1000 to the ps and gets 1000 back.
        QTest::newRow("all on one node") << QStringList{"n1"} << QStringList{"n1", "n1"} << 4000.0
                                         << 0.0 << 0.0;
        // worker-1 on n2: 2000 bytes cross n1-s1-n2 (2 hops): 2000 * 2 / 4000
        QTest::newRow("one worker away") << QStringList{"n1"} << QStringList{"n1", "n2"}
                                         << 4000.0 << 2000.0 << 1.0;
        // worker-1 on n3: 3 hops
        QTest::newRow("one worker across switches")
            << QStringList{"n1"} << QStringList{"n1", "n3"} << 4000.0 << 2000.0 << 1.5;
        // 2 ps (500 bytes each way per worker-ps pair), 2 workers: 8 flows of 500 = 4000;
        // ps-0 n1, ps-1 n2, workers n1, n2: half of the pairs are local.
        QTest::newRow("two ps, two workers")
            << QStringList{"n1", "n2"} << QStringList{"n1", "n2"} << 4000.0 << 2000.0 << 1.0;
    }

    void parameterServer()
    {
        QFETCH(QStringList, psNodes);
        QFETCH(QStringList, workerNodes);
        QFETCH(double, total);
        QFETCH(double, cross);
        QFETCH(double, meanHops);
        const Scenario s = star(json::array({psJob(int(psNodes.size()), int(workerNodes.size()),
                                                   1000)}));
        Placement pl;
        JobPlacement jp;
        jp.jobId = "j";
        for (int i = 0; i < psNodes.size(); ++i)
            jp.tasks.push_back(task(TaskRole::Ps, 0, i, qPrintable(psNodes[i])));
        for (int i = 0; i < workerNodes.size(); ++i)
            jp.tasks.push_back(task(TaskRole::Worker, 1, i, qPrintable(workerNodes[i])));
        pl.jobs.push_back(jp);
        const Topology topo(s.cluster);
        const TrafficReport r = computeTraffic(s.jobs, s.cluster, topo, pl);
        QCOMPARE(r.totalBytes, total);
        QCOMPARE(r.crossNodeBytes, cross);
        QCOMPARE(r.intraNodeBytes, total - cross);
        QCOMPARE(r.meanHops(), meanHops);
        QCOMPARE(r.jobs.size(), std::size_t(1));
        QCOMPARE(r.jobs[0].crossNodeBytes, cross);
    }

    void linkLoads()
    {
        // ps on n1, workers on n1 and n3: worker-1 <-> ps is 1000 bytes each way over
        // n3->s2->s1->n1 and back.
        const Scenario s = star(json::array({psJob(1, 2, 1000)}));
        Placement pl;
        JobPlacement jp;
        jp.jobId = "j";
        jp.tasks = {task(TaskRole::Ps, 0, 0, "n1"), task(TaskRole::Worker, 1, 0, "n1"),
                    task(TaskRole::Worker, 1, 1, "n3")};
        pl.jobs.push_back(jp);
        const Topology topo(s.cluster);
        const TrafficReport r = computeTraffic(s.jobs, s.cluster, topo, pl);
        QStringList loaded;
        for (int l = 0; l < int(r.linkBytes.size()); ++l)
            if (r.linkBytes[std::size_t(l)] > 0)
                loaded << QStringLiteral("%1=%2")
                              .arg(QString::fromStdString(directedLinkName(s.cluster, l)))
                              .arg(r.linkBytes[std::size_t(l)]);
        QCOMPARE(loaded.join(' '), QStringLiteral("n1->s1=1000 s1->n1=1000 n3->s2=1000 "
                                                  "s2->n3=1000 s1->s2=1000 s2->s1=1000"));
        QCOMPARE(r.maxLinkBytes, 1000.0);
        QCOMPARE(directedLinkName(s.cluster, r.maxLink), std::string("n1->s1"));
        // 1000 bytes over a 1 Gbit/s link: 8e3 / 1e9 s
        QCOMPARE(r.maxLinkSeconds, 8e-6);
        const auto j = r.toJson(s.cluster, topo);
        QCOMPARE(j["cross_node_bytes"].get<double>(), 2000.0);
        QCOMPARE(j["node_pairs"].size(), std::size_t(3)); // n1->n1, n1->n3, n3->n1
    }

    void ringAllReduce_data()
    {
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<double>("total");
        QTest::addColumn<double>("cross");
        // W = 3, 300 bytes: each worker sends 2 * 2/3 * 300 = 400 to the next rank.
        QTest::newRow("3 on one node") << QStringList{"n1", "n1", "n1"} << 1200.0 << 0.0;
        // ring n1 -> n1 -> n2 -> n1: two of three hops cross
        QTest::newRow("3 over two nodes") << QStringList{"n1", "n1", "n2"} << 1200.0 << 800.0;
        // W = 2: 2 * 1/2 * 300 = 300 each way
        QTest::newRow("2 apart") << QStringList{"n1", "n2"} << 600.0 << 600.0;
        QTest::newRow("1 worker, nothing to reduce") << QStringList{"n1"} << 0.0 << 0.0;
    }

    void ringAllReduce()
    {
        QFETCH(QStringList, nodes);
        QFETCH(double, total);
        QFETCH(double, cross);
        const json job = {{"id", "r"},
                          {"kind", "allreduce"},
                          {"tasks", {{{"role", "worker"}, {"replicas", nodes.size()}}}},
                          {"model", {{"parameter_bytes", 300}}}};
        const Scenario s = star(json::array({job}));
        Placement pl;
        JobPlacement jp;
        jp.jobId = "r";
        for (int i = 0; i < nodes.size(); ++i)
            jp.tasks.push_back(task(TaskRole::Worker, 0, i, qPrintable(nodes[i])));
        pl.jobs.push_back(jp);
        const Topology topo(s.cluster);
        const TrafficReport r = computeTraffic(s.jobs, s.cluster, topo, pl);
        QCOMPARE(r.totalBytes, total);
        QCOMPARE(r.crossNodeBytes, cross);
    }
};

QTEST_APPLESS_MAIN(TestTraffic)
#include "tst_traffic.moc"
