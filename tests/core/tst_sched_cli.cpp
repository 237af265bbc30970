// `clusterbench place` and `compare` as a user runs them: byte-identical output for the same
// input and seed, the JSON fields other tools read, the DLTAP acceptance figure on the
// testbed, and exit codes for bad input. Also: the testbed sample is canonical.

#include "io/file_io.h"
#include "io/scenario_json.h"
#include "io/export/placement_json.h"
#include "net/topology.h"
#include "sched/placer.h"

#include <QtTest>

#include <QProcess>

#include <nlohmann/json.hpp>

namespace {

const QString kTestbed = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");

struct Run
{
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run clusterbench(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(CB_CLUSTERBENCH), args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace

class TestSchedCli : public QObject
{
    Q_OBJECT

private slots:
    void testbedIsCanonical()
    {
        auto text = cb::readTextFile(kTestbed.toStdString());
        QVERIFY2(text.ok(), text.error().c_str());
        auto s = cb::scenarioFromText(text.value());
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(cb::scenarioToText(s.value()), text.value());
        QCOMPARE(s->cluster.nodes.size(), std::size_t(8));
        QCOMPARE(s->jobs.size(), std::size_t(9));
    }

    void sameSeedSameBytes_data()
    {
        QTest::addColumn<QStringList>("args");
        for (const char *policy : {"k8s-default", "dltap", "random", "topology-aware"})
            QTest::newRow(policy) << QStringList{QStringLiteral("place"), kTestbed,
                                                 QStringLiteral("--policy"),
                                                 QString::fromLatin1(policy),
                                                 QStringLiteral("--seed"), QStringLiteral("7"),
                                                 QStringLiteral("--json"), QStringLiteral("--log")};
        QTest::newRow("compare") << QStringList{QStringLiteral("compare"), kTestbed,
                                                QStringLiteral("--policies"),
                                                QStringLiteral("k8s-default,dltap,random"),
                                                QStringLiteral("--seeds"), QStringLiteral("3"),
                                                QStringLiteral("--json")};
    }

    void sameSeedSameBytes()
    {
        QFETCH(QStringList, args);
        const Run a = clusterbench(args);
        const Run b = clusterbench(args);
        QCOMPARE(a.code, 0);
        QVERIFY(!a.out.isEmpty());
        QCOMPARE(a.out, b.out);
    }

    void placeJson()
    {
        const Run r = clusterbench({QStringLiteral("place"), kTestbed, QStringLiteral("--policy"),
                                    QStringLiteral("dltap"), QStringLiteral("--json"),
                                    QStringLiteral("--log")});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["placement"]["jobs"].size(), std::size_t(9));
        QCOMPARE(j["placement"]["waiting"].size(), std::size_t(0));
        QCOMPARE(j["decision_log"]["decisions"].size(), std::size_t(42));
        const auto &d0 = j["decision_log"]["decisions"][0];
        // Every node has a row on the 8-node testbed (detail auto = full): scored + filtered.
        QCOMPARE(j["decision_log"]["detail"].get<std::string>(), std::string("full"));
        QCOMPARE(d0["scored"].size() + d0["filtered"].size(), std::size_t(8));
        QVERIFY(!d0.contains("omitted"));
        QVERIFY(d0["why"].get<std::string>().rfind("highest total", 0) == 0);
        // Total traffic does not depend on placement: sum over jobs of 2 x W x bytes.
        const double alexnet = 244403360, vgg = 553430176, inception = 95407136;
        QCOMPARE(j["traffic"]["total_bytes"].get<double>(),
                 2.0 * 9 * (alexnet + vgg + inception));
        // The placement is export's input as it is: the policy's placement read back whole,
        // and `export --placement` writes it.
        QCOMPARE(j["placement"]["format"].get<std::string>(), std::string("clusterbench-placement"));
        QVERIFY(!j.contains("partial_jobs")); // (every job placed whole)
        auto scenario = cb::loadScenarioFile(kTestbed.toStdString());
        QVERIFY(scenario.ok());
        auto read = cb::PlacementJson::fromJson(j["placement"], scenario.value());
        QVERIFY2(read.ok(), read.error().c_str());
        const cb::Topology topo(scenario->cluster);
        QVERIFY(read.value() == cb::placeScenario(scenario.value(), topo,
                                                  *cb::builtinPolicy("dltap"),
                                                  scenario->settings.seed));
        QTemporaryDir dir;
        const QString file = dir.filePath("placement.json");
        QVERIFY(cb::writeFileAtomically(file.toStdString(), j["placement"].dump()).ok());
        const Run exported = clusterbench({QStringLiteral("export"), kTestbed,
                                           QStringLiteral("--format"), QStringLiteral("k8s-pods"),
                                           QStringLiteral("--placement"), file,
                                           QStringLiteral("--out"), dir.filePath("out")});
        QCOMPARE(exported.code, 0);
        QVERIFY(QFileInfo::exists(dir.filePath("out/alexnet-a.yaml")));
    }

    // A job that can never start, though each task fits a node and the cluster has its 32
    // GPUs: 8 workers of 4 GPUs and 40 GiB take every node's GPUs, and no node is then left
    // with the 30 GiB its parameter server needs. The summary gives no mean over no finished
    // job, and simulate exits 1 saying so. Nine such workers want more GPUs than the cluster
    // has: that is refused as bad input before any simulation.
    // Costs are said in the scenario's currency (the testbed's is USD), as the window says
    // them: the cost line, the tardiness cost and the total.
    void simulateSaysTheCurrency()
    {
        const Run r =
            clusterbench({QStringLiteral("simulate"), kTestbed, QStringLiteral("--policy"),
                          QStringLiteral("dltap"), QStringLiteral("--no-save")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("  cost            144.78 USD (energy)\n"
                                "  tardiness       0.0 s, cost 0.00 USD\n"
                                "  total cost      144.78 USD\n"),
                 r.out.constData());
    }

    // The summary keeps to the output's width: a long line (the STS run's price source)
    // continues under its value's column, never cut mid-word by the terminal.
    void simulateSummaryKeepsToTheWidth()
    {
        qputenv("COLUMNS", "60");
        const Run r = clusterbench(
            {QStringLiteral("simulate"),
             QStringLiteral(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json"),
             QStringLiteral("--policy"), QStringLiteral("sts"), QStringLiteral("--no-save")});
        qunsetenv("COLUMNS");
        QCOMPARE(r.code, 0);
        const QList<QByteArray> lines = r.out.split('\n');
        int continued = 0;
        for (const QByteArray &line : lines) {
            QVERIFY2(QString::fromUtf8(line).size() <= 60, line.constData());
            if (line.startsWith(QByteArray(18, ' ')) && line.size() > 18 && line.at(18) != ' ')
                ++continued; // (under the value's column, not further)
        }
        QVERIFY2(continued > 0, r.out.constData());
        QVERIFY2(r.out.contains("  cost            "), r.out.constData());
    }

    void simulateWhereNoJobStarts()
    {
        auto scenario = cb::loadScenarioFile(kTestbed.toStdString());
        QVERIFY(scenario.ok());
        QCOMPARE(scenario->cluster.totalGpus(), 32);
        QCOMPARE(scenario->cluster.nodes.front().memoryGiB, 64.0);
        cb::Job job = scenario->jobs.front();
        job.id = "too-big";
        job.kind = cb::JobKind::ParameterServer;
        job.minAvailable.reset();
        cb::TaskGroup ps = job.tasks.front(), worker = job.tasks.front();
        ps.role = cb::TaskRole::Ps;
        ps.replicas = 1;
        ps.gpus = 0;
        ps.memoryGiB = 30;
        worker.role = cb::TaskRole::Worker;
        worker.replicas = 8;
        worker.gpus = 4;
        worker.memoryGiB = 40;
        job.tasks = {ps, worker};
        scenario->jobs = {job};
        QTemporaryDir dir;
        const QString path = dir.filePath("too-big.json");
        QVERIFY(cb::saveScenarioFile(path.toStdString(), scenario.value()).ok());
        const Run r = clusterbench({QStringLiteral("simulate"), path, QStringLiteral("--policy"),
                                    QStringLiteral("dltap"), QStringLiteral("--no-save")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains("0 of 1 jobs finished"), r.out.constData());
        QVERIFY2(r.out.contains("  makespan        - (no job started)\n  mean JCT        - (no "
                                "job finished)\n  mean slowdown   -\n"),
                 r.out.constData());
        QVERIFY2(r.err.contains("no job could start on this cluster (1 waiting); `clusterbench "
                                "why " + path.toUtf8() + " too-big --policy dltap` says why"),
                 r.err.constData());
        // place answers nothing either: its report, then the same exit and pointer.
        for (const bool json : {false, true}) {
            QStringList args{QStringLiteral("place"), path, QStringLiteral("--policy"),
                             QStringLiteral("dltap"), QStringLiteral("--no-save")};
            if (json)
                args << QStringLiteral("--json");
            const Run placed = clusterbench(args);
            QCOMPARE(placed.code, 1);
            QVERIFY2(json || placed.out.contains("0 jobs placed (0 tasks), 1 waiting"),
                     placed.out.constData());
            QCOMPARE(placed.err, QByteArray("clusterbench place: no job could be placed on this "
                                            "cluster (1 waiting); `clusterbench why " +
                                            path.toUtf8() + " too-big --policy dltap` says why\n"));
        }

        // compare has nothing to compare: no table of zeros, exit 1, nothing stored.
        const Run compared =
            clusterbench({QStringLiteral("compare"), path, QStringLiteral("--policies"),
                          QStringLiteral("k8s-default,dltap"), QStringLiteral("--no-save")});
        QCOMPARE(compared.code, 1);
        QCOMPARE(compared.out, QByteArray());
        QVERIFY2(compared.err.contains("clusterbench compare: no policy placed any job on this "
                                       "cluster (1 job waits under each); `clusterbench why " +
                                       path.toUtf8() + " too-big --policy k8s-default` says why"),
                 compared.err.constData());

        // Nine such workers want more GPUs than the cluster has: the file still loads (the
        // cluster may be a what-if being edited), validate warns, simulate warns and runs.
        scenario->jobs.front().tasks[1].replicas = 9;
        const QString nine = dir.filePath("nine.json");
        QVERIFY(cb::saveScenarioFile(nine.toStdString(), scenario.value()).ok());
        const Run validated = clusterbench({QStringLiteral("validate"), nine});
        QCOMPARE(validated.code, 0);
        QVERIFY2(validated.out.contains(
                     nine.toUtf8() +
                     ": /jobs/0/tasks: warning: job too-big: the job can never start: it "
                     "needs 36 GPUs at once (every task), the cluster has 32"),
                 validated.out.constData());
        QVERIFY2(validated.out.contains("valid (8 nodes, 1 job); 1 warning\n"),
                 validated.out.constData());
        const Run simulated =
            clusterbench({QStringLiteral("simulate"), nine, QStringLiteral("--policy"),
                          QStringLiteral("dltap"), QStringLiteral("--no-save")});
        QCOMPARE(simulated.code, 1);
        QVERIFY2(simulated.err.contains("clusterbench simulate: warning: " + nine.toUtf8() +
                                        ": /jobs/0/tasks: job too-big: the job can never start"),
                 simulated.err.constData());
        // --json carries the warning too, as validate's are, for a script reading stdout (and
        // both exit 1: no job started or was placed).
        for (const char *command : {"simulate", "place"}) {
            const Run json = clusterbench({QString::fromLatin1(command), nine,
                                           QStringLiteral("--policy"), QStringLiteral("dltap"),
                                           QStringLiteral("--no-save"), QStringLiteral("--json")});
            QCOMPARE(json.code, 1);
            const auto j = nlohmann::json::parse(json.out.toStdString());
            QCOMPARE(j["warnings"].size(), std::size_t(1));
            QCOMPARE(j["warnings"][0]["where"].get<std::string>(), std::string("/jobs/0/tasks"));
            QCOMPARE(j["warnings"][0]["message"].get<std::string>(),
                     std::string("job too-big: the job can never start: it needs 36 GPUs at "
                                 "once (every task), the cluster has 32"));
        }
        // A scenario whose jobs can all start has no such key.
        const Run fine = clusterbench({QStringLiteral("place"), path, QStringLiteral("--policy"),
                                       QStringLiteral("dltap"), QStringLiteral("--no-save"),
                                       QStringLiteral("--json")});
        QVERIFY(!nlohmann::json::parse(fine.out.toStdString()).contains("warnings"));
    }

    void dltapCutsCrossNodeTraffic()
    {
        // Acceptance: averaged over the three models, DLTAP cuts cross-node bytes against
        // k8s-default by at least 12 % (the paper's figure); mean over seeds 1..10.
        const Run r = clusterbench({QStringLiteral("compare"), kTestbed,
                                    QStringLiteral("--policies"),
                                    QStringLiteral("k8s-default,dltap"), QStringLiteral("--seed"),
                                    QStringLiteral("1"), QStringLiteral("--seeds"),
                                    QStringLiteral("10"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        const auto &rows = j["policies"];
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0]["name"].get<std::string>(), std::string("k8s-default"));
        for (const char *key : {"name", "cross_node_bytes", "total_bytes", "placed_tasks",
                                "waiting_jobs"})
            QVERIFY2(rows[1].contains(key), key);
        QCOMPARE(rows[1]["placed_tasks"].get<double>(), 42.0);
        QCOMPARE(rows[1]["waiting_jobs"].get<double>(), 0.0);
        for (const auto &m : rows[1]["models"])
            qInfo("%s: cross-node reduction %.1f %%", m["model"].get<std::string>().c_str(),
                  100 * m["cross_node_reduction"].get<double>());
        const double mean = rows[1]["mean_model_reduction"].get<double>();
        qInfo("mean over models: %.1f %%", 100 * mean);
        QVERIFY2(mean >= 0.12, qPrintable(QStringLiteral("reduction %1").arg(mean)));
    }

    // Where the baseline moves no bytes for a model and the policy does, no reduction is a
    // number (it had printed "0.0 %"): "n/a", and null in JSON, left out of the mean.
    void reductionAgainstNothingIsNotANumber()
    {
        const QStringList args = {
            QStringLiteral("compare"),    kTestbed,
            QStringLiteral("--policies"), QStringLiteral("topology-aware,dltap"),
            QStringLiteral("--seed"),     QStringLiteral("1"),
            QStringLiteral("--no-save")};
        const Run r = clusterbench(args + QStringList{QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        const auto &base = j["policies"][0]["models"], &other = j["policies"][1]["models"];
        QCOMPARE(base.size(), other.size());
        int undefined = 0;
        double sum = 0;
        int defined = 0;
        for (std::size_t m = 0; m < base.size(); ++m) {
            const double was = base[m]["cross_node_bytes"].get<double>();
            const double now = other[m]["cross_node_bytes"].get<double>();
            const auto &red = other[m]["cross_node_reduction"];
            if (was == 0 && now > 0) {
                QVERIFY(red.is_null());
                ++undefined;
            } else {
                QCOMPARE(red.get<double>(), was > 0 ? 1.0 - now / was : 0.0);
                sum += red.get<double>();
                ++defined;
            }
        }
        QVERIFY(undefined > 0); // the case this test is about
        QCOMPARE(j["policies"][1]["mean_model_reduction"].get<double>(),
                 defined ? sum / defined : 0.0);
        const Run text = clusterbench(args);
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("(n/a: baseline 0)"), text.out.constData());
    }

    void outputNeverReplacesAnInput()
    {
        // A mistyped --out naming the command's own input is refused before any work, and the
        // input is left as it was (simulate replaced the scenario with its run file, exit 0).
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("mine.json"));
        QVERIFY(QFile::copy(kTestbed, scenario));
        const QByteArray before = [&] {
            QFile f(scenario);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QVERIFY(!before.isEmpty());
        auto unchanged = [&] {
            QFile f(scenario);
            return f.open(QIODevice::ReadOnly) && f.readAll() == before;
        };
        // (the same file by another name: a "./" in front)
        const QString sameFile = dir.path() + QStringLiteral("/./mine.json");
        const Run simulated =
            clusterbench({QStringLiteral("simulate"), scenario, QStringLiteral("--policy"),
                          QStringLiteral("dltap"), QStringLiteral("--no-save"),
                          QStringLiteral("--out"), sameFile});
        QCOMPARE(simulated.code, 2);
        QCOMPARE(QString::fromUtf8(simulated.err),
                 QStringLiteral("clusterbench simulate: --out %1: is the input %2, which the run "
                                "file would replace; give another path; nothing run\n")
                     .arg(sameFile, scenario));
        QCOMPARE(simulated.out, QByteArray());
        QVERIFY(unchanged());

        const Run logged = clusterbench({QStringLiteral("experiment"), QStringLiteral("sts"),
                                         QStringLiteral("--scenario"), scenario,
                                         QStringLiteral("--log"), scenario});
        QCOMPARE(logged.code, 2);
        QVERIFY2(logged.err.contains("--log: " + scenario.toUtf8() + ": is the input " +
                                     scenario.toUtf8() + ", which the decision log would replace"),
                 logged.err.constData());
        QVERIFY(unchanged());

        // An emitted sweep point whose result would replace its grid file.
        const QString array = dir.filePath(QStringLiteral("array"));
        const Run emitted =
            clusterbench({QStringLiteral("sweep"), scenario, QStringLiteral("--policies"),
                          QStringLiteral("dltap"), QStringLiteral("--emit"),
                          QStringLiteral("slurm-array"), array});
        QCOMPARE(emitted.code, 0);
        const QString grid = array + QStringLiteral("/grid.json");
        QFile gridFile(grid);
        QVERIFY(gridFile.open(QIODevice::ReadOnly));
        const QByteArray gridBytes = gridFile.readAll();
        gridFile.close();
        const Run point = clusterbench({QStringLiteral("sweep-point"), grid, QStringLiteral("0"),
                                        QStringLiteral("--out"), grid});
        QCOMPARE(point.code, 2);
        QVERIFY2(point.err.contains("is the input " + grid.toUtf8() +
                                    ", which the result file would replace"),
                 point.err.constData());
        QVERIFY(gridFile.open(QIODevice::ReadOnly));
        QCOMPARE(gridFile.readAll(), gridBytes);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown policy")
            << QStringList{QStringLiteral("place"), kTestbed, QStringLiteral("--policy"),
                           QStringLiteral("kube")}
            << 2 << "unknown policy \"kube\"";
        QTest::newRow("mistyped policy")
            << QStringList{QStringLiteral("place"), kTestbed, QStringLiteral("--policy"),
                           QStringLiteral("dltapp")}
            << 2 << "unknown policy \"dltapp\" (did you mean \"dltap\"?) (available: ";
        // The stochastic policies step, simulate and export take are named too.
        QTest::newRow("unknown policy, stochastic named")
            << QStringList{QStringLiteral("step"), kTestbed, QStringLiteral("--policy"),
                           QStringLiteral("nosuch")}
            << 2 << "; stochastic, for jobs with due dates: sts, sts-net, ";
        // A sweep parameter the policy refuses is named as the user wrote it, not by the
        // JSON pointer it landed on ("--param (policy dltap)/plugins/dltap/weight").
        QTest::newRow("sweep: parameter not a number")
            << QStringList{QStringLiteral("sweep"),      kTestbed,
                           QStringLiteral("--policies"), QStringLiteral("dltap"),
                           QStringLiteral("--param"),    QStringLiteral("weight.dltap=abc"),
                           QStringLiteral("--no-save")}
            << 2
            << "clusterbench sweep: --param weight.dltap=abc: expected a number, found a string";
        // A generator's parameter is named as the option it is ("nodes: expected" before).
        QTest::newRow("experiment: --nodes 0")
            << QStringList{QStringLiteral("experiment"), QStringLiteral("sts"),
                           QStringLiteral("--nodes"), QStringLiteral("0")}
            << 2
            << "clusterbench experiment: --nodes: expected an integer from 1 to 10000, found 0";
        QTest::newRow("generate: --out a folder")
            << QStringList{QStringLiteral("generate"), QStringLiteral("fat-tree"),
                           QStringLiteral("--out"), QDir::tempPath()}
            << 1
            << "clusterbench generate: " + QDir::tempPath() + ": is a directory, expected a file";
        QTest::newRow("sweep: unknown policy in list")
            << QStringList{QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                           QStringLiteral("k8s-default,nosuch"), QStringLiteral("--no-save")}
            << 2 << "clusterbench sweep: --policies: unknown policy \"nosuch\"";
        // Each numeric option is named alone (it said all three rules at once).
        QTest::newRow("sweep: --seeds 0")
            << QStringList{QStringLiteral("sweep"),      kTestbed,
                           QStringLiteral("--policies"), QStringLiteral("dltap"),
                           QStringLiteral("--seeds"),    QStringLiteral("0"),
                           QStringLiteral("--no-save")}
            << 2
            << "clusterbench sweep: --seeds: expected a whole number from 1 to 100000, "
               "found \"0\"";
        QTest::newRow("sweep: --jobs 0")
            << QStringList{QStringLiteral("sweep"),      kTestbed,
                           QStringLiteral("--policies"), QStringLiteral("dltap"),
                           QStringLiteral("--jobs"),     QStringLiteral("0"),
                           QStringLiteral("--no-save")}
            << 2
            << "clusterbench sweep: --jobs: expected a whole number from 1 to 1024, found "
               "\"0\"";
        QTest::newRow("no policy") << QStringList{QStringLiteral("place"), kTestbed} << 2
                                   << "expected SCENARIO and --policy P";
        QTest::newRow("bad seed") << QStringList{QStringLiteral("place"), kTestbed,
                                                 QStringLiteral("--policy"),
                                                 QStringLiteral("dltap"), QStringLiteral("--seed"),
                                                 QStringLiteral("x")}
                                  << 2 << "--seed";
        QTest::newRow("missing file")
            << QStringList{QStringLiteral("compare"), QStringLiteral("/nonexistent.json"),
                           QStringLiteral("--policies"), QStringLiteral("dltap")}
            << 2 << "/nonexistent.json";
        QTest::newRow("unknown policy in list")
            << QStringList{QStringLiteral("compare"), kTestbed, QStringLiteral("--policies"),
                           QStringLiteral("dltap,nope")}
            << 2 << "clusterbench compare: --policies: unknown policy \"nope\"";
        // (an empty name was skipped without a word)
        QTest::newRow("empty policy in list")
            << QStringList{QStringLiteral("compare"), kTestbed, QStringLiteral("--policies"),
                           QStringLiteral("dltap,,spread")}
            << 2
            << "clusterbench compare: --policies: name 2 of \"dltap,,spread\" is empty; remove "
               "the extra comma";
        QTest::newRow("sweep: no policy in list")
            << QStringList{QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                           QStringLiteral(",")}
            << 2 << "clusterbench sweep: --policies: expected at least one name";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = clusterbench(args);
        QCOMPARE(r.code, code);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }
};

QTEST_APPLESS_MAIN(TestSchedCli)
#include "tst_sched_cli.moc"
