// Topology importers on real public files: NCCL topology XML (dumps and NCCL_TOPO_FILE
// inputs), hwloc XML (v2 and v3), SimGrid platforms, NVIDIA topograph models in their three
// schemas, Slurm topology.yaml and topology.conf (tree, block, several roots, the man page's
// mixed example) merged with slurm.conf or a node template, Tiresias cluster specs and
// Kubernetes topology labels. Each is checked against counts taken by hand from the file;
// malformed variants fail naming the file and line. Format detection names every real file's
// format. A cluster imported from a topology file runs a real trace in the simulator with
// the job times worked out by hand.

#include "io/file_io.h"
#include "io/import/format_detection.h"
#include "io/import/import_into_scenario.h"
#include "io/import/importer_registry.h"
#include "io/import/scenario_import.h"
#include "io/import/simgrid_platform_importer.h"
#include "model/validation.h"
#include "sched/policy.h"
#include "sim/simulator.h"
#include "tst_import_fixtures.h"

#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace cb;

namespace {

const std::string &kData = cbtest::kImportData;
const std::string kNccl = "topology/nccl/";

using cbtest::importData;
using cbtest::importNotes;
using cbtest::importNotesHave;

// The cluster is a valid scenario on its own.
void checkValid(const Cluster &c)
{
    Scenario s;
    s.cluster = c;
    const Problems p = validateScenario(s);
    QVERIFY2(p.empty(), formatProblems(p).c_str());
}

double hostLink(const Cluster &c, const std::string &node)
{
    for (const Link &l : c.links)
        if (l.a == node || l.b == node)
            return l.capacityGbps;
    return -1;
}

} // namespace

class TestImportTopology : public QObject
{
    Q_OBJECT

private slots:
    // NCCL topology files: GPUs, their model from the PCI device id, NVLink from the link
    // counts and the GPU generation's bandwidth per link, NICs, CPUs from the affinity masks.
    void ncclTopology_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gpuType");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<bool>("nvlink");
        QTest::addColumn<double>("insideGbps");
        QTest::addColumn<double>("nicGbps");
        QTest::addColumn<double>("cpus");
        // 4 A100 (0x20b0), each pair linked by 4 NVLinks of 25 GB/s: 100 GB/s = 800 Gbit/s;
        // 4 Slingshot NICs of 200000 Mb/s; 4 masks of 32 CPUs.
        QTest::newRow("Perlmutter dump")
            << "simllm_perlmutter_a100_nid001056_nccl_topo.xml"
            << "A100-SXM4-40GB" << 4 << true << 800.0 << 800.0 << 128.0;
        // 8 H200 (0x2335, sm 90) with 4+5+5+4 = 18 links to NVSwitches: 450 GB/s; eth0 of
        // 10000 Mb/s listed under both CPUs is one NIC; 2 masks of 96 CPUs.
        QTest::newRow("HGX H200 dump") << "simllm_vastai_hgx_h200_8x_nccl_topo.xml"
                                       << "H200" << 8 << true << 3600.0 << 10.0 << 192.0;
        // 8 B200 (sm 100) with 18 links of 50 GB/s to one virtual NVSwitch target: 900 GB/s.
        QTest::newRow("HGX B200 dump") << "simllm_vastai_hgx_b200_8x_nccl_topo.xml"
                                       << "B200" << 8 << true << 7200.0 << 10.0 << 192.0;
        // An NCCL_TOPO_FILE input: 8 A100-SXM4-40GB as PCI slots, no <gpu>: NVLink from the
        // catalogue (2400 Gbit/s); 4 EFA NICs without a speed: 100 Gbit/s each.
        QTest::newRow("AWS p4d input") << "aws-ofi-nccl_p4d-24xl-topo.xml"
                                       << "A100-SXM4-40GB" << 8 << true << 2400.0 << 400.0 << 96.0;
        // 4 A100 PCIe whose only nvlink rows point at themselves: PCIe, and the link speed is
        // not written: Gen3 x16 = 8 x 128/130 x 16 Gbit/s; eth0 100000 Mb/s.
        QTest::newRow("Azure NCv4")
            << "azhpc-images_ncv4-topo.xml"
            << "A100-PCIE-80GB" << 4 << false << 8.0 * 128.0 / 130.0 * 16.0 << 100.0 << 96.0;
        // 8 GPUs with no device id and no NVLink in the file, no NIC speed.
        QTest::newRow("Azure NDv2")
            << "azhpc-images_ndv2-topo.xml"
            << "unknown-gpu" << 8 << false << 16.0 * 128.0 / 130.0 * 16.0 << 100.0 << 40.0;
    }
    void ncclTopology()
    {
        QFETCH(QString, file);
        QFETCH(QString, gpuType);
        QFETCH(int, gpus);
        QFETCH(bool, nvlink);
        QFETCH(double, insideGbps);
        QFETCH(double, nicGbps);
        QFETCH(double, cpus);
        auto r = importData("nccl-topo", {kNccl + file.toStdString()});
        QVERIFY2(r.ok(), r.error().c_str());
        const Cluster &c = r->cluster.value();
        QCOMPARE(int(c.nodes.size()), 1);
        const Node &n = c.nodes.front();
        QCOMPARE(QString::fromStdString(n.gpuType), gpuType);
        QCOMPARE(n.gpus, gpus);
        QCOMPARE(n.interconnect.kind == GpuInterconnect::Kind::Nvlink, nvlink);
        QCOMPARE(n.interconnect.bandwidthGbps, insideGbps);
        if (nvlink)
            QCOMPARE(int(n.interconnect.nvlinkDomains.front().size()), gpus);
        QCOMPARE(hostLink(c, n.id), nicGbps);
        QCOMPARE(n.cpus, cpus);
        QCOMPARE(n.memoryGiB, 64.0 * gpus);
        checkValid(c);
    }

    void ncclOptionsAndRefusals()
    {
        // --nodes makes copies; --gpu-type names what the file does not.
        ImportOptions o;
        o.nodeCount = 4;
        o.gpuType = "V100";
        auto r = importData("nccl-topo", {kNccl + "azhpc-images_ndv2-topo.xml"}, o);
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(int(r->cluster->nodes.size()), 4);
        QCOMPARE(QString::fromStdString(r->cluster->nodes[3].id),
                 QString("azhpc-images-ndv2-topo-3"));
        // The V100's NVLink comes from the catalogue (the file does not say).
        QCOMPARE(r->cluster->nodes[0].interconnect.bandwidthGbps, 1200.0);
        // A file of PCI slots only: a CPU-only node, said (the import then refuses a cluster
        // of nothing else: tst_import_cli).
        auto g5 = importData("nccl-topo", {kNccl + "aws-ofi-nccl_g5.48xl-topo.xml"});
        QVERIFY2(g5.ok(), g5.error().c_str());
        QCOMPARE(g5->cluster->totalGpus(), 0);
        bool said = false;
        for (const std::string &note : g5->assumptions)
            said = said || note.find("aws-ofi-nccl_g5.48xl-topo.xml: no GPU in the file: a "
                                     "CPU-only node") != std::string::npos;
        QVERIFY(said);
        ImportOptions t;
        t.nodeTemplate = NodeTemplate::parse("gpus=8,gpu-type=A10G").value();
        auto g5t = importData("nccl-topo", {kNccl + "aws-ofi-nccl_g5.48xl-topo.xml"}, t);
        QVERIFY2(g5t.ok(), g5t.error().c_str());
        QCOMPARE(g5t->cluster->nodes[0].gpus, 8);
        // An NCCL graph file is not a topology.
        auto graph = importData("nccl-topo", {kNccl + "azhpc-images_ncv4-graph.xml"});
        QVERIFY(!graph.ok());
        QVERIFY2(graph.error().find("azhpc-images_ncv4-graph.xml:1: an NCCL_GRAPH_FILE") !=
                     std::string::npos,
                 graph.error().c_str());
        // Truncated XML: the file and line.
        auto cut = importData("nccl-topo", {"malformed/nccl_truncated.xml"});
        QVERIFY(!cut.ok());
        QVERIFY2(cut.error().find("nccl_truncated.xml:5: XML: ") != std::string::npos,
                 cut.error().c_str());
    }

    // hwloc: 16 V100 of the DGX-2 under 12 NVSwitches (one reported with an all-zero PCI
    // type), each GPU with six 25 GB/s NVLinks to them in the NVLinkBandwidth matrix:
    // 150 GB/s = 1200 Gbit/s; the same from the 3.0 format.
    void hwlocDgx2_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("2.x") << "hwloc-v2.14_nvidiaDGX2.xml";
        QTest::newRow("3.0") << "hwloc-master_nvidiaDGX2.v3.xml";
    }
    void hwlocDgx2()
    {
        QFETCH(QString, file);
        auto r = importData("hwloc", {"topology/hwloc/" + file.toStdString()});
        QVERIFY2(r.ok(), r.error().c_str());
        const Node &n = r->cluster->nodes.front();
        QCOMPARE(n.gpus, 16);
        QCOMPARE(QString::fromStdString(n.gpuType), QString("Tesla V100-SXM3-32GB-H"));
        QCOMPARE(r->cluster->gpuType(n.gpuType)->memoryGiB, 32.0); // the catalogue's V100
        QCOMPARE(n.interconnect.kind, GpuInterconnect::Kind::Nvlink);
        QCOMPARE(n.interconnect.bandwidthGbps, 1200.0);
        QCOMPARE(int(n.interconnect.nvlinkDomains.size()), 1);
        QCOMPARE(int(n.interconnect.nvlinkDomains.front().size()), 16);
        QCOMPARE(n.cpus, 4.0); // the test file keeps 4 PUs only
        QVERIFY2(importNotesHave(r.value(), "16 GPUs on NVSwitch: one NVLink domain at 150 GB/s"),
                 importNotes(r.value()).c_str());
        checkValid(r->cluster.value());
    }

    void hwlocOthers()
    {
        // POWER8 with 4 P100: NVLink 40 GB/s between GPU 0 and 1 and between 2 and 3 (the
        // GPU-to-CPU links are not between GPUs): two domains, 320 Gbit/s.
        auto p8 = importData("hwloc", {"topology/hwloc/hwloc-v2.14_power8gpudistances.xml"});
        QVERIFY2(p8.ok(), p8.error().c_str());
        const Node &n = p8->cluster->nodes.front();
        QCOMPARE(n.gpus, 4);
        QCOMPARE(n.interconnect.bandwidthGbps, 320.0);
        QCOMPARE(n.interconnect.nvlinkDomains, (std::vector<std::vector<int>>{{0, 1}, {2, 3}}));
        // A Tesla K40m (CUDA) and a Radeon (OpenCL only) in one machine: the node's type is
        // the one a training framework reaches, though "AMD ..." sorts first and neither
        // model is in the catalogue.
        auto mixed =
            importData("hwloc", {"topology/hwloc/hwloc-master_32em64t-2n8c2t-pci-normalio.xml"});
        QVERIFY2(mixed.ok(), mixed.error().c_str());
        QCOMPARE(mixed->cluster->nodes.front().gpus, 2);
        QCOMPARE(mixed->cluster->nodes.front().gpuType, std::string("Tesla K40m"));
        QVERIFY2(importNotesHave(mixed.value(),
                                 "GPUs of several models (AMD Radeon R9 200 / HD 7900 Series "
                                 "x1, Tesla K40m x1): a node holds one type here, Tesla K40m, "
                                 "for all 2 GPUs"),
                 importNotes(mixed.value()).c_str());
        // ... and the two NVIDIA cards there that only the PCI tree lists are not counted.
        QVERIFY2(importNotesHave(mixed.value(),
                                 "2 GPU cards are seen only as PCI devices beside GPUs that "
                                 "CUDA, NVML or OpenCL saw: not counted"),
                 importNotes(mixed.value()).c_str());
        // lstopo without CUDA, NVML or OpenCL: 24 PUs, 2 NUMA nodes, 4 network devices, and
        // three NVIDIA 3D controllers (10de:06d2, Tesla M2070) in the PCI tree only: counted,
        // the onboard VGA (ATI ES1000, 1002:515e) not.
        auto cpu = importData("hwloc", {"topology/hwloc/hwloc-v2.14_24em64t-2n6c2t-pci.xml"});
        QVERIFY2(cpu.ok(), cpu.error().c_str());
        QCOMPARE(cpu->cluster->nodes.front().gpus, 3);
        QCOMPARE(cpu->cluster->nodes.front().gpuType, std::string("Tesla M2070"));
        QVERIFY2(importNotesHave(cpu.value(),
                                 "3 GPUs are seen only as PCI devices (lstopo ran without CUDA, "
                                 "NVML or OpenCL support): counted"),
                 importNotes(cpu.value()).c_str());
        // The same in hwloc 1.x's layout (PCI names as attributes): three Tesla M2075.
        auto old = importData("hwloc", {"topology/hwloc/hwloc-v1.11_32em64t-2n8c2t-pci-normalio.xml"});
        QVERIFY2(old.ok(), old.error().c_str());
        QCOMPARE(old->cluster->nodes.front().gpus, 3);
        QCOMPARE(old->cluster->nodes.front().gpuType, std::string("Tesla M2075"));
        QCOMPARE(old->cluster->nodes.front().cpus, 32.0);
        QCOMPARE(cpu->cluster->nodes.front().cpus, 24.0);
        QCOMPARE(hostLink(cpu->cluster.value(), cpu->cluster->nodes.front().id), 400.0);
        checkValid(cpu->cluster.value());
        // 16 PUs, one NUMA node that gives no memory size, no GPU, no network device: the
        // report says so, rather than "0 GiB", "64 per GPU" or "per network device".
        auto small = importData("hwloc", {"topology/hwloc/hwloc-v2.14_16em64t-4s2c2t.xml"});
        QVERIFY2(small.ok(), small.error().c_str());
        QCOMPARE(small->cluster->nodes.front().cpus, 16.0);
        QCOMPARE(small->cluster->nodes.front().memoryGiB, 64.0);
        QVERIFY2(importNotesHave(small.value(),
                                 "16 PUs as CPUs, no NUMA memory size, 0 GPUs, 0 network"),
                 importNotes(small.value()).c_str());
        QVERIFY2(importNotesHave(small.value(), "64 GiB (64 per GPU, at least 64) assumed"),
                 importNotes(small.value()).c_str());
        QVERIFY2(
            importNotesHave(small.value(), "no network device in the file: 100 Gbit/s per node"),
            importNotes(small.value()).c_str());
        QVERIFY2(!importNotesHave(small.value(), "node template"),
                 importNotes(small.value()).c_str());
        // The DGX-2's 1.51 TiB of NUMA memory, rounded for the report.
        auto dgx = importData("hwloc", {"topology/hwloc/hwloc-v2.14_nvidiaDGX2.xml"});
        QVERIFY2(dgx.ok(), dgx.error().c_str());
        QVERIFY2(importNotesHave(dgx.value(), "1510.58 GiB of NUMA memory"),
                 importNotes(dgx.value()).c_str());
    }

    // SimGrid: the fat tree "2;4,4;1,2;1,2" has 16 hosts, 4 leaves and 2 top switches (each
    // leaf linked to both by 2 cables of 125 MBps = 1 Gbit/s), joined by one more switch.
    void simgridPlatforms()
    {
        QCOMPARE(simgridBandwidthGbps("125MBps").value_or(-1), 1.0);
        QCOMPARE(simgridBandwidthGbps("10Gbps").value_or(-1), 10.0);
        QCOMPARE(simgridBandwidthGbps("1KiBps").value_or(-1), 8192e-9);
        QCOMPARE(simgridLatencyUs("50us").value_or(-1), 50.0);
        QCOMPARE(simgridLatencyUs("0").value_or(-1), 0.0);
        QVERIFY(!simgridBandwidthGbps("fast"));

        auto ft = importData("simgrid", {"topology/simgrid/simgrid_cluster_fat_tree.xml"});
        QVERIFY2(ft.ok(), ft.error().c_str());
        const Cluster &c = ft->cluster.value();
        QCOMPARE(int(c.nodes.size()), 16);
        QCOMPARE(int(c.switches.size()), 4 + 2 + 1);
        // 16 host links + 4 x 2 leaf-to-top links + 2 links to the joining switch.
        QCOMPARE(int(c.links.size()), 16 + 8 + 2);
        QCOMPARE(hostLink(c, "node-0.simgrid.org"), 1.0);
        int twoCable = 0;
        for (const Link &l : c.links)
            twoCable += l.capacityGbps == 2.0;
        QCOMPARE(twoCable, 8);
        checkValid(c);

        // Dragonfly "3,4;4,3;5,1;2": 3 x 4 x 5 routers with 2 hosts each.
        auto df = importData("simgrid", {"topology/simgrid/simgrid_cluster_dragonfly.xml"});
        QVERIFY2(df.ok(), df.error().c_str());
        QCOMPARE(int(df->cluster->nodes.size()), 120);
        QCOMPARE(int(df->cluster->switches.size()), 60);
        checkValid(df->cluster.value());

        // Griffon: three cabinets of 32, 28 and 32 hosts under one core switch at their
        // backbone's 1.25 GBps = 10 Gbit/s.
        auto g = importData("simgrid", {"topology/simgrid/simgrid_griffon.xml"});
        QVERIFY2(g.ok(), g.error().c_str());
        QCOMPARE(int(g->cluster->nodes.size()), 92);
        QCOMPARE(hostLink(g->cluster.value(), "griffon_cluster_cabinet1"), 1.0);
        int core = 0;
        for (const Link &l : g->cluster->links)
            core += l.b == "core" && l.capacityGbps == 10.0;
        QCOMPARE(core, 3);
        checkValid(g->cluster.value());

        // The torus is not modelled: one switch, and the report says so.
        auto t = importData("simgrid", {"topology/simgrid/simgrid_cluster_torus.xml"});
        QVERIFY2(t.ok(), t.error().c_str());
        QCOMPARE(int(t->cluster->nodes.size()), 12);
        QVERIFY(importNotesHave(t.value(), "is a torus (3,2,2), which is not modelled"));
        // Hosts hold what the template says.
        ImportOptions o;
        o.nodeTemplate = NodeTemplate::parse("gpus=4,gpu-type=A100-80GB,cpus=32").value();
        auto b = importData("simgrid", {"topology/simgrid/simgrid_cluster_backbone.xml"}, o);
        QVERIFY2(b.ok(), b.error().c_str());
        QCOMPARE(int(b->cluster->nodes.size()), 100);
        QCOMPARE(b->cluster->totalGpus(), 400);
        QCOMPARE(b->cluster->nodes[0].cpus, 32.0);
        QVERIFY(importNotesHave(b.value(), "has a backbone of 18 Gbit/s"));
        // Zones of <cabinet>s (SimGrid's meta_cluster.xml: 2 zones of 3 cabinets of 10
        // hosts, 125 MBps private links, a 2.25 GBps backbone each): a switch per zone,
        // every host on its private link (1 Gbit/s), the cabinets as racks named by zone and
        // cabinet (two zones reuse the cabinet ids), the zones under a core at 18 Gbit/s.
        auto m = importData("simgrid", {"topology/simgrid/simgrid_meta_cluster.xml"}, o);
        QVERIFY2(m.ok(), m.error().c_str());
        const Cluster &mc = m->cluster.value();
        QCOMPARE(int(mc.nodes.size()), 60);
        QCOMPARE(mc.nodes[0].id, std::string("host-1.cluster1"));
        QCOMPARE(mc.nodes[59].id, std::string("host-30.cluster2"));
        QCOMPARE(hostLink(mc, "host-1.cluster1"), 1.0);
        std::set<std::string> racks;
        for (const Node &n : mc.nodes)
            racks.insert(n.rack);
        QCOMPARE(racks, (std::set<std::string>{"my_cluster1/cabinet1", "my_cluster1/cabinet2",
                                               "my_cluster1/cabinet3", "my_cluster2/cabinet1",
                                               "my_cluster2/cabinet2", "my_cluster2/cabinet3"}));
        QCOMPARE(int(mc.switches.size()), 3);
        double up = 0;
        for (const Link &l : mc.links)
            if ((l.a == "my_cluster1" && l.b == "core") || (l.b == "my_cluster1" && l.a == "core"))
                up = l.capacityGbps;
        QCOMPARE(up, 18.0);
        QVERIFY(importNotesHave(m.value(), "zone my_cluster2: 3 cabinets of 30 hosts"));
        checkValid(mc);
    }

    // topograph models: v1 (switches and blocks), v0.5 (maps with capacity blocks), v0.1
    // (lists, with the block's GPU type).
    void topographModels_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("nodes");
        QTest::newRow("v1 small-tree") << "topograph-v1.0.0_small-tree.yaml" << 3 << 6;
        QTest::newRow("v1 medium") << "topograph-v1.0.0_medium.yaml" << 7 << 8;
        QTest::newRow("v1 nvl72") << "topograph-v1.0.0_nvl72.yaml" << 7 << 72;
        QTest::newRow("v0.5 medium") << "topograph-v0.5.0_medium.yaml" << 7 << 8;
        QTest::newRow("v0.1 small-tree") << "topograph-v0.1.0_small-tree.yaml" << 3 << 6;
        QTest::newRow("v0.1 medium") << "topograph-v0.1.0_medium.yaml" << 7 << 8;
    }
    void topographModels()
    {
        QFETCH(QString, file);
        QFETCH(int, switches);
        QFETCH(int, nodes);
        auto r = importData("topograph", {"topology/topograph/" + file.toStdString()});
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(int(r->cluster->switches.size()), switches);
        QCOMPARE(int(r->cluster->nodes.size()), nodes);
        QCOMPARE(r->cluster->nodes.front().gpus, 8);
        checkValid(r->cluster.value());
    }

    void topographDetails()
    {
        // v1 medium: node 1101 under sw11 under sw21 (zone1) under sw3 (us-west), NVLink
        // domain nvl1.
        auto r = importData("topograph", {"topology/topograph/topograph-v1.0.0_medium.yaml"});
        QVERIFY2(r.ok(), r.error().c_str());
        const Node *n = r->cluster->node("1101");
        QVERIFY(n);
        QCOMPARE(QString::fromStdString(n->labels.at("topology.kubernetes.io/region")),
                 QString("us-west"));
        QCOMPARE(QString::fromStdString(n->labels.at("topology.kubernetes.io/zone")),
                 QString("zone1"));
        QCOMPARE(QString::fromStdString(n->labels.at("accelerator.topograph.run/domain")),
                 QString("nvl1"));
        QCOMPARE(QString::fromStdString(n->rack), QString("sw11"));
        // v0.1: the capacity block's type is the GPU type.
        auto old = importData("topograph", {"topology/topograph/topograph-v0.1.0_small-tree.yaml"});
        QVERIFY2(old.ok(), old.error().c_str());
        QCOMPARE(QString::fromStdString(old->cluster->nodes.front().gpuType), QString("H100"));
        // v0.5's empty block cb15 is reported.
        auto mid = importData("topograph", {"topology/topograph/topograph-v0.5.0_medium.yaml"});
        QVERIFY2(mid.ok(), mid.error().c_str());
        QVERIFY(importNotesHave(mid.value(), "block cb15"));
        // Racks whose nodes are all gone (rack-1-03, rack-1-13 of the irregular model) are
        // racks, leaf switches, not spines: 1 core, 2 spines (sw-01, sw-02), 31 racks.
        auto irregular = importData("topograph", {"topology/topograph/"
                                                  "topograph-e2b6250_dual-xclr-irregular.yaml"});
        QVERIFY2(irregular.ok(), irregular.error().c_str());
        std::map<std::string, int> tiers;
        for (const Switch &sw : irregular->cluster->switches)
            ++tiers[sw.tier];
        QCOMPARE(tiers, (std::map<std::string, int>{{"core", 1}, {"leaf", 31}, {"spine", 2}}));
        for (const Switch &sw : irregular->cluster->switches)
            if (sw.id == "rack-1-03" || sw.id == "rack-1-13")
                QCOMPARE(sw.tier, std::string("leaf"));
        // A switch with two parents is refused with its line.
        auto bad = importData("topograph", {"malformed/topograph_two_parents.yaml"});
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().find("topograph_two_parents.yaml:6: switch leaf-1 has two parents, "
                                  "spine-1 and spine-2") != std::string::npos,
                 bad.error().c_str());
    }

    // Slurm topology.yaml (25.05+): the cluster-default tree is used.
    void slurmTopologyYaml()
    {
        auto r = importData("slurm", {"slurm/slurm-25.05.0_man5_topology.yaml_EXAMPLE.yaml"});
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(int(r->cluster->nodes.size()), 4);
        QCOMPARE(int(r->cluster->switches.size()), 3);
        QCOMPARE(QString::fromStdString(r->cluster->nodes[0].rack), QString("s1"));
        QVERIFY2(importNotesHave(r.value(),
                                 "topology topo1 (tree), the cluster default; not used: topo2, "
                                 "topo3"),
                 importNotes(r.value()).c_str());
        auto master = importData("slurm", {"slurm/slurm-master_man5_topology.yaml_EXAMPLE.yaml"});
        QVERIFY2(master.ok(), master.error().c_str());
        QCOMPARE(int(master->cluster->switches.size()), 3);
        QVERIFY(importNotesHave(master.value(), "not used: topo2, topo3, topo3a, topo4, topo5"));
    }

    // Block and tree topology.conf files with slurm.conf or a node template.
    void slurmTopologyConf()
    {
        // Slurm's testsuite: 8 blocks of 4 nodes, the nodes from its slurm.conf.
        auto b = importData("slurm", {"slurm/slurm-testsuite_check_topology_slurm.conf",
                                      "slurm/slurm-testsuite_check_topology_block_topology.conf"});
        QVERIFY2(b.ok(), b.error().c_str());
        QCOMPARE(int(b->cluster->nodes.size()), 32);
        QCOMPARE(int(b->cluster->switches.size()), 8 + 1); // blocks joined by one switch
        QCOMPARE(b->cluster->nodes[0].memoryGiB, 2000.0 / 1024.0);
        QCOMPARE(b->skippedCount, std::size_t(0));
        // Three trunks with no common root (test_133_1 testcase6) get one.
        auto t6 = importData("slurm", {"slurm/slurm-testsuite_test_133_1_testcase6_topology.conf"});
        QVERIFY2(t6.ok(), t6.error().c_str());
        QCOMPARE(int(t6->cluster->nodes.size()), 40);
        QVERIFY(importNotesHave(t6.value(),
                                "the switch tree has 3 top switches: joined by one switch"));
        // The man page's example of all three plugins: its tree is used.
        auto mixed = importData("slurm", {"slurm/slurm-master_man5_topology.conf_EXAMPLE.txt"});
        QVERIFY2(mixed.ok(), mixed.error().c_str());
        QCOMPARE(int(mixed->cluster->nodes.size()), 18);
        QVERIFY(importNotesHave(mixed.value(), "the tree is used, the blocks are not"));
        QVERIFY(
            importNotesHave(mixed.value(), "2 RingName lines (topology/ring) are not modelled"));
        // topology.conf alone says to give node specifications...
        QVERIFY(importNotesHave(mixed.value(), "which runs no training job: give slurm.conf"));
        // ... and a template gives them.
        ImportOptions o;
        o.nodeTemplate =
            NodeTemplate::parse("gpus=8,gpu-type=H100,cpus=96,memory-gib=1024").value();
        auto t = importData("slurm", {"slurm/slurm-24.05.0_man5_topology.conf_EXAMPLE.txt"}, o);
        QVERIFY2(t.ok(), t.error().c_str());
        for (const Node &n : t->cluster->nodes) {
            QCOMPARE(n.gpus, 8);
            QCOMPARE(QString::fromStdString(n.gpuType), QString("H100"));
            QCOMPARE(n.cpus, 96.0);
            QCOMPARE(n.memoryGiB, 1024.0);
        }
        checkValid(t->cluster.value());
    }

    void slurmTopologyConfRails()
    {
        // A rail-optimized fabric lists every node under each rail's leaf switch: each node
        // is linked to every rail (its rack is the first); a node listed twice under one
        // switch is skipped with its line.
        const std::string text = "SwitchName=rail0 Nodes=gpu[01-04]\n"
                                 "SwitchName=rail1 Nodes=gpu[01-04],gpu01\n"
                                 "SwitchName=spine Switches=rail[0-1]\n";
        std::vector<ImportInput> inputs;
        inputs.push_back({"rails.conf", text});
        auto r = findImporter("slurm")->read(inputs, ImportOptions{});
        QVERIFY2(r.ok(), r.error().c_str());
        const Cluster &c = r->cluster.value();
        QCOMPARE(int(c.nodes.size()), 4);
        std::vector<std::string> links;
        for (const Link &l : c.links)
            links.push_back(l.a + "-" + l.b);
        const std::vector<std::string> expected = {
            "gpu01-rail0", "gpu01-rail1", "gpu02-rail0", "gpu02-rail1", "gpu03-rail0",
            "gpu03-rail1", "gpu04-rail0", "gpu04-rail1", "rail0-spine", "rail1-spine"};
        QCOMPARE(links, expected);
        for (const Node &n : c.nodes)
            QCOMPARE(QString::fromStdString(n.rack), QStringLiteral("rail0"));
        QCOMPARE(r->skippedCount, std::size_t(1));
        QCOMPARE(r->skipped[0].toString(),
                 std::string("rails.conf:2: node \"gpu01\" is listed twice under switch rail1"));
        QVERIFY(importNotesHave(r.value(), "4 nodes are under several leaf switches"));
    }

    // A node file as the template: topology.conf's nodes become HGX H200 boards.
    void nodeTemplateFromNcclFile()
    {
        ImportRequest req;
        req.format = "slurm";
        req.files = {kData + "slurm/slurm-testsuite_test_133_1_testcase6_topology.conf"};
        req.nodeTemplate = kData + kNccl + "simllm_vastai_hgx_h200_8x_nccl_topo.xml";
        ScenarioImport imp(req);
        QVERIFY2(imp.run(), formatProblems(imp.problems()).c_str());
        const Cluster &c = imp.scenario().cluster;
        QCOMPARE(int(c.nodes.size()), 40);
        QCOMPARE(c.totalGpus(), 320);
        QCOMPARE(QString::fromStdString(c.nodes[5].gpuType), QString("H200"));
        QCOMPARE(c.nodes[5].interconnect.bandwidthGbps, 3600.0);
        QCOMPARE(c.nodes[5].cpus, 192.0);
    }

    void tiresiasClusterSpec()
    {
        ImportOptions o;
        o.gpuType = "V100";
        auto r = importData("tiresias-cluster", {"topology/tiresias/tiresias_n160g8.csv"}, o);
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(int(r->cluster->nodes.size()), 160); // 5 switches x 32 nodes
        QCOMPARE(r->cluster->totalGpus(), 1280);
        QCOMPARE(int(r->cluster->switches.size()), 6);
        QCOMPARE(r->cluster->nodes[0].cpus, 128.0);
        QCOMPARE(r->cluster->nodes[0].memoryGiB, 256.0);
        auto one = importData("tiresias-cluster", {"topology/tiresias/tiresias_n1g4.csv"});
        QVERIFY2(one.ok(), one.error().c_str());
        QCOMPARE(int(one->cluster->nodes.size()), 1);
        QCOMPARE(QString::fromStdString(one->cluster->nodes[0].gpuType), QString("unknown-gpu"));
        auto bad = importData("tiresias-cluster", {"malformed/tiresias_cluster_bad_number.csv"});
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().find("tiresias_cluster_bad_number.csv:2: column num_gpu_p_node: "
                                  "expected an integer, found \"eight\"") != std::string::npos,
                 bad.error().c_str());
    }

    // Kubernetes topology labels become switch tiers, coarse to fine.
    void kubernetesTopologyLabels()
    {
        auto r = importData("k8s-nodes", {"handmade/k8s_nodes_topology_labels.yaml"});
        QVERIFY2(r.ok(), r.error().c_str());
        const Cluster &c = r->cluster.value();
        QCOMPARE(int(c.nodes.size()), 6);
        std::set<std::string> ids;
        for (const Switch &s : c.switches)
            ids.insert(s.id);
        // EKS: region > zone > layer 1 > layer 2 > layer 3 (two groups); GKE: region > zone >
        // block > sub-block, its host label unique per node and not a switch.
        for (const char *id : {"region-us-east-2", "zone-us-east-2a", "layer1-nn-1111111111111111a",
                               "layer2-nn-2222222222222222a", "layer3-nn-3333333333333333a",
                               "layer3-nn-3333333333333333b", "region-us-central1",
                               "zone-us-central1-b", "block-b-7f3a", "subblock-sb-19c2", "core"})
            QVERIFY2(ids.count(id), id);
        QCOMPARE(int(c.switches.size()), 11);
        QVERIFY(importNotesHave(r.value(), "GKE host labels differ on every node"));
        checkValid(c);
        // The real GKE node (k8s.io apimachinery test data): region and zone tiers.
        auto gke = importData("k8s-nodes", {"k8s-nodes/k8s-apimachinery_managedfields_node.yaml"});
        QVERIFY2(gke.ok(), gke.error().c_str());
        QCOMPARE(int(gke->cluster->nodes.size()), 1);
        QCOMPARE(gke->cluster->nodes[0].cpus, 3.92);
        QCOMPARE(gke->cluster->nodes[0].memoryGiB, 12700100.0 / 1048576.0);
        QCOMPARE(int(gke->cluster->switches.size()), 2);
    }

    // `import FILE` without a format names every real file's format.
    void detectsEveryFormat_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        const std::vector<std::pair<const char *, const char *>> files = {
            {"topology/nccl/simllm_perlmutter_a100_nid001056_nccl_topo.xml", "nccl-topo"},
            {"topology/nccl/aws-ofi-nccl_p4d-24xl-topo.xml", "nccl-topo"},
            {"topology/nccl/azhpc-images_ndv4-topo.xml", "nccl-topo"},
            {"topology/hwloc/hwloc-v2.14_nvidiaDGX2.xml", "hwloc"},
            {"topology/hwloc/hwloc-master_nvidiaDGX2.v3.xml", "hwloc"},
            {"topology/simgrid/simgrid_griffon.xml", "simgrid"},
            {"topology/simgrid/simgrid_cluster_fat_tree.xml", "simgrid"},
            {"topology/topograph/topograph-v1.0.0_large.yaml", "topograph"},
            {"topology/topograph/topograph-v0.5.0_medium.yaml", "topograph"},
            {"topology/topograph/topograph-v0.1.0_medium.yaml", "topograph"},
            {"topology/tiresias/tiresias_n160g8.csv", "tiresias-cluster"},
            {"slurm/slurm-25.05.0_man5_topology.yaml_EXAMPLE.yaml", "slurm"},
            {"slurm/slurm-testsuite_check_topology_block_topology.conf", "slurm"},
            {"slurm/giovtorres_docker-centos7-slurm_slurm.conf", "slurm"},
            {"slurm/giovtorres_docker-centos7-slurm_gres.conf", "slurm"},
            {"handmade/scontrol_show_node.txt", "scontrol-nodes"},
            {"k8s-nodes/alibaba_openb2023_gpu_nodes_sample.yaml", "k8s-nodes"},
            {"k8s-nodes/k8s-apimachinery_managedfields_node.yaml", "k8s-nodes"},
            {"handmade/k8s_nodes_list.json", "k8s-nodes"},
            {"traces/helios/helios_venus_cluster_gpu_number.csv", "helios-gpus"},
            {"handmade/helios_jobs.csv", "helios"},
            {"traces/alibaba-gpu2023/openb_pod_list_default_head50.csv", "alibaba-gpu2023"},
            {"traces/alibaba-gpu2023/openb_pod_list_multigpu50_head50.csv", "alibaba-gpu2023"},
            {"handmade/alibaba2023_nodes.csv", "alibaba-gpu2023"},
            {"handmade/pai_machine_spec.csv", "alibaba-pai2020"},
            {"handmade/pai_job.csv", "alibaba-pai2020"},
            {"handmade/pai_task.csv", "alibaba-pai2020"},
            {"traces/philly/philly_cluster_job_log_README_example.json", "philly"},
            {"traces/pollux/philly_osdi21_head200.csv", "philly-pollux"},
            {"traces/pollux/workload-6.csv", "pollux"},
            {"traces/pollux/cifar10_placements.csv", "pollux-throughput"},
            {"traces/pollux/cifar10_scalability.csv", "pollux-throughput"},
            {"traces/gavel/msr_seed0_23dbec.trace", "gavel"},
            {"traces/gavel/physical_cluster_small_test.trace", "gavel"},
            {"traces/tiresias/60_job.csv", "tiresias"},
            {"traces/tiresias/tf_job.csv", "tiresias"},
            {"handmade/yarn_durations_mapping.json", "csv-mapping"},
        };
        for (const auto &[f, format] : files)
            QTest::newRow(f) << QString::fromStdString(kData + f) << format;
    }
    void detectsEveryFormat()
    {
        QFETCH(QString, file);
        QFETCH(QString, format);
        auto sample = sampleFile(file.toStdString());
        QVERIFY2(sample.ok(), sample.error().c_str());
        FormatMatch m;
        const Importer *i = detectFormat(sample.value(), &m);
        QVERIFY2(i, qPrintable(file + ": " + QString::fromStdString(m.why)));
        QCOMPARE(QString::fromStdString(i->name()), format);
        QVERIFY(!m.why.empty());
    }

    // A YAML document no format reads (knavigator's node values, "nodes:" with type and
    // count) is not called "a CSV file": the refusal names its top-level keys and says what
    // a Kubernetes node file looks like.
    void yamlNoFormatReadsIsSaid()
    {
        const std::string yaml = "# a comment\n\nnodes:\n- type: dgxa100.80g\n  count: 2\n"
                                 "  labels:\n    nvidia.com/gpu.count: \"8\"\nresources: {}\n";
        QCOMPARE(detection::yamlTopKeys(yaml), (std::vector<std::string>{"nodes", "resources"}));
        QVERIFY(detection::yamlTopKeys("job_id,gpus,duration\n1,8,60\n").empty());
        QVERIFY(detection::yamlTopKeys("NodeName=a CPUs=4\n").empty());
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("values.yaml")).toStdString();
        QVERIFY(writeFileAtomically(path, yaml).ok());
        ImportRequest request;
        request.files = {path};
        ScenarioImport import(request);
        QVERIFY(!import.run());
        QCOMPARE(import.failure(), ImportFailure::BadInput);
        QCOMPARE(import.problems().size(), std::size_t(1));
        QCOMPARE(import.problems()[0].where, path);
        QVERIFY2(import.problems()[0].message.rfind(
                     "cannot tell which format this is (a YAML document with top-level keys "
                     "nodes, resources, which no format reads; Kubernetes nodes are read from "
                     "Node objects",
                     0) == 0,
                 import.problems()[0].message.c_str());
    }

    // A cluster from a topology file runs a real trace: two Perlmutter nodes (4 A100-40GB
    // each, relative speed 2.2, NVLink inside, 800 Gbit/s NICs) and the last 20 rows of the
    // Pollux Philly trace.
    void topologyPlusTraceSimulates()
    {
        ImportRequest req;
        req.files = {kData + kNccl + "simllm_perlmutter_a100_nid001056_nccl_topo.xml",
                     kData + "traces/pollux/philly_osdi21_tail20.csv"};
        req.options.nodeCount = 2;
        ScenarioImport imp(req);
        QVERIFY2(imp.run(), formatProblems(imp.problems()).c_str());
        QCOMPARE(QString::fromStdString(imp.formats()), QString("nccl-topo + philly-pollux"));
        const Scenario &s = imp.scenario();
        QCOMPARE(s.cluster.totalGpus(), 8);
        QCOMPARE(int(s.jobs.size()), 20);
        SimOptions o;
        o.policy = *builtinPolicy("k8s-default");
        o.seed = 1;
        auto r = simulate(s, o);
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(int(r->jobs.size()), 20);
        // Row "2017-11-08 09:02:12,63.0,1": 630 iterations of 0.1 s on the reference GPU, on
        // an A100 (2.2 x) 630 x 0.1 / 2.2 = 28.636... s; a one-GPU job has no communication,
        // so every one-GPU job of the excerpt runs exactly its iterations x 0.1 / 2.2 s.
        int single = 0;
        const JobRun *eight = nullptr, *late = nullptr;
        for (std::size_t i = 0; i < s.jobs.size(); ++i) {
            const Job &j = s.jobs[i];
            const JobRun &run = r->jobs[i];
            QVERIFY(run.finishSeconds.has_value() && run.startSeconds.has_value());
            const double alone = double(j.model.iterations) * 0.1 / 2.2;
            const double ran = *run.finishSeconds - *run.startSeconds;
            if (j.id == "philly-4")
                eight = &run;
            if (j.id == "philly-16")
                late = &run;
            if (j.gpuCount() == 1) {
                ++single;
                QVERIFY2(std::fabs(ran - alone) < 1e-6 * alone,
                         qPrintable(QString::fromStdString(j.id)));
            } else {
                // The 4- and 8-GPU jobs exchange ResNet-50's 102 MB of gradients each
                // iteration: slower than compute alone, and by less than half (NVLink inside
                // a node, 800 Gbit/s between them).
                QVERIFY(ran > alone);
                QVERIFY(ran < alone * 1.5);
            }
        }
        QCOMPARE(single, 18);
        // Line 4, "2017-11-07 06:10:18,96634.0,8", takes all 8 GPUs for about 12.2 hours; line
        // 16, "2017-11-07 17:29:16,53890.0,1", arrives while it runs and starts when it ends.
        QVERIFY(eight && late);
        QCOMPARE(*late->startSeconds, *eight->finishSeconds);
        QVERIFY(*late->startSeconds > late->submitSeconds);
    }
};

QTEST_GUILESS_MAIN(TestImportTopology)
#include "tst_import_topology.moc"
