// The deadline- and energy-aware DLTAP variant (dltap-due-energy) on hand-checkable cases:
// the least-slack queue, the energy-per-step plugin, consolidation onto one node, and the
// simulator's power-down of idle nodes that turns consolidation into saved energy.

#include "sched/placer.h"
#include "sched/policy.h"
#include "io/policy_json.h"
#include "sched/queue_order.h"
#include "sim/simulator.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace cb;

namespace {

GpuType type(const std::string &name, double speed, double idle, double busy)
{
    GpuType t;
    t.name = name;
    t.relativeSpeed = speed;
    t.idleWatts = idle;
    t.busyWatts = busy;
    return t;
}

Node node(const std::string &id, const std::string &gpuType, int gpus, double baseWatts = 0)
{
    Node n;
    n.id = id;
    n.cpus = 16;
    n.memoryGiB = 64;
    n.gpus = gpus;
    n.gpuType = gpuType;
    n.baseWatts = baseWatts;
    return n;
}

Link uplink(const std::string &a, const std::string &b)
{
    Link l;
    l.a = a;
    l.b = b;
    l.capacityGbps = 10;
    l.latencyUs = 0;
    return l;
}

Job single(const std::string &id, std::int64_t iterations, double compute,
           std::optional<double> due = std::nullopt)
{
    Job j;
    j.id = id;
    j.kind = JobKind::Single;
    TaskGroup g;
    g.role = TaskRole::Single;
    g.replicas = 1;
    g.cpus = 1;
    g.memoryGiB = 1;
    g.gpus = 1;
    j.tasks = {g};
    j.model.iterations = iterations;
    j.model.computeSecondsPerIteration = compute;
    j.dueSeconds = due;
    return j;
}

/// Two identical nodes on one switch: base 100 W, 2 GPUs of G (idle 50 W, busy 250 W).
Scenario twoNodes()
{
    Scenario s;
    s.name = "two nodes";
    s.settings.pue = 1;
    s.settings.energyPricePerKWh = 1;
    s.cluster.gpuTypes = {type("G", 1, 50, 250)};
    s.cluster.nodes = {node("n1", "G", 2, 100), node("n2", "G", 2, 100)};
    s.cluster.switches = {{"sw", "tor"}};
    s.cluster.links = {uplink("n1", "sw"), uplink("n2", "sw")};
    return s;
}

} // namespace

class TestSchedDueEnergy : public QObject
{
    Q_OBJECT

private slots:
    void preset()
    {
        auto p = builtinPolicy("dltap-due-energy");
        QVERIFY(p.has_value());
        QCOMPARE(p->queue, QueueOrder::Slack);
        QStringList got;
        for (const PluginConfig &c : p->plugins)
            got << QStringLiteral("%1:%2").arg(toString(c.kind)).arg(c.weight);
        // DLTAP's priorities and aggregation weight kept; LeastRequested becomes MostRequested.
        QCOMPARE(got.join(' '), QStringLiteral("selector-spread:1 most-allocated:1 "
                                               "balanced-allocation:1 dltap:2 "
                                               "energy-efficiency:1"));
        QVERIFY(p->plugins[1].includeGpu);
        QCOMPARE(p->plugins[3].weight, kDltapDefaultWeight);
        QCOMPARE(p->taskOrder, TaskOrder::PsFirst);
        QVERIFY(std::find(builtinPolicyNames().begin(), builtinPolicyNames().end(),
                          "dltap-due-energy") != builtinPolicyNames().end());
        // The new names work in user presets too.
        const auto j = nlohmann::json::parse(
            "{\"name\": \"mine\", \"base\": \"dltap\", \"queue\": \"slack\","
            " \"plugins\": {\"energy-efficiency\": {\"weight\": 3}}}");
        auto mine = policyFromJson(j, "/policies/0");
        QVERIFY2(mine.ok(), mine.error().c_str());
        QCOMPARE(mine->queue, QueueOrder::Slack);
        QCOMPARE(mine->plugins.back().kind, PluginKind::EnergyEfficiency);
        QCOMPARE(mine->plugins.back().weight, 3.0);
    }

    void leastSlackQueue()
    {
        // slack = due - iterations x seconds per iteration:
        // a 1000 - 100 = 900, b 800 - 10 = 790, c none, d 2000 - 1900 = 100.
        const std::vector<Job> jobs = {single("a", 100, 1, 1000.0), single("b", 10, 1, 800.0),
                                       single("c", 10, 1), single("d", 1900, 1, 2000.0)};
        const auto slack = queueOrder(jobs, QueueOrder::Slack);
        QCOMPARE(slack, (std::vector<std::size_t>{3, 1, 0, 2}));
        const auto edf = queueOrder(jobs, QueueOrder::Edf);
        QCOMPARE(edf, (std::vector<std::size_t>{1, 0, 3, 2}));
    }

    void energyPerStep()
    {
        // k: K80 150 W, the job's step takes 0.4 s there (60 J); m: type M 300 W, 0.1 s
        // (30 J). Energy plugin: m 10, k round(10 x 30 / 60) = 5. The job goes to m although
        // k comes first; without a per-type figure the relative speed decides (M is 4x:
        // 300 x 0.1 / 4 = 7.5 J against K80's 150 x 0.1 = 15 J).
        Scenario s;
        s.cluster.gpuTypes = {type("K80", 1, 25, 150), type("M", 4, 50, 300)};
        s.cluster.nodes = {node("k", "K80", 2), node("m", "M", 2)};
        s.cluster.switches = {{"sw", "tor"}};
        s.cluster.links = {uplink("k", "sw"), uplink("m", "sw")};
        Job j = single("j", 100, 0.1);
        j.model.computeSecondsByGpuType = {{"K80", 0.4}, {"M", 0.1}};
        s.jobs = {j};
        const Topology topo(s.cluster);
        const Policy p = *builtinPolicy("dltap-due-energy");
        DecisionLog log;
        const Placement pl = placeScenario(s, topo, p, 1, &log);
        QCOMPARE(pl.jobs.size(), std::size_t(1));
        QCOMPARE(pl.jobs[0].tasks[0].node, std::string("m"));
        s.jobs[0].model.computeSecondsByGpuType.clear();
        const Placement byRelative = placeScenario(s, topo, p, 1);
        QCOMPARE(byRelative.jobs[0].tasks[0].node, std::string("m"));
        // Plain DLTAP has no energy term: equal scores, tie broken to the first node.
        Policy dltap = *builtinPolicy("dltap");
        dltap.tieBreak = TieBreak::First;
        QCOMPARE(placeScenario(s, topo, dltap, 1).jobs[0].tasks[0].node, std::string("k"));
    }

    void consolidationPowersNodesDown()
    {
        // Two 1-GPU jobs of 100 s. dltap-due-energy packs both on one node, dltap (the
        // k8s-default spreading priorities) puts them on two.
        Scenario s = twoNodes();
        s.jobs = {single("a", 100, 1.0), single("b", 100, 1.0)};
        SimOptions green;
        green.policy = *builtinPolicy("dltap-due-energy");
        SimOptions plain;
        plain.policy = *builtinPolicy("dltap");
        auto g = simulate(s, green);
        auto d = simulate(s, plain);
        QVERIFY2(g.ok() && d.ok(), "simulation failed");
        QCOMPARE(g->jobs[0].placement.tasks[0].node, g->jobs[1].placement.tasks[0].node);
        QVERIFY(d->jobs[0].placement.tasks[0].node != d->jobs[1].placement.tasks[0].node);
        // Nodes always on: 2 x (100 + 2 x 50) W baseline + 2 x 200 W busy extra = 800 W for
        // 100 s either way.
        QVERIFY(std::fabs(g->energyKWh - 80000 / 3.6e6) < 1e-12);
        QVERIFY(std::fabs(d->energyKWh - 80000 / 3.6e6) < 1e-12);
        // Idle nodes powered down: consolidated, one node on (200 + 400 W); spread, both.
        green.powerDownIdleNodes = plain.powerDownIdleNodes = true;
        g = simulate(s, green);
        d = simulate(s, plain);
        QVERIFY(g.ok() && d.ok());
        QVERIFY(std::fabs(g->energyKWh - 60000 / 3.6e6) < 1e-12);
        QVERIFY(std::fabs(d->energyKWh - 80000 / 3.6e6) < 1e-12);
        QVERIFY(std::fabs(g->energyCost - 60000 / 3.6e6) < 1e-12);
    }

    void powerDownAfterTheLastJob()
    {
        // One job of 100 s from t = 50 on one of two nodes: with power-down nothing is drawn
        // before it starts or on the other node: (200 + 200) W x 100 s = 40,000 J.
        Scenario s = twoNodes();
        Job j = single("late", 100, 1.0);
        j.submitSeconds = 50;
        s.jobs = {j};
        SimOptions o;
        o.policy = *builtinPolicy("dltap-due-energy");
        o.powerDownIdleNodes = true;
        auto r = simulate(s, o);
        QVERIFY(r.ok());
        QVERIFY(std::fabs(r->makespanSeconds - 150) < 1e-9);
        QVERIFY(std::fabs(r->energyKWh - 40000 / 3.6e6) < 1e-12);
    }
};

QTEST_APPLESS_MAIN(TestSchedDueEnergy)
#include "tst_sched_due_energy.moc"
