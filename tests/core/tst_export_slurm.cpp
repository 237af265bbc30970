// A real Slurm controller (tests/slurm/slurmctl.sh, configured from the slurm-cluster export
// of the fixture cluster, nodes as CLOUD nodes) accepts every exported batch script with
// `sbatch --test-only` and `sbatch --hold` (then scancel), and rejects broken variants:
// an unknown node, too many GPUs, overlapping heterogeneous components.
// Skipped, with a message, when slurmctld, sbatch or munged is not installed.

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/scenario_json.h"

#include "tst_export_fixtures.h"

#include <QtTest>

using namespace cb;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestExportSlurm : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_slurmConf;
    bool m_started = false;
    QStringList m_scripts;

    Run run(const QString &program, const QStringList &args)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!m_slurmConf.isEmpty())
            env.insert("SLURM_CONF", m_slurmConf);
        env.insert("PATH", env.value("PATH") + ":/usr/sbin");
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(m_dir.path());
        p.start(program, args);
        Run r;
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            r.err = program + " timed out";
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    /// Submits with --hold; returns the job id (scancelled right away) or -1.
    int submitHeld(const QString &script, QString *message)
    {
        const Run r = run("sbatch", {"--hold", "--parsable", script});
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

private slots:
    void initTestCase()
    {
        const QStringList paths = {"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"};
        for (const char *tool : {"slurmctld", "sbatch", "munged", "scancel"})
            if (QStandardPaths::findExecutable(tool).isEmpty() &&
                QStandardPaths::findExecutable(tool, paths).isEmpty())
                QSKIP(qPrintable(QString("%1 is not installed; the real Slurm controller checks "
                                         "need the Debian packages slurmctld slurm-client munge")
                                     .arg(tool)));
        QVERIFY(m_dir.isValid());
        const Scenario scenario = cbtest::exportScenario();
        auto cluster = ExporterRegistry::find("slurm-cluster")->exportPlacement(scenario, {}, {});
        QVERIFY2(cluster.ok(), cluster.error().c_str());
        QVERIFY(ExportWriter::write(m_dir.filePath("cluster").toStdString(), cluster.value()).ok());
        auto scripts = ExporterRegistry::find("slurm")->exportPlacement(
            scenario, cbtest::exportPlacement(), {});
        QVERIFY2(scripts.ok(), scripts.error().c_str());
        QVERIFY(ExportWriter::write(m_dir.filePath("scripts").toStdString(), scripts.value()).ok());
        for (const ExportedFile &f : scripts->files)
            m_scripts << m_dir.filePath("scripts/" + QString::fromStdString(f.path));

        const Run start =
            run("bash", {CB_SOURCE_DIR "/tests/slurm/slurmctl.sh", "start", m_dir.path()});
        m_started = true; // stop even after a partial start
        QVERIFY2(start.exitCode == 0, qPrintable(start.out + start.err));
        for (const QString &line : start.out.split('\n'))
            if (line.startsWith("SLURM_CONF="))
                m_slurmConf = line.mid(int(strlen("SLURM_CONF=")));
        QVERIFY2(!m_slurmConf.isEmpty(), qPrintable(start.out));
        const Run info = run("sinfo", {"-h", "-o", "%N %G"});
        QVERIFY2(info.exitCode == 0, qPrintable(info.err));
        QVERIFY2(info.out.contains("gpu:a100:8"), qPrintable(info.out));
    }

    void cleanupTestCase()
    {
        if (m_started)
            run("bash", {CB_SOURCE_DIR "/tests/slurm/slurmctl.sh", "stop", m_dir.path()});
    }

    void acceptsEveryExportedScript()
    {
        QCOMPARE(m_scripts.size(), 4);
        for (const QString &script : m_scripts) {
            const Run test = run("sbatch", {"--test-only", script});
            QVERIFY2(test.exitCode == 0 && test.err.contains("to start at"),
                     qPrintable(script + ": " + test.out + test.err));
            QString message;
            QVERIFY2(submitHeld(script, &message) > 0, qPrintable(script + ": " + message));
        }
    }

    void acceptsSampleScenarioScripts_data()
    {
        QTest::addColumn<QString>("file");
        const QDir samples(CB_SOURCE_DIR "/sample-clusters");
        for (const QString &f : samples.entryList({"*.json"}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << samples.filePath(f);
    }
    void acceptsSampleScenarioScripts()
    {
        // Each sample cluster gets its own controller; jobs placed first fit.
        QFETCH(QString, file);
        auto loaded = loadScenarioFile(file.toStdString());
        QVERIFY2(loaded.ok(), loaded.error().c_str());
        auto cluster =
            ExporterRegistry::find("slurm-cluster")->exportPlacement(loaded.value(), {}, {});
        if (!cluster)
            QSKIP(qPrintable("cluster cannot be exported to Slurm: " +
                             QString::fromStdString(cluster.error())));
        QTemporaryDir dir;
        QVERIFY(ExportWriter::write(dir.filePath("cluster").toStdString(), cluster.value()).ok());
        auto scripts = ExporterRegistry::find("slurm")->exportPlacement(
            loaded.value(), cbtest::firstFitPlacement(loaded.value()), {});
        QVERIFY2(scripts.ok(), scripts.error().c_str());
        QVERIFY(ExportWriter::write(dir.filePath("scripts").toStdString(), scripts.value()).ok());

        const QString savedConf = m_slurmConf;
        const Run start =
            run("bash", {CB_SOURCE_DIR "/tests/slurm/slurmctl.sh", "start", dir.path()});
        m_slurmConf = dir.path() + "/etc/slurm.conf";
        QStringList failures;
        if (start.exitCode != 0)
            failures << "controller: " + start.out + start.err;
        else
            for (std::size_t i = 0; i < scripts->files.size() && i < 40; ++i) {
                const QString script =
                    dir.filePath("scripts/" + QString::fromStdString(scripts->files[i].path));
                const Run test = run("sbatch", {"--test-only", script});
                if (test.exitCode != 0)
                    failures << script + " --test-only: " + test.err;
                QString message;
                if (submitHeld(script, &message) < 0)
                    failures << script + " --hold: " + message;
            }
        run("bash", {CB_SOURCE_DIR "/tests/slurm/slurmctl.sh", "stop", dir.path()});
        m_slurmConf = savedConf;
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
        QVERIFY(!scripts->files.empty());
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
            writeVariant(QTest::currentDataTag(), from, to, m_dir.filePath("scripts/" + script));
        QVERIFY2(!path.isEmpty(), "could not write the broken variant");
        const Run test = run("sbatch", {"--test-only", path});
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
