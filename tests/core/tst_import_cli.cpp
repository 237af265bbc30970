// `clusterbench import` as a user meets it: one test per exit-code rule (0 with the scenario
// written, 1 when nothing usable was found, 2 on usage or unreadable input), nothing written
// and a JSON answer on every failure, errors that name the input file and line, what the
// report counts, --cluster against --append-to, encoding errors, overflowing GPU counts,
// YAML alias bombs, and the streamed writer against the plain one.

#include "../common/terminal_run.h"
#include "io/import/import_report.h"
#include "io/import/scenario_import.h"
#include "io/import/yaml_expansion.h"
#include "io/scenario_json.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace cb;

namespace {

const QString kData = QStringLiteral(CB_TEST_DATA "/import/");

struct Run
{
    int code = -1;
    QString out, err;
};

/// Runs `clusterbench import ARGS`; the report is laid out for `columns` (wide: the checks
/// below look for whole notes, not where a terminal would break them).
Run cli(const QStringList &args, int columns = 1000)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("COLUMNS", QString::number(columns));
    p.setProcessEnvironment(env);
    p.start(CB_CLUSTERBENCH, QStringList{"import"} + args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

void write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestImportCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }

private slots:
    // Each exit-code rule, and with --json a JSON answer on stdout; a failure leaves the
    // file that was there untouched.
    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("args"); // "OUT" is replaced by the output path
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message"); // in stderr

        QTest::newRow("0: jobs written")
            << QStringList{"tiresias", kData + "traces/tiresias/60_job.csv", "--out", "OUT"} << 0
            << "60 jobs written to";
        QTest::newRow("0: a cluster written")
            << QStringList{kData + "topology/tiresias/tiresias_n1g4.csv", "--out", "OUT"} << 0
            << "detected";
        // A format that reads nodes or jobs, given nodes only: a cluster, not an empty trace.
        QTest::newRow("0: an Alibaba node table alone")
            << QStringList{kData + "handmade/alibaba2023_nodes.csv", "--out", "OUT"} << 0
            << "cluster of 5 nodes, 22 GPUs";
        QTest::newRow("0: a PAI machine table alone")
            << QStringList{kData + "handmade/pai_machine_spec.csv", "--out", "OUT"} << 0
            << "cluster of 4 nodes, 18 GPUs";
        QTest::newRow("1: a PAI job table without its task table")
            << QStringList{kData + "handmade/pai_job.csv", "--out", "OUT"} << 1
            << "no job could be kept from alibaba-pai2020 input: 3 rows read, 0 skipped";
        QTest::newRow("2: gres.conf without slurm.conf")
            << QStringList{kData + "slurm/giovtorres_docker-centos7-slurm_gres.conf", "--out",
                           "OUT"}
            << 2 << "give slurm.conf (its NodeName lines) too";
        // The Pollux Philly trace's date-times read with a numeric format named: every row
        // left out, and the reason says what the values are and where to name that.
        QTest::newRow("1: a time format named wrongly")
            << QStringList{"philly-pollux", kData + "traces/pollux/philly_osdi21_head200.csv",
                           "--time-format", "epoch",
                           "--out",         "OUT"}
            << 1
            << "skipped 200 rows: column timestamp: not an epoch time (its values read as "
               "datetime: name that format, or auto, in --time-format or the mapping's "
               "time_format)";
        QTest::newRow("1: every row left out")
            << QStringList{"tiresias", kData + "malformed/tiresias_all_too_big.csv", "--out", "OUT"}
            << 1 << "no job could be kept from tiresias input: 3 rows read, 3 skipped";
        QTest::newRow("1: every Kubernetes Node left out")
            << QStringList{kData + "malformed/k8s_every_node_bad.yaml", "--out", "OUT"} << 1
            << "k8s_every_node_bad.yaml: no node could be imported; nothing written";
        QTest::newRow("1: every NodeName line left out")
            << QStringList{"slurm", kData + "malformed/slurm_every_node_bad.conf", "--out", "OUT"}
            << 1 << "slurm_every_node_bad.conf: no node could be imported; nothing written";
        QTest::newRow("1: cannot write")
            << QStringList{"tiresias", kData + "traces/tiresias/60_job.csv", "--out",
                           "NODIR/s.json"}
            << 1 << "/no/such/dir does not exist; nothing read";
        QTest::newRow("1: --out is a folder")
            << QStringList{"tiresias", kData + "traces/tiresias/60_job.csv", "--out", "DIR"} << 1
            << "is a directory, expected a file; nothing read";
        QTest::newRow("2: no file") << QStringList{"tiresias", "--out", "OUT"} << 2
                                    << "expected at least one FILE after tiresias";
        QTest::newRow("2: neither format nor file")
            << QStringList{"tiresia", "x.csv", "--out", "OUT"} << 2
            << "\"tiresia\" is neither a format nor a file";
        QTest::newRow("2: no --out")
            << QStringList{"tiresias", kData + "traces/tiresias/60_job.csv"} << 2
            << "--out FILE is required";
        QTest::newRow("2: bad --time-format")
            << QStringList{"tiresias",      kData + "traces/tiresias/60_job.csv",
                           "--time-format", "submit_time=fortnights",
                           "--out",         "OUT"}
            << 2 << "expected FORMAT or COLUMN=FORMAT";
        QTest::newRow("2: --time-format names a column the input lacks")
            << QStringList{"tiresias",      kData + "traces/tiresias/60_job.csv",
                           "--time-format", "submit_tme=minutes",
                           "--out",         "OUT"}
            << 2
            << "--time-format: no time column \"submit_tme\" in tiresias input (its time "
               "columns: submit_time); nothing written";
        QTest::newRow("2: bad --pending")
            << QStringList{"tiresias",  kData + "traces/tiresias/60_job.csv",
                           "--pending", "maybe",
                           "--out",     "OUT"}
            << 2 << "--pending: expected skip or wait";
        QTest::newRow("2: --cluster and --append-to")
            << QStringList{"tiresias",    kData + "traces/tiresias/60_job.csv",
                           "--cluster",   "a.json",
                           "--append-to", "b.json",
                           "--out",       "OUT"}
            << 2 << "not both";
        QTest::newRow("2: missing column")
            << QStringList{"tiresias", kData + "malformed/tiresias_missing_column.csv", "--out",
                           "OUT"}
            << 2 << "tiresias_missing_column.csv:1: missing column \"num_gpu\"";
        QTest::newRow("2: wrong format named")
            << QStringList{"k8s-nodes",
                           kData + "topology/nccl/simllm_perlmutter_a100_nid001056_nccl_topo.xml",
                           "--out", "OUT"}
            << 2 << "this is not k8s-nodes input; it looks like nccl-topo";
        QTest::newRow("2: empty file")
            << QStringList{kData + "malformed/empty.csv", "--out", "OUT"}
            << 2 << "empty.csv: the file is empty: no cluster and no jobs to import";
        // What `kubectl get nodes -o json` writes: items without a kind of their own.
        QTest::newRow("0: a Kubernetes NodeList detected")
            << QStringList{kData + "handmade/k8s_nodelist_api.json", "--out", "OUT"} << 0
            << "k8s-nodes (a Kubernetes NodeList)";
        QTest::newRow("2: not text")
            << QStringList{kData + "malformed/binary.bin", "--out", "OUT"} << 2
            << "binary.bin: cannot tell which format this is (it is not text: byte 3 is not "
               "UTF-8)";
        QTest::newRow("2: a Helm template")
            << QStringList{kData + "handmade/helm_nodes.yaml.tpl", "--out", "OUT"} << 2
            << "helm_nodes.yaml.tpl: cannot tell which format this is (a Helm or Go template "
               "({{ ... }}), not the objects it makes: render it first (helm template CHART > "
               "nodes.yaml) and import what it writes)";
        QTest::newRow("2: a JSON file is not taken for a CSV file")
            << QStringList{kData + "malformed/json_of_no_format.json", "--out", "OUT"} << 2
            << "json_of_no_format.json: cannot tell which format this is; name it";
        QTest::newRow("1: a JSON object that is no Kubernetes Node")
            << QStringList{"k8s-nodes", kData + "malformed/json_of_no_format.json", "--out", "OUT"}
            << 1 << "json_of_no_format.json:1: not a Kubernetes Node: no kind and no metadata";
        // ClusterBench's own files: what takes them, not a list of formats.
        QTest::newRow("2: a ClusterBench scenario")
            << QStringList{QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json"),
                           "--out", "OUT"}
            << 2
            << "dltap-testbed.json: this is a ClusterBench scenario already, not a file to "
               "import: open it (clusterbench ";
        QTest::newRow("2: a ClusterBench run file")
            << QStringList{QStringLiteral(CB_SOURCE_DIR "/tests/fuzz/seeds/run/tiny-dltap.json"),
                           "--out", "OUT"}
            << 2
            << "tiny-dltap.json: this is a ClusterBench run file (what simulate --out writes), "
               "not a cluster or a trace to import";
        QTest::newRow("2: format not detected")
            << QStringList{kData + "traces/tiresias/LICENSE.tiresias-Apache-2.0", "--out", "OUT"}
            << 2 << "cannot tell which format this is";
    }
    // Every Node (every NodeName line) left out: nothing usable (exit 1), and each one's
    // reason with its line is said, as for the rows of a trace.
    void everyNodeLeftOut_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("reasons");
        QTest::newRow("k8s-nodes")
            << "k8s_every_node_bad.yaml"
            << QStringList{"import k8s-nodes: 2 rows skipped",
                           "skipped 1 row: node \"n1\": memory: expected a quantity such as "
                           "\"64Gi\", found \"\" (",
                           "k8s_every_node_bad.yaml:7)",
                           "skipped 1 row: node \"n2\": cpu: expected a quantity such as \"8\" "
                           "or \"7500m\", found \"eight\" (",
                           "k8s_every_node_bad.yaml:15)"};
        QTest::newRow("slurm")
            << "slurm_every_node_bad.conf"
            << QStringList{"import slurm: 2 rows skipped",
                           // (the row defines 4 nodes: said, as the row counts lines)
                           "skipped 1 row: RealMemory: expected a positive number, found "
                           "\"lots\"; the line's 4 nodes (a[1-4]) are left out (",
                           "slurm_every_node_bad.conf:3)",
                           "skipped 1 row: Gres: expected a count after \"gpu:v100:\", found "
                           "\"x\" (",
                           "slurm_every_node_bad.conf:4)"};
    }

    void everyNodeLeftOut()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, reasons);
        const Run r = cli({kData + "malformed/" + file, "--out", path("nodes.json")});
        QCOMPARE(r.code, 1);
        for (const QString &reason : reasons)
            QVERIFY2(r.err.contains(reason), qPrintable(reason + "\n--- not in:\n" + r.err));
        QVERIFY(!QFile::exists(path("nodes.json")));
    }

    // On a terminal (a pseudo-terminal made by script(1)) the list of formats after "cannot
    // tell which format" continues indented under the message; piped, it is one line (above).
    void errorWrapsOnATerminal()
    {
        const QString command =
            QStringLiteral("'%1' import '%2' --out '%3'")
                .arg(QStringLiteral(CB_CLUSTERBENCH),
                     kData + "traces/tiresias/LICENSE.tiresias-Apache-2.0", path("never.json"));
        const auto run = cbtest::runOnTerminal(command, 60);
        if (!run)
            QSKIP("script(1) is not installed");
        QCOMPARE(run->exitCode, 2);
        const QString &out = run->output;
        const QStringList lines = out.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 4, qPrintable(out));
        QVERIFY2(lines.first().startsWith("clusterbench import:"), qPrintable(out));
        for (const QString &line : lines) {
            // (only a word longer than the line, the file's path, stands past the edge)
            QVERIFY2(line.size() <= 60 || !line.trimmed().contains(' '), qPrintable(line));
            if (line != lines.first())
                QVERIFY2(line.startsWith("  ") && line[2] != ' ', qPrintable(line));
        }
        QVERIFY2(out.simplified().contains("cannot tell which format this is (a CSV file); name "
                                           "it: clusterbench import FORMAT FILE..., with FORMAT "
                                           "one of k8s-nodes, slurm,"),
                 qPrintable(out));
        QVERIFY(!QFile::exists(path("never.json")));
    }

    // The reader's notes count the jobs it read; when the cluster then leaves one out (a
    // 48-GPU job on the default 32-GPU cluster) the report says so, rather than "106 jobs
    // with several workers" standing beside fewer written.
    void noteCountsAreOfTheJobsRead()
    {
        const Run r = cli({kData + "traces/pollux/workload-6.csv", "--out", path("w6.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("159 jobs written"), qPrintable(r.err));
        QVERIFY2(r.err.contains("assumed: the counts of jobs in the notes on reading are of the "
                                "jobs read: 1 was then left out against the cluster (listed "
                                "above)"),
                 qPrintable(r.err));
        const Run fits = cli({kData + "traces/pollux/workload-6.csv", "--cluster",
                              CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json", "--out",
                              path("w6big.json")});
        QVERIFY2(fits.code == 0, qPrintable(fits.err));
        QVERIFY2(!fits.err.contains("counts of jobs"), qPrintable(fits.err));
    }

    // At 80 columns (a terminal's, or a pipe's) every line of the report fits, a long note
    // continuing indented by two; each note still starts its own line.
    void reportFitsTheTerminal()
    {
        const Run r =
            cli({kData + "traces/pollux/workload-6.csv", "--out", path("w6-80.json")}, 80);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
        for (const QString &line : lines)
            QVERIFY2(line.size() <= 80, qPrintable(line));
        QVERIFY2(r.err.contains("\nimport pollux: 160 rows read; cluster of 4 nodes, 32 GPUs, 1 "
                                "switch; 159 jobs\n  written to "),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("\nassumed: times rebased: the first submission (53 s in the "
                                "trace's time base)"),
                 qPrintable(r.err));
        // The same notes as at any width, broken at spaces only.
        const Run wide =
            cli({kData + "traces/pollux/workload-6.csv", "--out", path("w6-wide.json")});
        QString joined = r.err;
        joined.replace("\n  ", " ");
        QString wideText = wide.err;
        wideText.replace(path("w6-wide.json"), path("w6-80.json"));
        QCOMPARE(joined, wideText);
    }

    // The default cluster's GPUs, when --gpu-type names a model the catalogue does not know,
    // get the default entry, and that is said as for a cluster file's unknown types.
    void defaultClusterOfAnUnknownGpuIsSaid()
    {
        const Run r = cli({kData + "traces/pollux/workload-6.csv", "--gpu-type", "NOPE", "--out",
                           path("nope.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("default cluster of 4 nodes x 8 NOPE GPUs"), qPrintable(r.err));
        QVERIFY2(r.err.contains("assumed: GPU type NOPE is not in the catalogue: default entry "
                                "(16 GiB, 50 W idle, 250 W busy, relative speed 1.0, price 0)"),
                 qPrintable(r.err));
        const Run known = cli({kData + "traces/pollux/workload-6.csv", "--gpu-type", "A100",
                               "--out", path("a100.json")});
        QVERIFY2(known.code == 0, qPrintable(known.err));
        QVERIFY2(!known.err.contains("GPU type A100"), qPrintable(known.err));
    }

    // A row left out is said once: the reason, then the row's own words where it has more
    // ("found "sixteen""), not the reason twice.
    void skippedRowSaidOnce()
    {
        const QString csv = path("helios-bad-gpus.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,"
                "duration\n"
                "1,u,v,8,48,1,COMPLETED,2020-04-01 00:00:00,2020-04-01 00:00:10,"
                "2020-04-01 01:00:10,3600\n"
                "2,u,v,sixteen,48,1,COMPLETED,2020-04-01 00:01:00,2020-04-01 00:01:10,"
                "2020-04-01 01:01:10,3600\n");
        f.close();
        const Run r = cli({csv, "--out", path("bad-gpus.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString expected = QStringLiteral("skipped 1 row: column gpu_num: expected an "
                                                "integer (%1:3: found \"sixteen\")\n")
                                     .arg(csv);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    }

    // A scenario is named after its first input; through a CSV mapping (given first),
    // after the trace.
    void scenarioNamedAfterTheTrace()
    {
        const Run r = cli({"csv-mapping", kData + "handmade/yarn_durations_mapping.json",
                           kData + "traces/tiresias/yarn-gput1000.csv", "--out",
                           path("mapped.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto s = loadScenarioFile(path("mapped.json").toStdString());
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(s->name, std::string("yarn-gput1000.csv")); // (not the mapping.json)
    }

    // An option given to a format that does not read it is said, not ignored in silence;
    // the import goes on.
    void unusedOptionsAreSaid_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("notes");
        QTest::newRow("--nodes and --date to a trace")
            << QStringList{kData + "traces/tiresias/60_job.csv", "--nodes", "5", "--date",
                           "2020-01-01"}
            << QStringList{"assumed: --nodes is not used: tiresias input does not read it (read "
                           "by nccl-topo, hwloc)",
                           "assumed: --date is not used: tiresias input does not read it (read "
                           "by helios-gpus)"};
        QTest::newRow("--node-template to a slurm.conf that says it all")
            << QStringList{"slurm", kData + "slurm/giovtorres_docker-centos7-slurm_slurm.conf",
                           "--node-template", "gpus=8,cpus=96,memory-gib=1024"}
            << QStringList{"assumed: --node-template is not used: slurm.conf describes the "
                           "nodes (its NodeName lines) and leaves out nothing the template "
                           "gives (RealMemory, CPUs, a GPU type)"};
    }

    // A slurm.conf whose NodeName lines give no RealMemory (Slurm's default is 1 MiB, in
    // which no job fits) nor a GPU type (Gres=gpu:8 on its DEFAULT line): the node template
    // fills in those, and only those; the CPUs (2 sockets x 2 cores x 2 threads) and the
    // GPUs stay what the file says.
    void nodeTemplateFillsWhatSlurmConfLeavesOut()
    {
        const Run r = cli({"slurm", kData + "slurm/slurm-testsuite_test7.17.1_slurm.conf",
                           "--node-template", "gpus=4,gpu-type=H100,cpus=96,memory-gib=1024",
                           "--out", path("filled.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("assumed: --node-template fills in what the NodeName lines "
                                "leave out: memory (no RealMemory) of 10 nodes; GPU type "
                                "(Gres=gpu without a type) of 10 nodes; not used: GPUs (Gres= "
                                "on the NodeName lines says them)"),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains("give no RealMemory"), qPrintable(r.err));
        auto s = loadScenarioFile(path("filled.json").toStdString());
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(s->cluster.nodes.size(), std::size_t(10));
        for (const Node &n : s->cluster.nodes) {
            QCOMPARE(n.memoryGiB, 1024.0);
            QCOMPARE(n.cpus, 8.0);
            QCOMPARE(n.gpus, 8);
            QCOMPARE(n.gpuType, std::string("H100"));
        }
        // A line that gives no CPUs (nor sockets, cores or threads) takes the template's.
        {
            QFile conf(path("bare_slurm.conf"));
            QVERIFY(conf.open(QIODevice::WriteOnly));
            conf.write("ClusterName=c\nNodeName=n[1-2] Gres=gpu:a100:2 RealMemory=65536\n");
        }
        const Run cpus = cli({"slurm", path("bare_slurm.conf"), "--node-template",
                              "cpus=96,memory-gib=1024", "--out", path("cpus.json")});
        QVERIFY2(cpus.code == 0, qPrintable(cpus.err));
        QVERIFY2(cpus.err.contains("assumed: --node-template fills in what the NodeName lines "
                                   "leave out: CPUs (no CPUs, Sockets or cores given) of 2 nodes\n"),
                 qPrintable(cpus.err));
        auto c = loadScenarioFile(path("cpus.json").toStdString());
        QVERIFY2(c.ok(), c.error().c_str());
        QCOMPARE(c->cluster.nodes.size(), std::size_t(2));
        QCOMPARE(c->cluster.nodes[0].cpus, 96.0);
        QCOMPARE(c->cluster.nodes[0].memoryGiB, 64.0);
        // Without the template: Slurm's 1 MiB, said with the way out.
        const Run bare = cli({"slurm", kData + "slurm/slurm-testsuite_test7.17.1_slurm.conf",
                              "--out", path("bare.json")});
        QVERIFY2(bare.code == 0, qPrintable(bare.err));
        QVERIFY2(bare.err.contains("10 nodes give no RealMemory: Slurm's default of 1 MiB, in "
                                   "which no training job fits: give RealMemory= (MiB) on their "
                                   "NodeName lines, or the memory with --node-template "
                                   "memory-gib=N"),
                 qPrintable(bare.err));
    }

    // gres.conf naming fewer devices for a node than slurm.conf's Gres= (Slurm would drain
    // it): slurm.conf's count is kept and the difference said, per node.
    void gresConfDisagreeingWithSlurmConfIsSaid()
    {
        {
            QFile conf(path("gpu_slurm.conf")), gres(path("gpu_gres.conf"));
            QVERIFY(conf.open(QIODevice::WriteOnly) && gres.open(QIODevice::WriteOnly));
            conf.write("ClusterName=c\nNodeName=linux1 Gres=gpu:8 CPUs=80 RealMemory=515896\n"
                       "NodeName=linux2 Gres=gpu:2 CPUs=80 RealMemory=515896\n");
            gres.write("NodeName=linux1 Name=gpu File=/dev/nvidia0 CPUs=0\n"
                       "NodeName=linux2 Name=gpu File=/dev/nvidia[0-1]\n");
        }
        const Run r = cli({path("gpu_slurm.conf"), path("gpu_gres.conf"), "--out",
                           path("gpu.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("gpu_gres.conf: slurm (gres.conf lines (NodeName= with Name=))"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("assumed: 1 node has other GPU counts in gres.conf than Gres= in "
                                "slurm.conf (linux1 1 in gres.conf, 8 in slurm.conf): "
                                "slurm.conf's are used"),
                 qPrintable(r.err));
        auto s = loadScenarioFile(path("gpu.json").toStdString());
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(s->cluster.totalGpus(), 10);
    }

    // A trace read through a CSV mapping need not look like any format: given after the
    // mapping, without FORMAT, it is the mapping's (a real excerpt of Alibaba's 2025 DLRM
    // trace, whose columns no importer knows), and the scenario is the one naming the format
    // gives, byte for byte.
    void csvMappingDetectedTakesTheTraceAfterIt()
    {
        const QString mapping = kData + "handmade/dlrm2025_mapping.json",
                      trace = kData + "traces/alibaba-gpu2025/disaggregated_DLRM_trace_excerpt.csv";
        const Run detected = cli({mapping, trace, "--out", path("dlrm-detected.json")});
        QVERIFY2(detected.code == 0, qPrintable(detected.err));
        QVERIFY2(detected.err.contains("csv-mapping (a trace read through the mapping before it)"),
                 qPrintable(detected.err));
        const Run named = cli({"csv-mapping", mapping, trace, "--out", path("dlrm-named.json")});
        QVERIFY2(named.code == 0, qPrintable(named.err));
        QFile a(path("dlrm-detected.json")), b(path("dlrm-named.json"));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray bytes = a.readAll();
        QVERIFY(bytes.contains("\"instance_7281\""));
        QCOMPARE(bytes, b.readAll());
    }

    void unusedOptionsAreSaid()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, notes);
        const Run r = cli(args + QStringList{"--out", path("options.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const QString &note : notes)
            QVERIFY2(r.err.contains(note), qPrintable(note + "\n--- not in:\n" + r.err));
        QCOMPARE(r.err.count(QStringLiteral("is not used")), notes.size());
    }

    // --out naming an input would replace the user's trace with the scenario: refused, the
    // trace untouched.
    void outIsAnInput()
    {
        const QString trace = path("mine.csv");
        const QByteArray bytes = readAll(kData + "traces/tiresias/60_job.csv");
        write(trace, bytes);
        const Run r = cli({trace, "--out", trace});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--out " + trace + ": is the input " + trace +
                                ", which the scenario would replace"),
                 qPrintable(r.err));
        QCOMPARE(readAll(trace), bytes);
        // ... before any work: no import report comes first (it did, then the refusal).
        QVERIFY2(r.err.startsWith("clusterbench import: --out "), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
    }

    void exitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        QVERIFY(m_dir.isValid());
        const QString out = path("out.json");
        write(out, "old content\n");
        QStringList a;
        for (const QString &s : args)
            a << (s == "OUT"               ? out
                  : s == "DIR"             ? m_dir.path()
                  : s.startsWith("NODIR/") ? path("no/such/dir/s.json")
                                           : s);
        const Run r = cli(a);
        QVERIFY2(r.code == code, qPrintable(QString::number(r.code) + "\n" + r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        if (code == 0) {
            auto s = loadScenarioFile(out.toStdString());
            QVERIFY2(s.ok(), s.error().c_str());
        } else {
            QCOMPARE(readAll(out), QByteArray("old content\n"));
            QVERIFY(QDir(m_dir.path())
                        .entryList({".out.json.*"}, QDir::Hidden | QDir::Files)
                        .isEmpty());
        }
        // The same with --json: stdout is one JSON object saying whether it was written.
        a << "--json";
        const Run j = cli(a);
        QCOMPARE(j.code, code);
        const auto doc = nlohmann::json::parse(j.out.toStdString(), nullptr, false);
        QVERIFY2(doc.is_object(), qPrintable(j.out));
        QCOMPARE(doc["written"].get<bool>(), code == 0);
        // A failure once the format is known names it (a missing column: "" before).
        if (code != 0 && !a.front().contains(QLatin1Char('/')) &&
            (code == 1 || message.contains(QStringLiteral("missing column"))))
            QCOMPARE(doc.value("format", std::string()), a.front().toStdString());
        if (code != 0)
            QVERIFY2(QString::fromStdString(doc["error"].get<std::string>()).contains(message) ||
                         r.err.contains(message),
                     qPrintable(j.out));
    }

    // What import writes, `validate` accepts: a duration too long for the format's iteration
    // limit is left out with its line, the rest written.
    void writtenScenarioValidates()
    {
        const QString out = path("long.json");
        const Run r = cli({"tiresias", kData + "malformed/tiresias_too_long.csv", "--out", out});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("tiresias_too_long.csv:3: job \"2\": too long: "
                                "10000000000000000 iterations is beyond the scenario format's "
                                "10^12"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("2 jobs written to " + out), qPrintable(r.err));
        QVERIFY2(!r.err.contains(out + ":"), qPrintable(r.err)); // never blames the output
        QProcess v;
        v.start(CB_CLUSTERBENCH, {"validate", out});
        QVERIFY(v.waitForFinished(60000));
        QCOMPARE(v.exitCode(), 0);
    }

    // Every malformed and real trace file either fails with exit 2 (nothing written) or
    // writes a scenario `validate` accepts.
    void everyImportValidates_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString dir : {"malformed", "traces/tiresias", "traces/gavel", "traces/pollux",
                                  "traces/alibaba-gpu2023", "handmade"})
            for (const QString &f :
                 QDir(kData + dir).entryList({"*.csv", "*.trace", "*.json"}, QDir::Files))
                QTest::newRow(qPrintable(dir + "/" + f)) << kData + dir + "/" + f;
    }
    void everyImportValidates()
    {
        QFETCH(QString, file);
        const QString out = path("any.json");
        QFile::remove(out);
        const Run r = cli({file, "--out", out});
        if (r.code != 0) {
            QVERIFY2(r.code == 1 || r.code == 2, qPrintable(r.err));
            QVERIFY(!QFile::exists(out));
            QVERIFY2(r.err.contains("clusterbench import: "), qPrintable(r.err));
            return;
        }
        QProcess v;
        v.start(CB_CLUSTERBENCH, {"validate", out});
        QVERIFY(v.waitForFinished(60000));
        QVERIFY2(v.exitCode() == 0, v.readAllStandardError().constData());
    }

    // The summary counts what was written and groups the rows left out by reason, with the
    // first line numbers of each in file order.
    void summaryGroupsSkippedRows()
    {
        const QString in = path("groups.csv");
        write(in, "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
                  "1,x,0,10,vgg16,100,0\n"  // line 2: bad number
                  "2,64,5,10,vgg16,100,0\n" // line 3: too many GPUs
                  "3,1,9,10,vgg16,100,0\n"
                  "4,y,1,10,vgg16,100,0\n"  // line 5: bad number
                  "5,64,2,10,vgg16,100,0\n" // line 6: too many GPUs
                  "6,z,3,10,vgg16,100,0\n");
        const QString out = path("groups.json");
        const Run r = cli({"tiresias", in, "--out", out});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("import tiresias: 6 rows read; cluster of 4 nodes, 32 GPUs, 1 "
                                "switch; 1 job written to " +
                                out + "; 5 rows skipped\n"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("skipped 3 rows: column num_gpu: expected an integer (" + in +
                                ":2, 5, 7)\n"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("skipped 2 rows: cannot run on this cluster: needs more GPUs at "
                                "once than the cluster has (32) (" +
                                in + ":3, 6)\n"),
                 qPrintable(r.err));
        const Run all = cli({"tiresias", in, "--out", out, "--all-skipped"});
        QVERIFY2(all.err.contains("skipped " + in +
                                  ":5: column num_gpu: expected an integer, "
                                  "found \"y\""),
                 qPrintable(all.err));
        const Run j = cli({"tiresias", in, "--out", out, "--json"});
        const auto doc = nlohmann::json::parse(j.out.toStdString());
        QCOMPARE(doc["rows"].get<int>(), 6);
        QCOMPARE(doc["jobs"].get<int>(), 1);
        QCOMPARE(doc["skipped"].get<int>(), 5);
        QCOMPARE(doc["skipped_by_reason"][0]["count"].get<int>(), 3);
        QCOMPARE(doc["skipped_by_reason"][0]["first"][1]["line"].get<int>(), 5);
    }

    // --cluster takes the scenario's cluster (and its settings and model data), not its jobs;
    // --append-to keeps the jobs, and the report says which.
    void clusterAgainstAppendTo()
    {
        const QString base = path("base.json");
        QCOMPARE(cli({"tiresias", kData + "traces/tiresias/60_job.csv", "--out", base}).code, 0);
        const QString out = path("gavel.json");
        const QString trace = kData + "traces/gavel/msr_seed0_925e2b.trace";
        Run r = cli({"gavel", trace, "--cluster", base, "--out", out});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("its 60 jobs are not kept (--append-to keeps them)"),
                 qPrintable(r.err));
        QCOMPARE(int(loadScenarioFile(out.toStdString())->jobs.size()), 4);
        r = cli({"gavel", trace, "--append-to", base, "--out", out});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("4 jobs written to " + out + " (after the 60 jobs it had)"),
                 qPrintable(r.err));
        QCOMPARE(int(loadScenarioFile(out.toStdString())->jobs.size()), 64);
        // A cluster file among the inputs and --cluster do not go together.
        r = cli({kData + "topology/tiresias/tiresias_n1g4.csv", trace, "--cluster", base, "--out",
                 out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("cannot be combined with input that defines a cluster"),
                 qPrintable(r.err));
    }

    // Slurm's 22.05 example slurm.conf (linux[1-32]) with its man page's topology.conf
    // (dev[0-17] under s0-s2, lines 5-7): the 18 nodes the topology names that slurm.conf does
    // not are one reason, each line listed once, not 18 lines of one row each. Its nodes have
    // no GPU: nothing runs on them, so nothing is written (exit 1) until they are given GPUs.
    void slurmSkipsGroupedByReason()
    {
        const QString conf = kData + "slurm/slurm-22.05.8_etc_slurm.conf.example";
        const QString topo = kData + "slurm/slurm-22.05.8_man5_topology.conf_EXAMPLE.txt";
        const Run r = cli({"slurm", conf, topo, "--out", path("slurm.json")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(conf + ": no node of the 32 imported has a GPU, so no training "
                                       "job runs on the cluster: give the nodes GPUs"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(path("slurm.json")));
        // The report still says what was read.
        QVERIFY2(r.err.contains("import slurm: cluster of 32 nodes, 0 GPUs, 5 switches; 18 rows "
                                "on 3 lines skipped\n"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("skipped 18 rows on 3 lines: node not defined by slurm.conf or "
                                "gres.conf (" +
                                topo + ":5, 6, 7)\n"),
                 qPrintable(r.err));
        QCOMPARE(r.err.count("skipped "), 1);
        // Nothing usable: what was assumed is said too, the reason among it.
        QVERIFY2(r.err.contains("assumed: no node has a GPU (no Gres=gpu in slurm.conf, no "
                                "gres.conf)"),
                 qPrintable(r.err));
    }

    // A node file without a GPU (an NCCL_TOPO_FILE of PCI slots only) gives a CPU-only node:
    // refused like any cluster without a GPU, exit 1 (it was 2, as for unreadable input),
    // with what to give.
    void nodeFileWithoutGpuIsNothingUsable()
    {
        const QString file = kData + "topology/nccl/aws-ofi-nccl_g5.48xl-topo.xml";
        const Run r = cli({"nccl-topo", file, "--out", path("g5.json")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(file + ": no node of the 1 imported has a GPU"), qPrintable(r.err));
        QVERIFY2(r.err.contains("a topology file: --node-template gpus=N"), qPrintable(r.err));
        // What was assumed says why, before the error.
        QVERIFY2(r.err.contains("aws-ofi-nccl_g5.48xl-topo.xml: no GPU in the file: a CPU-only"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(path("g5.json")));
    }

    // The Alibaba release's own pairing: its Node YAML as the cluster and a pod list (here one
    // without time columns) as the trace. 14 nodes with 2x1 + 3x2 + 3x4 + 6x8 = 68 GPUs (the
    // capacity lines of the YAML); 50 pods, the largest openb-pod-0017 with 88 CPUs and 8 GPUs,
    // which a 96-CPU 8-GPU node holds, so none is left out. Two cluster sources are refused.
    void clusterFileWithPodList()
    {
        const QString out = path("alibaba.json");
        const QString nodes = kData + "k8s-nodes/alibaba_openb2023_gpu_nodes_sample.yaml";
        const QString pods = kData + "traces/alibaba-gpu2023/openb_pod_list_multigpu50_head50.csv";
        Run r = cli({nodes, pods, "--name", "alibaba", "--out", out});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("import k8s-nodes + alibaba-gpu2023: 50 rows read; cluster of 14 "
                                "nodes, 68 GPUs"),
                 qPrintable(r.err));
        auto s = loadScenarioFile(out.toStdString());
        QVERIFY(s);
        QCOMPARE(int(s->cluster.nodes.size()), 14);
        QCOMPARE(int(s->jobs.size()), 50);
        const Job *big = nullptr;
        for (const Job &j : s->jobs)
            if (j.id == "openb-pod-0017")
                big = &j;
        QVERIFY(big);
        QCOMPARE(big->gpuCount(), 8);
        QCOMPARE(big->submitSeconds, 0.0);
        // The other order on the command line gives the same scenario.
        const QString out2 = path("alibaba2.json");
        QCOMPARE(cli({pods, nodes, "--name", "alibaba", "--out", out2}).code, 0);
        QCOMPARE(readAll(out2), readAll(out));
        // A second cluster (Alibaba's node CSV) beside the YAML: which one? Nothing written.
        const QString none = path("two-clusters.json");
        r = cli({nodes, kData + "handmade/alibaba2023_nodes.csv", pods, "--out", none});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("the inputs define more than one cluster"), qPrintable(r.err));
        QVERIFY(!QFile::exists(none));
    }

    // A cell that is not UTF-8 skips its row with file, line and column; with every row bad
    // nothing is written and --json still answers.
    void invalidUtf8()
    {
        const QString in = path("latin1.csv");
        write(in, "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
                  "caf\xe9,1,0,10,vgg16,100,0\n"
                  "ok,1,5,10,vgg16,100,0\n");
        const QString out = path("latin1.json");
        Run r = cli({"tiresias", in, "--out", out});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("skipped 1 row: text that is not UTF-8 (convert the file, e.g. "
                                "iconv -f latin1 -t utf-8) (" +
                                in +
                                ":2: column job_id is not UTF-8 text (byte 0xE9 at "
                                "character 4 of \"caf\\xE9\")"),
                 qPrintable(r.err));
        r = cli({"tiresias", in, "--out", out, "--all-skipped"});
        QVERIFY2(r.err.contains("skipped " + in +
                                ":2: column job_id is not UTF-8 text (byte 0xE9 at character 4 "
                                "of \"caf\\xE9\"): convert the file to UTF-8"),
                 qPrintable(r.err));
        const QString bad = path("allbad.csv");
        write(bad, "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"
                   "\xff\xfe,1,0,10,vgg16,100,0\n");
        const QString none = path("none.json");
        r = cli({"tiresias", bad, "--out", none, "--json"});
        QCOMPARE(r.code, 1);
        QVERIFY(!QFile::exists(none));
        const auto doc = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
        QVERIFY2(doc.is_object(), qPrintable(r.out));
        QCOMPARE(doc["written"].get<bool>(), false);
        QCOMPARE(doc["skipped_rows"][0]["line"].get<int>(), 2);
        QVERIFY(!r.err.contains("type_error"));
        // A structured file (Slurm) with a byte that is not UTF-8 fails naming line and
        // column.
        const QString conf = path("slurm.conf");
        write(conf, "NodeName=n1 CPUs=4\nNodeName=n\xe9 CPUs=4\n");
        r = cli({"slurm", conf, "--out", none});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(conf + ":2: column 11: byte 0xE9 is not UTF-8 text"),
                 qPrintable(r.err));
        // A UTF-16 file is said to be one, with the conversion from UTF-16 (Latin-1's would
        // fill it with NUL bytes): a CSV trace with its byte-order mark, and a slurm.conf
        // without one.
        const auto utf16le = [](const QByteArray &ascii) {
            QByteArray out;
            for (char c : ascii)
                out.append(c).append('\0');
            return out;
        };
        const QString csv16 = path("utf16.csv");
        write(csv16, QByteArray("\xff\xfe", 2) + utf16le("job_id,num_gpu"));
        r = cli({"tiresias", csv16, "--out", none});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("convert the file to UTF-8: it is UTF-16 (a UTF-16 byte-order "
                                "mark), e.g. iconv -f utf-16 -t utf-8"),
                 qPrintable(r.err));
        const QString slurm16 = path("utf16.conf");
        write(slurm16, utf16le("NodeName=n1 CPUs=4\n"));
        r = cli({"slurm", slurm16, "--out", none});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("it is UTF-16 (a NUL byte beside every character), e.g. iconv "
                                "-f utf-16le -t utf-8"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(none));
    }

    // Slurm GRES counts that are negative or do not fit: a clear message, never a wrapped
    // or negative GPU count (the sanitizer build runs this too).
    void gresOverflow_data()
    {
        QTest::addColumn<QByteArray>("conf");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative") << QByteArray("NodeName=a CPUs=4 Gres=gpu:-1\n")
                                  << "expected a count from 0 to 1000000000000 after \"gpu:\", "
                                     "found \"-1\"";
        QTest::newRow("huge") << QByteArray("NodeName=a CPUs=4 Gres=gpu:99999999999999999999\n")
                              << "found \"99999999999999999999\"";
        QTest::newRow("huge with a suffix")
            << QByteArray("NodeName=a CPUs=4 Gres=gpu:v100:9999999999999G\n")
            << "(a count is from 0 to 1000000000000)";
        QTest::newRow("more than a node holds")
            << QByteArray("NodeName=a CPUs=4 Gres=gpu:3000,gpu:t4:3000\n")
            << "Gres: 6000 GPUs on one node (a); a node holds at most 4096";
    }
    void gresOverflow()
    {
        QFETCH(QByteArray, conf);
        QFETCH(QString, message);
        const QString in = path("gres.conf.txt");
        write(in, QByteArray("NodeName=ok CPUs=8 Gres=gpu:2\n") + conf);
        const QString out = path("gres.json");
        const Run r = cli({"slurm", in, "--out", out, "--all-skipped"});
        QCOMPARE(r.code, 0); // the good node is kept
        QVERIFY2(r.err.contains(in + ":2: ") && r.err.contains(message), qPrintable(r.err));
        auto s = loadScenarioFile(out.toStdString());
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(int(s->cluster.nodes.size()), 1);
        QCOMPARE(s->cluster.totalGpus(), 2);
    }

    // A 468-byte alias bomb is refused at once with the line of the alias, not expanded.
    void yamlAliasBomb()
    {
        std::string bomb = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\","
                           "\"lol\"]\n";
        const char *names = "abcdefghi";
        for (int i = 1; i < 9; ++i) {
            bomb += std::string(1, names[i]) + ": &" + names[i] + " [";
            for (int k = 0; k < 9; ++k)
                bomb += std::string(k ? "," : "") + "*" + names[i - 1];
            bomb += "]\n";
        }
        const auto status = checkYamlExpansion(bomb, "bomb.yaml");
        QVERIFY(!status.ok());
        QVERIFY2(QString::fromStdString(status.error())
                     .contains("bomb.yaml:6: YAML aliases here make the document stand for more "
                               "than"),
                 status.error().c_str());
        // Small documents with a few aliases are fine.
        QVERIFY(checkYamlExpansion("x: &x {cpu: 1}\ny: *x\nz: *x\n", "ok.yaml").ok());
        const QString file = path("bomb.yaml");
        write(file, QByteArray::fromStdString(bomb));
        const Run r = cli({"k8s-nodes", file, "--out", path("bomb.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("an alias bomb?"), qPrintable(r.err));
    }

    // A stray ',' or '}' where a YAML node would start made yaml-cpp 0.7 hand out the same
    // empty document for ever (the 10-minute campaign's k8s-nodes hang, 711 bytes): refused
    // at its line and column instead.
    void yamlTokenThatStopsTheParser()
    {
        const auto comma = checkYamlExpansion("a: 1\n---\n,\n", "stuck.yaml");
        QVERIFY(!comma.ok());
        QCOMPARE(QString::fromStdString(comma.error()),
                 QString("stuck.yaml:3: column 1: unexpected token: no YAML node can start here"));
        const QString file = path("stuck.yaml");
        write(file, "{\"kind\": \"Node\"},\n}\n");
        const Run r = cli({"k8s-nodes", file, "--out", path("stuck.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("stuck.yaml:"), qPrintable(r.err));
        QVERIFY(!QFile::exists(path("stuck.json")));
    }

    // The streamed writer gives the same bytes as the plain save, for every sample scenario
    // and for an imported trace.
    void streamedWriterMatchesSave_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &f :
             QDir(QStringLiteral(CB_SOURCE_DIR "/sample-clusters")).entryList({"*.json"}))
            QTest::newRow(qPrintable(f)) << QStringLiteral(CB_SOURCE_DIR "/sample-clusters/") + f;
    }
    void streamedWriterMatchesSave()
    {
        QFETCH(QString, file);
        auto s = loadScenarioFile(file.toStdString());
        QVERIFY2(s.ok(), s.error().c_str());
        const QString out = path("streamed.json");
        std::size_t calls = 0;
        QVERIFY(writeScenarioFile(out.toStdString(), s.value(), [&](std::size_t) {
                    return ++calls > 0;
                }).ok());
        QCOMPARE(readAll(out), QByteArray::fromStdString(scenarioToText(s.value())));
        // No jobs at all: the empty array as saveScenarioFile writes it.
        Scenario empty = s.value();
        empty.jobs.clear();
        QVERIFY(writeScenarioFile(out.toStdString(), empty).ok());
        QCOMPARE(readAll(out), QByteArray::fromStdString(scenarioToText(empty)));
    }

    // The pipeline without a terminal (what the window calls): detection, the report and the
    // failure kind.
    void pipelineWithoutTerminal()
    {
        ImportRequest req;
        req.files = {(kData + "topology/tiresias/tiresias_n160g8.csv").toStdString(),
                     (kData + "traces/tiresias/60_job.csv").toStdString()};
        req.options.gpuType = "V100";
        std::vector<std::string> phases;
        ScenarioImport imp(req, [&](const std::string &phase, double f) {
            if (phases.empty() || phases.back() != phase)
                phases.push_back(phase);
            return f >= 0 && f <= 1;
        });
        QVERIFY2(imp.run(), formatProblems(imp.problems()).c_str());
        QCOMPARE(QString::fromStdString(imp.formats()), QString("tiresias-cluster + tiresias"));
        QCOMPARE(imp.detected().size(), std::size_t(2));
        QCOMPARE(int(imp.scenario().cluster.nodes.size()), 160);
        QCOMPARE(int(imp.scenario().jobs.size()), 60);
        const QString out = path("pipeline.json");
        QVERIFY(imp.write(out.toStdString()));
        QCOMPARE(imp.report().jobsWritten, std::size_t(60));
        QCOMPARE(phases, (std::vector<std::string>{"reading", "checking", "writing"}));

        ImportRequest bad;
        bad.files = {(kData + "malformed/tiresias_all_too_big.csv").toStdString()};
        bad.format = "tiresias";
        ScenarioImport nothing(bad);
        QVERIFY(!nothing.run());
        QCOMPARE(nothing.failure(), ImportFailure::NothingUsable);
        QCOMPARE(nothing.report().skippedCount, std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestImportCli)
#include "tst_import_cli.moc"
