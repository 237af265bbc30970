// Policy presets: the built-ins, user presets derived from them in JSON, and the messages
// (with JSON pointers) that bad presets produce.

#include "io/scenario_json.h"
#include "io/policy_json.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace cb;
using nlohmann::json;

class TestSchedPolicy : public QObject
{
    Q_OBJECT

private slots:
    void builtins_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("plugins"); // plugin:weight in scoring order
        QTest::newRow("k8s-default")
            << "k8s-default" << "selector-spread:1 least-allocated:1 balanced-allocation:1";
        QTest::newRow("dltap") << "dltap"
                               << "selector-spread:1 least-allocated:1 balanced-allocation:1 "
                                  "dltap:2";
        QTest::newRow("binpack") << "binpack" << "most-allocated:1";
        QTest::newRow("spread") << "spread" << "least-allocated:1 selector-spread:1";
        QTest::newRow("random") << "random" << "random:1";
        QTest::newRow("topology-aware")
            << "topology-aware"
            << "topology-distance:2 nvlink-packing:1 least-allocated:1 balanced-allocation:1";
    }

    void builtins()
    {
        QFETCH(QString, name);
        QFETCH(QString, plugins);
        auto p = builtinPolicy(name.toStdString());
        QVERIFY(p.has_value());
        QStringList got;
        for (const PluginConfig &c : p->plugins)
            got << QStringLiteral("%1:%2").arg(toString(c.kind)).arg(c.weight);
        QCOMPARE(got.join(' '), plugins);
        QCOMPARE(p->queue, QueueOrder::Fifo);
        QVERIFY(p->gang);
        QVERIFY(resolvePolicy(name.toStdString(), {}).ok());
    }

    void derivedPreset()
    {
        const json j = json::parse(R"({"name": "my", "base": "k8s-default",
            "plugins": {"dltap": {"weight": 3, "variant": "traffic"},
                        "selector-spread": {"weight": 0}},
            "queue": "edf", "task_order": "interleaved", "tie_break": "first",
            "gang": false, "backfill": false})");
        auto p = policyFromJson(j, "/policies/0");
        QVERIFY2(p.ok(), p.error().c_str());
        QCOMPARE(p->name, std::string("my"));
        QCOMPARE(p->plugins.size(), std::size_t(3)); // spread removed, dltap added
        QCOMPARE(p->plugins[0].kind, PluginKind::LeastAllocated);
        QCOMPARE(p->plugins[2].kind, PluginKind::Dltap);
        QCOMPARE(p->plugins[2].weight, 3.0);
        QCOMPARE(p->plugins[2].variant, DltapVariant::Traffic);
        QCOMPARE(p->queue, QueueOrder::Edf);
        QCOMPARE(p->taskOrder, TaskOrder::Interleaved);
        QCOMPARE(p->tieBreak, TieBreak::First);
        QVERIFY(!p->gang);
        QVERIFY(!p->backfill);
        // A later preset may build on an earlier one; user presets shadow built-ins.
        const json k = json::parse(R"({"name": "k8s-default", "base": "my", "queue": "sjf"})");
        auto q = policyFromJson(k, "/policies/1", {p.value()});
        QVERIFY2(q.ok(), q.error().c_str());
        QCOMPARE(q->plugins, p->plugins);
        QCOMPARE(q->queue, QueueOrder::Sjf);
        auto resolved = resolvePolicy("k8s-default", {p.value(), q.value()});
        QCOMPARE(resolved->queue, QueueOrder::Sjf);
    }

    void badPresets_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown plugin")
            << R"({"name": "x", "base": "k8s-default", "plugins": {"dltapp": {}}})"
            << "/policies/2/plugins/dltapp: unknown plugin \"dltapp\" (known: least-allocated, "
               "most-allocated, balanced-allocation, selector-spread, dltap, "
               "topology-distance, nvlink-packing, node-affinity, random, energy-efficiency, "
               "nvlink-domain)";
        QTest::newRow("bad variant")
            << R"({"name": "x", "plugins": {"dltap": {"variant": "pairs"}}})"
            << "/policies/2/plugins/dltap/variant: expected \"counterpart\", \"job\" or "
               "\"traffic\", found \"pairs\"";
        QTest::newRow("negative weight")
            << R"({"name": "x", "plugins": {"random": {"weight": -1}}})"
            << "/policies/2/plugins/random/weight: expected a number from 0 to 1e+06, found -1";
        QTest::newRow("unknown base") << R"({"name": "x", "base": "kube"})"
                                      << "/policies/2/base: unknown policy \"kube\" (built-in: "
                                         "k8s-default, binpack, spread, random, dltap, "
                                         "topology-aware, dltap-due-energy, dltap-nvl; or an "
                                         "earlier "
                                         "user preset)";
        QTest::newRow("unknown field")
            << R"({"name": "x", "base": "dltap", "queue_order": "edf"})"
            << "/policies/2/queue_order: unknown field \"queue_order\"";
        QTest::newRow("bad queue") << R"({"name": "x", "base": "dltap", "queue": "lifo"})"
                                   << "/policies/2/queue: expected \"fifo\", \"edf\", \"sjf\", "
                                      "\"priority\" or \"slack\", found \"lifo\"";
        QTest::newRow("parameter of another plugin")
            << R"({"name": "x", "plugins": {"random": {"variant": "job"}}})"
            << "/policies/2/plugins/random/variant: unknown field \"variant\"";
        QTest::newRow("nothing to score")
            << R"({"name": "x", "base": "random", "plugins": {"random": {"enabled": false}}})"
            << "/policies/2: policy \"x\" has no scoring plugin left";
    }

    void badPresets()
    {
        QFETCH(QString, preset);
        QFETCH(QString, message);
        auto p = policyFromJson(json::parse(preset.toStdString()), "/policies/2");
        QVERIFY(!p.ok());
        QCOMPARE(QString::fromStdString(p.problems().front().toString()), message);
    }

    void scenarioPresetsAndFiles()
    {
        auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
        QVERIFY2(s.ok(), s.error().c_str());
        auto presets = scenarioPolicies(s.value());
        QVERIFY2(presets.ok(), presets.error().c_str());
        QCOMPARE(presets->size(), std::size_t(1));
        QCOMPARE(presets->front().name, std::string("dltap-traffic"));

        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("p.json")).toStdString();
        std::ofstream(path) << R"({"policies": [{"name": "a", "base": "binpack"},
                                                {"name": "b", "base": "a", "queue": "priority"},
                                                {"name": "c", "plugins": {"bogus": {}}}]})";
        auto bad = userPresets(s.value(), path);
        QVERIFY(!bad.ok());
        QCOMPARE(QString::fromStdString(bad.problems().front().toString()),
                 QString::fromStdString(path) +
                     QStringLiteral(": /policies/2/plugins/bogus: unknown plugin \"bogus\" "
                                    "(known: least-allocated, most-allocated, "
                                    "balanced-allocation, selector-spread, dltap, "
                                    "topology-distance, nvlink-packing, node-affinity, random, "
                                    "energy-efficiency, nvlink-domain)"));
        std::ofstream(path) << R"([{"name": "a", "base": "binpack"},
                                   {"name": "b", "base": "a", "queue": "priority"}])";
        auto good = userPresets(s.value(), path);
        QVERIFY2(good.ok(), good.error().c_str());
        QCOMPARE(good->size(), std::size_t(3));
        auto b = resolvePolicy("b", good.value());
        QCOMPARE(b->queue, QueueOrder::Priority);
        QCOMPARE(b->plugins.front().kind, PluginKind::MostAllocated);
        auto missing = resolvePolicy("nope", good.value());
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().find("dltap-traffic, a, b") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestSchedPolicy)
#include "tst_sched_policy.moc"
