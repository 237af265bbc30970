// A real Slurm controller (tests/slurm/slurmctl.sh, configured from the slurm-cluster export
// of the fixture cluster, nodes as CLOUD nodes) accepts every exported batch script with
// `sbatch --test-only` and `sbatch --hold` (then scancel), and rejects broken variants:
// an unknown node, too many GPUs, overlapping heterogeneous components. Every sample
// scenario gets a controller of its own, and all of them are started, used and stopped side
// by side (a controller takes a few seconds to start and to stop, mostly waiting).
// Skipped, with a message, when slurmctld, sbatch or munged is not installed.

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/scenario_json.h"
#include "runs/run_service.h"

#include "tst_export_fixtures.h"
#include "tst_slurm_processes.h"

#include <QtTest>

using namespace cb;
using cbtest::SlurmCommand;
using cbtest::SlurmRun;

namespace {

/// One controller: its folder (cluster/, scripts/, etc/...) and what happened.
struct Controller
{
    QString dir;
    QString conf;        ///< SLURM_CONF once started
    QString problem;     ///< why it was not started (export failure or start failure)
    QString skip;        ///< the cluster cannot be exported to Slurm: not a failure
    QStringList scripts; ///< exported batch scripts, in export order
};

} // namespace

class TestExportSlurm : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Controller m_fixture;
    QMap<QString, Controller> m_samples; ///< sample file name -> its controller
    Controller m_sts;                    ///< STS's schedule on sts-datacenter.json
    QList<Controller *> m_started;       ///< to stop, even after a failed start

    SlurmRun run(const QString &program, const QStringList &args)
    {
        return cbtest::runSlurmCommand({program, args, m_fixture.conf}, m_dir.path());
    }

    /// Submits with --hold; returns the job id (scancelled right away) or -1.
    int submitHeld(const QString &script, QString *message)
    {
        const SlurmRun r = run("sbatch", {"--hold", "--parsable", script});
        *message = r.out + r.err;
        if (r.exitCode != 0)
            return -1;
        const int id = r.out.trimmed().split(';').first().toInt();
        run("scancel", {QString::number(id)});
        return id;
    }

    QString writeVariant(const QString &name, const QString &from, const QString &to,
                         const QString &source)
    {
        QFile in(source);
        if (!in.open(QIODevice::ReadOnly))
            return {};
        QString text = QString::fromUtf8(in.readAll());
        if (!text.contains(from))
            return {};
        text.replace(from, to);
        const QString path = m_dir.filePath("broken-" + name + ".sbatch");
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly))
            return {};
        out.write(text.toUtf8());
        return path;
    }

    /// Writes the slurm-cluster and slurm exports of `scenario` into `c.dir`.
    static void exportInto(Controller &c, const Scenario &scenario, const Placement &placement)
    {
        auto cluster = ExporterRegistry::find("slurm-cluster")->exportPlacement(scenario, {}, {});
        if (!cluster) {
            c.skip =
                "cluster cannot be exported to Slurm: " + QString::fromStdString(cluster.error());
            return;
        }
        if (!ExportWriter::write((c.dir + "/cluster").toStdString(), cluster.value()).ok()) {
            c.problem = "cannot write " + c.dir + "/cluster";
            return;
        }
        auto scripts = ExporterRegistry::find("slurm")->exportPlacement(scenario, placement, {});
        if (!scripts) {
            c.problem = QString::fromStdString(scripts.error());
            return;
        }
        if (!ExportWriter::write((c.dir + "/scripts").toStdString(), scripts.value()).ok()) {
            c.problem = "cannot write " + c.dir + "/scripts";
            return;
        }
        for (const ExportedFile &f : scripts->files)
            c.scripts << c.dir + "/scripts/" + QString::fromStdString(f.path);
    }

private slots:
    void initTestCase()
    {
        const QString missing =
            cbtest::missingSlurmTool({"slurmctld", "sbatch", "munged", "scancel"});
        if (!missing.isEmpty())
            QSKIP(qPrintable(QString("%1 is not installed; the real Slurm controller checks "
                                     "need the Debian packages slurmctld slurm-client munge")
                                 .arg(missing)));
        QVERIFY(m_dir.isValid());
        m_fixture.dir = m_dir.filePath("fixture");
        exportInto(m_fixture, cbtest::exportScenario(), cbtest::exportPlacement());
        QVERIFY2(m_fixture.problem.isEmpty() && m_fixture.skip.isEmpty(),
                 qPrintable(m_fixture.problem + m_fixture.skip));

        const QDir samples(CB_SOURCE_DIR "/sample-clusters");
        for (const QString &f : samples.entryList({"*.json"}, QDir::Files, QDir::Name)) {
            Controller c;
            c.dir = m_dir.filePath("sample-" + QFileInfo(f).completeBaseName());
            auto loaded = loadScenarioFile(samples.filePath(f).toStdString());
            if (!loaded)
                c.problem = QString::fromStdString(loaded.error());
            else
                exportInto(c, loaded.value(), cbtest::firstFitPlacement(loaded.value()));
            m_samples.insert(f, c);
        }

        // STS's schedule on its data centre: every job's first configuration, one task per
        // node with that node's GPUs, as `export --policy sts` writes it.
        m_sts.dir = m_dir.filePath("sts-schedule");
        if (auto sts = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json");
            !sts) {
            m_sts.problem = QString::fromStdString(sts.error());
        } else {
            RunRequest request;
            request.policy = "sts";
            auto run = executeRun(sts.value(), request);
            if (!run) {
                m_sts.problem = QString::fromStdString(run.error());
            } else {
                auto [shaped, scheduled] = stochasticScheduleAt(sts.value(), *run->result);
                oneTaskPerNode(shaped, scheduled);
                exportInto(m_sts, shaped, scheduled);
            }
        }

        // Start every controller at once.
        std::vector<Controller *> toStart = {&m_fixture, &m_sts};
        for (Controller &c : m_samples)
            if (c.problem.isEmpty() && c.skip.isEmpty())
                toStart.push_back(&c);
        std::vector<SlurmCommand> starts;
        for (Controller *c : toStart)
            starts.push_back({"bash", {cbtest::slurmScript(), "start", c->dir}, {}});
        const std::vector<SlurmRun> started =
            cbtest::runSlurmCommands(starts, m_dir.path(), int(starts.size()));
        for (std::size_t i = 0; i < toStart.size(); ++i) {
            m_started << toStart[i]; // stop even after a partial start
            toStart[i]->conf = cbtest::slurmConfFrom(started[i]);
            if (started[i].exitCode != 0 || toStart[i]->conf.isEmpty())
                toStart[i]->problem = "controller: " + started[i].out + started[i].err;
        }
        QVERIFY2(m_fixture.problem.isEmpty(), qPrintable(m_fixture.problem));
        const SlurmRun info = run("sinfo", {"-h", "-o", "%N %G"});
        QVERIFY2(info.exitCode == 0, qPrintable(info.err));
        QVERIFY2(info.out.contains("gpu:a100:8"), qPrintable(info.out));
    }

    void cleanupTestCase()
    {
        std::vector<SlurmCommand> stops;
        for (Controller *c : m_started)
            stops.push_back({"bash", {cbtest::slurmScript(), "stop", c->dir}, {}});
        if (!stops.empty())
            cbtest::runSlurmCommands(stops, m_dir.path(), int(stops.size()));
    }

    void acceptsEveryExportedScript()
    {
        QCOMPARE(m_fixture.scripts.size(), 4);
        for (const QString &script : m_fixture.scripts) {
            const SlurmRun test = run("sbatch", {"--test-only", script});
            QVERIFY2(test.exitCode == 0 && test.err.contains("to start at"),
                     qPrintable(script + ": " + test.out + test.err));
            QString message;
            QVERIFY2(submitHeld(script, &message) > 0, qPrintable(script + ": " + message));
        }
    }

    void acceptsStochasticSchedule()
    {
        // A job of STS runs on 1..8 GPUs of one node: each script asks for that node and
        // that many GPUs of its type, and the controller agrees.
        if (!m_sts.skip.isEmpty())
            QSKIP(qPrintable(m_sts.skip));
        QVERIFY2(m_sts.problem.isEmpty(), qPrintable(m_sts.problem));
        QCOMPARE(m_sts.scripts.size(), 101);
        const QStringList scripts = m_sts.scripts.mid(0, 40);
        std::vector<SlurmCommand> tests;
        for (const QString &script : scripts)
            tests.push_back({"sbatch", {"--test-only", script}, m_sts.conf});
        const std::vector<SlurmRun> tested = cbtest::runSlurmCommands(tests, m_sts.dir);
        QStringList failures;
        for (int i = 0; i < scripts.size(); ++i)
            if (tested[i].exitCode != 0 || !tested[i].err.contains("to start at"))
                failures << scripts[i] + " --test-only: " + tested[i].err;
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    }

    void acceptsSampleScenarioScripts_data()
    {
        QTest::addColumn<QString>("file");
        const QDir samples(CB_SOURCE_DIR "/sample-clusters");
        for (const QString &f : samples.entryList({"*.json"}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << f;
    }
    void acceptsSampleScenarioScripts()
    {
        // Each sample cluster has its own controller; jobs placed first fit. The first 40
        // scripts go through --test-only, then through --hold, each batch in parallel.
        QFETCH(QString, file);
        QVERIFY(m_samples.contains(file));
        const Controller &c = m_samples[file];
        if (!c.skip.isEmpty())
            QSKIP(qPrintable(c.skip));
        QVERIFY2(c.problem.isEmpty(), qPrintable(c.problem));
        QVERIFY(!c.scripts.isEmpty());
        const QStringList scripts = c.scripts.mid(0, 40);
        std::vector<SlurmCommand> tests, holds;
        for (const QString &script : scripts) {
            tests.push_back({"sbatch", {"--test-only", script}, c.conf});
            holds.push_back({"sbatch", {"--hold", "--parsable", script}, c.conf});
        }
        const std::vector<SlurmRun> tested = cbtest::runSlurmCommands(tests, c.dir);
        const std::vector<SlurmRun> held = cbtest::runSlurmCommands(holds, c.dir);
        QStringList failures;
        QStringList ids;
        for (int i = 0; i < scripts.size(); ++i) {
            if (tested[i].exitCode != 0 || !tested[i].err.contains("to start at"))
                failures << scripts[i] + " --test-only: " + tested[i].err;
            if (held[i].exitCode != 0)
                failures << scripts[i] + " --hold: " + held[i].out + held[i].err;
            else
                ids << held[i].out.trimmed().split(';').first();
        }
        if (!ids.isEmpty()) {
            const SlurmRun cancel = cbtest::runSlurmCommand({"scancel", ids, c.conf}, c.dir);
            if (cancel.exitCode != 0)
                failures << "scancel: " + cancel.err;
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
        QCOMPARE(ids.size(), scripts.size());
    }

    void rejectsBrokenScripts_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("testOnlyRejects");
        QTest::addColumn<bool>("holdRejects");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown node")
            << "ring.sbatch"
            << "--nodelist=gpu-[01-02]"
            << "--nodelist=gpu-01,gpu-09" << true << true << "Invalid node name specified";
        QTest::newRow("too many GPUs") << "ring.sbatch"
                                       << "#SBATCH --gres=gpu:a100:2"
                                       << "#SBATCH --gres=gpu:a100:9" << true << false
                                       << "Requested node configuration is not available";
        QTest::newRow("overlapping het components")
            << "tf-disjoint.sbatch"
            << "#SBATCH --nodelist=cpu-01"
            << "#SBATCH --nodelist=gpu-01" << false << true << "Invalid node name specified";
    }
    void rejectsBrokenScripts()
    {
        QFETCH(QString, script);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, testOnlyRejects);
        QFETCH(bool, holdRejects);
        QFETCH(QString, expected);
        const QString path =
            writeVariant(QTest::currentDataTag(), from, to, m_fixture.dir + "/scripts/" + script);
        QVERIFY2(!path.isEmpty(), "could not write the broken variant");
        const SlurmRun test = run("sbatch", {"--test-only", path});
        QString message;
        const int held = submitHeld(path, &message);
        QVERIFY(testOnlyRejects || holdRejects);
        if (testOnlyRejects) {
            QVERIFY2(test.exitCode != 0, qPrintable(test.out + test.err));
            QVERIFY2(test.err.contains(expected), qPrintable(test.err));
        }
        if (holdRejects) {
            QVERIFY2(held < 0, qPrintable(message));
            QVERIFY2(message.contains(expected), qPrintable(message));
        }
        // The broken variant is rejected by at least one check, never accepted by both.
        QVERIFY(test.exitCode != 0 || held < 0);
    }
};

QTEST_APPLESS_MAIN(TestExportSlurm)
#include "tst_export_slurm.moc"
