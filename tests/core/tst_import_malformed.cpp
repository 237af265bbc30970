// Every importer on the damage real files meet on their way to a user: the line endings of
// Windows (CRLF), a UTF-8 byte-order mark, an empty file and a file cut in half. Each case is
// a real public file from tests/data: CRLF and BOM must import to the same cluster and jobs as
// the file itself; an empty file fails naming the file; a cut file either fails naming the
// file (XML: also the line) or imports no more than the whole file, never crashes and never
// reports success with nothing in it.

#include "io/import/scenario_import.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace cb;

namespace {

const std::string kData = CB_TEST_DATA "/import/";

std::string readBytes(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeBytes(const std::string &path, const std::string &bytes)
{
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

// What an import gave: enough to tell two imports apart.
struct Shape
{
    std::size_t nodes = 0, switches = 0, links = 0, jobs = 0;
    int gpus = 0;
    std::string firstNode, lastJob;
    bool operator==(const Shape &) const = default;
};

std::string show(const Shape &s)
{
    return std::to_string(s.nodes) + " nodes (" + s.firstNode + "...), " + std::to_string(s.gpus) +
           " GPUs, " + std::to_string(s.switches) + " switches, " + std::to_string(s.links) +
           " links, " + std::to_string(s.jobs) + " jobs (..." + s.lastJob + ")";
}

struct Outcome
{
    bool ok = false;
    ImportFailure failure = ImportFailure::None;
    std::string problems;
    Shape shape;
};

Outcome importFile(const std::string &format, const std::string &path,
                   const std::string &nodeTemplate = {})
{
    ImportRequest req;
    req.format = format;
    req.files = {path};
    req.nodeTemplate = nodeTemplate;
    req.name = "same";
    ScenarioImport imp(req);
    Outcome o;
    o.ok = imp.run();
    o.failure = imp.failure();
    for (const Problem &p : imp.problems())
        o.problems += p.toString() + "\n";
    const Scenario &s = imp.scenario();
    if (o.ok) {
        o.shape.nodes = s.cluster.nodes.size();
        o.shape.switches = s.cluster.switches.size();
        o.shape.links = s.cluster.links.size();
        o.shape.gpus = s.cluster.totalGpus();
        o.shape.jobs = s.jobs.size();
        if (!s.cluster.nodes.empty())
            o.shape.firstNode = s.cluster.nodes.front().id;
        if (!s.jobs.empty())
            o.shape.lastJob = s.jobs.back().id;
    }
    return o;
}

std::string crlf(const std::string &text)
{
    std::string out;
    for (char c : text) {
        if (c == '\n')
            out += '\r';
        out += c;
    }
    return out;
}

} // namespace

class TestImportMalformed : public QObject
{
    Q_OBJECT

private slots:
    void damaged_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("nodeTemplate");
        const std::pair<const char *, const char *> cases[] = {
            {"nccl-topo", "topology/nccl/simllm_vastai_hgx_h200_8x_nccl_topo.xml"},
            {"nccl-topo", "topology/nccl/aws-ofi-nccl_p4d-24xl-topo.xml"},
            {"hwloc", "topology/hwloc/hwloc-v2.14_nvidiaDGX2.xml"},
            {"simgrid", "topology/simgrid/simgrid_cluster_fat_tree.xml"},
            {"simgrid", "topology/simgrid/simgrid_griffon.xml"},
            {"topograph", "topology/topograph/topograph-v1.0.0_medium.yaml"},
            {"topograph", "topology/topograph/topograph-v0.5.0_medium.yaml"},
            {"slurm", "slurm/slurm-25.05.0_man5_topology.yaml_EXAMPLE.yaml"},
            {"slurm", "slurm/slurm-testsuite_test_133_1_testcase6_topology.conf"},
            {"slurm", "slurm/slurm-testsuite_test7.17.1_slurm.conf"},
            {"k8s-nodes", "k8s-nodes/alibaba_openb2023_gpu_nodes_sample.yaml"},
            {"tiresias-cluster", "topology/tiresias/tiresias_n160g8.csv"},
            {"philly-pollux", "traces/pollux/philly_osdi21_head200.csv"},
            {"gavel", "traces/gavel/msr_seed0_23dbec.trace"},
            {"alibaba-gpu2023", "traces/alibaba-gpu2023/openb_pod_list_multigpu50_head50.csv"},
            {"tiresias", "traces/tiresias/60_job.csv"},
            {"pollux", "traces/pollux/workloads-realistic_workload-6.csv"},
        };
        // Slurm's topology files alone name nodes without GPUs: a cluster that runs nothing
        // is not imported, so they are given a node.
        for (const auto &[format, file] : cases)
            QTest::newRow(file) << QString(format) << QString(file)
                                << QString(QString(file).contains("_topology.") ? "gpus=8" : "");
    }
    void damaged()
    {
        QFETCH(QString, format);
        QFETCH(QString, file);
        QFETCH(QString, nodeTemplate);
        const std::string fmt = format.toStdString();
        const std::string node = nodeTemplate.toStdString();
        const std::string source = kData + file.toStdString();
        const std::string base = file.toStdString().substr(file.toStdString().rfind('/') + 1);
        const std::string bytes = readBytes(source);
        QVERIFY(!bytes.empty());

        const Outcome whole = importFile(fmt, source, node);
        QVERIFY2(whole.ok, whole.problems.c_str());

        // Each variant in its own folder under the same file name (node names may come from
        // the file name).
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto variant = [&](const std::string &kind, const std::string &content) {
            const std::string folder = dir.filePath(QString::fromStdString(kind)).toStdString();
            QDir().mkpath(QString::fromStdString(folder));
            const std::string path = folder + "/" + base;
            writeBytes(path, content);
            return path;
        };

        // Windows line endings and a byte-order mark change nothing.
        if (bytes.find('\r') == std::string::npos) {
            const Outcome o = importFile(fmt, variant("crlf", crlf(bytes)), node);
            QVERIFY2(o.ok, o.problems.c_str());
            QVERIFY2(o.shape == whole.shape,
                     ("CRLF: " + show(o.shape) + "\nwhole: " + show(whole.shape)).c_str());
        }
        {
            const Outcome o = importFile(fmt, variant("bom", "\xEF\xBB\xBF" + bytes), node);
            QVERIFY2(o.ok, o.problems.c_str());
            QVERIFY2(o.shape == whole.shape,
                     ("BOM: " + show(o.shape) + "\nwhole: " + show(whole.shape)).c_str());
        }

        // An empty file: refused, naming it.
        {
            const std::string path = variant("empty", "");
            const Outcome o = importFile(fmt, path, node);
            QVERIFY2(!o.ok, show(o.shape).c_str());
            QVERIFY2(o.failure == ImportFailure::BadInput ||
                         o.failure == ImportFailure::NothingUsable,
                     o.problems.c_str());
            QVERIFY2(o.problems.find(path) != std::string::npos, o.problems.c_str());
        }

        // Cut in half (in the middle of a line): refused naming the file (XML: and a line),
        // or read as far as it goes, never more than the whole file.
        {
            const std::string path = variant("cut", bytes.substr(0, bytes.size() / 2));
            const Outcome o = importFile(fmt, path, node);
            const bool xml = base.ends_with(".xml");
            if (xml) {
                QVERIFY2(!o.ok, show(o.shape).c_str());
                QVERIFY2(o.problems.find(path + ":") != std::string::npos, o.problems.c_str());
            } else if (!o.ok) {
                QVERIFY2(o.problems.find(path) != std::string::npos, o.problems.c_str());
            } else {
                QVERIFY2(o.shape.nodes > 0, show(o.shape).c_str());
                QVERIFY2(o.shape.nodes <= whole.shape.nodes && o.shape.jobs <= whole.shape.jobs,
                         ("cut: " + show(o.shape) + "\nwhole: " + show(whole.shape)).c_str());
            }
        }
    }

    // `kubectl get nodes -o json` cut short: said in JSON's words, with its line and column,
    // not the YAML parser's ("end of sequence flow not found") that reads it.
    void truncatedJsonNodeList()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("nodes.json")).toStdString();
        writeBytes(path, "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [\n"
                         "    {\"kind\": \"Node\", \"metadata\": {\"name\": \"gpu-1\"}},\n");
        const Outcome o = importFile("k8s-nodes", path);
        QVERIFY(!o.ok);
        QCOMPARE(o.failure, ImportFailure::BadInput);
        QCOMPARE(o.problems, path + ": not valid JSON: line 6, column 1: syntax error while "
                                    "parsing value - unexpected end of input; expected '[', "
                                    "'{', or a literal\n");
    }

    // A value out of range is found in the cluster the file gives: the message names the
    // node, as the file does, besides where it sits in the scenario.
    void outOfRangeValueNamesTheNode()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string bytes = readBytes(kData + "handmade/scontrol_show_node.txt");
        const std::size_t at = bytes.find("RealMemory=515000");
        QVERIFY(at != std::string::npos);
        bytes.replace(at, 17, "RealMemory=99999999999999999999515000");
        const std::string path = dir.filePath(QStringLiteral("nodes.txt")).toStdString();
        writeBytes(path, bytes);
        const Outcome o = importFile("scontrol-nodes", path);
        QVERIFY(!o.ok);
        QCOMPARE(o.failure, ImportFailure::BadInput);
        QVERIFY2(o.problems.starts_with(path + ": node \"gpu01\" (/cluster/nodes/0/memory_gib): "
                                               "expected a number in [0, 1e+09]"),
                 o.problems.c_str());
    }
};

QTEST_GUILESS_MAIN(TestImportMalformed)
#include "tst_import_malformed.moc"
