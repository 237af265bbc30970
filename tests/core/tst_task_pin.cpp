// What if I put it here (sched/task_pin.h, --pin on place and simulate), checked by hand.
//
// Nodes a, b, c: 16 CPUs, 64 GiB, 4 GPUs each; jobs j1 and j2 take 1 CPU, 2 GiB and 1 GPU,
// j3 2 CPUs, 4 GiB and 2 GPUs; the policy scores LeastAllocated over CPU, memory and GPUs
// (trunc of the mean of trunc(10 x unused / capacity)) and the first node wins a tie.
// Without pins: a, b, c. With j1 pinned to c: j1 c (a and b ruled out: pinned); j2 then
// finds a and b empty (8) and c at trunc((8 + 9 + 5) / 3) = 7: a; j3 finds b empty:
// trunc((8 + 9 + 5) / 3) = 7, a and c trunc((8 + 9 + 2) / 3) = 6: b.

#include "cli/command.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "tst_three_node_fixture.h"
#include "sched/task_pin.h"

#include <QtTest>

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <sstream>

using namespace cb;
using nlohmann::json;

namespace {

std::string nodeOf(const Placement &p, const std::string &job)
{
    const JobPlacement *j = p.job(job);
    return j && !j->tasks.empty() ? j->tasks.front().node : std::string("(waits)");
}

Placement placeWith(const Scenario &s, const std::vector<TaskPin> &pins, DecisionLog *log)
{
    const Topology topo(s.cluster);
    Placer placer(s.cluster, topo, cbtest::firstTiePolicy("spread-first", PluginKind::LeastAllocated), 1);
    applyTaskPins(placer, s.cluster, pins);
    return placer.place(s.jobs, log);
}

TaskPin pin(const std::string &text)
{
    auto p = parseTaskPin(text);
    if (!p)
        qFatal("bad pin %s: %s", text.c_str(), p.error().c_str());
    return p.value();
}


} // namespace

class TestTaskPin : public QObject
{
    Q_OBJECT

private slots:
    void parses()
    {
        const TaskPin p = pin("team/job-1/worker-12=node-03");
        QCOMPARE(p.jobId, std::string("team/job-1"));
        QCOMPARE(p.role, TaskRole::Worker);
        QCOMPARE(p.indexInRole, 12);
        QCOMPARE(p.node, std::string("node-03"));
        QCOMPARE(toString(p), std::string("team/job-1/worker-12=node-03"));
        auto list = parseTaskPins("j1/ps-0=a,j1/worker-1=b");
        QVERIFY(list);
        QCOMPARE(list.value().size(), std::size_t(2));
        QCOMPARE(list.value()[0].role, TaskRole::Ps);
        for (const char *bad : {"j1/worker-0", "j1/worker-0=", "worker-0=a", "j1/worker=a",
                                "j1/boss-0=a", "j1/worker-x=a", "/worker-0=a"}) {
            auto r = parseTaskPin(bad);
            QVERIFY2(!r, bad);
            QVERIFY2(r.error().find(std::string("\"") + bad + "\"") != std::string::npos,
                     r.error().c_str());
        }
    }

    void checksAgainstTheScenario()
    {
        const Scenario s = cbtest::threeNodeScenario();
        QVERIFY(checkTaskPins(s, {pin("j1/single-0=c")}));
        const Status bad = checkTaskPins(
            s, {pin("nope/single-0=a"), pin("j1/single-1=a"), pin("j2/single-0=z"),
                pin("j3/single-0=a"), pin("j3/single-0=b")});
        QVERIFY(!bad);
        const Problems &p = bad.problems();
        QCOMPARE(p.size(), std::size_t(4));
        QCOMPARE(p[0].toString(), std::string("--pin nope/single-0=a: no job \"nope\" in the scenario"));
        QCOMPARE(p[1].toString(),
                 std::string("--pin j1/single-1=a: job j1 has 1 single task (ranks 0 to 0)"));
        QCOMPARE(p[2].toString(), std::string("--pin j2/single-0=z: no node \"z\" in the cluster"));
        QCOMPARE(p[3].toString(), std::string("--pin j3/single-0=b: this task is pinned twice"));
    }

    void theQueueIsPlacedAroundThePin()
    {
        const Scenario s = cbtest::threeNodeScenario();
        const Placement own = placeWith(s, {}, nullptr);
        QCOMPARE(nodeOf(own, "j1"), std::string("a"));
        QCOMPARE(nodeOf(own, "j2"), std::string("b"));
        QCOMPARE(nodeOf(own, "j3"), std::string("c"));
        DecisionLog log;
        log.detail = LogDetail::full();
        const Placement pinned = placeWith(s, {pin("j1/single-0=c")}, &log);
        QCOMPARE(nodeOf(pinned, "j1"), std::string("c"));
        QCOMPARE(nodeOf(pinned, "j2"), std::string("a"));
        QCOMPARE(nodeOf(pinned, "j3"), std::string("b"));
        // The pinned decision rules the other nodes out, saying why.
        const Decision &d = log.decisions.at(0);
        QCOMPARE(d.rows.size(), std::size_t(3));
        QCOMPARE(log.reason(d.rows[0]), std::string("pinned to c (what-if)"));
        QCOMPARE(log.reason(d.rows[1]), std::string("pinned to c (what-if)"));
        QVERIFY(d.rows[2].feasible());
        QCOMPARE(d.rows[2].total, 8.0); // the empty node: trunc((9 + 9 + 7) / 3)
        // Its reason names the pin: the other nodes were not found unable (it said "only
        // feasible node").
        QCOMPARE(d.why, std::string("pinned here by what-if (total 8); the policy was not asked"));
        QVERIFY(log.decisions.at(1).why.rfind("pinned", 0) != 0);
        // The next decision is free again: all three rows feasible.
        for (const CandidateRow &r : log.decisions.at(1).rows)
            QVERIFY(r.feasible());
    }

    void aPinThatDoesNotFitLeavesTheJobWaiting()
    {
        Scenario s = cbtest::threeNodeScenario();
        s.jobs[2].tasks[0].gpus = 3;
        DecisionLog log;
        log.detail = LogDetail::full();
        const Placement p = placeWith(
            s, {pin("j1/single-0=a"), pin("j2/single-0=a"), pin("j3/single-0=a")}, &log);
        QCOMPARE(nodeOf(p, "j1"), std::string("a"));
        QCOMPARE(nodeOf(p, "j2"), std::string("a"));
        QCOMPARE(p.waiting, std::vector<std::string>{"j3"});
        const Decision &d = log.decisions.at(2);
        QCOMPARE(d.pick, -1);
        QVERIFY2(log.reason(d.rows[0]).find("GPU") != std::string::npos,
                 log.reason(d.rows[0]).c_str());
        QCOMPARE(log.reason(d.rows[1]), std::string("pinned to a (what-if)"));
    }

    void commands()
    {
        QTemporaryDir dir;
        const std::string scenario = dir.filePath(QStringLiteral("s.json")).toStdString();
        QVERIFY(cbtest::writeScenarioFile(cbtest::threeNodeScenario(), QString::fromStdString(scenario)));
        const cbtest::CliOutcome placed =
            cbtest::runCli({"place", scenario, "--policy", "spread", "--pin", "j1/single-0=c", "--no-save"});
        QVERIFY2(placed.code == 0, placed.err.c_str());
        QVERIFY2(placed.out.find("j1               single-0@c\n") != std::string::npos,
                 placed.out.c_str());
        QVERIFY2(placed.out.find("What if (--pin), against spread's own choice (seed 1):") !=
                     std::string::npos,
                 placed.out.c_str());
        const cbtest::CliOutcome json = cbtest::runCli({"place", scenario, "--policy", "spread", "--pin",
                                  "j1/single-0=c", "--no-save", "--json"});
        QCOMPARE(json.code, 0);
        const auto j = nlohmann::json::parse(json.out);
        QCOMPARE(j["what_if"]["pins"], nlohmann::json::array({"j1/single-0=c"}));
        QCOMPARE(j["what_if"]["pinned"]["placed_jobs"].get<double>(), 3.0);

        const cbtest::CliOutcome simulated = cbtest::runCli({"simulate", scenario, "--policy", "spread", "--pin",
                                       "j3/single-0=a", "--no-save"});
        QVERIFY2(simulated.code == 0, simulated.err.c_str());
        QVERIFY2(simulated.out.find("  mean JCT ") != std::string::npos, simulated.out.c_str());

        // compare: each policy on its own and pinned, the pinned row named "P +pin".
        const std::string ws = dir.filePath(QStringLiteral("ws.sqlite")).toStdString();
        const cbtest::CliOutcome compared =
            cbtest::runCli({"compare", scenario, "--policies", "spread,binpack", "--pin",
                            "j1/single-0=c", "--workspace", ws});
        QVERIFY2(compared.code == 0, compared.err.c_str());
        for (const char *row : {"\nspread           3      3     0 ", "\nspread +pin      3 ",
                                "\nbinpack          3 ", "\nbinpack +pin     3 "})
            QVERIFY2(compared.out.find(row) != std::string::npos, compared.out.c_str());
        for (const char *whatIf : {"What if (--pin), against spread's own choice (seed 1):",
                                   "What if (--pin), against binpack's own choice (seed 1):"})
            QVERIFY2(compared.out.find(whatIf) != std::string::npos, compared.out.c_str());
        QVERIFY2(compared.err.find("Saved as runs 1, 2, 3, 4 in") != std::string::npos,
                 compared.err.c_str());
        const cbtest::CliOutcome history = cbtest::runCli({"show", "2", "--workspace", ws, "--json"});
        QVERIFY2(history.code == 0, history.err.c_str());
        QCOMPARE(nlohmann::json::parse(history.out)["parameters"]["pins"],
                 nlohmann::json::array({"j1/single-0=c"}));
        const cbtest::CliOutcome comparedJson =
            cbtest::runCli({"compare", scenario, "--policies", "spread,binpack", "--pin",
                            "j1/single-0=c", "--no-save", "--json"});
        QCOMPARE(comparedJson.code, 0);
        const auto cj = nlohmann::json::parse(comparedJson.out)["policies"];
        QCOMPARE(cj.size(), std::size_t(4));
        QCOMPARE(cj[1]["name"].get<std::string>(), std::string("spread +pin"));
        QCOMPARE(cj[1]["what_if"]["pins"], nlohmann::json::array({"j1/single-0=c"}));
        QCOMPARE(cj[1]["what_if"]["pinned"]["placed_jobs"].get<double>(), 3.0);
        QVERIFY(!cj[0].contains("what_if"));
        const cbtest::CliOutcome badCompare =
            cbtest::runCli({"compare", scenario, "--policies", "spread", "--pin", "j1/single-0=z",
                            "--no-save"});
        QCOMPARE(badCompare.code, 2);
        QCOMPARE(badCompare.out, std::string());
        QVERIFY2(badCompare.err.find("no node \"z\"") != std::string::npos, badCompare.err.c_str());

        const cbtest::CliOutcome bad =
            cbtest::runCli({"place", scenario, "--policy", "spread", "--pin", "j9/single-0=a", "--no-save"});
        QCOMPARE(bad.code, 2);
        QCOMPARE(bad.out, std::string());
        QVERIFY2(bad.err.find("no job \"j9\"") != std::string::npos, bad.err.c_str());
    }
};

QTEST_APPLESS_MAIN(TestTaskPin)
#include "tst_task_pin.moc"
