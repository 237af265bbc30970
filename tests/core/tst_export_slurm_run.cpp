// Exported Slurm jobs run for real: tests/slurm/slurmctl.sh starts a controller and one slurmd
// per node of the fixture cluster on this machine (slurmd -N NODE, each on its own port), the
// fixture's four jobs are exported with a command that records where each task runs, and
// are submitted unheld. Every task must land on the node the placement put it on, with as
// many GPUs as it asked for: the heterogeneous PS job (tf-disjoint), the PS job whose roles
// share nodes (tf-shared, one allocation with one step per task), the all-reduce job (ring)
// and the single-task job (solo).
// Skipped, with a message, when slurmd, slurmctld, sbatch or munged is missing or the
// daemons cannot start here (they need root).

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"

#include "tst_export_fixtures.h"
#include "tst_slurm_processes.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <unistd.h>

using namespace cb;
using cbtest::SlurmRun;

namespace {

/// The command every task runs: one file per task in the folder given as $0, holding the
/// node it ran on, its TF_CONFIG, RANK, CUDA_VISIBLE_DEVICES and the ClusterBench job id.
const char *const kRecordTask =
    "f=$(mktemp \"$0/task.XXXXXX\") && "
    "printf '%s\\n' \"${SLURMD_NODENAME:-}\" \"${TF_CONFIG:-}\" \"${RANK:-}\" "
    "\"${CUDA_VISIBLE_DEVICES-unset}\" \"${CLUSTERBENCH_JOB_ID:-}\" > \"$f\"";

struct RanTask
{
    QString node;
    QString tfConfig;
    QString rank;
    QString devices;
    QString job;
};

} // namespace

class TestExportSlurmRun : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_conf;
    bool m_started = false;
    Scenario m_scenario;
    Placement m_placement;
    QStringList m_scripts;

    SlurmRun run(const QString &program, const QStringList &args, int timeoutMs = 60000)
    {
        return cbtest::runSlurmCommand({program, args, m_conf}, m_dir.path(), timeoutMs);
    }

    /// The label a task's record identifies it by: "tf-disjoint worker-1" from TF_CONFIG,
    /// "ring worker-0" from RANK, "solo single-0" for a job's only task.
    QString identify(const RanTask &t, QString *problem) const
    {
        const Job *job = nullptr;
        for (const Job &j : m_scenario.jobs)
            if (QString::fromStdString(j.id) == t.job)
                job = &j;
        if (!job) {
            *problem = "unknown job \"" + t.job + "\"";
            return {};
        }
        if (job->kind == JobKind::ParameterServer) {
            const QJsonObject task =
                QJsonDocument::fromJson(t.tfConfig.toUtf8()).object().value("task").toObject();
            if (task.isEmpty()) {
                *problem = "no task in TF_CONFIG \"" + t.tfConfig + "\"";
                return {};
            }
            return t.job + " " + task.value("type").toString() + "-" +
                   QString::number(task.value("index").toInt());
        }
        const JobPlacement *jp = nullptr;
        for (const JobPlacement &p : m_placement.jobs)
            if (QString::fromStdString(p.jobId) == t.job)
                jp = &p;
        bool ok = false;
        const int rank = job->kind == JobKind::AllReduce ? t.rank.toInt(&ok) : 0;
        if (!jp || (job->kind == JobKind::AllReduce && !ok) || rank < 0 ||
            rank >= int(jp->tasks.size())) {
            *problem = "no placed task for rank \"" + t.rank + "\" of " + t.job;
            return {};
        }
        const TaskAssignment &a = jp->tasks[std::size_t(rank)];
        return t.job + " " + QString::fromStdString(toString(a.role)) + "-" +
               QString::number(a.indexInRole);
    }

private slots:
    void initTestCase()
    {
        const QString missing =
            cbtest::missingSlurmTool({"slurmctld", "slurmd", "sbatch", "munged", "squeue"});
        if (!missing.isEmpty())
            QSKIP(qPrintable(QString("%1 is not installed; running exported jobs needs the "
                                     "Debian packages slurmctld slurmd slurm-client munge")
                                 .arg(missing)));
        if (geteuid() != 0)
            QSKIP("slurmd runs jobs only as root here (SlurmdUser=root); run as root");
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir().mkpath(m_dir.filePath("out")));

        m_scenario = cbtest::exportScenario();
        for (Job &j : m_scenario.jobs)
            j.command = {"sh", "-c", kRecordTask, m_dir.filePath("out").toStdString()};
        m_placement = cbtest::exportPlacement();
        auto cluster = ExporterRegistry::find("slurm-cluster")->exportPlacement(m_scenario, {}, {});
        QVERIFY2(cluster.ok(), cluster.error().c_str());
        QVERIFY(ExportWriter::write(m_dir.filePath("cluster").toStdString(), cluster.value()).ok());
        auto scripts =
            ExporterRegistry::find("slurm")->exportPlacement(m_scenario, m_placement, {});
        QVERIFY2(scripts.ok(), scripts.error().c_str());
        QVERIFY(ExportWriter::write(m_dir.filePath("scripts").toStdString(), scripts.value()).ok());
        for (const ExportedFile &f : scripts->files)
            m_scripts << m_dir.filePath("scripts/" + QString::fromStdString(f.path));

        const SlurmRun start = cbtest::runSlurmCommand(
            {"bash", {cbtest::slurmScript(), "start", m_dir.path(), "--slurmd"}, {}}, m_dir.path());
        m_started = true; // stop even after a partial start
        m_conf = cbtest::slurmConfFrom(start);
        if (start.exitCode != 0 || m_conf.isEmpty())
            QSKIP(qPrintable("the Slurm daemons did not start here, so exported jobs cannot "
                             "run: " +
                             start.out + start.err));
    }

    void cleanupTestCase()
    {
        if (m_started)
            cbtest::runSlurmCommand({"bash", {cbtest::slurmScript(), "stop", m_dir.path()}, {}},
                                    m_dir.path());
    }

    void tasksRunWherePlaced()
    {
        QCOMPARE(m_scripts.size(), 4);
        // Submit all four, unheld; they fit side by side.
        QStringList ids;
        for (const QString &script : m_scripts) {
            const SlurmRun r = run("sbatch", {"--parsable", script});
            QVERIFY2(r.exitCode == 0, qPrintable(script + ": " + r.out + r.err));
            ids << r.out.trimmed().split(';').first();
        }
        // Wait (30 s at most) until none of them is pending or running.
        QElapsedTimer clock;
        clock.start();
        QString queue;
        while (clock.elapsed() < 30000) {
            const SlurmRun q = run("squeue", {"-h", "-j", ids.join(','), "-o", "%i %T"});
            queue = q.out.trimmed();
            if (q.exitCode == 0 && queue.isEmpty())
                break;
            QTest::qWait(200);
        }
        QVERIFY2(queue.isEmpty(), qPrintable("still queued after 30 s:\n" + queue));
        for (const QString &id : ids) {
            const SlurmRun show = run("scontrol", {"-o", "show", "job", id});
            // Finished jobs stay known to the controller for MinJobAge (300 s).
            QVERIFY2(show.out.contains("JobState=COMPLETED") && show.out.contains("ExitCode=0:0"),
                     qPrintable(show.out + show.err));
        }

        // Where every task ran, against the placement.
        QMap<QString, RanTask> ran;
        const QDir out(m_dir.filePath("out"));
        for (const QString &f : out.entryList(QDir::Files, QDir::Name)) {
            QFile file(out.filePath(f));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
            QVERIFY2(lines.size() >= 5, qPrintable(f));
            const RanTask t{lines[0], lines[1], lines[2], lines[3], lines[4]};
            QString problem;
            const QString label = identify(t, &problem);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QVERIFY2(!ran.contains(label), qPrintable(label + " ran twice"));
            ran.insert(label, t);
        }
        int expectedTasks = 0;
        for (const JobPlacement &jp : m_placement.jobs)
            for (const TaskAssignment &a : jp.tasks) {
                ++expectedTasks;
                const QString label = QString::fromStdString(jp.jobId + " " + toString(a.role) +
                                                             "-" + std::to_string(a.indexInRole));
                QVERIFY2(ran.contains(label), qPrintable(label + " did not run"));
                const RanTask &t = ran[label];
                QCOMPARE(t.node, QString::fromStdString(a.node));
                // A task with GPUs sees exactly as many devices as it asked for.
                if (!a.gpuIndices.empty())
                    QVERIFY2(t.devices.split(',').size() == int(a.gpuIndices.size()),
                             qPrintable(label + ": CUDA_VISIBLE_DEVICES=" + t.devices));
            }
        QCOMPARE(ran.size(), expectedTasks);
        QCOMPARE(expectedTasks, 11); // tf-disjoint 3, tf-shared 5, ring 2, solo 1
    }
};

QTEST_APPLESS_MAIN(TestExportSlurmRun)
#include "tst_export_slurm_run.moc"
