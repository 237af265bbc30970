// The placement pipeline on a 4-node cluster small enough to check every score by hand:
// one _data() row per plugin with the exact raw scores (per node) and the pick, then
// tie-breaks, gang roll-back, backfilling, queue orders, GPU shares and the log.
//
// Cluster (switch s1: a, b; switch s2: c, d; s1-s2 linked; hops a-b 2, a-c 3):
//   a  8 CPUs, 32 GiB, 2 x K80              labels host=a rack=r1
//   b 16 CPUs, 32 GiB, 4 x K80              labels host=b rack=r1
//   c  4 CPUs,  8 GiB, no GPU               labels host=c rack=r2
//   d  8 CPUs, 16 GiB, 2 x V100 on NVLink   labels host=d rack=r2

#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "io/policy_json.h"
#include "sched/queue_order.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <map>

using namespace cb;
using nlohmann::json;

namespace {

json node(const char *id, int cpus, int mem, int gpus, const char *type, const char *rack)
{
    json n = {{"id", id}, {"cpus", cpus}, {"memory_gib", mem}, {"gpus", gpus},
              {"labels", {{"host", id}, {"rack", rack}}}};
    if (gpus > 0)
        n["gpu_type"] = type;
    return n;
}

json cluster()
{
    json d = node("d", 8, 16, 2, "V100", "r2");
    d["interconnect"] = {{"kind", "nvlink"}, {"nvlink_domains", {{0, 1}}}};
    return {{"gpu_types", {{{"name", "K80"}, {"memory_gib", 12}},
                           {{"name", "V100"}, {"memory_gib", 16}}}},
            {"nodes", {node("a", 8, 32, 2, "K80", "r1"), node("b", 16, 32, 4, "K80", "r1"),
                       node("c", 4, 8, 0, "", "r2"), d}},
            {"switches", {{{"id", "s1"}}, {{"id", "s2"}}}},
            {"links", {{{"a", "a"}, {"b", "s1"}, {"capacity_gbps", 10}},
                       {{"a", "b"}, {"b", "s1"}, {"capacity_gbps", 10}},
                       {{"a", "c"}, {"b", "s2"}, {"capacity_gbps", 10}},
                       {{"a", "d"}, {"b", "s2"}, {"capacity_gbps", 10}},
                       {{"a", "s1"}, {"b", "s2"}, {"capacity_gbps", 10}}}}};
}

/// A task group: role, cpus, memory, GPUs, optional host selector.
json group(const char *role, int cpus, int mem, int gpus = 0, const char *host = nullptr,
           int replicas = 1)
{
    json g = {{"role", role}, {"replicas", replicas}, {"cpus", cpus}, {"memory_gib", mem},
              {"gpus", gpus}};
    if (host)
        g["node_selector"] = {{"host", host}};
    return g;
}

/// The task groups are a vector, not a json: `{group(...)}` with one group is an array under
/// GCC but a copy of the group under clang (the sanitize preset).
json job(const char *id, const char *kind, std::vector<json> tasks, double submit = 0)
{
    return {{"id", id}, {"kind", kind}, {"submit_s", submit}, {"tasks", tasks},
            {"model", {{"name", "m"}, {"parameter_bytes", 1000}}}};
}

Scenario scenario(json jobs)
{
    json doc = {{"format", "clusterbench-scenario"}, {"version", 1}, {"cluster", cluster()},
                {"jobs", jobs}};
    auto s = scenarioFromJson(doc);
    if (!s)
        qFatal("test scenario invalid: %s", s.error().c_str());
    return s.value();
}

Policy onePlugin(const std::string &pluginJson)
{
    json p = json::parse(R"({"name": "t", "tie_break": "first", "plugins": )" + pluginJson +
                         "}");
    auto policy = policyFromJson(p, "");
    if (!policy)
        qFatal("test policy invalid: %s", policy.error().c_str());
    return policy.value();
}

/// Raw scores of plugin 0 in decision `index`, -1 for filtered nodes, and the pick.
std::pair<QList<double>, QString> decide(const Scenario &s, const Policy &p, int index,
                                         std::uint64_t seed = 1)
{
    const Topology topo(s.cluster);
    DecisionLog log;
    placeScenario(s, topo, p, seed, &log);
    if (index >= int(log.decisions.size()))
        return {{}, QStringLiteral("no decision %1").arg(index)};
    const Decision &d = log.decisions[std::size_t(index)];
    QList<double> raw;
    for (const CandidateRow &r : d.rows)
        raw << (r.feasible() ? d.rawScore(r, 0) : -1.0);
    return {raw, d.pick >= 0 ? QString::fromStdString(log.nodeNames[std::size_t(d.pick)])
                             : QStringLiteral("-")};
}

} // namespace

class TestSched : public QObject
{
    Q_OBJECT

private slots:
    void pluginScores_data()
    {
        QTest::addColumn<QString>("plugins");
        QTest::addColumn<QString>("jobs");
        QTest::addColumn<int>("decision");
        QTest::addColumn<QList<double>>("raw"); // a, b, c, d; -1 = filtered out
        QTest::addColumn<QString>("pick");

        const json cpuTask = json::array({job("j", "single", {group("single", 2, 4)})});
        const json gpuTask = json::array({job("j", "single", {[] {
                                                  json g = group("single", 2, 4, 1);
                                                  g["gpu_type"] = "K80";
                                                  return g;
                                              }()})});
        // a: cpu (8-2)*10/8 = 7.5 -> 7, mem 28*10/32 = 8.75 -> 8, (7+8)/2 -> 7
        // b: 14*10/16 = 8.75 -> 8, 8 -> 8;  c: 2*10/4 = 5, 4*10/8 = 5;  d: 7, 12*10/16 -> 7
        QTest::newRow("least-allocated") << R"({"least-allocated": {}})"
                                         << QString::fromStdString(cpuTask.dump()) << 0
                                         << QList<double>{7, 8, 5, 7} << "b";
        // a: 2*10/8 -> 2, 4*10/32 -> 1, 3/2 -> 1;  b: 1, 1;  c: 5, 5;  d: 2, 2
        QTest::newRow("most-allocated") << R"({"most-allocated": {}})"
                                        << QString::fromStdString(cpuTask.dump()) << 0
                                        << QList<double>{1, 1, 5, 2} << "c";
        // a: |0.25 - 0.125| = 0.125 -> 10 - 1.25 -> 8; b, c, d: equal fractions -> 10
        QTest::newRow("balanced-allocation (tie: first)")
            << R"({"balanced-allocation": {}})" << QString::fromStdString(cpuTask.dump()) << 0
            << QList<double>{8, 10, 10, 10} << "b";
        // GPU type K80: c has no GPU, d has V100. a: (7 + 8 + (2-1)*10/2=5) / 3 -> 6;
        // b: (8 + 8 + 3*10/4=7) / 3 -> 7
        QTest::newRow("least-allocated gpu, type filter")
            << R"({"least-allocated": {"gpu": true}})" << QString::fromStdString(gpuTask.dump())
            << 0 << QList<double>{6, 7, -1, -1} << "b";
        QTest::newRow("node-affinity rack=r2")
            << R"({"node-affinity": {"labels": {"rack": "r2"}}})"
            << QString::fromStdString(cpuTask.dump()) << 0 << QList<double>{0, 0, 10, 10}
            << "c";
        // Same job: 2 tasks on a, 1 on b -> max 2: a 0, b 10*(2-1)/2 = 5, c and d 10.
        const json spreadJob = json::array({job(
            "j", "ps",
            {group("ps", 1, 1, 0, "a"), group("worker", 1, 1, 0, "a"), group("worker", 1, 1, 0, "b"),
             group("worker", 1, 1)})});
        QTest::newRow("selector-spread") << R"({"selector-spread": {}})"
                                         << QString::fromStdString(spreadJob.dump()) << 3
                                         << QList<double>{0, 5, 10, 10} << "c";
        // ps-0 on a, ps-1 on b: a worker sees half its counterparts on a and half on b.
        const json twoPs = json::array({job(
            "j", "ps", {group("ps", 1, 1, 0, "a"), group("ps", 1, 1, 0, "b"), group("worker", 1, 1)})});
        QTest::newRow("dltap counterpart, worker")
            << R"({"dltap": {}})" << QString::fromStdString(twoPs.dump()) << 2
            << QList<double>{5, 5, 0, 0} << "a";
        // ps on a, worker on a, worker on b, then a free ps (decision 3), then a free worker.
        const json psLate = json::array(
            {job("j", "ps",
                 {group("ps", 1, 1, 0, "a"), group("worker", 1, 1, 0, "a"),
                  group("worker", 1, 1, 0, "b"), group("ps", 1, 1), group("worker", 1, 1)})});
        // counterpart: workers placed a 1, b 1 of 2 -> 5, 5
        QTest::newRow("dltap counterpart, ps")
            << R"({"dltap": {"variant": "counterpart"}})" << QString::fromStdString(psLate.dump())
            << 3 << QList<double>{5, 5, 0, 0} << "a";
        // job: a holds 2 of the 3 placed tasks -> round(6.67) = 7, b 1 of 3 -> 3
        QTest::newRow("dltap job") << R"({"dltap": {"variant": "job"}})"
                                   << QString::fromStdString(psLate.dump()) << 3
                                   << QList<double>{7, 3, 0, 0} << "a";
        // traffic: a ps exchanges equal bytes with each of the job's 3 workers; 1 of 3 on a
        QTest::newRow("dltap traffic") << R"({"dltap": {"variant": "traffic"}})"
                                       << QString::fromStdString(psLate.dump()) << 3
                                       << QList<double>{3, 3, 0, 0} << "a";
        // ps on a; mean hops to it: a 0, b 2, c 3, d 3 -> round(10 * (3 - h) / 3)
        const json onePs = json::array(
            {job("j", "ps", {group("ps", 1, 1, 0, "a"), group("worker", 1, 1)})});
        QTest::newRow("topology-distance") << R"({"topology-distance": {}})"
                                           << QString::fromStdString(onePs.dump()) << 1
                                           << QList<double>{10, 3, 0, 0} << "a";
        // One GPU of any type: d's untouched NVLink domain 8; PCIe nodes 0; c has no GPU.
        const json twoGpuTasks = json::array({job("j", "allreduce", {group("worker", 1, 1, 1, nullptr, 2)})});
        QTest::newRow("nvlink-packing, fresh domain")
            << R"({"nvlink-packing": {}})" << QString::fromStdString(twoGpuTasks.dump()) << 0
            << QList<double>{0, 0, -1, 8} << "d";
        // The second task prefers the domain the first one already uses: 10.
        QTest::newRow("nvlink-packing, partly used domain")
            << R"({"nvlink-packing": {}})" << QString::fromStdString(twoGpuTasks.dump()) << 1
            << QList<double>{0, 0, -1, 10} << "d";
    }

    void pluginScores()
    {
        QFETCH(QString, plugins);
        QFETCH(QString, jobs);
        QFETCH(int, decision);
        QFETCH(QList<double>, raw);
        QFETCH(QString, pick);
        const Scenario s = scenario(json::parse(jobs.toStdString()));
        const auto [got, picked] = decide(s, onePlugin(plugins.toStdString()), decision);
        QCOMPARE(got, raw);
        QCOMPARE(picked, pick);
    }

    void k8sDefaultTotals()
    {
        // SelectorSpread 10 everywhere (no task of the job yet) + LeastRequested + Balanced:
        // a 10+7+8 = 25, b 10+8+10 = 28, c 10+5+10 = 25, d 10+7+10 = 27 -> b.
        const Scenario s = scenario(json::array({job("j", "single", {group("single", 2, 4)})}));
        const Topology topo(s.cluster);
        DecisionLog log;
        placeScenario(s, topo, *builtinPolicy("k8s-default"), 1, &log);
        QCOMPARE(log.decisions.size(), std::size_t(1));
        QList<double> totals;
        for (const CandidateRow &r : log.decisions[0].rows)
            totals << r.total;
        QCOMPARE(totals, (QList<double>{25, 28, 25, 27}));
        QCOMPARE(log.decisions[0].pick, 1);
        QCOMPARE(QString::fromStdString(log.decisions[0].why),
                 QStringLiteral("highest total 28 vs 27 on d"));
    }

    void dltapBeatsSpreadForAWorker()
    {
        // ps (2 CPUs, 4 GiB) on a (forced). For the worker, a would hold 4 of 8 CPUs and
        // 8 of 32 GiB: LeastRequested (5 + 7) / 2 -> 6, Balanced 10 - 2.5 -> 7, spread 0, so
        // under dltap a = 2 * 10 + 0 + 6 + 7 = 33 beats b = 0 + 10 + 8 + 10 = 28; under
        // k8s-default b wins (28 vs 13).
        const Scenario s = scenario(json::array(
            {job("j", "ps", {group("ps", 2, 4, 0, "a"), group("worker", 2, 4)})}));
        const Topology topo(s.cluster);
        DecisionLog withDltap, without;
        placeScenario(s, topo, *builtinPolicy("dltap"), 1, &withDltap);
        placeScenario(s, topo, *builtinPolicy("k8s-default"), 1, &without);
        QCOMPARE(withDltap.decisions.at(1).pick, 0);
        QCOMPARE(withDltap.decisions.at(1).rows.at(0).total, 33.0);
        QCOMPARE(without.decisions.at(1).pick, 1);
        QCOMPARE(without.decisions.at(1).rows.at(0).total, 13.0);
    }

    void filterReasons()
    {
        json g = group("single", 6, 4, 1);
        g["gpu_type"] = "K80";
        const Scenario s = scenario(json::array({job("j", "single", {g})}));
        const Topology topo(s.cluster);
        DecisionLog log;
        placeScenario(s, topo, onePlugin(R"({"least-allocated": {}})"), 1, &log);
        const Decision &d = log.decisions.at(0);
        QCOMPARE(QString::fromStdString(log.reason(d.rows.at(2))),
                 QStringLiteral("needs 1 GPU, node has 0"));
        QCOMPARE(QString::fromStdString(log.reason(d.rows.at(3))),
                 QStringLiteral("needs GPU type K80, node has V100"));
        QVERIFY(d.rows.at(0).feasible());
        // Fill a's CPUs: a second identical job cannot use a (2 CPUs left).
        const Scenario two = scenario(json::array(
            {job("j1", "single", {[] { json x = group("single", 6, 4, 1, "a"); return x; }()}),
             job("j2", "single", {[] { json x = group("single", 6, 4, 1); return x; }()})}));
        DecisionLog log2;
        placeScenario(two, topo, onePlugin(R"({"least-allocated": {}})"), 1, &log2);
        QCOMPARE(QString::fromStdString(log2.reason(log2.decisions.at(1).rows.at(0))),
                 QStringLiteral("needs 6 CPUs, 2 of 8 free"));
    }

    void logDetailParses()
    {
        QCOMPARE(LogDetail::parse("auto").value(), LogDetail{});
        QCOMPARE(LogDetail::parse("full").value(), LogDetail::full());
        QCOMPARE(LogDetail::parse("summary").value(), LogDetail::topK(0));
        QCOMPARE(LogDetail::parse("top:12").value(), LogDetail::topK(12));
        QCOMPARE(LogDetail::topK(12).toString(), std::string("top:12"));
        for (const char *bad : {"top:", "top:-1", "top:3x", "fulll", "", "top"})
            QVERIFY2(!LogDetail::parse(bad).ok(), bad);
        QCOMPARE(LogDetail{}.resolved(LogDetail::kAutoFullNodes), LogDetail::full());
        QCOMPARE(LogDetail{}.resolved(LogDetail::kAutoFullNodes + 1),
                 LogDetail::topK(LogDetail::kAutoTop));
        QCOMPARE(LogDetail::topK(3).resolved(4), LogDetail::topK(3));
    }

    void logDetailTopK()
    {
        // Totals a 25, b 28, c 25, d 27 (pickExplainsWhy): top:1 keeps b alone, top:2 b and d.
        const Scenario s = scenario(json::array({job("j", "single", {group("single", 2, 4)})}));
        const Topology topo(s.cluster);
        auto logWith = [&](LogDetail detail) {
            DecisionLog log;
            log.detail = detail;
            placeScenario(s, topo, *builtinPolicy("k8s-default"), 1, &log);
            return log;
        };
        const DecisionLog full = logWith(LogDetail::full()), one = logWith(LogDetail::topK(1)),
                          two = logWith(LogDetail::topK(2)), autoLog = logWith(LogDetail{});
        QCOMPARE(autoLog.detail, LogDetail::full()); // 4 nodes: auto keeps every row
        QCOMPARE(autoLog, full);
        QCOMPARE(one.detail, LogDetail::topK(1));
        const Decision &d1 = one.decisions.at(0), &d2 = two.decisions.at(0);
        QCOMPARE(d1.rows.size(), std::size_t(1));
        QCOMPARE(d1.rows[0].node, 1);
        QCOMPARE(d1.rows[0].total, 28.0);
        QCOMPARE(d1.omitted.scored, 3);
        QCOMPARE(d1.omitted.minTotal, 25.0);
        QCOMPARE(d1.omitted.maxTotal, 27.0);
        QVERIFY(d1.omitted.filtered.empty());
        QCOMPARE(one.omittedSummary(d1),
                 std::string("+ 3 more nodes: 3 fit but scored lower (totals 25 to 27)"));
        QCOMPARE(d2.rows.size(), std::size_t(2));
        QCOMPARE(d2.rows[1].node, 3);
        QCOMPARE(two.omittedSummary(d2), std::string("+ 2 more nodes: 2 fit but scored lower (total 25)"));
        // Kept rows carry the same scores as with full detail; pick, ties and why are equal.
        for (const DecisionLog *log : {&one, &two}) {
            const Decision &d = log->decisions.at(0), &f = full.decisions.at(0);
            QCOMPARE(d.pick, f.pick);
            QCOMPARE(d.tied, f.tied);
            QCOMPARE(d.why, f.why);
            for (const CandidateRow &r : d.rows)
                for (std::size_t p = 0; p < log->pluginNames.size(); ++p)
                    QCOMPARE(d.rawScore(r, p), f.rawScore(*f.row(r.node), p));
        }
        QCOMPARE(full.omittedSummary(full.decisions.at(0)), std::string());

        // Filtered nodes are counted per reason: c has no GPU, d the wrong type.
        json g = group("single", 6, 4, 1);
        g["gpu_type"] = "K80";
        const Scenario f = scenario(json::array({job("j", "single", {g})}));
        DecisionLog summary, all;
        summary.detail = LogDetail::topK(0);
        all.detail = LogDetail::full();
        placeScenario(f, topo, onePlugin(R"({"least-allocated": {}})"), 1, &summary);
        placeScenario(f, topo, onePlugin(R"({"least-allocated": {}})"), 1, &all);
        const Decision &d = summary.decisions.at(0);
        QCOMPARE(d.rows.size(), std::size_t(1));
        QCOMPARE(d.rows[0].node, d.pick);
        const int other = 1 - d.pick; // a or b
        QCOMPARE(d.omitted.scored, 1);
        QCOMPARE(d.omitted.minTotal, all.decisions[0].row(other)->total);
        QCOMPARE(d.omitted.filtered, (std::vector<std::pair<int, int>>{{0, 1}, {1, 1}}));
        QCOMPARE(summary.reasons, (std::vector<std::string>{"needs 1 GPU, node has 0",
                                                             "needs GPU type K80, node has V100"}));
        QVERIFY(summary.omittedSummary(d).rfind(
                    "+ 3 more nodes: 2 filtered (needs 1 GPU, node has 0: 1; needs GPU type K80, "
                    "node has V100: 1), 1 fit but scored lower (total ", 0) == 0);
    }

    void topKAgreesWithFullOnTheFatTree()
    {
        // The first 60 jobs of the 1,024-node sample (auto = top:32 there): every decision
        // has the same pick, ties and why as with full detail; each kept row equals the full
        // row; the omitted counts per reason and the omitted score range match the rows the
        // full log has and the top:32 log does not.
        auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json");
        QVERIFY2(loaded.ok(), loaded.error().c_str());
        Scenario s = loaded.value();
        s.jobs.resize(60);
        const Topology topo(s.cluster);
        DecisionLog top, full;
        full.detail = LogDetail::full();
        const Placement pt = placeScenario(s, topo, *builtinPolicy("dltap"), 1, &top);
        const Placement pf = placeScenario(s, topo, *builtinPolicy("dltap"), 1, &full);
        QVERIFY(pt == pf);
        QCOMPARE(top.detail, LogDetail::topK(LogDetail::kAutoTop));
        QCOMPARE(top.decisions.size(), full.decisions.size());
        QVERIFY(top.rowCount() * 20 < full.rowCount());
        bool someFiltered = false, someTies = false;
        for (std::size_t i = 0; i < full.decisions.size(); ++i) {
            const Decision &t = top.decisions[i], &f = full.decisions[i];
            QCOMPARE(t.pick, f.pick);
            QCOMPARE(t.why, f.why);
            QCOMPARE(f.rows.size(), s.cluster.nodes.size());
            // Ties with a row are listed, the others counted.
            std::vector<int> tiedWithRow;
            for (int n : f.tied)
                if (t.row(n))
                    tiedWithRow.push_back(n);
            QCOMPARE(t.tied, tiedWithRow);
            QCOMPARE(t.omitted.tied, int(f.tied.size() - tiedWithRow.size()));
            QVERIFY(t.row(t.pick) || t.pick < 0);
            someTies = someTies || t.omitted.tied > 0;
            QCOMPARE(int(t.rows.size()) + t.omitted.nodes(), int(f.rows.size()));
            std::map<std::string, int> filtered; // reason -> nodes without a row
            int scored = 0;
            double lo = 0, hi = 0, keptLow = 1e300;
            for (const CandidateRow &fr : f.rows) {
                const CandidateRow *tr = t.row(fr.node);
                if (tr) {
                    QCOMPARE(tr->feasible(), fr.feasible());
                    if (fr.feasible()) {
                        QCOMPARE(tr->total, fr.total);
                        keptLow = std::min(keptLow, fr.total);
                        for (std::size_t p = 0; p < full.pluginNames.size(); ++p)
                            QCOMPARE(t.rawScore(*tr, p), f.rawScore(fr, p));
                    } else {
                        QCOMPARE(top.reason(*tr), full.reason(fr));
                    }
                } else if (!fr.feasible()) {
                    ++filtered[full.reason(fr)];
                } else {
                    lo = scored == 0 ? fr.total : std::min(lo, fr.total);
                    hi = scored == 0 ? fr.total : std::max(hi, fr.total);
                    ++scored;
                }
            }
            std::map<std::string, int> got;
            for (const auto &[reason, count] : t.omitted.filtered)
                got[top.reasons[std::size_t(reason)]] = count;
            QCOMPARE(got, filtered);
            someFiltered = someFiltered || !filtered.empty();
            QCOMPARE(t.omitted.scored, scored);
            if (scored > 0) {
                QCOMPARE(t.omitted.minTotal, lo);
                QCOMPARE(t.omitted.maxTotal, hi);
                QVERIFY(hi <= keptLow); // only lower-scored nodes were dropped
            }
        }
        QVERIFY(someFiltered);
        QVERIFY(someTies);
    }

    void randomTieBreakIsSeeded()
    {
        // b, c, d tie under balanced-allocation: each seed picks the same node every time,
        // and over seeds more than one of them wins.
        const Scenario s = scenario(json::array({job("j", "single", {group("single", 2, 4)})}));
        Policy p = onePlugin(R"({"balanced-allocation": {}})");
        p.tieBreak = TieBreak::Random;
        QSet<QString> seen;
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            const auto first = decide(s, p, 0, seed).second;
            QCOMPARE(decide(s, p, 0, seed).second, first);
            QVERIFY(first != QStringLiteral("a"));
            seen.insert(first);
        }
        QVERIFY(seen.size() >= 2);
    }

    void randomPluginIsSeededAndInRange()
    {
        const Scenario s = scenario(json::array({job("j", "single", {group("single", 2, 4)})}));
        const Policy p = onePlugin(R"({"random": {}})");
        const auto one = decide(s, p, 0, 7), again = decide(s, p, 0, 7);
        QCOMPARE(one.first, again.first);
        for (double v : one.first)
            QVERIFY(v >= 0 && v <= 10 && v == std::floor(v));
        bool differs = false;
        for (std::uint64_t seed = 8; seed < 20 && !differs; ++seed)
            differs = decide(s, p, 0, seed).first != one.first;
        QVERIFY(differs);
    }

    void gangRollsBack()
    {
        // Four 1-GPU K80 workers of 12 GiB fit (two in each 32 GiB of a and b, though the
        // cluster has 6 K80); five do not: all or nothing.
        json w = group("worker", 1, 12, 1, nullptr, 5);
        w["gpu_type"] = "K80";
        const Scenario s = scenario(json::array(
            {job("big", "ps", {group("ps", 1, 1), w}), job("small", "single", {group("single", 1, 1)}, 1)}));
        const Topology topo(s.cluster);
        Policy p = *builtinPolicy("k8s-default");
        Placer placer(s.cluster, topo, p, 1);
        const Placement pl = placer.place(s.jobs);
        QCOMPARE(pl.waiting, std::vector<std::string>{"big"});
        QCOMPARE(pl.jobs.size(), std::size_t(1));
        QCOMPARE(pl.jobs[0].jobId, std::string("small"));
        double cpus = 0, gpus = 0;
        for (int n = 0; n < placer.state().nodeCount(); ++n) {
            cpus += placer.state().cpuUsed()[n];
            gpus += placer.state().gpuUsed()[n];
        }
        QCOMPARE(cpus, 1.0); // only "small" is bound
        QCOMPARE(gpus, 0.0);

        p.gang = false;
        const Placement partial = placeScenario(s, topo, p, 1);
        QCOMPARE(partial.waiting, std::vector<std::string>{"big"});
        QCOMPARE(partial.jobs.at(0).tasks.size(), std::size_t(5)); // ps + 4 GPU workers
        QCOMPARE(partial.jobs.at(0).pendingTasks, 1);

        p.gang = true;
        p.backfill = false;
        const Placement blocked = placeScenario(s, topo, p, 1);
        QCOMPARE(blocked.waiting, (std::vector<std::string>{"big", "small"}));
        QVERIFY(blocked.jobs.empty());
    }

    void queueOrders_data()
    {
        QTest::addColumn<QString>("order");
        QTest::addColumn<QString>("expected");
        QTest::newRow("fifo") << "fifo" << "j2 j1 j3";
        QTest::newRow("edf") << "edf" << "j3 j1 j2";
        QTest::newRow("sjf") << "sjf" << "j1 j3 j2";
        QTest::newRow("priority") << "priority" << "j1 j2 j3";
    }

    void queueOrders()
    {
        QFETCH(QString, order);
        QFETCH(QString, expected);
        std::vector<Job> jobs(3);
        jobs[0].id = "j1"; // submit 10, due 100, 10 x 1 s, priority 5
        jobs[0].submitSeconds = 10;
        jobs[0].dueSeconds = 100;
        jobs[0].model.iterations = 10;
        jobs[0].model.computeSecondsPerIteration = 1;
        jobs[0].priority = 5;
        jobs[1].id = "j2"; // submit 0, no due date, 100 x 1 s
        jobs[1].model.iterations = 100;
        jobs[1].model.computeSecondsPerIteration = 1;
        jobs[2].id = "j3"; // submit 20, due 50, 20 x 1 s
        jobs[2].submitSeconds = 20;
        jobs[2].dueSeconds = 50;
        jobs[2].model.iterations = 20;
        jobs[2].model.computeSecondsPerIteration = 1;
        QStringList got;
        for (std::size_t i : queueOrder(jobs, *queueOrderFromString(order.toStdString())))
            got << QString::fromStdString(jobs[i].id);
        QCOMPARE(got.join(' '), expected);
    }

    void gpuSharesPackBestFit()
    {
        json half = group("single", 1, 1, 1, "a");
        half["gpu_fraction"] = 0.5;
        json quarter = half;
        quarter["gpu_fraction"] = 0.25;
        const Scenario s = scenario(json::array({job("h1", "single", {half}),
                                                 job("h2", "single", {half}, 1),
                                                 job("q", "single", {quarter}, 2),
                                                 job("h3", "single", {half}, 3)}));
        const Topology topo(s.cluster);
        const Placement pl = placeScenario(s, topo, *builtinPolicy("k8s-default"), 1);
        QCOMPARE(pl.jobs.size(), std::size_t(4));
        QCOMPARE(pl.job("h1")->tasks[0].gpuIndices, std::vector<int>{0});
        QCOMPARE(pl.job("h2")->tasks[0].gpuIndices, std::vector<int>{0}); // fills GPU 0
        QCOMPARE(pl.job("q")->tasks[0].gpuIndices, std::vector<int>{1});
        QCOMPARE(pl.job("h3")->tasks[0].gpuIndices, std::vector<int>{1}); // 0.25 + 0.5 on GPU 1
    }

    void taskOrders_data()
    {
        QTest::addColumn<QString>("order");
        QTest::addColumn<QString>("expected");
        QTest::newRow("as-written") << "as-written" << "worker-0 worker-1 worker-2 worker-3 ps-0 ps-1";
        QTest::newRow("ps-first") << "ps-first" << "ps-0 ps-1 worker-0 worker-1 worker-2 worker-3";
        QTest::newRow("interleaved") << "interleaved"
                                     << "ps-0 worker-0 worker-1 ps-1 worker-2 worker-3";
    }

    void taskOrders()
    {
        QFETCH(QString, order);
        QFETCH(QString, expected);
        const Scenario s = scenario(json::array(
            {job("j", "ps", {group("worker", 1, 1, 0, nullptr, 4), group("ps", 1, 1, 0, nullptr, 2)})}));
        Policy p = *builtinPolicy("dltap");
        p.taskOrder = *taskOrderFromString(order.toStdString());
        const Topology topo(s.cluster);
        DecisionLog log;
        const Placement pl = placeScenario(s, topo, p, 1, &log);
        QStringList got;
        for (const Decision &d : log.decisions)
            got << QString::fromStdString(d.task());
        QCOMPARE(got.join(' '), expected);
        // The placement lists tasks in group order whatever the decision order.
        QCOMPARE(pl.jobs.at(0).tasks.front().role, TaskRole::Worker);
        QCOMPARE(pl.jobs.at(0).tasks.back().role, TaskRole::Ps);
    }

    void logDoesNotChangePicks()
    {
        const std::string path = CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json";
        auto s = loadScenarioFile(path);
        QVERIFY2(s.ok(), s.error().c_str());
        const Topology topo(s->cluster);
        for (const std::string &name : builtinPolicyNames()) {
            DecisionLog log;
            const Policy p = *builtinPolicy(name);
            const Placement quiet = placeScenario(s.value(), topo, p, 3);
            const Placement logged = placeScenario(s.value(), topo, p, 3, &log);
            QVERIFY2(quiet == logged, name.c_str());
            std::size_t tasks = 0;
            for (const JobPlacement &jp : logged.jobs)
                tasks += jp.tasks.size();
            QCOMPARE(log.decisions.size(), tasks);
            for (const Decision &d : log.decisions) { // every logged total is the weighted sum
                for (const CandidateRow &r : d.rows) {
                    if (!r.feasible())
                        continue;
                    double sum = 0;
                    for (std::size_t p = 0; p < log.pluginNames.size(); ++p)
                        sum += log.weighted(d, r, p);
                    QCOMPARE(sum, r.total);
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestSched)
#include "tst_sched.moc"
