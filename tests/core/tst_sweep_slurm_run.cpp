// An emitted sweep runs for real on a Slurm cluster: tests/slurm/slurmctl.sh starts a
// controller and one slurmd per node of the DLTAP testbed's slurm-cluster export on this
// machine, `sweep --emit slurm-array` writes the array (2 policies x 2 gang settings x 2
// seeds, simulated), and it is submitted unheld. Every array task must run and write its
// result; `merge` of all but one point leaves the sweep partial and names the missing
// point, the last merge completes it, and every merged run equals the same sweep run locally,
// field by field (decision log, timeline and metrics; only the run id, the time it was
// stored and the local sweep's time-stamped name differ).
// Skipped, with a message, when slurmd, slurmctld, sbatch or munged is missing or the
// daemons cannot start here (they need root).

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/scenario_json.h"
#include "tst_slurm_processes.h"

#include <QtTest>

#include <QDir>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <set>

#include <unistd.h>

using namespace cb;
using cbtest::SlurmRun;

namespace {

const QString kTestbed = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
constexpr int kPoints = 8;

/// The JSON pointer of the first place where `a` and `b` differ with both values (cut to
/// 200 characters), or empty when they are equal.
QString firstDifference(const nlohmann::json &a, const nlohmann::json &b, const QString &at = {})
{
    if (a.type() == b.type() && a.is_object()) {
        for (const auto &[key, value] : a.items()) {
            if (!b.contains(key))
                return at + "/" + QString::fromStdString(key) + ": only in the merged run";
            if (QString d = firstDifference(value, b[key], at + "/" + QString::fromStdString(key));
                !d.isEmpty())
                return d;
        }
        for (const auto &[key, value] : b.items())
            if (!a.contains(key))
                return at + "/" + QString::fromStdString(key) + ": only in the local run";
        return {};
    }
    if (a.type() == b.type() && a.is_array()) {
        if (a.size() != b.size())
            return at + QStringLiteral(": %1 items merged, %2 local").arg(a.size()).arg(b.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            if (QString d = firstDifference(a[i], b[i], at + "/" + QString::number(i)); !d.isEmpty())
                return d;
        return {};
    }
    if (a == b)
        return {};
    return at + ": merged " + QString::fromStdString(a.dump()).left(200) + ", local " +
           QString::fromStdString(b.dump()).left(200);
}

} // namespace

class TestSweepSlurmRun : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_conf;
    bool m_started = false;
    QString m_step; ///< what the test was doing, for an exception's message

    SlurmRun run(const QString &program, const QStringList &args, const QString &cwd = {},
                 int timeoutMs = 120000)
    {
        return cbtest::runSlurmCommand({program, args, m_conf}, cwd.isEmpty() ? m_dir.path() : cwd,
                                       timeoutMs);
    }

    SlurmRun clusterbench(const QStringList &args, const QString &cwd = {})
    {
        return run(QStringLiteral(CB_CLUSTERBENCH), args, cwd);
    }

    /// The stored runs of a workspace (show --json of each), by grid index.
    std::map<int, nlohmann::json> storedRuns(const QString &workspace)
    {
        std::map<int, nlohmann::json> out;
        const SlurmRun history =
            clusterbench({"history", "--workspace", workspace, "--json"});
        if (history.exitCode != 0)
            return out;
        for (const auto &r : nlohmann::json::parse(history.out.toStdString())) {
            const SlurmRun shown = clusterbench(
                {"show", QString::number(r["id"].get<long long>()), "--workspace", workspace,
                 "--json"});
            if (shown.exitCode != 0)
                return {};
            auto doc = nlohmann::json::parse(shown.out.toStdString());
            // The index first: json's operator= takes its argument by value, and the right
            // operand is evaluated before the left one.
            const int index = doc["parameters"]["grid_index"].get<int>();
            out[index] = std::move(doc);
        }
        return out;
    }

private slots:
    void initTestCase()
    {
        const QString missing =
            cbtest::missingSlurmTool({"slurmctld", "slurmd", "sbatch", "munged", "squeue"});
        if (!missing.isEmpty())
            QSKIP(qPrintable(QString("%1 is not installed; running an emitted sweep needs the "
                                     "Debian packages slurmctld slurmd slurm-client munge")
                                 .arg(missing)));
        if (geteuid() != 0)
            QSKIP("slurmd runs jobs only as root here (SlurmdUser=root); run as root");
        QVERIFY(m_dir.isValid());
        auto scenario = loadScenarioFile(kTestbed.toStdString());
        QVERIFY(scenario.ok());
        auto cluster =
            ExporterRegistry::find("slurm-cluster")->exportPlacement(scenario.value(), {}, {});
        QVERIFY2(cluster.ok(), cluster.error().c_str());
        QVERIFY(ExportWriter::write(m_dir.filePath("cluster").toStdString(), cluster.value()).ok());
        const SlurmRun start = cbtest::runSlurmCommand(
            {"bash", {cbtest::slurmScript(), "start", m_dir.path(), "--slurmd"}, {}}, m_dir.path());
        m_started = true; // stop even after a partial start
        m_conf = cbtest::slurmConfFrom(start);
        if (start.exitCode != 0 || m_conf.isEmpty())
            QSKIP(qPrintable("the Slurm daemons did not start here, so the array cannot run: " +
                             start.out + start.err));
    }

    void cleanupTestCase()
    {
        if (m_started)
            cbtest::runSlurmCommand({"bash", {cbtest::slurmScript(), "stop", m_dir.path()}, {}},
                                    m_dir.path());
    }

    void arrayRunsAndMergesToTheLocalSweep()
    {
        // An exception would end the test before cleanupTestCase stops the daemons.
        try {
            checkArray();
        } catch (const std::exception &e) {
            QFAIL(qPrintable(m_step + ": " + e.what()));
        }
    }

private:
    void checkArray()
    {
        const QStringList grid = {kTestbed,  "--policies", "k8s-default,dltap", "--param",
                                  "gang=true,false", "--seeds", "2", "--simulate"};
        const QString array = m_dir.filePath("array");
        const SlurmRun emitted =
            clusterbench(QStringList{"sweep"} + grid + QStringList{"--emit", "slurm-array", array});
        QVERIFY2(emitted.exitCode == 0, qPrintable(emitted.out + emitted.err));

        // The array tasks find the program through $CLUSTERBENCH, which sbatch passes on
        // (--export=ALL is its default).
        qputenv("CLUSTERBENCH", CB_CLUSTERBENCH);
        const SlurmRun submitted = run("sbatch", {"--parsable", "sweep.sbatch"}, array);
        qunsetenv("CLUSTERBENCH");
        QVERIFY2(submitted.exitCode == 0, qPrintable(submitted.out + submitted.err));
        const QString jobId = submitted.out.trimmed().split(';').first();

        // Wait (120 s at most) until no task of the array is pending or running.
        QElapsedTimer clock;
        clock.start();
        QString queue;
        while (clock.elapsed() < 120000) {
            const SlurmRun q = run("squeue", {"-h", "-j", jobId, "-o", "%i %T"});
            queue = q.out.trimmed();
            if (q.exitCode == 0 && queue.isEmpty())
                break;
            QTest::qWait(300);
        }
        QVERIFY2(queue.isEmpty(), qPrintable("still queued after 120 s:\n" + queue));

        // Every task ran (its log says which point) and wrote its result file.
        QStringList results;
        for (int index = 0; index < kPoints; ++index) {
            QFile log(array + QStringLiteral("/logs/point-%1.out").arg(index));
            QVERIFY2(log.open(QIODevice::ReadOnly), qPrintable(log.fileName() + " was not written"));
            const QString text = QString::fromUtf8(log.readAll());
            QVERIFY2(text.startsWith(QStringLiteral("Point %1 of %2 ").arg(index).arg(kPoints)),
                     qPrintable(text));
            results << array + QStringLiteral("/results/point-%1.json").arg(index);
            QVERIFY2(QFileInfo::exists(results.last()), qPrintable(results.last()));
        }

        // All but point 5: the sweep is partial and names it; then point 5 completes it.
        m_step = "merging";
        const QString merged = m_dir.filePath("merged.sqlite");
        QStringList allBut5 = results;
        allBut5.removeAt(5);
        const SlurmRun part = clusterbench(QStringList{"merge"} + allBut5 +
                                           QStringList{"--workspace", merged});
        QCOMPARE(part.exitCode, 0);
        QVERIFY2(part.err.contains("7 of 8 points stored; missing 5"), qPrintable(part.err));
        const SlurmRun last = clusterbench({"merge", results[5], "--workspace", merged, "--json"});
        QCOMPARE(last.exitCode, 0);
        const auto m = nlohmann::json::parse(last.out.toStdString());
        QCOMPARE(m["stored"].get<int>(), 1);
        QVERIFY2(m["sweeps"].size() == 1, last.out.toUtf8().constData());
        QCOMPARE(m["sweeps"][0]["stored"].get<int>(), kPoints);
        QCOMPARE(m["sweeps"][0]["missing"].dump(), std::string("[]"));

        // The same grid run locally.
        const QString local = m_dir.filePath("local.sqlite");
        const SlurmRun ran = clusterbench(QStringList{"sweep"} + grid +
                                          QStringList{"--workspace", local, "--jobs", "2"});
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));

        m_step = "reading the merged runs";
        auto a = storedRuns(merged);
        m_step = "reading the local runs";
        auto b = storedRuns(local);
        QCOMPARE(int(a.size()), kPoints);
        QCOMPARE(int(b.size()), kPoints);
        m_step = "comparing the runs";
        const std::string sweepId = a[0]["parameters"]["sweep"].get<std::string>();
        for (int index = 0; index < kPoints; ++index) {
            nlohmann::json &x = a[index];
            nlohmann::json &y = b[index];
            QCOMPARE(x["status"].get<std::string>(), std::string("complete"));
            // The local sweep's name is the emitted one's content id plus when it ran.
            QCOMPARE(x["parameters"]["sweep"].get<std::string>(), sweepId);
            QVERIFY2(y["parameters"]["sweep"].get<std::string>().rfind(sweepId + "-", 0) == 0,
                     y["parameters"]["sweep"].dump().c_str());
            for (nlohmann::json *r : {&x, &y}) {
                r->erase("id");
                r->erase("created");
                (*r)["parameters"].erase("sweep");
            }
            QCOMPARE(firstDifference(x, y), QString());
        }
        // The grid is what was asked: both policies, both gang settings, both seeds.
        std::set<std::string> cells;
        for (const auto &[index, r] : a)
            cells.insert(r["policy"].get<std::string>() + " " + r["parameters"]["params"].dump() +
                         " " + std::to_string(r["seed"].get<int>()));
        QCOMPARE(int(cells.size()), kPoints);
        QVERIFY(a[0]["metrics"].contains("mean_jct_s"));
    }

private slots:
};

QTEST_GUILESS_MAIN(TestSweepSlurmRun)
#include "tst_sweep_slurm_run.moc"
