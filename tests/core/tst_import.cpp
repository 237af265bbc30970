// Importers: every shared trace and topology file (copied under tests/data/import) imports
// with hand-counted jobs, nodes and GPUs; malformed variants give the documented result.

#include "io/import/csv_reader.h"
#include "io/import/hostlist.h"
#include "io/import/import_into_scenario.h"
#include "io/import/import_report.h"
#include "io/import/importer_registry.h"
#include "io/import/k8s_quantity.h"
#include "io/import/slurm_config_text.h"
#include "io/scenario_json.h"
#include "model/validation.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace cb;

namespace {

const QString kData = QStringLiteral(CB_TEST_DATA "/import/");

Result<ImportReport> runImport(const QString &format, const QStringList &files)
{
    std::vector<std::string> paths;
    for (const QString &f : files)
        paths.push_back((kData + f).toStdString());
    const Importer *imp = findImporter(format.toStdString());
    if (!imp)
        return Result<ImportReport>::failure(format.toStdString(), "no such importer");
    return importFiles(*imp, paths);
}

QString joined(const ImportReport &r)
{
    QString s;
    for (const ImportNote &n : r.skipped)
        s += QString::fromStdString(n.toString()) + "\n";
    for (const std::string &a : r.assumptions)
        s += QString::fromStdString(a) + "\n";
    return s;
}

int jobGpus(const ImportReport &r)
{
    int n = 0;
    for (const Job &j : r.jobs)
        n += j.gpuCount();
    return n;
}

} // namespace

class TestImport : public QObject
{
    Q_OBJECT

private slots:
    void registryListsEveryFormat()
    {
        QStringList names;
        for (const Importer *i : importers())
            names << QString::fromStdString(i->name());
        QCOMPARE(names, QStringList({"k8s-nodes", "slurm", "scontrol-nodes", "nccl-topo", "hwloc",
                                     "simgrid", "topograph", "tiresias-cluster", "helios-gpus",
                                     "alibaba-gpu2023", "alibaba-pai2020", "philly",
                                     "philly-pollux", "pollux", "pollux-throughput", "helios",
                                     "gavel", "tiresias", "csv-mapping"}));
        QVERIFY(!findImporter("nonsense"));
    }

    void skippedRowsCountTheirLines()
    {
        // One Slurm line naming three nodes is three rows on one line; merged into another
        // report (as the import does), the rows stay listed and their lines counted.
        ImportReport part;
        part.format = "slurm";
        for (int k = 0; k < 3; ++k)
            part.skip("s.conf", 62, "partition names an unknown node n" + std::to_string(k),
                      "partition names an unknown node");
        part.skip("s.conf", 57, "RealMemory: bad", "RealMemory: bad");
        ImportReport whole;
        whole.format = "slurm";
        whole.merge(part);
        QCOMPARE(whole.skippedCount, std::size_t(4));
        QCOMPARE(whole.skipped.size(), std::size_t(4));
        QCOMPARE(whole.toText(),
                 std::string("import slurm: 4 rows on 2 lines skipped\n"
                             "skipped 3 rows on 1 line: partition names an unknown node "
                             "(s.conf:62)\n"
                             "skipped 1 row: RealMemory: bad (s.conf:57)\n"));
    }

    void csvReader_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected"); // rows as "line:f1|f2;..."
        QTest::newRow("lf") << QByteArray("a,b\n1,2\n") << "1:a|b;2:1|2;";
        QTest::newRow("crlf") << QByteArray("a,b\r\n1,2\r\n") << "1:a|b;2:1|2;";
        QTest::newRow("no final newline") << QByteArray("a,b\n1,2") << "1:a|b;2:1|2;";
        QTest::newRow("bom") << QByteArray("\xEF\xBB\xBF"
                                           "a,b\n1,2\n")
                             << "1:a|b;2:1|2;";
        QTest::newRow("quoted comma and quote")
            << QByteArray("a,b\n\"x,y\",\"say \"\"hi\"\"\"\n") << "1:a|b;2:x,y|say \"hi\";";
        QTest::newRow("quoted newline keeps line numbers")
            << QByteArray("a,b\n\"two\nlines\",2\n3,4\n") << "1:a|b;2:two\nlines|2;4:3|4;";
        QTest::newRow("blank lines skipped") << QByteArray("a\n\n\nb\n") << "1:a;4:b;";
        QTest::newRow("empty fields") << QByteArray("a,,c\n") << "1:a||c;";
    }
    void csvReader()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        auto rows = CsvReader().read(text.toStdString(), "t.csv");
        QVERIFY(rows.ok());
        QString got;
        for (const CsvRow &r : rows.value()) {
            QStringList f;
            for (const std::string &s : r.fields)
                f << QString::fromStdString(s);
            got += QString::number(r.line) + ":" + f.join('|') + ";";
        }
        QCOMPARE(got, expected);
    }

    void csvReaderUnclosedQuote()
    {
        auto rows = CsvReader().read("a\n\"open\nmore\n", "t.csv");
        QVERIFY(!rows.ok());
        QCOMPARE(QString::fromStdString(rows.error()),
                 QString("t.csv:2: quoted field opened here is never closed"));
    }

    void hostlist_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << "c1"
                               << "c1";
        QTest::newRow("range") << "dev[0-2]"
                               << "dev0,dev1,dev2";
        QTest::newRow("padding") << "node[08-10]"
                                 << "node08,node09,node10";
        QTest::newRow("list and range") << "tux[0,2-3]"
                                        << "tux0,tux2,tux3";
        QTest::newRow("two groups") << "a[1-2]b[3-4]"
                                    << "a1b3,a1b4,a2b3,a2b4";
        QTest::newRow("top-level list") << "c1,gpu[1-2]"
                                        << "c1,gpu1,gpu2";
        QTest::newRow("device files") << "/dev/nvidia[0,2-3]"
                                      << "/dev/nvidia0,/dev/nvidia2,/dev/nvidia3";
        QTest::newRow("unclosed") << "node[1-2"
                                  << "error: unclosed '[' in host list";
        QTest::newRow("backwards") << "n[3-1]"
                                   << "error: range 3-1 runs backwards";
    }
    void hostlist()
    {
        QFETCH(QString, expr);
        QFETCH(QString, expected);
        auto names = expandHostlist(expr.toStdString());
        if (expected.startsWith("error: ")) {
            QVERIFY(!names.ok());
            QCOMPARE(QString::fromStdString(names.problems().front().message), expected.mid(7));
            return;
        }
        QVERIFY2(names.ok(), names.error().c_str());
        QStringList got;
        for (const std::string &n : names.value())
            got << QString::fromStdString(n);
        QCOMPARE(got.join(','), expected);
    }

    void k8sQuantity_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value");
        QTest::newRow("cores") << "8" << 8.0;
        QTest::newRow("millicores") << "7500m" << 7.5;
        QTest::newRow("Gi") << "64Gi" << 68719476736.0;
        QTest::newRow("Ki") << "65536Ki" << 67108864.0;
        QTest::newRow("exponent") << "1e9" << 1e9;
        QTest::newRow("decimal M") << "500M" << 5e8;
        QTest::newRow("bad") << "eight" << -1.0;
    }
    void k8sQuantity()
    {
        QFETCH(QString, text);
        QFETCH(double, value);
        auto v = parseK8sQuantity(text.toStdString());
        if (value < 0)
            QVERIFY(!v);
        else
            QCOMPARE(v.value_or(-1), value);
    }

    // Every shared file (and the hand-made samples) imports, with hand-counted totals.
    void importsFiles_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<int>("jobs");
        QTest::addColumn<int>("nodes"); // -1: the importer makes no cluster
        QTest::addColumn<int>("gpus");  // cluster GPUs, or GPUs over all jobs
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("skipped");

        QTest::newRow("tiresias 60_job (CRLF)")
            << "tiresias" << QStringList{"traces/tiresias/60_job.csv"} << 60 << -1 << 170 << 0 << 0;
        QTest::newRow("gavel 10-field artifact")
            << "gavel" << QStringList{"traces/gavel/physical_cluster_artifact_evaluation.trace"}
            << 15 << -1 << 18 << 0 << 0;
        QTest::newRow("gavel 10-field small")
            << "gavel" << QStringList{"traces/gavel/physical_cluster_small_test.trace"} << 20 << -1
            << 23 << 0 << 0;
        QTest::newRow("gavel 7-field 23dbec")
            << "gavel" << QStringList{"traces/gavel/msr_seed0_23dbec.trace"} << 9 << -1 << 58 << 0
            << 0;
        QTest::newRow("gavel 7-field 925e2b")
            << "gavel" << QStringList{"traces/gavel/msr_seed0_925e2b.trace"} << 4 << -1 << 25 << 0
            << 0;
        QTest::newRow("pollux workload-6")
            << "pollux" << QStringList{"traces/pollux/workload-6.csv"} << 160 << -1 << 1134 << 0
            << 0;
        QTest::newRow("pollux realistic workload-6")
            << "pollux" << QStringList{"traces/pollux/workloads-realistic_workload-6.csv"} << 160
            << -1 << 223 << 0 << 0;
        QTest::newRow("philly job log example")
            << "philly" << QStringList{"traces/philly/philly_cluster_job_log_README_example.json"}
            << 1 << -1 << 8 << 0 << 0;
        QTest::newRow("tiresias yarn durations via mapping")
            << "csv-mapping"
            << QStringList{"handmade/yarn_durations_mapping.json",
                           "traces/tiresias/yarn-gput1000.csv"}
            << 1001 << -1 << 1001 << 0 << 0;
        QTest::newRow("philly-pollux")
            << "philly-pollux" << QStringList{"handmade/philly_pollux.csv"} << 3 << -1 << 13 << 0
            << 0;
        QTest::newRow("helios") << "helios" << QStringList{"handmade/helios_jobs.csv"} << 4 << -1
                                << 25 << 0 << 1;
        QTest::newRow("alibaba 2023 nodes+pods")
            << "alibaba-gpu2023"
            << QStringList{"handmade/alibaba2023_nodes.csv", "handmade/alibaba2023_pods.csv"} << 5
            << 5 << 22 << 1 << 1;
        QTest::newRow("alibaba pai 2020")
            << "alibaba-pai2020"
            << QStringList{"handmade/pai_machine_spec.csv", "handmade/pai_job.csv",
                           "handmade/pai_task.csv"}
            << 3 << 4 << 18 << 1 << 1;

        QTest::newRow("k8s alibaba 14 nodes")
            << "k8s-nodes" << QStringList{"k8s-nodes/alibaba_openb2023_gpu_nodes_sample.yaml"} << 0
            << 14 << 68 << 1 << 0;
        QTest::newRow("k8s kubectl json list")
            << "k8s-nodes" << QStringList{"handmade/k8s_nodes_list.json"} << 0 << 3 << 12 << 5 << 1;
        QTest::newRow("slurm giovtorres conf+gres")
            << "slurm"
            << QStringList{"slurm/giovtorres_docker-centos7-slurm_slurm.conf",
                           "slurm/giovtorres_docker-centos7-slurm_gres.conf"}
            << 0 << 4 << 12 << 1 << 0;
        QTest::newRow("slurm testsuite conf+gres")
            << "slurm"
            << QStringList{"slurm/slurm-testsuite_test7.17.1_slurm.conf",
                           "slurm/slurm-testsuite_test7.17.1_gres.conf"}
            << 0 << 10 << 80 << 1 << 0;
        QTest::newRow("slurm 22.05 example conf")
            << "slurm" << QStringList{"slurm/slurm-22.05.8_etc_slurm.conf.example"} << 0 << 32 << 0
            << 1 << 0;
        QTest::newRow("slurm gres.conf examples alone")
            << "slurm" << QStringList{"slurm/slurm-22.05.8_man5_gres.conf_EXAMPLES.txt"} << 0 << 16
            << 64 << 1 << 0;
        QTest::newRow("slurm topology.conf example alone")
            << "slurm" << QStringList{"slurm/slurm-22.05.8_man5_topology.conf_EXAMPLE.txt"} << 0
            << 18 << 0 << 4 << 0;
        QTest::newRow("slurm conf + tree topology")
            << "slurm"
            << QStringList{"handmade/tree_slurm.conf",
                           "slurm/slurm-22.05.8_man5_topology.conf_EXAMPLE.txt"}
            << 0 << 12 << 48 << 4 << 6;
        QTest::newRow("slurm block topology")
            << "slurm" << QStringList{"handmade/block_topology.conf"} << 0 << 8 << 0 << 3 << 0;
        QTest::newRow("scontrol show node")
            << "scontrol-nodes" << QStringList{"handmade/scontrol_show_node.txt"} << 0 << 2 << 4
            << 1 << 1; // (gpu02 is drained)
    }
    void importsFiles()
    {
        QFETCH(QString, format);
        QFETCH(QStringList, files);
        QFETCH(int, jobs);
        QFETCH(int, nodes);
        QFETCH(int, gpus);
        QFETCH(int, switches);
        QFETCH(int, skipped);
        auto r = runImport(format, files);
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(int(r->jobs.size()), jobs);
        QCOMPARE(int(r->jobOrigins.size()), jobs);
        QVERIFY2(int(r->skipped.size()) == skipped, qPrintable(joined(r.value())));
        if (nodes < 0) {
            QVERIFY(!r->cluster);
            QCOMPARE(jobGpus(r.value()), gpus);
        } else {
            QVERIFY(r->cluster);
            QCOMPARE(int(r->cluster->nodes.size()), nodes);
            QCOMPARE(r->cluster->totalGpus(), gpus);
            QCOMPARE(int(r->cluster->switches.size()), switches);
        }
        // What was imported makes a valid scenario (on the default cluster for traces).
        Scenario s;
        s.cluster = r->cluster ? *r->cluster : defaultImportCluster();
        ImportReport rep = r.value();
        addImportedJobs(s, rep);
        const Problems p = validateScenario(s);
        QVERIFY2(p.empty(), formatProblems(p).c_str());
        // Deterministic: a second import gives the same text.
        auto again = runImport(format, files);
        QVERIFY(again.ok());
        Scenario s2;
        s2.cluster = again->cluster ? *again->cluster : defaultImportCluster();
        ImportReport rep2 = again.value();
        addImportedJobs(s2, rep2);
        QCOMPARE(scenarioToText(s2), scenarioToText(s));
    }

    // Node lists with a state leave out the nodes that take no new job now, each named with
    // its state in the report; --keep-unavailable-nodes keeps them.
    void nodeListsLeaveOutNodesThatTakeNoJob()
    {
        QCOMPARE(slurmStateBlocking("IDLE"), std::string());
        QCOMPARE(slurmStateBlocking("MIXED~"), std::string()); // powered off: Slurm starts it
        QCOMPARE(slurmStateBlocking("ALLOCATED+DRAIN"), std::string("DRAIN"));
        QCOMPARE(slurmStateBlocking("DOWN+DRAIN+NOT_RESPONDING"), std::string("DOWN"));
        QCOMPARE(slurmStateBlocking("DOWN*"), std::string("DOWN"));
        QCOMPARE(slurmStateBlocking("IDLE*"), std::string("NOT_RESPONDING"));
        QCOMPARE(slurmStateBlocking("idle+draining"), std::string("DRAIN"));
        QCOMPARE(slurmStateBlocking("FAILING"), std::string("FAIL"));
        QCOMPARE(slurmStateBlocking(""), std::string());

        const Importer *scontrol = findImporter("scontrol-nodes");
        QVERIFY(scontrol);
        const std::string file = (kData + "handmade/scontrol_show_node.txt").toStdString();
        auto r = importFiles(*scontrol, {file});
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(int(r->cluster->nodes.size()), 2);
        QCOMPARE(r->cluster->totalGpus(), 4);
        QCOMPARE(int(r->skipped.size()), 1);
        QCOMPARE(r->skipped[0].toString(),
                 file + ":13: node \"gpu02\": State=DRAIN: it takes no new job (DRAIN); "
                        "--keep-unavailable-nodes keeps it");
        ImportOptions keep;
        keep.keepUnavailableNodes = true;
        auto all = importFiles(*scontrol, {file}, keep);
        QVERIFY(all.ok());
        QCOMPARE(int(all->cluster->nodes.size()), 3);
        QCOMPARE(all->cluster->totalGpus(), 8);
        QCOMPARE(int(all->skipped.size()), 0);

        QTemporaryDir dir;
        const std::string nodes = dir.filePath(QStringLiteral("nodes.yaml")).toStdString();
        std::ofstream(nodes) << R"(apiVersion: v1
kind: List
items:
- kind: Node
  metadata: {name: cordoned}
  spec: {unschedulable: true}
  status: {allocatable: {cpu: "8", memory: 64Gi, nvidia.com/gpu: "8"}}
- kind: Node
  metadata: {name: lost}
  status:
    allocatable: {cpu: "8", memory: 64Gi, nvidia.com/gpu: "8"}
    conditions:
    - {type: MemoryPressure, status: "False"}
    - {type: Ready, status: Unknown}
- kind: Node
  metadata: {name: ready}
  status:
    allocatable: {cpu: "8", memory: 64Gi, nvidia.com/gpu: "4"}
    conditions:
    - {type: Ready, status: "True"}
)";
        const Importer *k8s = findImporter("k8s-nodes");
        QVERIFY(k8s);
        auto k = importFiles(*k8s, {nodes});
        QVERIFY2(k.ok(), k.ok() ? "" : k.error().c_str());
        QCOMPARE(int(k->cluster->nodes.size()), 1);
        QCOMPARE(k->cluster->nodes[0].id, std::string("ready"));
        QCOMPARE(int(k->skipped.size()), 2);
        QCOMPARE(k->skipped[0].toString(),
                 nodes + ":4: node \"cordoned\" is cordoned (spec.unschedulable): it takes no "
                         "new pod; --keep-unavailable-nodes keeps it");
        QCOMPARE(k->skipped[1].toString(),
                 nodes + ":8: node \"lost\" is not Ready (its Ready condition is \"Unknown\"): "
                         "it takes no new pod; --keep-unavailable-nodes keeps it");
        auto kAll = importFiles(*k8s, {nodes}, keep);
        QVERIFY(kAll.ok());
        QCOMPARE(kAll->cluster->totalGpus(), 20);
    }

    void jobsThatFitNoNodeSayWhatInItsUnit()
    {
        // A slurm.conf without RealMemory gives Slurm's 1 MiB per node: a job's 2 GiB task
        // fits none, said in MiB ("(0.000976562 GiB)" read as a rounding error).
        auto r =
            runImport(QStringLiteral("tiresias"), {QStringLiteral("traces/tiresias/60_job.csv")});
        QVERIFY2(r.ok(), r.error().c_str());
        Scenario s;
        s.cluster = defaultImportCluster();
        for (Node &n : s.cluster.nodes)
            n.memoryGiB = 1.0 / 1024;
        ImportReport rep = r.value();
        addImportedJobs(s, rep);
        QCOMPARE(s.jobs.size(), std::size_t(0));
        QVERIFY(!rep.skipped.empty());
        const std::string note = rep.skipped.front().toString();
        QVERIFY2(note.find(" cannot run on this cluster: needs 2 GiB; a task needs more memory "
                           "than any node has (1 MiB)") != std::string::npos,
                 note.c_str());
    }

    // Malformed inputs: a fatal error (nothing imported) or skipped rows, each with its line.
    void malformed_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("jobs");         // -1: fatal error expected
        QTest::addColumn<QString>("expected"); // "LINE: text" in a skip note or the error

        QTest::newRow("CRLF") << "tiresias"
                              << "malformed/tiresias_crlf.csv" << 3 << "";
        QTest::newRow("no final newline") << "tiresias"
                                          << "malformed/tiresias_no_final_newline.csv" << 3 << "";
        QTest::newRow("BOM") << "tiresias"
                             << "malformed/tiresias_bom.csv" << 3 << "";
        QTest::newRow("missing column")
            << "tiresias"
            << "malformed/tiresias_missing_column.csv" << -1
            << "1: missing column \"num_gpu\" in the header (found: job_id, submit_time, "
               "iterations, model_name, duration, interval)";
        QTest::newRow("bad number") << "tiresias"
                                    << "malformed/tiresias_bad_number.csv" << 2
                                    << "3: column num_gpu: expected an integer, found \"two\"";
        QTest::newRow("empty field") << "tiresias"
                                     << "malformed/tiresias_empty_field.csv" << 2
                                     << "3: column submit_time is empty (expected a number)";
        QTest::newRow("short row")
            << "tiresias"
            << "malformed/tiresias_short_row.csv" << 2 << "3: expected 7 fields, found 4";
        QTest::newRow("duplicate id") << "tiresias"
                                      << "malformed/tiresias_duplicate_id.csv" << 2
                                      << "4: duplicate job id \"1\" (first at line 3)";
        QTest::newRow("unclosed quote") << "pollux"
                                        << "malformed/pollux_unclosed_quote.csv" << -1
                                        << "3: quoted field opened here is never closed";
        QTest::newRow("gavel short row")
            << "gavel"
            << "malformed/gavel_wrong_fields.trace" << 1 << "2: expected 7 fields, found 5";
        QTest::newRow("gavel bad scale factor")
            << "gavel"
            << "malformed/gavel_bad_scale.trace" << 1
            << "2: column scale_factor: expected an integer, found \"four\"";
        QTest::newRow("gavel negative arrival")
            << "gavel"
            << "malformed/gavel_negative_arrival.trace" << 1
            << "2: column arrival_time: expected seconds from the trace's start, 0 or more, "
               "found \"-7\"";
        QTest::newRow("philly broken JSON")
            << "philly"
            << "malformed/philly_bad_json.json" << -1 << "line 4, column";
        QTest::newRow("philly job that never ran")
            << "philly"
            << "malformed/philly_never_ran.json" << 1
            << "2: job a never ran on a GPU (no attempt lists GPUs): no size to import";
        QTest::newRow("philly bad time")
            << "philly"
            << "malformed/philly_never_ran.json" << 1
            << "6: /2/submitted_time: expected \"YYYY-MM-DD HH:MM:SS\"";
        // An attempt whose time or GPUs do not read skips its job (its duration or size
        // would be wrong); an attempt not ended ("None") only adds nothing.
        QTest::newRow("philly attempt bad date")
            << "philly"
            << "malformed/philly_bad_attempts.json" << 1
            << "7: job bad-date: /1/attempts/1/end_time: expected \"YYYY-MM-DD HH:MM:SS\" or "
               "None, found \"2017-99-09 06:53:12\"";
        QTest::newRow("philly attempt GPUs not a list")
            << "philly"
            << "malformed/philly_bad_attempts.json" << 1
            << "12: job bad-gpus: /2/attempts/0/detail/0/gpus: expected a list of GPU ids, "
               "found \"x\"";
        QTest::newRow("philly attempt over a year")
            << "philly"
            << "malformed/philly_bad_attempts.json" << 1
            << "15: job far: /3/attempts/0: runs 358670 days (2017-10-07 01:00:10 to "
               "2999-10-09 06:53:12), over a year: check its dates";
        QTest::newRow("philly attempt ends before it starts")
            << "philly"
            << "malformed/philly_bad_attempts.json" << 1
            << "18: job backwards: /4/attempts/0: ends (2017-10-06 01:00:00) before it starts "
               "(2017-10-07 01:00:10)";
        QTest::newRow("k8s bad cpu quantity")
            << "k8s-nodes"
            << "malformed/k8s_bad_quantity.yaml" << 0
            << "16: node \"n2\": cpu: expected a quantity such as \"8\" or \"7500m\", found "
               "\"eight\"";
        // The line of the field, not of the map it is in (line 8, pods, was said).
        QTest::newRow("k8s bad GPU count") << "k8s-nodes"
                                           << "malformed/k8s_bad_gpu_count.yaml" << 0
                                           << "12: node \"n1\": GPU count: expected a whole number "
                                              "from 0 to 1024, found \"eight\"";
        QTest::newRow("k8s broken YAML") << "k8s-nodes"
                                         << "malformed/k8s_bad_yaml.yaml" << -1 << "5: column";
        QTest::newRow("slurm broken hostlist")
            << "slurm"
            << "malformed/slurm_bad_hostlist.conf" << -1
            << "1: NodeName: node[01-04: unclosed '[' in host list";
        QTest::newRow("slurm bad gres count")
            << "slurm"
            << "malformed/slurm_bad_gres.conf" << 0
            << "1: Gres: expected a count after \"gpu:v100:\", found \"lots\"";
        QTest::newRow("helios bad time")
            << "helios"
            << "handmade/helios_jobs.csv" << 4
            << "6: column submit_time: expected a date-time (as its first value at line 2, "
               "\"2020-04-01 00:00:10\"; --time-format submit_time=FORMAT overrides), found "
               "\"yesterday\"";
        QTest::newRow("alibaba pod bad number")
            << "alibaba-gpu2023"
            << "handmade/alibaba2023_pods.csv" << 5
            << "7: column num_gpu: expected an integer, found \"x\"";
        QTest::newRow("pai task never started")
            << "alibaba-pai2020"
            << "handmade/pai_task.csv" << 3
            << "5: task never started (start_time empty): left out (--pending wait keeps it, "
               "with the job table's time)";
    }
    void malformed()
    {
        QFETCH(QString, format);
        QFETCH(QString, file);
        QFETCH(int, jobs);
        QFETCH(QString, expected);
        auto r = runImport(format, {file});
        const QString path = kData + file;
        if (jobs < 0) {
            QVERIFY(!r.ok());
            const QString err = QString::fromStdString(r.error());
            QVERIFY2(err.startsWith(path + ":" + expected.section(':', 0, 0)) ||
                         err.contains(expected),
                     qPrintable(err));
            QVERIFY2(err.contains(expected.section(": ", 1)), qPrintable(err));
            return;
        }
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(int(r->jobs.size()), jobs);
        if (expected.isEmpty()) {
            QVERIFY2(r->skipped.empty(), qPrintable(joined(r.value())));
            return;
        }
        const QString want = path + ":" + expected;
        QVERIFY2(joined(r.value()).contains(want),
                 qPrintable(joined(r.value()) + "\nwant: " + want));
    }

    void k8sMemoryWithoutAUnitSaid()
    {
        // "memory: 512" is 512 bytes, in which no job fits (a unit left out): said, as the
        // Slurm importer says a node without RealMemory.
        auto r = runImport("k8s-nodes", {"malformed/k8s_bad_gpu_count.yaml"});
        QVERIFY2(r.ok(), r.error().c_str());
        QVERIFY(r->cluster);
        QCOMPARE(int(r->cluster->nodes.size()), 1);
        QCOMPARE(r->cluster->nodes[0].memoryGiB, 512.0 / 1073741824.0);
        QVERIFY2(joined(r.value()).contains(
                     "1 node gives memory below 1 GiB (n2: 512), in which no training job fits: "
                     "a quantity without a unit is bytes (\"512Gi\" is 512 GiB)"),
                 qPrintable(joined(r.value())));
    }

    void tiresiasDetails()
    {
        auto r = runImport("tiresias", {"malformed/tiresias_unsorted.csv"});
        QVERIFY(r.ok());
        QCOMPARE(int(r->jobs.size()), 3);
        // Sorted by submit time (30, 53, 100) and rebased to start at 0.
        QCOMPARE(QString::fromStdString(r->jobs[0].id), QString("1"));
        QCOMPARE(r->jobs[0].submitSeconds, 0.0);
        QCOMPARE(r->jobs[1].submitSeconds, 23.0);
        QCOMPARE(r->jobs[2].submitSeconds, 70.0);
        QCOMPARE(r->jobOrigins[0].line, 3);
        const QString notes = joined(r.value());
        QVERIFY2(notes.contains("rows are not in submit-time order (first out of order: " + kData +
                                "malformed/tiresias_unsorted.csv:3)"),
                 qPrintable(notes));
        QVERIFY(notes.contains("times rebased: the first submission (30 s in the trace's time "
                               "base) is at 0 s"));
        // vgg11, 8 GPUs: 8 one-GPU workers; 133 iterations of 147/133 s each.
        const Job &j = r->jobs[0];
        QCOMPARE(j.kind, JobKind::AllReduce);
        QCOMPARE(j.tasks.front().replicas, 8);
        QCOMPARE(j.tasks.front().gpus, 1);
        QCOMPARE(QString::fromStdString(j.model.name), QString("vgg11"));
        QCOMPARE(qint64(j.model.parameterBytes), qint64(132863336) * 4); // torchvision vgg11
        QCOMPARE(qint64(j.model.iterations), qint64(133));
        QCOMPARE(j.model.computeSecondsPerIteration, 147.0 / 133.0);
        QCOMPARE(r->jobs[2].kind, JobKind::Single);
    }

    void phillyDetails()
    {
        auto r = runImport("philly", {"traces/philly/philly_cluster_job_log_README_example.json"});
        QVERIFY(r.ok());
        const Job &j = r->jobs.front();
        QCOMPARE(QString::fromStdString(j.id), QString("application_1506638472019_14199"));
        // One machine with 8 GPUs in the last attempt: one task with 8 GPUs.
        QCOMPARE(j.kind, JobKind::Single);
        QCOMPARE(j.tasks.front().gpus, 8);
        // Attempts ran 74 s and 2 d 5:39:42 = 193182 s: 193256 s at 0.1 s per iteration.
        QCOMPARE(qint64(j.model.iterations), qint64(1932560));
        QCOMPARE(QString::fromStdString(j.model.name), QString("resnet50"));
        QCOMPARE(qint64(j.model.parameterBytes), qint64(25557032) * 4); // torchvision resnet50
        QCOMPARE(r->jobOrigins.front().line, 1);
        QVERIFY(joined(r.value()).contains(
            "no known model size for 1 job: default profile resnet50 (25.557032M parameters, "
            "102228128 bytes in fp32) assumed"));
    }

    void gavelDetails()
    {
        auto r = runImport("gavel", {"traces/gavel/msr_seed0_23dbec.trace"});
        QVERIFY(r.ok());
        // Arrivals 0, 11, 182095, ...: already sorted; ids name the line.
        QCOMPARE(QString::fromStdString(r->jobs[1].id), QString("gavel-2"));
        QCOMPARE(r->jobs[1].submitSeconds, 11.0);
        QCOMPARE(qint64(r->jobs[1].model.iterations), qint64(1550));
        QCOMPARE(QString::fromStdString(r->jobs[3].model.name),
                 QString("resnet18")); // "ResNet-18 (batch size 32)"
        QCOMPARE(r->jobs[3].gpuCount(), 8);
        QVERIFY(joined(r.value()).contains("older 7-field layout"));
        {
            // The names without a catalogue size are a note of their own (in one sentence
            // with the default profile's, a report wrapped it as if a new note began).
            auto physical =
                runImport("gavel", {"traces/gavel/physical_cluster_artifact_evaluation.trace"});
            QVERIFY(physical.ok());
            const auto &notes = physical->assumptions;
            QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string &a) {
                return a.rfind("model names not in the catalogue, given that default profile: "
                               "\"Recommendation (batch size 8192)\" (1 job)",
                               0) == 0;
            }));
            QVERIFY(std::none_of(notes.begin(), notes.end(), [](const std::string &a) {
                return a.find("assumed; model names") != std::string::npos;
            }));
        }
        QVERIFY(!joined(r.value()).contains("not in submit-time order"));
        // That layout has no priority_weight: the notes do not claim to have read one.
        QVERIFY(joined(r.value()).contains("total_steps / scale_factor data-parallel iterations"));
        QVERIFY(!joined(r.value()).contains("priority_weight"));
    }

    void paiDetails()
    {
        auto r = runImport("alibaba-pai2020", {"handmade/pai_machine_spec.csv",
                                               "handmade/pai_job.csv", "handmade/pai_task.csv"});
        QVERIFY(r.ok());
        // Submit times from the job table: 1000, 1100, 1200 -> 0, 100, 200.
        QCOMPARE(QString::fromStdString(r->jobs[0].id), QString("j-ps1"));
        QCOMPARE(r->jobs[0].kind, JobKind::ParameterServer);
        QCOMPARE(r->jobs[0].taskCount(), 6);
        QCOMPARE(r->jobs[0].gpuCount(), 4);
        QCOMPARE(r->jobs[0].tasks[0].cpus, 6.0);
        QCOMPARE(QString::fromStdString(r->jobs[1].id), QString("j-ar"));
        QCOMPARE(r->jobs[1].submitSeconds, 100.0);
        QCOMPARE(r->jobs[1].kind, JobKind::AllReduce);
        QCOMPARE(QString::fromStdString(r->jobs[1].tasks[0].gpuType), QString()); // MISC: any type
        QCOMPARE(QString::fromStdString(r->jobs[2].id), QString("j-single"));
        QCOMPARE(r->jobs[2].tasks[0].gpuFraction, 0.5);
        QCOMPARE(QString::fromStdString(r->jobs[2].tasks[0].gpuType), QString("T4"));
        QCOMPARE(r->cluster->gpusByType().at("V100M32"), 8);
    }

    void slurmDetails()
    {
        auto r = runImport("slurm", {"slurm/giovtorres_docker-centos7-slurm_slurm.conf",
                                     "slurm/giovtorres_docker-centos7-slurm_gres.conf"});
        QVERIFY(r.ok());
        const Cluster &c = r->cluster.value();
        QCOMPARE(c.nodes[0].cpus, 112.0);                // Sockets=2 x CoresPerSocket=56
        QCOMPARE(c.nodes[0].memoryGiB, 549756 / 1024.0); // RealMemory in MiB
        QCOMPARE(c.nodes[0].gpus, 0);
        QCOMPARE(c.nodes[1].gpus, 6); // gpu:titanxp:3,gpu:a100:3
        QCOMPARE(QString::fromStdString(c.nodes[1].gpuType), QString("titanxp"));
        QCOMPARE(c.nodes[2].gpus, 3); // Gres repeated: the last (gpu:titanxp:3) wins
        QCOMPARE(QString::fromStdString(c.nodes[3].gpuType), QString("a100"));
        QCOMPARE(QString::fromStdString(c.nodes[0].partition), QString("normal"));
        QCOMPARE(QString::fromStdString(c.nodes[3].partition), QString("debug"));
        const QString notes = joined(r.value());
        QVERIFY(notes.contains("giovtorres_docker-centos7-slurm_slurm.conf:59: gres is given 2 "
                               "times; the last value is used, as Slurm does"));
        QVERIFY(notes.contains("no topology.conf: one switch \"switch0\" links all 4 nodes"));

        auto tree = runImport("slurm", {"handmade/tree_slurm.conf",
                                        "slurm/slurm-22.05.8_man5_topology.conf_EXAMPLE.txt"});
        QVERIFY(tree.ok());
        QCOMPARE(QString::fromStdString(tree->cluster->nodes[7].rack), QString("s1"));
        QCOMPARE(int(tree->cluster->links.size()), 15); // 12 nodes + 3 switch links
        QCOMPARE(QString::fromStdString(tree->cluster->nodes[0].labels.at("slurm.feature/rack0")),
                 QString("true"));
        QVERIFY(joined(tree.value())
                    .contains("slurm-22.05.8_man5_topology.conf_EXAMPLE.txt:7: node \"dev12\" is "
                              "not defined by "
                              "the other files"));
    }

    void topologyProblemsNameTheirLine()
    {
        // A switch that names one no line defines fails at that line; a line cut short is
        // said, not dropped silently.
        QTemporaryDir dir;
        const auto write = [&dir](const char *name, const char *text) {
            const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
            std::ofstream(path) << text;
            return path;
        };
        const std::string conf = write("slurm.conf", "NodeName=n[1-2] CPUs=4\n");
        const std::string bad = write("bad.conf", "SwitchName=s1 Nodes=n1\n"
                                                  "SwitchName=s2 Nodes=n2\n"
                                                  "SwitchName=top Switches=s[1-3]\n");
        const Importer *slurm = findImporter("slurm");
        QVERIFY(slurm);
        auto r = importFiles(*slurm, {conf, bad});
        QVERIFY(!r.ok());
        QCOMPARE(r.error(), bad + ":3: switch top lists unknown switch \"s3\" (no SwitchName=s3 "
                                  "line)");
        const std::string cut = write("cut.conf", "SwitchName=s1 Nodes=n[1-2]\nSwitchNam");
        auto c = importFiles(*slurm, {conf, cut});
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        QVERIFY2(joined(c.value()).contains(QString::fromStdString(
                     cut + ":2: \"switchnam\" is not a topology.conf line (expected SwitchName=, "
                           "BlockName= or BlockSizes=)")),
                 qPrintable(joined(c.value())));
    }

    void k8sDetails()
    {
        auto r = runImport("k8s-nodes", {"handmade/k8s_nodes_list.json"});
        QVERIFY(r.ok());
        const Cluster &c = r->cluster.value();
        QCOMPARE(c.nodes[0].cpus, 7.5); // allocatable 7500m, not capacity 8
        QCOMPARE(c.nodes[0].memoryGiB, 64.0);
        QCOMPARE(QString::fromStdString(c.nodes[0].rack), QString("r1"));
        QCOMPARE(c.nodes[1].memoryGiB, 1e9 / 1073741824.0);
        QCOMPARE(c.nodes[2].cpus, 4.0); // capacity only
        QCOMPARE(c.gpuType("NVIDIA-A100-SXM4-80GB")->memoryGiB, 80.0);
        QCOMPARE(int(c.links.size()), 7);
        QVERIFY(joined(r.value()).contains("k8s_nodes_list.json:17: a Pod object, not a Node"));

        auto ali = runImport("k8s-nodes", {"k8s-nodes/alibaba_openb2023_gpu_nodes_sample.yaml"});
        QVERIFY(ali.ok());
        QCOMPARE(ali->cluster->nodes[0].cpus, 64.0);
        QCOMPARE(ali->cluster->nodes[0].memoryGiB, 256.0);
        QCOMPARE(int(ali->cluster->gpuTypes.size()), 7);
        QVERIFY(joined(ali.value()).contains("GPU types not in the catalogue: G2, G3"));
    }

    void cliWritesScenarioOrNothing()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("s.json");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("COLUMNS", "1000"); // (the report unwrapped: its notes found whole)
        p.setProcessEnvironment(env);
        p.start(CB_CLUSTERBENCH,
                {"import", "tiresias", kData + "traces/tiresias/60_job.csv", "--out", out});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString(p.readAllStandardError()).contains("60 jobs written to " + out));
        auto s = loadScenarioFile(out.toStdString());
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(int(s->jobs.size()), 60);
        QCOMPARE(int(s->cluster.nodes.size()), 4);

        // Jobs into an imported cluster, JSON report on stdout.
        const QString cluster = dir.filePath("c.json");
        p.start(CB_CLUSTERBENCH,
                {"import", "slurm", kData + "handmade/tree_slurm.conf", "--out", cluster});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        p.start(CB_CLUSTERBENCH, {"import", "gavel", kData + "traces/gavel/msr_seed0_925e2b.trace",
                                  "--cluster", cluster, "--out", out, "--json"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray json = p.readAllStandardOutput();
        QVERIFY2(json.contains("\"jobs\": 4") && json.contains("\"written\": true"), json);
        s = loadScenarioFile(out.toStdString());
        QVERIFY(s.ok());
        QCOMPARE(int(s->cluster.nodes.size()), 12);
        QCOMPARE(int(s->jobs.size()), 4);

        // A fatal error writes nothing and exits 2.
        const QString none = dir.filePath("none.json");
        p.start(CB_CLUSTERBENCH, {"import", "tiresias",
                                  kData + "malformed/tiresias_missing_column.csv", "--out", none});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString(p.readAllStandardError()).contains("missing column \"num_gpu\""));
        QVERIFY(!QFile::exists(none));
        p.start(CB_CLUSTERBENCH, {"import", "nosuch", "x", "--out", none});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
    }
};

QTEST_APPLESS_MAIN(TestImport)
#include "tst_import.moc"
