// Where two runs part (runs/run_diff.h, clusterbench diff), checked by hand.
//
// Nodes a, b, c: 16 CPUs, 64 GiB, 4 GPUs each. Jobs j1 and j2 take 1 CPU, 2 GiB and 1 GPU,
// j3 2 CPUs, 4 GiB and 2 GPUs. "Spread" scores LeastAllocated over CPU, memory and GPUs,
// "pack" MostAllocated, both with the first node winning a tie. A resource scores
// trunc(10 x unused / capacity) (spread) or trunc(10 x used / capacity) (pack), counting the
// task, and the node's score is trunc of their mean.
//   decision 1 (j1): every node empty, spread 8 = trunc((9 + 9 + 7) / 3), pack 0: both take a.
//   decision 2 (j2): spread a trunc((8 + 9 + 5) / 3) = 7, b and c 8: b;
//                    pack a trunc((1 + 0 + 5) / 3) = 2, b and c trunc((0 + 0 + 2) / 3) = 0: a.
// So the runs part at decision 2, on the same task with the same cluster: spread's pick b
// leads pack's pick a by 1 in spread's scores, pack's a leads b by 2 in pack's.
//   decision 3 (j3): spread a and b trunc((8 + 9 + 2) / 3) = 6, c trunc((8 + 9 + 5) / 3) = 7:
//                    c; pack a trunc((2 + 1 + 10) / 3) = 4: a.
// Placed: spread a, b, c; pack a, a, a: j2 and j3 differ, 2 of 3 tasks moved.

#include "cli/command.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "runs/run_diff.h"
#include "sched/placer.h"
#include "tst_three_node_fixture.h"

#include <QtTest>

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace cb;
using nlohmann::json;

namespace {

StoredRunDetail placed(const Scenario &s, const Policy &policy, std::int64_t id)
{
    const Topology topo(s.cluster);
    StoredRunDetail r;
    r.record.id = id;
    r.record.scenarioDigest = "digest-of-three-nodes";
    r.record.scenarioName = s.name;
    r.record.kind = "place";
    r.record.policy = policy.name;
    r.scenario = s;
    DecisionLog log;
    log.detail = LogDetail::full();
    Placer placer(s.cluster, topo, policy, 1);
    r.placement = placer.place(s.jobs, &log);
    r.log = std::move(log);
    return r;
}

/// The three nodes with j3 at priority 5, placed by spread in FIFO order (j1, j2, j3, run 1)
/// and by priority (j3, j1, j2, run 2).
std::pair<StoredRunDetail, StoredRunDetail> fifoAndPriorityRuns()
{
    Scenario s = cbtest::threeNodeScenario();
    s.jobs[2].priority = 5;
    Policy fifo = cbtest::firstTiePolicy("spread-fifo", PluginKind::LeastAllocated);
    Policy prio = fifo;
    prio.name = "spread-priority";
    prio.queue = QueueOrder::Priority;
    return {placed(s, fifo, 1), placed(s, prio, 2)};
}

std::vector<std::string> nodes(std::initializer_list<const char *> names)
{
    return {names.begin(), names.end()};
}


} // namespace

class TestRunDiff : public QObject
{
    Q_OBJECT

private slots:
    void partsAtTheSecondDecision()
    {
        const Scenario s = cbtest::threeNodeScenario();
        StoredRunDetail spread = placed(s, cbtest::firstTiePolicy("spread-first", PluginKind::LeastAllocated), 4);
        StoredRunDetail pack = placed(s, cbtest::firstTiePolicy("pack-first", PluginKind::MostAllocated), 7);
        spread.record.metrics = {{"cross_node_bytes", 10}, {"placed_jobs", 3}};
        pack.record.metrics = {{"placed_jobs", 3}, {"waiting_jobs", 0}};
        auto diff = diffRuns(spread, pack);
        QVERIFY(diff);
        const RunDiff &d = diff.value();
        QCOMPARE(d.runA, std::int64_t(4));
        QCOMPARE(d.runB, std::int64_t(7));
        QVERIFY(d.logs);
        QCOMPARE(d.decisionsA, 3);
        QCOMPARE(d.decisionsB, 3);
        QCOMPARE(d.commonPrefix, 1);
        QVERIFY(d.fork);
        QCOMPARE(d.fork->index, 1);
        QVERIFY(d.fork->sameTask);
        // In spread's scores its pick b leads pack's pick a by 8 - 7.
        QVERIFY(d.fork->inA);
        const Contrast &inA = *d.fork->inA;
        QCOMPARE(spread.log->nodeNames[std::size_t(inA.pick)], std::string("b"));
        QCOMPARE(spread.log->nodeNames[std::size_t(inA.other)], std::string("a"));
        QCOMPARE(inA.pickTotal, 8.0);
        QCOMPARE(inA.otherTotal, 7.0);
        QCOMPARE(inA.deciding, 0);
        // In pack's, a leads b by 2 - 0.
        QVERIFY(d.fork->inB);
        const Contrast &inB = *d.fork->inB;
        QCOMPARE(pack.log->nodeNames[std::size_t(inB.pick)], std::string("a"));
        QCOMPARE(pack.log->nodeNames[std::size_t(inB.other)], std::string("b"));
        QCOMPARE(inB.pickTotal, 2.0);
        QCOMPARE(inB.otherTotal, 0.0);
        QCOMPARE(d.tasksCompared, 3);
        QCOMPARE(d.tasksMoved, 2);
        QCOMPARE(d.jobsCompared, 3);
        QCOMPARE(d.jobs.size(), std::size_t(2));
        QCOMPARE(d.jobs[0].jobId, std::string("j2"));
        QCOMPARE(d.jobs[0].nodesA, nodes({"b"}));
        QCOMPARE(d.jobs[0].nodesB, nodes({"a"}));
        QCOMPARE(d.jobs[0].tasksMoved, 1);
        QCOMPARE(d.jobs[1].jobId, std::string("j3"));
        QCOMPARE(d.jobs[1].nodesA, nodes({"c"}));
        QCOMPARE(d.jobs[1].nodesB, nodes({"a"}));
        // Every metric of either run, by name; absent where a run has none.
        QCOMPARE(d.metrics.size(), std::size_t(3));
        QCOMPARE(d.metrics[0].name, std::string("cross_node_bytes"));
        QCOMPARE(d.metrics[0].a, std::optional<double>(10));
        QCOMPARE(d.metrics[0].b, std::optional<double>());
        QCOMPARE(d.metrics[2].name, std::string("waiting_jobs"));
        QCOMPARE(d.metrics[2].a, std::optional<double>());
    }

    // A placement beside a simulated run: the placement's traffic is per iteration, so it
    // goes beside the simulated run's iteration_* figures, not its whole run's; the simulated
    // run's jobs keep their times.
    void placementBesideASimulation()
    {
        const Scenario s = cbtest::threeNodeScenario();
        StoredRunDetail spread =
            placed(s, cbtest::firstTiePolicy("spread-first", PluginKind::LeastAllocated), 4);
        StoredRunDetail pack =
            placed(s, cbtest::firstTiePolicy("pack-first", PluginKind::MostAllocated), 7);
        spread.record.metrics = {{"cross_node_bytes", 10}, {"total_bytes", 30}, {"placed_jobs", 3}};
        pack.record.kind = "simulate";
        pack.record.metrics = {{"cross_node_bytes", 5000},
                               {"iteration_cross_node_bytes", 8},
                               {"iteration_total_bytes", 30},
                               {"placed_jobs", 3}};
        RunResult result; // (a simulated run's placement is its jobs')
        for (const JobPlacement &p : pack.placement.jobs) {
            JobRun run;
            run.id = p.jobId;
            run.placement = p;
            run.firstStartSeconds = run.startSeconds = 2.0;
            run.finishSeconds = 12.5;
            result.jobs.push_back(run);
        }
        pack.result = result;
        auto diff = diffRuns(spread, pack);
        QVERIFY(diff);
        std::map<std::string, std::pair<std::optional<double>, std::optional<double>>> m;
        for (const MetricDifference &d : diff->metrics)
            m[d.name] = {d.a, d.b};
        using Pair = std::pair<std::optional<double>, std::optional<double>>;
        QCOMPARE(m.size(), std::size_t(4));
        QCOMPARE(m["iteration_cross_node_bytes"], Pair(10.0, 8.0));
        QCOMPARE(m["iteration_total_bytes"], Pair(30.0, 30.0));
        QCOMPARE(m["cross_node_bytes"], Pair(std::nullopt, 5000.0));
        QCOMPARE(m["placed_jobs"], Pair(3.0, 3.0));
        // (the same the other way round)
        auto back = diffRuns(pack, spread);
        QVERIFY(back);
        for (const MetricDifference &d : back->metrics)
            if (d.name == "iteration_cross_node_bytes")
                QCOMPARE(Pair(d.a, d.b), Pair(8.0, 10.0));
        // j2 moved (b against a); the simulated run's times are there, the placement has none.
        QCOMPARE(diff->jobs.size(), std::size_t(2));
        QCOMPARE(diff->jobs[0].jobId, std::string("j2"));
        QCOMPARE(diff->jobs[0].startA, std::optional<double>());
        QCOMPARE(diff->jobs[0].startB, std::optional<double>(2.0));
        QCOMPARE(diff->jobs[0].finishB, std::optional<double>(12.5));
    }

    void sameRunsAgree()
    {
        const Scenario s = cbtest::threeNodeScenario();
        const Policy p = cbtest::firstTiePolicy("spread-first", PluginKind::LeastAllocated);
        auto diff = diffRuns(placed(s, p, 1), placed(s, p, 2));
        QVERIFY(diff);
        QCOMPARE(diff.value().commonPrefix, 3);
        QVERIFY(!diff.value().fork);
        QCOMPARE(diff.value().tasksMoved, 0);
        QCOMPARE(diff.value().jobs.size(), std::size_t(0));
    }

    void queueOrderChangesTheTask()
    {
        // Shortest job first offers j3 last as well (every job has 100 iterations), so
        // reverse the queue by priority instead: j3 first.
        const auto [fifo, prio] = fifoAndPriorityRuns();
        auto diff = diffRuns(fifo, prio);
        QVERIFY(diff);
        QCOMPARE(diff.value().commonPrefix, 0);
        QVERIFY(diff.value().fork);
        QVERIFY(!diff.value().fork->sameTask);
        QVERIFY(!diff.value().fork->inA);
    }

    void alignsForSteppingBoth()
    {
        // spread a, b, c against pack a, a, a: decisions 2 and 3 (indices 1, 2) differ.
        const Scenario s = cbtest::threeNodeScenario();
        const StoredRunDetail spread =
            placed(s, cbtest::firstTiePolicy("spread-first", PluginKind::LeastAllocated), 1);
        const StoredRunDetail pack =
            placed(s, cbtest::firstTiePolicy("pack-first", PluginKind::MostAllocated), 2);
        const DecisionAlignment al(*spread.log, *pack.log);
        QCOMPARE(al.differing(), (std::vector<int>{1, 2}));
        QCOMPARE(al.commonPrefix(), 1);
        QVERIFY(!al.differs(0));
        QVERIFY(al.differs(2));
        QCOMPARE(al.nextDifference(-1), 1);
        QCOMPARE(al.nextDifference(0), 1);
        QCOMPARE(al.nextDifference(1), 2);
        QCOMPARE(al.nextDifference(2), -1);
        QCOMPARE(al.previousDifference(2), 1);
        QCOMPARE(al.previousDifference(1), -1);
        QCOMPARE(al.previousDifference(3), 2);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(al.partnerOf(i), i);
        QCOMPARE(al.partnerOf(3), -1);
        QCOMPARE(al.partnerOf(-1), -1);

        // The same run against itself: nothing differs, the prefix is the whole log.
        const DecisionAlignment same(*spread.log, *spread.log);
        QCOMPARE(same.differing(), std::vector<int>{});
        QCOMPARE(same.commonPrefix(), 3);
        QCOMPARE(same.nextDifference(-1), -1);

        // A log that stops early differs from its end on.
        DecisionLog shorter = *spread.log;
        shorter.decisions.pop_back();
        const DecisionAlignment cut(*spread.log, shorter);
        QCOMPARE(cut.differing(), std::vector<int>{2});
        QCOMPARE(cut.partnerOf(2), -1);
    }

    void partnersFollowTheTaskNotTheIndex()
    {
        // FIFO offers j1, j2, j3; by priority j3 (priority 5) comes first: j3, j1, j2.
        const auto [a, b] = fifoAndPriorityRuns();
        const DecisionAlignment al(*a.log, *b.log);
        QCOMPARE(al.differing(), (std::vector<int>{0, 1, 2}));
        QCOMPARE(al.commonPrefix(), 0);
        QCOMPARE(al.partnerOf(0), 1); // j1
        QCOMPARE(al.partnerOf(1), 2); // j2
        QCOMPARE(al.partnerOf(2), 0); // j3

        // A task decided twice in B (a gang retried): the nearer decision, the earlier on a tie.
        DecisionLog twice = *b.log;
        twice.decisions.push_back(twice.decisions[1]); // j1 again at index 3
        twice.decisions.push_back(twice.decisions[0]); // j3 again at index 4
        const DecisionAlignment retried(*a.log, twice);
        QCOMPARE(retried.partnerOf(0), 1); // j1 at 1 and 3: 1 is nearer to 0
        QCOMPARE(retried.partnerOf(2), 0); // j3 at 0 and 4: 2 away from both, the earlier
        QCOMPARE(retried.differing(), (std::vector<int>{0, 1, 2, 3, 4}));
    }

    void differentScenariosAreRefused()
    {
        const Scenario s = cbtest::threeNodeScenario();
        const Policy p = cbtest::firstTiePolicy("spread-first", PluginKind::LeastAllocated);
        StoredRunDetail other = placed(s, p, 9);
        other.record.scenarioDigest = "another-digest";
        auto diff = diffRuns(placed(s, p, 3), other);
        QVERIFY(!diff);
        QVERIFY2(diff.error().find("runs 3 and 9 are of different scenarios") != std::string::npos,
                 diff.error().c_str());
    }

    void nodeLists()
    {
        QCOMPARE(compactNodeList(nodes({"a", "a", "b", "a"})), std::string("a x2, b, a"));
        QCOMPARE(compactNodeList({}), std::string("waits"));
    }

    void command()
    {
        // The built-in presets draw ties at random, with the same draw for the same seed and
        // decision: both put j1 on the same node, then spread j2 on another, binpack beside j1.
        QTemporaryDir dir;
        const std::string ws = dir.filePath(QStringLiteral("ws.sqlite")).toStdString();
        const std::string scenario = dir.filePath(QStringLiteral("s.json")).toStdString();
        QVERIFY(cbtest::writeScenarioFile(cbtest::threeNodeScenario(), QString::fromStdString(scenario)));
        for (const char *policy : {"spread", "binpack"}) {
            const cbtest::CliOutcome r = cbtest::runCli({"place", scenario, "--policy", policy, "--workspace", ws});
            QVERIFY2(r.code == 0, r.err.c_str());
        }
        const cbtest::CliOutcome r = cbtest::runCli({"diff", "1", "2", "--workspace", ws});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(r.out.find("Decisions: 3 and 3; the first is the same\n") != std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("First difference: decision 2\n") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("Tasks on another node: 2 of 3 decided in both\n") != std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("Jobs that differ: 2 of 3\n") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("decided by least-allocated") != std::string::npos, r.out.c_str());
        // Each side's words contrast with the node the other run picked, as the lines above
        // them do (they named the next best, which a tie may make another node).
        {
            const auto pickOf = [&](const std::string &run) {
                const std::size_t at = r.out.find("\n  " + run);
                const std::size_t arrow = r.out.find("-> ", at);
                return r.out.substr(arrow + 3, r.out.find('\n', arrow) - arrow - 3);
            };
            const std::string spread = pickOf("run 1 (spread)"), binpack = pickOf("run 2 (binpack)");
            QVERIFY2(spread != binpack, r.out.c_str());
            std::string words = r.out.substr(r.out.find("In words (run 1 (spread))"));
            std::string other = words.substr(words.find("In words (run 2"));
            words = words.substr(0, words.find("In words (run 2"));
            for (std::string *w : {&words, &other}) // (unwrapped)
                for (std::size_t at; (at = w->find("\n    ")) != std::string::npos;)
                    w->replace(at, 5, " ");
            QVERIFY2(words.find(" on " + binpack) != std::string::npos, words.c_str());
            QVERIFY2(other.find(" on " + spread) != std::string::npos, other.c_str());
        }
        // The metrics in a table with the difference and its share in columns of their own,
        // every line within the 80 columns of a terminal (without one: 80).
        QVERIFY2(r.out.find("\nMetric ") != std::string::npos &&
                     r.out.find("B - A  change\n") != std::string::npos,
                 r.out.c_str());
        {
            std::istringstream lines(r.out);
            for (std::string line; std::getline(lines, line);)
                QVERIFY2(line.size() <= 80, line.c_str());
        }

        const cbtest::CliOutcome j = cbtest::runCli({"diff", "1", "2", "--workspace", ws, "--json"});
        QCOMPARE(j.code, 0);
        const json parsed = json::parse(j.out);
        QCOMPARE(parsed["decisions"]["common_prefix"].get<int>(), 1);
        QCOMPARE(parsed["decisions"]["first_difference"]["decision"].get<int>(), 2);
        QCOMPARE(parsed["decisions"]["tasks_moved"].get<int>(), 2);
        QCOMPARE(parsed["jobs_differing"].get<int>(), 2);
        QCOMPARE(parsed["decisions"]["first_difference"]["b_scores_a_pick"]["pick_total"].get<double>(),
                 2.0);

        // A log that keeps only the pick's row (summary) has no score for the other run's
        // pick: it says so, with what it knows of the nodes without a row (binpack scores
        // the two empty nodes 0), rather than a score of 0 and a tie-break.
        const cbtest::CliOutcome summary =
            cbtest::runCli({"place", scenario, "--policy", "binpack", "--workspace", ws,
                            "--log-detail", "summary"});
        QVERIFY2(summary.code == 0, summary.err.c_str());
        const cbtest::CliOutcome unkept = cbtest::runCli({"diff", "1", "3", "--workspace", ws});
        QVERIFY2(unkept.code == 0, unkept.err.c_str());
        // (the lines wrap at 80 columns: compared with the breaks and indents made spaces)
        std::string flat;
        for (std::size_t i = 0; i < unkept.out.size(); ++i) {
            if (unkept.out[i] != '\n') {
                flat += unkept.out[i];
                continue;
            }
            flat += ' ';
            while (i + 1 < unkept.out.size() && unkept.out[i + 1] == ' ')
                ++i;
        }
        QVERIFY2(flat.find("In run 3 (binpack): a 2, b: no row kept: below the kept rows (the 2 "
                           "nodes without one scored 0) ") != std::string::npos,
                 unkept.out.c_str());
        // ... and its narration says the same, not that a was the only node left.
        QVERIFY2(flat.find("a won with a total of 2; the log keeps the best rows only: 2 nodes "
                           "that could take it scored 0.") != std::string::npos,
                 unkept.out.c_str());
        const cbtest::CliOutcome unkeptJson =
            cbtest::runCli({"diff", "1", "3", "--workspace", ws, "--json"});
        QCOMPARE(unkeptJson.code, 0);
        const json inSummary =
            json::parse(unkeptJson.out)["decisions"]["first_difference"]["b_scores_a_pick"];
        QVERIFY2(inSummary["other_total"].is_null(), unkeptJson.out.c_str());
        QCOMPARE(inSummary["other_kept"].get<bool>(), false);
        QCOMPARE(inSummary["unkept_totals"].dump(), std::string("[0,0]"));
        QCOMPARE(inSummary["pick_total"].get<double>(), 2.0);

        const cbtest::CliOutcome missing = cbtest::runCli({"diff", "1", "5", "--workspace", ws});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.find("5") != std::string::npos, missing.err.c_str());
        QCOMPARE(missing.out, std::string());
        const cbtest::CliOutcome bad = cbtest::runCli({"diff", "1", "x", "--workspace", ws});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.find("expected a run id") != std::string::npos, bad.err.c_str());
    }

    // Two stochastic runs store scheduling events, not placement decisions: diff compares
    // them by job outcome (it had refused them, reading their log as a placement log), and
    // a stochastic run beside another scenario's run is refused for that reason.
    void stochasticRunsAreComparedByOutcome()
    {
        QTemporaryDir dir;
        const std::string ws = dir.filePath(QStringLiteral("ws.sqlite")).toStdString();
        const std::string sts = CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json";
        for (const char *policy : {"sts", "sts-fifo"}) {
            const cbtest::CliOutcome r =
                cbtest::runCli({"simulate", sts, "--policy", policy, "--workspace", ws});
            QVERIFY2(r.code == 0, r.err.c_str());
        }
        const cbtest::CliOutcome r = cbtest::runCli({"diff", "1", "2", "--workspace", ws});
        QVERIFY2(r.code == 0, r.err.c_str());
        // (wrapped to the terminal: a line break and its indent read as a space)
        const QString text =
            QString::fromStdString(r.out).replace(QStringLiteral("\n  "), QStringLiteral(" "));
        QVERIFY2(text.contains(QStringLiteral("\nDecisions: not compared (run 1 (sts) stored no "
                                              "placement decision log); jobs compared by "
                                              "outcome\n")),
                 r.out.c_str());
        const cbtest::CliOutcome j =
            cbtest::runCli({"diff", "1", "2", "--workspace", ws, "--json"});
        QCOMPARE(j.code, 0);
        const json parsed = json::parse(j.out);
        QCOMPARE(parsed["jobs_compared"].get<int>(), 101);
        QVERIFY(parsed["jobs_differing"].get<int>() > 0);
        // A job's start is its first (as the run file's first_start_s): an STS job's later
        // starts (start_s) are reconfigurations. (It had shown the last.)
        {
            const std::string file = dir.filePath(QStringLiteral("sts.json")).toStdString();
            QCOMPARE(
                cbtest::runCli({"simulate", sts, "--policy", "sts", "--out", file, "--no-save"})
                    .code,
                0);
            std::ifstream in(file);
            const json run = json::parse(in);
            std::map<std::string, json> byId;
            for (const json &jr : run["jobs"])
                byId[jr["id"].get<std::string>()] = jr;
            const cbtest::CliOutcome all =
                cbtest::runCli({"diff", "1", "2", "--workspace", ws, "--json", "--jobs", "0"});
            const json listed = json::parse(all.out);
            QCOMPARE(listed["jobs"].size(), parsed["jobs_differing"].get<std::size_t>());
            int reconfigured = 0;
            for (const json &jd : listed["jobs"]) {
                const json &jr = byId.at(jd["job"].get<std::string>());
                QCOMPARE(jd["start_a"].get<double>(), jr["first_start_s"].get<double>());
                reconfigured += jr["start_s"] != jr["first_start_s"];
            }
            QVERIFY(reconfigured > 0); // (else first and last start could not be told apart)
        }

        const std::string testbed = CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json";
        const cbtest::CliOutcome placed =
            cbtest::runCli({"place", testbed, "--policy", "dltap", "--workspace", ws});
        QCOMPARE(placed.code, 0);
        // Its traffic table groups thousands as compare does ("16,078.3", not "16078.3").
        QVERIFY2(placed.out.find("  all jobs      16,078.3 MB  11,303.1 MB  4,775.2 MB") !=
                     std::string::npos,
                 placed.out.c_str());
        const cbtest::CliOutcome other = cbtest::runCli({"diff", "1", "3", "--workspace", ws});
        QCOMPARE(other.code, 2);
        QVERIFY2(other.err.find("runs 1 and 3 are of different scenarios") != std::string::npos,
                 other.err.c_str());
    }
};

QTEST_APPLESS_MAIN(TestRunDiff)
#include "tst_run_diff.moc"
