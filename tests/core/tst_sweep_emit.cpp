// A sweep emitted for a cluster is accepted there: the Slurm job array passes
// `sbatch --test-only` on a local controller (tests/slurm/slurmctl.sh, configured from the
// testbed's slurm-cluster export), and the Kubernetes indexed Job passes the Kubernetes
// v1.30 batch/v1 Job schema (tests/tools/validate_k8s.py), while broken variants of both
// are rejected. Each half skips, with a message, when its tools are not installed.

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/scenario_json.h"

#include <QtTest>

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace cb;

namespace {

const QString kTestbed = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");

struct Run
{
    int code = -1;
    QString out, err;
};

Run run(const QString &program, const QStringList &args, const QString &slurmConf = {},
        const QString &cwd = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!slurmConf.isEmpty())
        env.insert(QStringLiteral("SLURM_CONF"), slurmConf);
    env.insert(QStringLiteral("PATH"), env.value(QStringLiteral("PATH")) + QStringLiteral(":/usr/sbin"));
    p.setProcessEnvironment(env);
    if (!cwd.isEmpty())
        p.setWorkingDirectory(cwd);
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        r.err = program + QStringLiteral(" timed out");
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool writeAll(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) >= 0;
}

} // namespace

class TestSweepEmit : public QObject
{
    Q_OBJECT

private slots:
    // The grid travels in a ConfigMap: over 1 MiB (the fat-tree sample's grid) the API server
    // would refuse it, so nothing is written; over 256 KiB (the STS sample's) client-side
    // `kubectl apply` would fail on its annotation, so the printed command applies it
    // server-side; the testbed's small grid keeps the plain command.
    void indexedJobGridSizeLimits()
    {
        QTemporaryDir dir;
        const auto emitSweep = [&](const char *sample, const QString &out) {
            return run(QStringLiteral(CB_CLUSTERBENCH),
                       {QStringLiteral("sweep"),
                        QStringLiteral(CB_SOURCE_DIR "/sample-clusters/") + sample,
                        QStringLiteral("--policies"), QStringLiteral("k8s-default"),
                        QStringLiteral("--emit"), QStringLiteral("k8s-indexed-job"), out});
        };
        const QString big = dir.filePath(QStringLiteral("big"));
        const Run tooBig = emitSweep("fat-tree-1024.json", big);
        QCOMPARE(tooBig.code, 1);
        QVERIFY2(tooBig.err.contains(QStringLiteral("a ConfigMap holds at most 1 MiB "
                                                    "(1048576 bytes)")),
                 qPrintable(tooBig.err));
        QVERIFY(!QFileInfo::exists(big));
        const Run mid = emitSweep("sts-datacenter.json", dir.filePath(QStringLiteral("mid")));
        QVERIFY2(mid.code == 0, qPrintable(mid.err));
        QVERIFY2(mid.out.contains(QStringLiteral("Apply: kubectl apply --server-side -f ")),
                 qPrintable(mid.out));
        const Run small = emitSweep("dltap-testbed.json", dir.filePath(QStringLiteral("small")));
        QVERIFY2(small.code == 0, qPrintable(small.err));
        QVERIFY2(small.out.contains(QStringLiteral("Apply: kubectl apply -f ")),
                 qPrintable(small.out));
    }

    void slurmArrayPassesSbatchTestOnly()
    {
        const QStringList paths = {"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"};
        for (const char *tool : {"slurmctld", "sbatch", "munged"})
            if (QStandardPaths::findExecutable(tool).isEmpty() &&
                QStandardPaths::findExecutable(tool, paths).isEmpty())
                QSKIP(qPrintable(QStringLiteral("%1 is not installed (Debian: slurmctld "
                                                "slurm-client munge)").arg(tool)));
        QTemporaryDir dir;
        auto scenario = loadScenarioFile(kTestbed.toStdString());
        QVERIFY(scenario.ok());
        auto cluster =
            ExporterRegistry::find("slurm-cluster")->exportPlacement(scenario.value(), {}, {});
        QVERIFY2(cluster.ok(), cluster.error().c_str());
        QVERIFY(ExportWriter::write(dir.filePath("cluster").toStdString(), cluster.value()).ok());

        const QString out = dir.filePath(QStringLiteral("array"));
        const Run emitted = run(QStringLiteral(CB_CLUSTERBENCH),
                             {QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                              QStringLiteral("k8s-default,dltap,binpack"), QStringLiteral("--seeds"),
                              QStringLiteral("4"), QStringLiteral("--param"),
                              QStringLiteral("gang=true,false"), QStringLiteral("--emit"),
                              QStringLiteral("slurm-array"), out});
        QVERIFY2(emitted.code == 0, qPrintable(emitted.err));
        QVERIFY(readAll(out + "/sweep.sbatch").contains(QStringLiteral("#SBATCH --array=0-23\n")));
        // An array beyond what the controller allows (MaxArraySize 1001) must be refused.
        QVERIFY(writeAll(out + "/too-big.sbatch",
                         readAll(out + "/sweep.sbatch")
                             .replace(QStringLiteral("--array=0-23"),
                                      QStringLiteral("--array=0-5000"))));

        const Run start = run(QStringLiteral("bash"),
                              {QStringLiteral(CB_SOURCE_DIR "/tests/slurm/slurmctl.sh"),
                               QStringLiteral("start"), dir.path()});
        QString conf;
        for (const QString &line : start.out.split('\n'))
            if (line.startsWith(QStringLiteral("SLURM_CONF=")))
                conf = line.mid(11);
        const Run ok = run(QStringLiteral("sbatch"), {QStringLiteral("--test-only"),
                                                      QStringLiteral("sweep.sbatch")},
                           conf, out);
        const Run big = run(QStringLiteral("sbatch"), {QStringLiteral("--test-only"),
                                                       QStringLiteral("too-big.sbatch")},
                            conf, out);
        run(QStringLiteral("bash"), {QStringLiteral(CB_SOURCE_DIR "/tests/slurm/slurmctl.sh"),
                                     QStringLiteral("stop"), dir.path()});
        QVERIFY2(start.code == 0 && !conf.isEmpty(), qPrintable(start.out + start.err));
        QVERIFY2(ok.code == 0 && ok.err.contains(QStringLiteral("to start at")),
                 qPrintable(ok.out + ok.err));
        QVERIFY2(big.code != 0, qPrintable(big.out + big.err));
    }

    void indexedJobPassesTheJobSchema()
    {
        QProcess probe;
        probe.start(QStringLiteral("python3"), {QStringLiteral("-c"),
                                                QStringLiteral("import jsonschema, yaml")});
        if (!probe.waitForFinished(60000) || probe.exitStatus() != QProcess::NormalExit ||
            probe.exitCode() != 0)
            QSKIP("python3 with the jsonschema and yaml modules is needed "
                  "(Debian: python3-jsonschema python3-yaml)");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("k8s"));
        const Run emitted = run(QStringLiteral(CB_CLUSTERBENCH),
                             {QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                              QStringLiteral("k8s-default,dltap"), QStringLiteral("--seeds"),
                              QStringLiteral("3"), QStringLiteral("--simulate"),
                              QStringLiteral("--emit"), QStringLiteral("k8s-indexed-job"), out,
                              QStringLiteral("--image"), QStringLiteral("registry.example/cb:1")});
        QVERIFY2(emitted.code == 0, qPrintable(emitted.err));
        const QString job = readAll(out + "/sweep-job.yaml");
        QVERIFY2(job.contains(QStringLiteral("completionMode: \"Indexed\"")), qPrintable(job));
        QVERIFY(job.contains(QStringLiteral("completions: 6\n")));
        QVERIFY(job.contains(QStringLiteral("JOB_COMPLETION_INDEX")));
        QVERIFY(readAll(out + "/grid-configmap.yaml").contains(QStringLiteral("grid.json")));

        QVERIFY(writeAll(out + "/broken-job.yaml",
                         QString(job).replace(QStringLiteral("completions: 6"),
                                              QStringLiteral("completions: \"six\""))));
        const QString validator = QStringLiteral(CB_SOURCE_DIR "/tests/tools/validate_k8s.py");
        const QString schemas = QStringLiteral(CB_TEST_DATA "/schemas");
        // One validator run for both files (loading the schema is the slow part): only the
        // broken copy may be reported.
        const Run r = run(QStringLiteral("python3"), {validator, QStringLiteral("--schemas"), schemas,
                                                      out + "/sweep-job.yaml",
                                                      out + "/broken-job.yaml"});
        QCOMPARE(r.code, 1);
        const QStringList problems = r.out.split('\n', Qt::SkipEmptyParts).filter(QStringLiteral(": doc "));
        QVERIFY2(problems.size() == 1, qPrintable(r.out + r.err));
        const Run &bad = r;
        QVERIFY2(problems.first().startsWith(out + "/broken-job.yaml"), qPrintable(r.out));
        QVERIFY2(bad.out.contains(QStringLiteral("/spec/completions")), qPrintable(bad.out));
    }
};

QTEST_GUILESS_MAIN(TestSweepEmit)
#include "tst_sweep_emit.moc"
