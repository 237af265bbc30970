// Runs stored in the workspace and read back without recomputing: the decision log and run
// file readers round-trip exactly, simulate / place / compare write one run each (per policy)
// into --workspace or $CLUSTERBENCH_WORKSPACE, --no-save writes nothing, and `show` prints
// the stored metrics.

#include "io/policy_json.h"
#include "io/run_json.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "sched/policy.h"
#include "sim/simulator.h"
#include "store/stored_run.h"
#include "store/workspace.h"

#include <QtTest>

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <sqlite3.h>

using namespace cb;

namespace {

const std::string kTestbed = CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json";

struct Cli
{
    int code = -1;
    std::string out;
    std::string err;
};

Cli clusterbench(const QStringList &args, const QString &workspaceEnv = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("COLUMNS")); // (laid out for 80 columns, as in a pipe)
    if (!workspaceEnv.isEmpty())
        env.insert(QStringLiteral("CLUSTERBENCH_WORKSPACE"), workspaceEnv);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(CB_CLUSTERBENCH), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

Scenario testbed()
{
    auto s = loadScenarioFile(kTestbed);
    return s.ok() ? s.value() : Scenario{};
}

Policy preset(const std::string &name)
{
    auto p = resolvePolicy(name, {});
    return p.ok() ? p.value() : Policy{};
}

} // namespace

class TestRunStore : public QObject
{
    Q_OBJECT

private slots:
    void metricUnitsByName()
    {
        // Every stored metric name, read by its end, as show, diff and the window print it.
        QCOMPARE(metricUnit("cross_node_bytes"), MetricUnit::Bytes);
        QCOMPARE(metricUnit("max_link_seconds"), MetricUnit::Seconds);
        QCOMPARE(metricUnit("mean_jct_s"), MetricUnit::Seconds);
        QCOMPARE(metricUnit("energy_kwh"), MetricUnit::KWh);
        QCOMPARE(metricUnit("stranded_gpu_h"), MetricUnit::GpuHours);
        QCOMPARE(metricUnit("cost"), MetricUnit::Money);
        QCOMPARE(metricUnit("energy_cost"), MetricUnit::Money);
        QCOMPARE(metricUnit("mean_hops"), MetricUnit::Plain);
        QCOMPARE(metricUnit("placed_jobs"), MetricUnit::Plain);
        QCOMPARE(metricUnit("_s"), MetricUnit::Plain); // (a suffix alone names no metric)
        // Every metric a simulated run stores has a unit that fits its name.
        const Scenario s =
            loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json").value();
        SimOptions o;
        o.policy = *builtinPolicy("dltap");
        const auto run = simulate(s, o);
        QVERIFY2(run.ok(), run.error().c_str());
        int seconds = 0;
        for (const auto &[name, value] : simulationMetrics(run.value()))
            seconds += metricUnit(name) == MetricUnit::Seconds ? 1 : 0;
        QVERIFY2(seconds >= 3, "makespan_s, mean_jct_s and more are in seconds");
    }

    void decisionLogRoundTrip()
    {
        const Scenario s = testbed();
        QCOMPARE(s.jobs.size(), std::size_t(9));
        const Topology topo(s.cluster);
        DecisionLog log;
        (void)placeScenario(s, topo, preset("dltap"), 3, &log);
        QVERIFY(log.decisions.size() > 10);
        // Through text, as the workspace stores it.
        const auto text = log.toJson().dump();
        auto back = DecisionLog::fromJson(nlohmann::json::parse(text));
        QVERIFY2(back.ok(), back.error().c_str());
        QVERIFY(back.value() == log);
        QCOMPARE(back->toJson().dump(), text);
        // Some decisions must have filtered-out rows and groups != 0 to make this mean much.
        bool filtered = false, tied = false;
        for (const Decision &d : log.decisions)
            for (const CandidateRow &r : d.rows) {
                filtered = filtered || !r.feasible();
                tied = tied || d.tied.size() > 1;
            }
        QVERIFY(filtered);
        QVERIFY(tied);
    }

    void decisionLogErrorsNamePointers()
    {
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        DecisionLog log;
        (void)placeScenario(s, topo, preset("k8s-default"), 1, &log);
        nlohmann::json j = log.toJson();
        j["decisions"][2]["scored"][1][1] = "high";
        j["decisions"][4]["pick"] = "no-such-node";
        auto bad = DecisionLog::fromJson(j);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.problems().size(), std::size_t(2));
        QCOMPARE(bad.problems()[0].where, std::string("/decisions/2/scored/1/1"));
        QCOMPARE(bad.problems()[1].where, std::string("/decisions/4/pick"));
        QVERIFY(bad.problems()[1].message.find("no-such-node") != std::string::npos);
    }

    void decisionLogVersion1StillReads()
    {
        // Written by ClusterBench 6eb3b1d (layout 1: an object per node per decision, names,
        // reasons and weighted scores spelled out) for dgx-nvlink.json under binpack.
        QFile file(QStringLiteral(CB_TEST_DATA "/decision-log/dgx-nvlink-binpack-v1.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto old = nlohmann::json::parse(file.readAll().toStdString());
        QVERIFY(!old.contains("version"));
        auto read = DecisionLog::fromJson(old);
        QVERIFY2(read.ok(), read.error().c_str());
        const DecisionLog &log = read.value();
        QCOMPARE(log.detail, LogDetail::full());
        QCOMPARE(log.decisions.size(), std::size_t(110));
        QCOMPARE(log.events.size(), std::size_t(13));
        QCOMPARE(log.nodeNames.size(), std::size_t(8));
        QCOMPARE(log.reasons.front(), std::string("needs 16 CPUs, 0 of 128 free"));
        // Every row, score, reason, pick and event is what placing the same scenario gives
        // now: the old log reads into exactly the new representation.
        auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dgx-nvlink.json");
        QVERIFY2(s.ok(), s.error().c_str());
        const Topology topo(s->cluster);
        DecisionLog now;
        (void)placeScenario(s.value(), topo, preset("binpack"), log.seed, &now);
        // (Only the prose differs: a tie-break's reason then named the decision's 0-based
        // index, "(seed 11, decision 8)", which read as another decision's number.)
        DecisionLog then = log;
        int renamed = 0;
        for (Decision &d : then.decisions)
            if (const auto at = d.why.find(", decision "); at != std::string::npos) {
                d.why.erase(at, d.why.find(')', at) - at);
                ++renamed;
            }
        QCOMPARE(renamed, 7);
        QVERIFY(now == then);
        // Weighted scores are weight x raw, as layout 1 stored them.
        const auto &d0 = old["decisions"][0];
        const auto &row = d0["nodes"][0];
        const CandidateRow &r = log.decisions[0].rows[0];
        QVERIFY(row["feasible"].get<bool>() && r.feasible());
        for (std::size_t p = 0; p < log.pluginNames.size(); ++p)
            QCOMPARE(log.weighted(log.decisions[0], r, p), row["weighted"][p].get<double>());
        // Written again it is layout 2, which reads back equal.
        const nlohmann::json v2 = log.toJson();
        QCOMPARE(v2["version"].get<int>(), DecisionLog::kJsonVersion);
        auto back = DecisionLog::fromJson(v2);
        QVERIFY2(back.ok(), back.error().c_str());
        QVERIFY(back.value() == log);
        QVERIFY(v2.dump().size() * 2 < old.dump().size());

        // A log from a newer ClusterBench is refused with a clear message.
        nlohmann::json newer = v2;
        newer["version"] = DecisionLog::kJsonVersion + 1;
        auto refused = DecisionLog::fromJson(newer);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.problems().front().where, std::string("/version"));
        QVERIFY(refused.problems().front().message.find("newer ClusterBench") != std::string::npos);
    }

    void bigClusterLogIsStored()
    {
        // The 1,024-node sample with its 300 jobs: the log (auto = top:32) is stored in the
        // workspace and reopens equal to the one placing computes.
        QTemporaryDir dir;
        const QString ws = dir.filePath(QStringLiteral("ws.sqlite"));
        const std::string fatTree = CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json";
        const Cli place = clusterbench({QStringLiteral("place"), QString::fromStdString(fatTree),
                                        QStringLiteral("--policy"), QStringLiteral("dltap"),
                                        QStringLiteral("--seed"), QStringLiteral("1"),
                                        QStringLiteral("--workspace"), ws});
        QCOMPARE(place.code, 0);
        auto opened = Workspace::open(ws.toStdString());
        QVERIFY2(opened.ok(), opened.error().c_str());
        auto detail = readStoredRun(*opened.value(), 1);
        QVERIFY2(detail.ok(), detail.error().c_str());
        QVERIFY(detail->log.has_value());
        auto s = loadScenarioFile(fatTree);
        QVERIFY(s.ok());
        const Topology topo(s->cluster);
        DecisionLog log;
        (void)placeScenario(s.value(), topo, preset("dltap"), 1, &log);
        QCOMPARE(log.decisions.size(), std::size_t(4013));
        QCOMPARE(log.detail, LogDetail::topK(LogDetail::kAutoTop));
        QVERIFY(detail->log.value() == log);
    }

    void runFileRoundTrip()
    {
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        SimOptions options;
        options.policy = preset("dltap");
        options.seed = 1;
        options.failures = {{s.cluster.nodes[2].id, 5000.0, 20000.0}};
        auto run = simulate(s, options);
        QVERIFY2(run.ok(), run.error().c_str());
        QVERIFY(!run->series.pairBytes.empty());
        QVERIFY(run->failures == 1);
        const std::string text = runToJson(run.value(), s.cluster, topo).dump(1);
        auto back = runFromJson(nlohmann::json::parse(text), s.cluster);
        QVERIFY2(back.ok(), back.error().c_str());
        QVERIFY(back->jobs == run->jobs);
        QVERIFY(back->series == run->series);
        QVERIFY(back->pairBytes == run->pairBytes);
        QVERIFY(back->linkBytes == run->linkBytes);
        QVERIFY(back->log == run->log);
        QVERIFY(back.value() == run.value());
        QCOMPARE(runToJson(back.value(), s.cluster, topo).dump(1), text);

        // A run file of another cluster names nodes this one lacks.
        nlohmann::json j = nlohmann::json::parse(text);
        j["node_pairs"][0]["from"] = "ghost";
        auto bad = runFromJson(j, s.cluster);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.problems().front().where, std::string("/node_pairs/0/from"));
    }

    void simulateStoresARunThatReopens()
    {
        QTemporaryDir dir;
        const QString ws = dir.filePath(
            QStringLiteral("a-workspace-named-long-enough-to-take-a-line-of-its-own.sqlite"));
        const Cli sim = clusterbench({QStringLiteral("simulate"), QString::fromStdString(kTestbed),
                                      QStringLiteral("--policy"), QStringLiteral("dltap"),
                                      QStringLiteral("--seed"), QStringLiteral("1"),
                                      QStringLiteral("--json"), QStringLiteral("--workspace"), ws});
        QCOMPARE(sim.code, 0);
        QVERIFY2(sim.err.find("Saved as run 1 in") != std::string::npos, sim.err.c_str());
        // Wrapped at the 80 columns of a pipe, the path on a line of its own if need be (a
        // terminal broke it mid-word).
        const std::string saved = sim.err.substr(sim.err.find("Saved as run 1 in"));
        QCOMPARE(saved.substr(0, 21 + std::size_t(ws.size())),
                 "Saved as run 1 in\n  " + ws.toStdString() + "\n");
        const auto summary = nlohmann::json::parse(sim.out)["summary"];

        auto opened = Workspace::open(ws.toStdString());
        QVERIFY2(opened.ok(), opened.error().c_str());
        auto detail = readStoredRun(*opened.value(), 1);
        QVERIFY2(detail.ok(), detail.error().c_str());
        QCOMPARE(detail->record.kind, std::string("simulate"));
        QCOMPARE(detail->record.policy, std::string("dltap"));
        QCOMPARE(detail->record.seed, std::uint64_t(1));
        QCOMPARE(detail->record.metrics.at("mean_jct_s"), summary["mean_jct_s"].get<double>());
        QCOMPARE(detail->record.metrics.at("jobs"), 9.0);
        QCOMPARE(detail->scenario.jobs.size(), std::size_t(9));

        // What the GUI would have computed, equal to what was stored.
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        SimOptions options;
        options.policy = preset("dltap");
        options.seed = 1;
        auto run = simulate(s, options);
        QVERIFY(run.ok());
        QVERIFY(detail->result.has_value());
        QVERIFY(detail->result.value() == run.value());
        DecisionLog log;
        const Placement placement = placeScenario(s, topo, preset("dltap"), 1, &log);
        QVERIFY(detail->log.has_value());
        QVERIFY(detail->log.value() == log);
        QCOMPARE(detail->placement.jobs.size(), placement.jobs.size());
        for (std::size_t i = 0; i < placement.jobs.size(); ++i)
            QVERIFY(detail->placement.jobs[i].tasks == placement.jobs[i].tasks);

        // history lists it; at 80 columns the scenario's name goes under the other columns,
        // whole (it was cut to 12 characters with 60 columns free there).
        const Cli list = clusterbench({QStringLiteral("history"), QStringLiteral("--workspace"),
                                       ws});
        QCOMPARE(list.code, 0);
        QVERIFY2(list.out.find("simulate  dltap   1     complete  -\n\nRUN  SCENARIO\n  1  DLTAP "
                               "testbed (8 low-end K80 servers, 9 PS/worker jobs)\n") !=
                     std::string::npos,
                 list.out.c_str());
        // A run of an edited version of the scenario (same name): each run's version comes
        // first, kept by the cut, so the two are told apart.
        Scenario edited = s;
        edited.jobs.pop_back();
        const QString editedPath = dir.filePath(QStringLiteral("edited.json"));
        QVERIFY(saveScenarioFile(editedPath.toStdString(), edited).ok());
        QCOMPARE(clusterbench({QStringLiteral("simulate"), editedPath, QStringLiteral("--policy"),
                               QStringLiteral("dltap"), QStringLiteral("--workspace"), ws})
                     .code,
                 0);
        const Cli versions =
            clusterbench({QStringLiteral("history"), QStringLiteral("--workspace"), ws});
        QVERIFY2(versions.out.find("  1  v1 DLTAP testbed") != std::string::npos,
                 versions.out.c_str());
        QVERIFY2(versions.out.find("  2  v2 DLTAP testbed") != std::string::npos,
                 versions.out.c_str());
        // A what-if run says its pin: it read like the run without one.
        QCOMPARE(clusterbench({QStringLiteral("simulate"), editedPath, QStringLiteral("--policy"),
                               QStringLiteral("dltap"), QStringLiteral("--pin"),
                               QStringLiteral("alexnet-a/ps-0=node-05"),
                               QStringLiteral("--workspace"), ws})
                     .code,
                 0);
        const Cli pinned =
            clusterbench({QStringLiteral("history"), QStringLiteral("--workspace"), ws});
        QVERIFY2(pinned.out.find("  3  pin alexnet-a/ps-0=node-05  v2 DLTAP testbed") !=
                     std::string::npos,
                 pinned.out.c_str());

        // show prints the stored metrics, as text and JSON.
        const Cli show = clusterbench({QStringLiteral("show"), QStringLiteral("1"),
                                       QStringLiteral("--workspace"), ws});
        QCOMPARE(show.code, 0);
        QVERIFY2(show.out.find("Run 1 (simulate, complete)") != std::string::npos, show.out.c_str());
        // Its parameters as options are written, not as the JSON stored.
        QVERIFY2(show.out.find("  params    cost=energy  weights: selector-spread=1") !=
                     std::string::npos,
                 show.out.c_str());
        // (the names padded to the longest and two spaces: iteration_max_link_seconds)
        QVERIFY2(show.out.find("\n  jobs" + std::string(28 - 4, ' ') + "9\n") != std::string::npos,
                 show.out.c_str());
        QVERIFY2(show.out.find("\n  iteration_max_link_seconds  ") != std::string::npos,
                 show.out.c_str());
        // Costs in the scenario's currency, as simulate prints them.
        QVERIFY2(QRegularExpression(QStringLiteral("\n  total_cost +[0-9,]+\\.\\d\\d USD\n"))
                     .match(QString::fromStdString(show.out))
                     .hasMatch(),
                 show.out.c_str());
        // Thousands grouped as simulate groups them (the testbed's makespan is days long).
        QVERIFY2(QRegularExpression(QStringLiteral("\n  makespan_s +\\d{1,3}(,\\d{3})+\\.\\d s\n"))
                     .match(QString::fromStdString(show.out))
                     .hasMatch(),
                 show.out.c_str());
        QVERIFY(show.out.find("Decision log: " + std::to_string(log.decisions.size()) +
                              " decisions stored") != std::string::npos);
        // The timeline's logged events are told apart from the events metric (27 against 95
        // read as a contradiction), and the line wraps at the output's 80 columns.
        QVERIFY2(show.out.find("Placement: 9 jobs placed, 0 waiting\nTimeline: ") !=
                     std::string::npos,
                 show.out.c_str());
        const QString joined = QString::fromStdString(show.out).replace("\n  ", " ");
        QVERIFY2(joined.contains(" job or node events logged (arrivals, starts, finishes, "
                                 "failures; the events metric also counts scheduling passes "
                                 "and re-timed finishes)\n"),
                 show.out.c_str());
        for (const QString &line : QString::fromStdString(show.out).split('\n'))
            QVERIFY2(line.size() <= 80, qPrintable(line));
        const Cli showJson = clusterbench({QStringLiteral("show"), QStringLiteral("1"),
                                           QStringLiteral("--workspace"), ws,
                                           QStringLiteral("--json")});
        QCOMPARE(showJson.code, 0);
        const auto sj = nlohmann::json::parse(showJson.out);
        QCOMPARE(sj["metrics"]["energy_kwh"].get<double>(), summary["energy_kwh"].get<double>());
        QCOMPARE(sj["metrics"]["finished"].get<double>(), 9.0);
    }

    void placeAndCompareStoreOneRunEach()
    {
        QTemporaryDir dir;
        const QString ws = dir.filePath(QStringLiteral("env.sqlite"));
        // The default workspace comes from $CLUSTERBENCH_WORKSPACE.
        const Cli place = clusterbench({QStringLiteral("place"), QString::fromStdString(kTestbed),
                                        QStringLiteral("--policy"), QStringLiteral("k8s-default"),
                                        QStringLiteral("--seed"), QStringLiteral("4")},
                                       ws);
        QCOMPARE(place.code, 0);
        const Cli cmp = clusterbench({QStringLiteral("compare"), QString::fromStdString(kTestbed),
                                      QStringLiteral("--policies"),
                                      QStringLiteral("k8s-default,dltap"),
                                      QStringLiteral("--seed"), QStringLiteral("4")},
                                     ws);
        QCOMPARE(cmp.code, 0);
        QVERIFY2(cmp.err.find("Saved as runs 2, 3 in") != std::string::npos, cmp.err.c_str());
        // Counts print as integers: every job fits on the testbed.
        QVERIFY2(cmp.out.find("\nk8s-default     9     42     0 ") != std::string::npos,
                 cmp.out.c_str());
        QVERIFY(cmp.out.find("9.0") == std::string::npos);
        const Cli noSave = clusterbench({QStringLiteral("place"), QString::fromStdString(kTestbed),
                                         QStringLiteral("--policy"), QStringLiteral("dltap"),
                                         QStringLiteral("--no-save")},
                                        ws);
        QCOMPARE(noSave.code, 0);
        QVERIFY(noSave.err.empty());

        const Cli history = clusterbench({QStringLiteral("history"), QStringLiteral("--json")}, ws);
        QCOMPARE(history.code, 0);
        const auto runs = nlohmann::json::parse(history.out);
        QCOMPARE(runs.size(), std::size_t(3));
        QCOMPARE(runs[0]["kind"].get<std::string>(), std::string("compare"));
        QCOMPARE(runs[0]["policy"].get<std::string>(), std::string("dltap"));
        QCOMPARE(runs[1]["policy"].get<std::string>(), std::string("k8s-default"));
        QCOMPARE(runs[2]["kind"].get<std::string>(), std::string("place"));
        // place and the compare row of the same policy and seed store the same figures.
        QCOMPARE(runs[2]["metrics"]["cross_node_bytes"], runs[1]["metrics"]["cross_node_bytes"]);
        QCOMPARE(runs[2]["metrics"]["placed_jobs"].get<double>(), 9.0);
        QCOMPARE(runs[1]["metrics"]["cross_node_reduction"].get<double>(), 0.0);
        QVERIFY(runs[0]["metrics"]["cross_node_reduction"].get<double>() > 0.0);

        auto opened = Workspace::open(ws.toStdString());
        QVERIFY(opened.ok());
        auto detail = readStoredRun(*opened.value(), 3);
        QVERIFY2(detail.ok(), detail.error().c_str());
        QVERIFY(!detail->result.has_value());
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        const Placement placement = placeScenario(s, topo, preset("dltap"), 4);
        QCOMPARE(detail->placement.jobs.size(), placement.jobs.size());
        for (std::size_t i = 0; i < placement.jobs.size(); ++i)
            QVERIFY(detail->placement.jobs[i].tasks == placement.jobs[i].tasks);
    }

    void storedLayoutIsExactAndSmall()
    {
        // By hand, on a-b-c: two buckets of 10 s; directed link 3 (c>b) carried 200 bytes in the first, none in the
        // second; node 0 sent node 1 7.5 bytes in the second.
        Cluster c;
        for (const char *id : {"a", "b", "c"}) {
            Node n;
            n.id = id;
            c.nodes.push_back(n);
        }
        c.links.resize(2);
        c.links[0].a = "a";
        c.links[0].b = "b";
        c.links[1].a = "b";
        c.links[1].b = "c";
        const Topology topo(c);
        RunResult r;
        r.series.bucketSeconds = 10;
        r.series.gpuBusySeconds = {5, 2.5};
        r.series.linkBytes.resize(2);
        r.series.linkBytes[0][3] = 200;
        r.series.pairBytes.resize(2);
        r.series.pairBytes[1][{0, 1}] = 7.5;
        r.linkBytes = {0, 0, 0, 200};
        r.pairBytes[{0, 1}] = 7.5;
        const auto j = runToJson(r, c, topo, RunJsonLayout::Stored);
        QCOMPARE(j["series"].dump(),
                 std::string(R"({"layout":"columns","bucket_s":10,"gpu_busy_s":[5,2.5],)"
                             R"("link_totals":{"link":[3],"bytes":[200]},)"
                             R"("link_bytes":{"count":[1,0],"link":[3],"bytes":[200]},)"
                             R"("node_pairs":{"count":[0,1],"from":[0],"to":[1],"bytes":[7.5]}})"));
        QCOMPARE(j["node_pairs"].dump(), std::string(R"({"from":[0],"to":[1],"bytes":[7.5]})"));
        auto back = runFromJson(nlohmann::json(j), c);
        QVERIFY2(back.ok(), back.error().c_str());
        QVERIFY(back->series == r.series);
        QVERIFY(back->linkBytes == r.linkBytes);
        QVERIFY(back->pairBytes == r.pairBytes);
        // A count beyond the rows is named by its pointer.
        nlohmann::json bad(j);
        bad["series"]["link_bytes"]["count"][0] = 2;
        auto failed = runFromJson(bad, c);
        QVERIFY(!failed.ok());
        QCOMPARE(failed.problems().front().where, std::string("/series/link_bytes/count/0"));
        bad = nlohmann::json(j);
        bad["series"]["node_pairs"]["to"][0] = 3;
        failed = runFromJson(bad, c);
        QVERIFY(!failed.ok());
        QCOMPARE(failed.problems().front().where, std::string("/series/node_pairs/to/0"));

        // A real run with a failure: the Stored layout reads back to the same run, whose run
        // file is the one written from the run itself, at under a third of its size.
        const Scenario s = testbed();
        const Topology t(s.cluster);
        SimOptions options;
        options.policy = preset("dltap");
        options.seed = 1;
        options.failures = {{s.cluster.nodes[2].id, 5000.0, 20000.0}};
        auto run = simulate(s, options);
        QVERIFY2(run.ok(), run.error().c_str());
        const std::string stored = runToJson(run.value(), s.cluster, t, RunJsonLayout::Stored).dump();
        const std::string file = runToJson(run.value(), s.cluster, t).dump();
        auto read = runFromJson(nlohmann::json::parse(stored), s.cluster);
        QVERIFY2(read.ok(), read.error().c_str());
        QVERIFY(read.value() == run.value());
        QCOMPARE(runToJson(read.value(), s.cluster, t).dump(), file);
        QVERIFY2(stored.size() * 3 < file.size(),
                 qPrintable(QStringLiteral("%1 vs %2").arg(stored.size()).arg(file.size())));
    }

    void runFileIsTheOneBeforeSparseSeries()
    {
        // The run file of `simulate dltap-testbed.json --policy dltap --seed 1`, as the dense
        // per-bucket maps wrote it before the series became sorted arrays (util/sparse_sums.h):
        // 1,183,535 bytes, 3,536 link and 7,120 node-pair bucket entries. One value has
        // changed since: the summary's multi_node_placements, which counted only stochastic
        // splits (0), now counts the 6 jobs started on several nodes.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("run.json"));
        const Cli sim = clusterbench({QStringLiteral("simulate"), QString::fromStdString(kTestbed),
                                      QStringLiteral("--policy"), QStringLiteral("dltap"),
                                      QStringLiteral("--seed"), QStringLiteral("1"),
                                      QStringLiteral("--out"), out, QStringLiteral("--no-save")});
        QCOMPARE(sim.code, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QCOMPARE(bytes.size(), qsizetype(1183535));
        const auto j = nlohmann::json::parse(bytes.toStdString());
        QCOMPARE(j["series"]["link_bytes"].size(), std::size_t(3536));
        QCOMPARE(j["series"]["node_pairs"].size(), std::size_t(7120));
        QVERIFY(bytes.contains("\"multi_node_placements\": 6"));
        QCOMPARE(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toStdString(),
                 std::string("9a048bc858b9471f8b770481dc991b68a5b306048da4e24a24106d88c3ba1444"));
    }

    void storedRunsAreDeflated()
    {
        // The timeline and the decision log are stored deflated; a TEXT value (an older
        // workspace's) still reads, to the same run.
        QTemporaryDir dir;
        const QString ws = dir.filePath(QStringLiteral("ws.sqlite"));
        const Cli sim = clusterbench({QStringLiteral("simulate"), QString::fromStdString(kTestbed),
                                      QStringLiteral("--policy"), QStringLiteral("dltap"),
                                      QStringLiteral("--seed"), QStringLiteral("1"),
                                      QStringLiteral("--workspace"), ws});
        QCOMPARE(sim.code, 0);
        std::optional<StoredRunDetail> first;
        std::string timelineText;
        {
            auto opened = Workspace::open(ws.toStdString());
            QVERIFY(opened.ok());
            auto detail = readStoredRun(*opened.value(), 1);
            QVERIFY2(detail.ok(), detail.error().c_str());
            QVERIFY(detail->result && detail->log);
            timelineText = detail->record.timeline.dump();
            first = std::move(detail.value());
        }
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(ws.toUtf8().constData(), &db), SQLITE_OK);
        auto scalar = [&](const char *sql) {
            sqlite3_stmt *st = nullptr;
            sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
            std::string v;
            if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
                v = reinterpret_cast<const char *>(sqlite3_column_text(st, 0));
            sqlite3_finalize(st);
            return v;
        };
        QCOMPARE(scalar("SELECT typeof(content) FROM timelines"), std::string("blob"));
        QCOMPARE(scalar("SELECT typeof(decision_log) FROM runs"), std::string("blob"));
        QVERIFY(std::stoll(scalar("SELECT length(content) FROM timelines")) * 4 <
                std::int64_t(timelineText.size()));
        sqlite3_stmt *st = nullptr;
        sqlite3_prepare_v2(db, "UPDATE timelines SET content = ?", -1, &st, nullptr);
        sqlite3_bind_text(st, 1, timelineText.c_str(), int(timelineText.size()), SQLITE_TRANSIENT);
        QCOMPARE(sqlite3_step(st), SQLITE_DONE);
        sqlite3_finalize(st);
        QCOMPARE(scalar("SELECT typeof(content) FROM timelines"), std::string("text"));
        sqlite3_close(db);
        auto opened = Workspace::open(ws.toStdString());
        QVERIFY(opened.ok());
        auto again = readStoredRun(*opened.value(), 1);
        QVERIFY2(again.ok(), again.error().c_str());
        QVERIFY(again->result == first->result);
        QVERIFY(again->log == first->log);
    }

    void unusableWorkspaceIsBadInput()
    {
        QTemporaryDir dir;
        const QString ws = dir.filePath(QStringLiteral("newer.sqlite"));
        {
            auto w = Workspace::open(ws.toStdString());
            QVERIFY(w.ok());
        }
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(ws.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        const Cli place = clusterbench({QStringLiteral("place"), QString::fromStdString(kTestbed),
                                        QStringLiteral("--policy"), QStringLiteral("dltap"),
                                        QStringLiteral("--workspace"), ws});
        QCOMPARE(place.code, 2);
        QVERIFY2(place.err.find("newer than this ClusterBench") != std::string::npos,
                 place.err.c_str());
        QVERIFY(place.out.empty());
    }
};

QTEST_GUILESS_MAIN(TestRunStore)
#include "tst_run_store.moc"
