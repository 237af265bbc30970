// `clusterbench export`: writes the files of a format from a scenario and a placement file,
// prints warnings or a --json report, and fails cleanly (exit 2) on bad input.

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/export/placement_json.h"
#include "io/file_io.h"
#include "io/scenario_json.h"
#include "runs/run_service.h"
#include "util/sha256.h"

#include "../common/terminal_run.h"
#include "tst_export_fixtures.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <fstream>
#include <sys/resource.h>

using namespace cb;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run clusterbench(const QStringList &args)
{
    QProcess p;
    p.start(CB_CLUSTERBENCH, args);
    Run r;
    if (!p.waitForFinished(120000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestExportCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_scenario;
    QString m_placement;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_scenario = m_dir.filePath("fixture.json");
        m_placement = m_dir.filePath("placement.json");
        Status saved = saveScenarioFile(m_scenario.toStdString(), cbtest::exportScenario());
        QVERIFY2(saved.ok(), saved.error().c_str());
        QVERIFY(writeFileAtomically(m_placement.toStdString(),
                                    PlacementJson::toJson(cbtest::exportPlacement()).dump(2))
                    .ok());
    }

    void writesFilesAndWarnings()
    {
        const QString out = m_dir.filePath("tfjob");
        const Run r = clusterbench(
            {"export", m_scenario, "--format", "tfjob", "--out", out, "--placement", m_placement});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QString("wrote %1/tf-disjoint.yaml\nwrote %1/tf-shared.yaml\n"
                                "wrote %1/ring.yaml\nwrote %1/solo.yaml\n")
                            .arg(out));
        QVERIFY2(r.err.startsWith("warning: tfjob: replicas of 4 job roles run on several nodes "
                                  "but share one pod template per role (\"tf-disjoint\" Worker "
                                  "(2 replicas on gpu-01, gpu-02), "),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one warning, on one line
        QVERIFY(QFile::exists(out + "/ring.yaml"));
    }

    // On a terminal (a pseudo-terminal made by script(1)) a long warning continues indented
    // under its first line; piped, each warning is one line (above), for grep.
    void warningsWrapOnATerminal()
    {
        const QString command =
            QStringLiteral("'%1' export '%2' --policy dltap --format slurm --out '%3'")
                .arg(QStringLiteral(CB_CLUSTERBENCH),
                     QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json"),
                     m_dir.filePath("wrapped"));
        const auto run = cbtest::runOnTerminal(command, 60, m_dir.path());
        if (!run)
            QSKIP("script(1) is not installed");
        QCOMPARE(run->exitCode, 0);
        const QString &out = run->output;
        const QStringList lines = out.split('\n', Qt::SkipEmptyParts);
        const qsizetype first =
            lines.indexOf(QRegularExpression(QStringLiteral("^warning: slurm: 9 jobs have no.*")));
        QVERIFY2(first >= 0, qPrintable(out));
        QStringList warning{lines[first]};
        for (qsizetype i = first + 1; i < lines.size() && lines[i].startsWith("  "); ++i)
            warning << lines[i];
        QVERIFY2(warning.size() >= 3, qPrintable(out));
        for (const QString &line : warning) {
            QVERIFY2(line.size() <= 60, qPrintable(line));
            if (line != warning.first())
                QVERIFY2(line[2] != ' ', qPrintable(line));
        }
        QCOMPARE(warning.join(' ').simplified(),
                 QStringLiteral("warning: slurm: 9 jobs have no command; each task runs "
                                "'hostname': \"alexnet-a\", \"vgg16-a\", \"inception3-a\", "
                                "\"alexnet-b\", \"vgg16-b\", \"inception3-b\", \"alexnet-c\", "
                                "\"vgg16-c\", \"inception3-c\""));
    }

    void jsonReport()
    {
        const QString out = m_dir.filePath("slurm");
        const Run r = clusterbench({"export", m_scenario, "--format", "slurm", "--out", out,
                                    "--placement", m_placement, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto report = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(report["format"].get<std::string>(), std::string("slurm"));
        QCOMPARE(report["files"].size(), std::size_t(4));
        QCOMPARE(report["files"][1].get<std::string>(), std::string("tf-shared.sbatch"));
        QCOMPARE(report["warnings"].size(), std::size_t(2));
        // Slurm runs the commands on the nodes: the scenario's image is said to be unused.
        QVERIFY2(report["warnings"][1].get<std::string>().find(
                     "without the jobs' image \"registry.example.com/train:1.0\"") !=
                     std::string::npos,
                 report["warnings"][1].dump().c_str());
        QVERIFY(r.err.isEmpty());
    }

    void clusterNeedsNoPlacement()
    {
        const QString out = m_dir.filePath("cluster");
        const Run r = clusterbench(
            {"export", m_scenario, "--format", "slurm-cluster", "--out", out, "--blocks"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto topo = readTextFile((out + "/topology.conf").toStdString());
        QVERIFY(topo.ok());
        QVERIFY(topo->find("BlockName=r2 Nodes=gpu-[03-04]") != std::string::npos);
    }

    void policyPlacesThenExports()
    {
        const QString out = m_dir.filePath("policy");
        const Run r =
            clusterbench({"export", CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json", "--format",
                          "volcano", "--out", out, "--policy", "k8s-default", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto report = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(report["files"].size() >= 1);
        const Run unknown = clusterbench({"export", m_scenario, "--format", "volcano", "--out", out,
                                          "--policy", "no-such-policy"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("no-such-policy"), qPrintable(unknown.err));
    }

    // With --simulate a placement policy's queue is simulated and every job is exported where
    // it first ran: on leaf-spine-gpu dltap places only some of the jobs at once, the others
    // wait (left out, with a warning each); simulated, every job runs and every job is
    // written, byte for byte what exporting the run's schedule in-process gives.
    void simulateExportsEveryJob()
    {
        const QString path = CB_SOURCE_DIR "/sample-clusters/leaf-spine-gpu.json";
        auto s = loadScenarioFile(path.toStdString());
        QVERIFY(s.ok());
        const QString once = m_dir.filePath("once"), simulated = m_dir.filePath("simulated");
        const Run r1 = clusterbench(
            {"export", path, "--format", "slurm", "--out", once, "--policy", "dltap", "--json"});
        QVERIFY2(r1.exitCode == 0, qPrintable(r1.err));
        const auto atOnce = nlohmann::json::parse(r1.out.toStdString());
        QVERIFY(atOnce["files"].size() < s->jobs.size());
        const Run r2 = clusterbench({"export", path, "--format", "slurm", "--out", simulated,
                                     "--policy", "dltap", "--simulate", "--json"});
        QVERIFY2(r2.exitCode == 0, qPrintable(r2.err));
        const auto report = nlohmann::json::parse(r2.out.toStdString());
        QCOMPARE(report["files"].size(), s->jobs.size());

        RunRequest request;
        request.policy = "dltap";
        request.seed = s->settings.seed;
        auto run = executeRun(s.value(), request);
        QVERIFY(run.ok());
        auto [shaped, schedule] = stochasticScheduleAt(s.value(), *run->result);
        QCOMPARE(schedule.jobs.size(), s->jobs.size());
        auto expected = ExporterRegistry::find("slurm")->exportPlacement(shaped, schedule, {});
        QVERIFY(expected.ok());
        // Each script says, under its #!, where its schedule came from: the policy, the seed,
        // the moment and the scenario (its canonical text's digest).
        const std::string origin = "dltap, seed " + std::to_string(s->settings.seed) +
                                   ", simulated: each job as it first runs; scenario sha256:" +
                                   Sha256::hex(scenarioToText(s.value())).substr(0, 12);
        ExportWriter::stampOrigin(expected.value(), origin);
        const std::string &script = expected->files.front().content;
        QCOMPARE(script.substr(0, script.find('\n', script.find('\n') + 1) + 1),
                 "#!/bin/bash\n# Scheduled by ClusterBench " CB_VERSION ": " + origin + "\n");
        for (const ExportedFile &f : expected->files) {
            auto written =
                readTextFile((simulated + "/" + QString::fromStdString(f.path)).toStdString());
            QVERIFY2(written.ok(), f.path.c_str());
            QVERIFY2(written.value() == f.content, f.path.c_str());
        }
        // --at picks one moment of the simulated queue: only what runs then.
        const Run r3 =
            clusterbench({"export", path, "--format", "slurm", "--out", m_dir.filePath("at"),
                          "--policy", "dltap", "--simulate", "--at", "0", "--json"});
        QVERIFY2(r3.exitCode == 0, qPrintable(r3.err));
        const std::size_t atZero = nlohmann::json::parse(r3.out.toStdString())["files"].size();
        QVERIFY2(atZero >= 1 && atZero < s->jobs.size(), std::to_string(atZero).c_str());

        // A job that ran past its time limit in the run: the export says so (deployed, it
        // would be ended there), in a Kubernetes format as in Slurm's.
        Scenario limited = s.value();
        const JobRun &first = run->result->jobs[0];
        const double ran =
            *first.finishSeconds - first.firstStartSeconds.value_or(*first.startSeconds);
        limited.jobs[0].timeLimitSeconds = std::floor(ran / 2);
        const QString limitedPath = m_dir.filePath("limited.json");
        QVERIFY(saveScenarioFile(limitedPath.toStdString(), limited).ok());
        const Run r4 =
            clusterbench({"export", limitedPath, "--format", "pytorchjob", "--out",
                          m_dir.filePath("past-limit"), "--policy", "dltap", "--simulate", "--json"});
        QVERIFY2(r4.exitCode == 0, qPrintable(r4.err));
        const auto warnings = nlohmann::json::parse(r4.out.toStdString())["warnings"];
        QVERIFY2(!warnings.empty() && warnings[0].get<std::string>().rfind(
                                          "job \"" + limited.jobs[0].id + "\" ran ", 0) == 0,
                 qPrintable(r4.out));
        QVERIFY2(warnings[0].get<std::string>().find("activeDeadlineSeconds") != std::string::npos,
                 qPrintable(r4.out));
    }

    // A file an earlier export left (another job's) would be submitted with this export's
    // (`kubectl apply -f DIR`): it is said, named, and left alone; files of other kinds are
    // not the export's business.
    void filesOfAnEarlierExportAreSaid()
    {
        const QString out = m_dir.filePath("again");
        QVERIFY(clusterbench({"export", m_scenario, "--format", "tfjob", "--out", out,
                              "--placement", m_placement})
                    .exitCode == 0);
        for (const char *name : {"/old-job.yaml", "/notes.txt"}) {
            QFile f(out + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("kind: TFJob\n");
        }
        const Run r = clusterbench({"export", m_scenario, "--format", "tfjob", "--out", out,
                                    "--placement", m_placement});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("warning: " + out + "/old-job.yaml is left from an earlier "
                                "export and is not part of this one: remove it before "
                                "submitting the folder's files\n"),
                 qPrintable(r.err));
        QCOMPARE(r.err.count("left from an earlier export"), 1); // (not notes.txt, not ring.yaml)
        QVERIFY(QFile::exists(out + "/old-job.yaml"));
        // The same files again are said to be unchanged; another format's, of the same jobs
        // and names, to replace them (a PyTorchJob where the TFJob was).
        QVERIFY2(r.out.startsWith(QString("unchanged %1/tf-disjoint.yaml\n").arg(out)),
                 qPrintable(r.out));
        QCOMPARE(r.out.count("unchanged "), 4);
        const Run other = clusterbench({"export", m_scenario, "--format", "pytorchjob", "--out",
                                        out, "--placement", m_placement, "--json"});
        QVERIFY2(other.exitCode == 0, qPrintable(other.err));
        const auto report = nlohmann::json::parse(other.out.toStdString());
        QCOMPARE(report["replaced"].size(), report["files"].size());
        QVERIFY(!report["replaced"].empty());
    }

    // --out naming a file: a usage error before any work (exit 2), the file untouched.
    void outThatIsAFileIsRefused()
    {
        const QString file = m_dir.filePath("a-file.txt");
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("mine\n");
        }
        const Run r = clusterbench(
            {"export", m_scenario, "--format", "slurm", "--out", file, "--placement", m_placement});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("clusterbench export: --out %1: is a file; export writes a "
                                "folder of files: give a folder (see --help)\n")
                            .arg(file));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("mine\n"));
    }

    // No job placed: nothing to deploy, so no folder and exit 1, where an empty folder and
    // exit 0 read as success.
    void nothingPlacedIsAFailure()
    {
        const QString empty = m_dir.filePath("empty-placement.json");
        QVERIFY(writeFileAtomically(empty.toStdString(),
                                    R"({"format": "clusterbench-placement", "version": 1,
                                        "jobs": [], "waiting": ["ring"]})")
                    .ok());
        const QString out = m_dir.filePath("nothing");
        const Run r = clusterbench(
            {"export", m_scenario, "--format", "slurm", "--out", out, "--placement", empty});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("clusterbench export: no job is placed, so there is nothing to "
                                "export; 1 job waits (ring; `clusterbench why "),
                 qPrintable(r.err));
        QVERIFY2(r.err.endsWith("nothing written\n"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
        QVERIFY2(r.err.contains(" ring --policy P` says why"), qPrintable(r.err));

        // With --policy, the hint names it (it said "--policy P" to one who gave dltap).
        std::ifstream in(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
        nlohmann::json big = nlohmann::json::parse(in);
        big["jobs"] = nlohmann::json::array({big["jobs"][0]});
        big["jobs"][0]["tasks"][1]["replicas"] = 40; // 40 GPUs at once; the cluster has 32
        const QString bigPath = m_dir.filePath("too-big.json");
        QVERIFY(writeFileAtomically(bigPath.toStdString(), big.dump()).ok());
        const Run policy = clusterbench(
            {"export", bigPath, "--format", "slurm", "--out", out, "--policy", "dltap"});
        QCOMPARE(policy.exitCode, 1);
        QVERIFY2(policy.err.contains(" alexnet-a --policy dltap` says why"),
                 qPrintable(policy.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no format") << QStringList{"--out", "x"} << "missing --format";
        QTest::newRow("unknown format")
            << QStringList{"--format", "helm", "--out", "x"}
            << "unknown format \"helm\"; expected one of k8s-pods, tfjob, pytorchjob, mpijob, "
               "volcano, slurm, slurm-cluster";
        QTest::newRow("a format's typo")
            << QStringList{"--format", "tfjobs", "--out", "x"}
            << "unknown format \"tfjobs\" (did you mean \"tfjob\"?); expected one of";
        QTest::newRow("kubernetes")
            << QStringList{"--format", "Kubernetes", "--out", "x"}
            << "unknown format \"Kubernetes\" (for Kubernetes: k8s-pods writes a Pod per task, "
               "pinned to its node; ";
        QTest::newRow("no placement") << QStringList{"--format", "volcano", "--out", "x"}
                                      << "missing --placement FILE or --policy P";
        QTest::newRow("bad pinning")
            << QStringList{"--format", "k8s-pods", "--out", "x", "--pinning", "maybe"}
            << "--pinning expects nodename or affinity";
        QTest::newRow("--at of one placement")
            << QStringList{"--format", "slurm", "--out", "x", "--policy", "dltap", "--at", "5"}
            << "--at needs --simulate or a stochastic --policy";
        QTest::newRow("--simulate a placement file")
            << QStringList{"--format", "slurm", "--out", "x", "--placement", "p.json", "--simulate"}
            << "--simulate needs --policy P";
        QTest::newRow("missing placement file")
            << QStringList{"--format", "volcano", "--out", "x", "--placement", "/nonexistent.json"}
            << "/nonexistent.json";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const Run r = clusterbench(QStringList{"export", m_scenario} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    }

    void fileSizeLimitLeavesTheOldFiles()
    {
        // ulimit -f 2 (2 KiB) as a shell sets it, SIGXFSZ at its default: the re-export fails
        // with a message and exit 1, the old scripts stay as they were, nothing new is left.
        const QString out = m_dir.filePath("limited");
        const QString testbed = CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json";
        const QStringList first = {"export", testbed, "--format", "slurm", "--out", out,
                                   "--policy", "dltap"};
        QCOMPARE(clusterbench(first).exitCode, 0);
        const QStringList before = QDir(out).entryList(QDir::Files | QDir::Hidden | QDir::AllDirs |
                                                       QDir::NoDotAndDotDot);
        std::map<QString, QByteArray> old;
        for (const QString &name : before) {
            QFile f(out + "/" + name);
            QVERIFY(f.open(QIODevice::ReadOnly));
            old[name] = f.readAll();
        }
        QCOMPARE(before.size(), 9);

        QProcess p;
        p.setChildProcessModifier([] {
            std::signal(SIGXFSZ, SIG_DFL);
            struct rlimit limit {};
            limit.rlim_cur = limit.rlim_max = 2048;
            setrlimit(RLIMIT_FSIZE, &limit);
        });
        p.start(CB_CLUSTERBENCH, {"export", testbed, "--format", "slurm", "--out", out,
                                  "--policy", "binpack"});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains("File too large") && err.contains("nothing in " + out + " was changed"),
                 qPrintable(err));
        const QStringList after = QDir(out).entryList(QDir::Files | QDir::Hidden | QDir::AllDirs |
                                                      QDir::NoDotAndDotDot);
        QCOMPARE(after, before);
        for (const QString &name : after) {
            QFile f(out + "/" + name);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), old[name]);
        }
    }

    // Applying the files starts every job at once: a placement that gives a node more than
    // it has is refused, naming the file, the task and the figures, and nothing is written.
    void overloadedNodeIsRefused()
    {
        const QString over = m_dir.filePath("over.json");
        QVERIFY(writeFileAtomically(over.toStdString(),
                                    PlacementJson::toJson(cbtest::overloadedPlacement()).dump(2))
                    .ok());
        const QString out = m_dir.filePath("over-out");
        const Run r = clusterbench(
            {"export", m_scenario, "--format", "k8s-pods", "--out", out, "--placement", over});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(over + ": /jobs/1/tasks/1/node: node \"gpu-01\" has 8 GPUs; "
                                       "with job ring worker-1 the placement's jobs ask it for "
                                       "10 at once\n"),
                 qPrintable(r.err));
        QVERIFY2(r.err.endsWith("the placement asks 2 times for more than a node has; nothing "
                                "written\n"),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    void placementProblemsNameTheFile()
    {
        const QString bad = m_dir.filePath("bad-placement.json");
        QVERIFY(writeFileAtomically(bad.toStdString(),
                                    R"({"format":"clusterbench-placement","version":1,"jobs":[)"
                                    R"({"job":"solo","tasks":[{"role":"single","index":0,)"
                                    R"("node":"gpu-77"}]}]})")
                    .ok());
        const Run r = clusterbench({"export", m_scenario, "--format", "k8s-pods", "--out",
                                    m_dir.filePath("x"), "--placement", bad});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(bad + ": /jobs/0/tasks/0/node: node \"gpu-77\" is not in the "
                                      "cluster"),
                 qPrintable(r.err));
    }
};

QTEST_APPLESS_MAIN(TestExportCli)
#include "tst_export_cli.moc"
