// One GPU catalogue (model/gpu_catalog.h) for generated and imported clusters: every GPU name
// in the real files under tests/data (Kubernetes node labels, Slurm gres types, the STS
// authors' price and profile tables) is recognised as a catalogue model, or is on the short
// list of names that do not identify a model, for which importers state a default entry.

#include "io/file_io.h"
#include "io/import/csv_table.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/importer_registry.h"
#include "model/gpu_catalog.h"

#include <QtTest>

#include <map>
#include <set>

using namespace cb;

namespace {

const std::string kData = CB_TEST_DATA "/";

// Every name the files below contain, and the model it must resolve to ("" = none).
const std::map<std::string, std::string> kExpected = {
    // Alibaba GPU 2023 node labels (alibabacloud.com/gpu-card-model)
    {"A10", "A10"},
    {"P100", "P100"},
    {"T4", "T4"},
    {"V100M16", "V100-16GB"},
    {"V100M32", "V100"},
    {"G2", ""}, // masked by Alibaba in the public trace
    {"G3", ""}, // masked by Alibaba in the public trace
    // Slurm gres types (docker-centos7-slurm, gres.conf man page examples)
    {"titanxp", "TitanXp"},
    {"a100", "A100-40GB"},
    {"gtx560", ""}, // a 2011 consumer card, in the man page only
    // STS authors' tables (GPUtype / GpuType columns)
    {"K80", "K80"},
    {"M60", "M60"},
    {"GTX 1080Ti", "GTX1080Ti"},
    {"Quadro P600", "QuadroP600"},
    {"TESLA", ""}, // the authors' server names: GPU architectures, not models
    {"TURING", ""},
};

std::set<std::string> clusterGpuNames(const std::string &format, std::vector<std::string> files)
{
    for (std::string &f : files)
        f = kData + f;
    auto r = importFiles(*findImporter(format), files, {});
    std::set<std::string> names;
    if (r.ok())
        for (const Node &n : r->cluster->nodes)
            if (n.gpus > 0)
                names.insert(n.gpuType);
    return names;
}

std::set<std::string> csvColumn(const std::string &file, const std::string &column)
{
    std::set<std::string> names;
    auto text = readTextFile(kData + file);
    if (!text)
        return names;
    auto table = CsvTable::withHeader(text.value(), file, {column});
    if (!table)
        return names;
    for (const CsvRow &row : table->rows())
        names.insert(table->field(row, column));
    return names;
}

} // namespace

class TestGpuNames : public QObject
{
    Q_OBJECT

private slots:
    void everyNameInTheDataResolves()
    {
        std::set<std::string> found;
        auto add = [&](const std::set<std::string> &names) {
            QVERIFY(!names.empty());
            found.insert(names.begin(), names.end());
        };
        add(clusterGpuNames("k8s-nodes",
                            {"import/k8s-nodes/alibaba_openb2023_gpu_nodes_sample.yaml"}));
        add(clusterGpuNames("slurm", {"import/slurm/giovtorres_docker-centos7-slurm_slurm.conf",
                                      "import/slurm/giovtorres_docker-centos7-slurm_gres.conf"}));
        add(clusterGpuNames("slurm", {"import/slurm/slurm-22.05.8_man5_gres.conf_EXAMPLES.txt"}));
        add(csvColumn("sts/GPU-cost.csv", "GPUtype"));
        add(csvColumn("sts/GPU-cost_server.csv", "GPUtype"));
        add(csvColumn("sts/GPU-cost_server_4-2.csv", "GPUtype"));
        add(csvColumn("sts/fractions.csv", "GPUtype"));
        add(csvColumn("sts/data_2d10d_filtered.csv", "GpuType"));
        // Exactly the names listed above: a new name in the data needs a decision here.
        std::set<std::string> listed;
        for (const auto &[name, model] : kExpected)
            listed.insert(name);
        auto join = [](const std::set<std::string> &names) {
            std::string s;
            for (const std::string &n : names)
                s += "[" + n + "] ";
            return s;
        };
        QVERIFY2(found == listed, ("found " + join(found) + "\nlisted " + join(listed)).c_str());
        for (const auto &[name, model] : kExpected) {
            const GpuRecognition r = recogniseGpu(name);
            QVERIFY2(r.recognised == !model.empty(), name.c_str());
            QCOMPARE(r.model, model);
            bool recognised = false;
            const GpuType t = importedGpuType(name, &recognised);
            QCOMPARE(t.name, name); // the source's name stays the key
            QCOMPARE(recognised, !model.empty());
            if (r.entry) { // a catalogue model: its datasheet figures
                QCOMPARE(t.memoryGiB, r.entry->type.memoryGiB);
                QCOMPARE(t.busyWatts, r.entry->type.busyWatts);
            }
        }
    }

    // A MIG instance (as GPU feature discovery labels one under the single strategy) is its
    // slices' share of the whole GPU, with its profile's memory, not a whole GPU.
    void migInstances()
    {
        const GpuCatalogEntry *a100 = findGpuCatalogEntry("A100-40GB");
        QVERIFY(a100);
        const GpuRecognition one = recogniseGpu("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb");
        QVERIFY(one.recognised);
        QCOMPARE(one.model, std::string("A100-40GB"));
        QCOMPARE(one.migProfile, std::string("1g.5gb"));
        QCOMPARE(one.migSlices, 1);
        QCOMPARE(one.migSlicesOfGpu, 7);
        QCOMPARE(one.memoryGiB, 5.0);
        QCOMPARE(one.relativeSpeed, a100->type.relativeSpeed / 7);
        QCOMPARE(one.busyWatts, a100->type.busyWatts / 7);
        const GpuRecognition three = recogniseGpu("A100-SXM4-80GB MIG 3g.40gb");
        QCOMPARE(three.model, std::string("A100-80GB"));
        QCOMPARE(three.memoryGiB, 40.0);
        QCOMPARE(three.relativeSpeed, findGpuCatalogEntry("A100-80GB")->type.relativeSpeed * 3 / 7);
        // An A30 has 4 slices.
        const GpuRecognition a30 = recogniseGpu("NVIDIA-A30-MIG-2g.12gb");
        QCOMPARE(a30.migSlicesOfGpu, 4);
        QCOMPARE(a30.relativeSpeed, 1.16 / 2);
        QCOMPARE(importedGpuType("NVIDIA-A30-MIG-2g.12gb").memoryGiB, 12.0);
        // Not a profile: the name alone.
        QCOMPARE(recogniseGpu("A100-MIG-enabled").migSlices, 0);
        QVERIFY(!recogniseGpu("NVIDIA-A30-MIG-7g.24gb").recognised); // more slices than it has
        // The import says what it counted.
        Cluster c;
        Node n;
        n.id = "mig";
        n.gpus = 7;
        n.gpuType = "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb";
        c.nodes = {n};
        ImportReport report;
        addMissingGpuTypes(c, report);
        QCOMPARE(int(c.gpuTypes.size()), 1);
        QCOMPARE(c.gpuTypes[0].memoryGiB, 5.0);
        QCOMPARE(report.assumptions.size(), std::size_t(1));
        QCOMPARE(report.assumptions[0],
                 std::string("GPU types NVIDIA-A100-SXM4-40GB-MIG-1g.5gb (1 of the 7 compute "
                             "slices of an A100-40GB: 5 GiB, relative speed 0.314, 57.1 W "
                             "busy): MIG instances, each counted as a GPU with its profile's "
                             "memory and its slices' share of the whole GPU's speed and power "
                             "(from the GPU catalogue), price 0"));
    }

    void recognition()
    {
        // Catalogue names and product labels in any case.
        QCOMPARE(recogniseGpu("a100-80gb").model, std::string("A100-80GB"));
        QCOMPARE(recogniseGpu("Tesla-V100-SXM2-32GB").model, std::string("V100"));
        QCOMPARE(recogniseGpu("NVIDIA-H100-80GB-HBM3").entry, findGpuCatalogEntry("H100-80GB"));
        // Vendor strings: the size decides between A100s, the 32 GB V100 is the catalogue's.
        QCOMPARE(recogniseGpu("NVIDIA-A100-SXM4-80GB").model, std::string("A100-80GB"));
        QCOMPARE(recogniseGpu("NVIDIA A100-PCIE-40GB").model, std::string("A100-40GB"));
        QCOMPARE(recogniseGpu("NVIDIA-L40").model, std::string("L40"));
        QCOMPARE(recogniseGpu("NVIDIA-L4").model, std::string("L4"));
        // A model known by its datasheet only: figures without a catalogue entry.
        const GpuRecognition a30 = recogniseGpu("NVIDIA-A30");
        QVERIFY(a30.recognised && !a30.entry);
        QCOMPARE(a30.memoryGiB, 24.0);
        QCOMPARE(a30.busyWatts, 165.0);
        QCOMPARE(a30.idleWatts, 25.0); // 15 % of 165 W, rounded
        // ... and a speed scaled from its generation by peak dense BF16: 2.2 x 165 / 312.
        QCOMPARE(a30.relativeSpeed, 1.16);
        QCOMPARE(importedGpuType("NVIDIA-A30").relativeSpeed, 1.16);
        // An H200 is an H100 die (989 TFLOPS), a B200 2.25 PFLOPS: not a V100's 1.0.
        QCOMPARE(importedGpuType("H200").relativeSpeed, 4.0);
        QCOMPARE(importedGpuType("NVIDIA-B200").relativeSpeed, 9.1);
        QCOMPARE(importedGpuType("Tesla-T4").relativeSpeed,
                 findGpuCatalogEntry("T4")->type.relativeSpeed);
        QCOMPARE(importedGpuType("G2").relativeSpeed, 1.0); // unknown: the reference speed
        QVERIFY(!recogniseGpu("").recognised);
        QVERIFY(!recogniseGpu("unknown-gpu").recognised);
        QVERIFY(!recogniseGpu("tesla").recognised); // a product family (gres.conf man page)
        // Importers keep the source's name and say where the figures came from.
        Cluster c;
        Node n;
        n.id = "n1";
        n.gpus = 2;
        n.gpuType = "V100M32";
        c.nodes = {n, n};
        c.nodes[1].id = "n2";
        c.nodes[1].gpuType = "G2";
        ImportReport report;
        addMissingGpuTypes(c, report);
        QCOMPARE(c.gpuTypes.size(), std::size_t(2));
        QCOMPARE(c.gpuType("V100M32")->memoryGiB, 32.0);
        QCOMPARE(c.gpuType("G2")->memoryGiB, 16.0);
        QCOMPARE(report.assumptions.size(), std::size_t(2));
        QVERIFY2(report.assumptions[0].find("GPU types V100M32 (V100, relative speed 1): memory, "
                                            "power and relative speed from the GPU catalogue") == 0,
                 report.assumptions[0].c_str());
        QVERIFY2(report.assumptions[1].find("GPU types not in the catalogue: G2") == 0,
                 report.assumptions[1].c_str());
    }
};

QTEST_APPLESS_MAIN(TestGpuNames)
#include "tst_gpu_names.moc"
