// Cluster and job-set generators: exact counts and bisection bandwidth on hand-checkable
// cases, tree order of nodes, rejected parameters with their messages, deterministic jobs.

#include <QtTest>

#include "cli/command.h"
#include "io/scenario_json.h"
#include "model/gen_dgx.h"
#include "model/gen_fat_tree.h"
#include "model/gen_jobs.h"
#include "model/gen_leaf_spine.h"
#include "model/gpu_catalog.h"
#include "model/model_catalog.h"
#include "model/validation.h"
#include "net/topology.h"

#include <QRegularExpression>
#include <QTemporaryDir>

#include <cmath>
#include <set>
#include <sstream>

using namespace cb;

namespace {

QString problemsText(const Problems &p)
{
    return QString::fromStdString(formatProblems(p));
}

/// Valid as a scenario and every node reaches node 0.
void checkValidAndConnected(const Cluster &c)
{
    Scenario s;
    s.cluster = c;
    const Problems p = validateScenario(s);
    QVERIFY2(p.empty(), qPrintable(problemsText(p)));
    const Topology topo(c);
    const std::vector<int> comp = topo.components();
    for (int v = 0; v < topo.vertexCount(); ++v)
        QCOMPARE(comp[std::size_t(v)], 0);
}

struct CliRun
{
    int code = -1;
    std::string out, err;
};

CliRun generate(const QStringList &args)
{
    std::vector<std::string> argv{"generate"};
    for (const QString &a : args)
        argv.push_back(a.toStdString());
    std::ostringstream out, err;
    cli::Io io{out, err};
    const int code = cli::runCommand(argv, io);
    return {code, out.str(), err.str()};
}

int linksOf(const Cluster &c, const std::string &id)
{
    int n = 0;
    for (const Link &l : c.links)
        n += (l.a == id) + (l.b == id);
    return n;
}

} // namespace

class TestGenerators : public QObject
{
    Q_OBJECT

private slots:
    void leafSpine_data()
    {
        QTest::addColumn<int>("leaves");
        QTest::addColumn<int>("spines");
        QTest::addColumn<int>("hostsPerLeaf");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<double>("hostGbps");
        QTest::addColumn<int>("gpusPerHost");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("links");
        QTest::addColumn<double>("uplinkGbps");
        QTest::addColumn<double>("bisection");
        // 2 leaves x 4 hosts x 10 G: 40 G down per leaf; 1:1 gives 2 x 20 G up, bisection
        // = the one left leaf's uplink = 40 G.
        QTest::newRow("2 leaves 2 spines 1:1") << 2 << 2 << 4 << 1.0 << 10.0 << 8 << 4 << 12
                                               << 20.0 << 40.0;
        QTest::newRow("2 leaves 2 spines 2:1") << 2 << 2 << 4 << 2.0 << 10.0 << 8 << 4 << 12
                                               << 10.0 << 20.0;
        // 8 x 100 G down = 800; 3:1 -> 266.67 up per leaf over 2 spines; 2 left leaves.
        QTest::newRow("4 leaves 2 spines 3:1") << 4 << 2 << 8 << 3.0 << 100.0 << 4 << 6 << 40
                                               << 800.0 / 6 << 1600.0 / 3;
        // Oversubscription below 1 (more uplink than downlink): the hosts limit the cut.
        QTest::newRow("2 leaves 1 spine 1:2") << 2 << 1 << 2 << 0.5 << 25.0 << 1 << 3 << 6
                                              << 100.0 << 50.0;
        // One leaf, no spine: 4 hosts of 10 G, the cut is 2 hosts' links.
        QTest::newRow("1 leaf no spine") << 1 << 0 << 4 << 1.0 << 10.0 << 2 << 1 << 4 << 0.0
                                         << 20.0;
    }

    void leafSpine()
    {
        QFETCH(int, leaves);
        QFETCH(int, spines);
        QFETCH(int, hostsPerLeaf);
        QFETCH(double, ratio);
        QFETCH(double, hostGbps);
        QFETCH(int, gpusPerHost);
        QFETCH(int, switches);
        QFETCH(int, links);
        QFETCH(double, uplinkGbps);
        QFETCH(double, bisection);
        LeafSpineParams p;
        p.leaves = leaves;
        p.spines = spines;
        p.hostsPerLeaf = hostsPerLeaf;
        p.oversubscription = ratio;
        p.hostLinkGbps = hostGbps;
        p.host.gpus = gpusPerHost;
        p.host.gpuType = "V100";
        auto c = generateLeafSpine(p);
        QVERIFY2(c.ok(), c.error().c_str());
        QCOMPARE(int(c->nodes.size()), leaves * hostsPerLeaf);
        QCOMPARE(int(c->switches.size()), switches);
        QCOMPARE(int(c->links.size()), links);
        QCOMPARE(c->totalGpus(), leaves * hostsPerLeaf * gpusPerHost);
        QCOMPARE(int(c->gpuTypes.size()), 1);
        QCOMPARE(c->gpuTypes[0], findGpuCatalogEntry("V100")->type);
        checkValidAndConnected(c.value());
        for (const Link &l : c->links)
            if (l.a.rfind("leaf", 0) == 0)
                QCOMPARE(l.capacityGbps, uplinkGbps);
        QCOMPARE(Topology(c.value()).bisectionGbps(), bisection);
        // Tree order: hosts of leaf 0 first; rack and link name the host's leaf.
        for (int i = 0; i < int(c->nodes.size()); ++i) {
            const Node &n = c->nodes[std::size_t(i)];
            const std::string leaf = c->switches[std::size_t(i / hostsPerLeaf)].id;
            QCOMPARE(n.rack, leaf);
            QCOMPARE(n.labels.at("kubernetes.io/hostname"), n.id);
            QCOMPARE(n.labels.at("nvidia.com/gpu.product"), std::string("Tesla-V100-SXM2-32GB"));
            QCOMPARE(linksOf(c.value(), n.id), 1);
        }
    }

    void leafSpineNames()
    {
        LeafSpineParams p;
        p.leaves = 2;
        p.spines = 2;
        p.hostsPerLeaf = 6;
        p.host.prefix = "gpu";
        auto c = generateLeafSpine(p);
        QVERIFY(c.ok());
        QCOMPARE(c->nodes.front().id, std::string("gpu-00"));
        QCOMPARE(c->nodes.back().id, std::string("gpu-11"));
        QCOMPARE(c->switches.front().id, std::string("leaf-0"));
        QCOMPARE(c->switches.front().tier, std::string("leaf"));
        QCOMPARE(c->switches.back().id, std::string("spine-1"));
        // A100 hosts: one NVLink domain of all 8 GPUs at 2400 Gbit/s per direction.
        const Node &n = c->nodes.front();
        QCOMPARE(n.interconnect.kind, GpuInterconnect::Kind::Nvlink);
        QCOMPARE(n.interconnect.bandwidthGbps, 2400.0);
        QCOMPARE(n.interconnect.nvlinkDomains,
                 (std::vector<std::vector<int>>{{0, 1, 2, 3, 4, 5, 6, 7}}));
        QCOMPARE(n.labels.at("nvidia.com/gpu.memory"), std::string("40960"));
        QCOMPARE(n.partition, std::string("gpu"));
    }

    void fatTree_data()
    {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("hosts");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("links");
        QTest::addColumn<double>("bisection");
        // hosts k^3/4, switches 5k^2/4, links 3k^3/4, bisection k^3/8 links of 10 G.
        QTest::newRow("k=2") << 2 << 2 << 5 << 6 << 10.0;
        QTest::newRow("k=4") << 4 << 16 << 20 << 48 << 80.0;
        QTest::newRow("k=8") << 8 << 128 << 80 << 384 << 640.0;
        QTest::newRow("k=16") << 16 << 1024 << 320 << 3072 << 5120.0;
    }

    void fatTree()
    {
        QFETCH(int, k);
        QFETCH(int, hosts);
        QFETCH(int, switches);
        QFETCH(int, links);
        QFETCH(double, bisection);
        FatTreeParams p;
        p.k = k;
        p.linkGbps = 10;
        p.host.gpus = 1;
        p.host.gpuType = "T4";
        auto c = generateFatTree(p);
        QVERIFY2(c.ok(), c.error().c_str());
        QCOMPARE(int(c->nodes.size()), hosts);
        QCOMPARE(int(c->switches.size()), switches);
        QCOMPARE(int(c->links.size()), links);
        QCOMPARE(c->totalGpus(), hosts);
        checkValidAndConnected(c.value());
        QCOMPARE(Topology(c.value()).bisectionGbps(), bisection);
        std::map<std::string, int> tiers;
        for (const Switch &s : c->switches) {
            tiers[s.tier]++;
            // Every switch uses all k ports; core switches have k pods below.
            QCOMPARE(linksOf(c.value(), s.id), k);
        }
        QCOMPARE(tiers["edge"], k * k / 2);
        QCOMPARE(tiers["aggregation"], k * k / 2);
        QCOMPARE(tiers["core"], k * k / 4);
        // Tree order: k/2 consecutive hosts share an edge switch (their rack).
        for (int i = 0; i < hosts; ++i)
            QCOMPARE(c->nodes[std::size_t(i)].rack,
                     c->nodes[std::size_t(i - i % (k / 2))].rack);
        QVERIFY(c->nodes.front().rack != c->nodes.back().rack);
    }

    void fatTreeNames()
    {
        FatTreeParams p;
        p.k = 4;
        auto c = generateFatTree(p);
        QVERIFY(c.ok());
        QCOMPARE(c->switches.front().id, std::string("pod-0-edge-0"));
        QCOMPARE(c->switches[2].id, std::string("pod-0-agg-0"));
        QCOMPARE(c->switches.back().id, std::string("core-3"));
        QCOMPARE(c->nodes[2].id, std::string("node-02"));
        QCOMPARE(c->nodes[2].rack, std::string("pod-0-edge-1"));
        QCOMPARE(c->nodes[4].labels.at("clusterbench.io/pod"), std::string("pod-1"));
        // Aggregation switch 1 of each pod reaches cores 2 and 3.
        std::set<std::string> cores;
        for (const Link &l : c->links)
            if (l.a == "pod-2-agg-1")
                cores.insert(l.b);
        QCOMPARE(cores, (std::set<std::string>{"core-2", "core-3"}));
    }

    void fatTreeOversubscribedEdge()
    {
        // k = 4 with 3 hosts per edge switch: 4 pods x 2 edges x 3 = 24 hosts; links 24 host
        // + 16 edge-aggregation + 16 aggregation-core; an edge switch has 3 hosts below and 2
        // uplinks, so a pod's 6 hosts share 4 uplinks: the bisection stays 8 links of 10 G.
        FatTreeParams p;
        p.k = 4;
        p.hostsPerEdge = 3;
        p.linkGbps = 10;
        auto c = generateFatTree(p);
        QVERIFY2(c.ok(), c.error().c_str());
        QCOMPARE(int(c->nodes.size()), 24);
        QCOMPARE(int(c->switches.size()), 20);
        QCOMPARE(int(c->links.size()), 56);
        checkValidAndConnected(c.value());
        QCOMPARE(Topology(c.value()).bisectionGbps(), 80.0);
        QCOMPARE(linksOf(c.value(), "pod-0-edge-0"), 5);
        QCOMPARE(c->nodes[3].rack, std::string("pod-0-edge-1"));
        QCOMPARE(c->nodes[6].labels.at("clusterbench.io/pod"), std::string("pod-1"));
        QCOMPARE(c->nodes[23].id, std::string("node-23"));
        p.hostsPerEdge = 257;
        auto bad = generateFatTree(p);
        QVERIFY(!bad);
        QCOMPARE(bad.problems().front().where, std::string("hosts-per-edge"));
        // The 16,384-node cluster of the large-cluster benchmarks.
        p.k = 32;
        p.hostsPerEdge = 32;
        auto large = generateFatTree(p);
        QVERIFY(large.ok());
        QCOMPARE(int(large->nodes.size()), 16384);
        QCOMPARE(int(large->switches.size()), 1280);
    }

    void dgx_data()
    {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("nodesPerUnit");
        QTest::addColumn<int>("spines");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("links");
        QTest::addColumn<double>("bisection");
        // 8 rails; bisection = nodes/2 x 8 NICs x 200 G.
        QTest::newRow("4 nodes 2 spines") << 4 << 32 << 2 << 10 << 48 << 3200.0;
        QTest::newRow("4 nodes no spine") << 4 << 32 << 0 << 8 << 32 << 3200.0;
        // Two units of 20: 16 rail leaves + 2 spines; the cut between the units is both
        // the 20 left nodes' NICs and the 8 leaves' uplinks: 32,000 G.
        QTest::newRow("40 nodes 2 units") << 40 << 20 << 2 << 18 << 352 << 32000.0;
    }

    void dgx()
    {
        QFETCH(int, nodes);
        QFETCH(int, nodesPerUnit);
        QFETCH(int, spines);
        QFETCH(int, switches);
        QFETCH(int, links);
        QFETCH(double, bisection);
        DgxParams p;
        p.nodes = nodes;
        p.nodesPerUnit = nodesPerUnit;
        p.spines = spines;
        auto c = generateDgx(p);
        QVERIFY2(c.ok(), c.error().c_str());
        QCOMPARE(int(c->nodes.size()), nodes);
        QCOMPARE(int(c->switches.size()), switches);
        QCOMPARE(int(c->links.size()), links);
        QCOMPARE(c->totalGpus(), nodes * 8);
        checkValidAndConnected(c.value());
        QCOMPARE(Topology(c.value()).bisectionGbps(), bisection);
        for (const Node &n : c->nodes) {
            QCOMPARE(n.gpus, 8);
            QCOMPARE(n.gpuType, std::string("A100-80GB"));
            QCOMPARE(n.interconnect.kind, GpuInterconnect::Kind::Nvlink);
            QCOMPARE(n.interconnect.nvlinkDomains.size(), std::size_t(1));
            QCOMPARE(n.interconnect.nvlinkDomains[0].size(), std::size_t(8));
            // Rail-optimised: 8 NICs to 8 different leaves, NIC r to rail r.
            std::set<std::string> leaves;
            for (const Link &l : c->links)
                if (l.a == n.id) {
                    leaves.insert(l.b);
                    QCOMPARE(l.capacityGbps, 200.0);
                }
            QCOMPARE(int(leaves.size()), 8);
            for (const std::string &leaf : leaves)
                QVERIFY(leaf.rfind(n.rack + "-rail-", 0) == 0);
        }
        // Two nodes of one unit are two hops apart (one rail leaf between them).
        QCOMPARE(Topology(c.value()).hops(0, 1), 2);
    }

    void badParameters_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("expected");
        QTest::newRow("odd k") << "fat-tree" << "k=5"
                               << "k: expected an even switch radix from 2 to 64 (k/2 ports "
                                  "down and k/2 up), found 5";
        QTest::newRow("k zero") << "fat-tree" << "k=0"
                                << "k: expected an even switch radix from 2 to 64 (k/2 ports "
                                   "down and k/2 up), found 0";
        QTest::newRow("k too big") << "fat-tree" << "k=66"
                                   << "k: expected an even switch radix from 2 to 64 (k/2 ports "
                                      "down and k/2 up), found 66";
        QTest::newRow("no leaves") << "leaf-spine" << "leaves=0"
                                   << "leaves: expected an integer from 1 to 1024, found 0";
        QTest::newRow("leaves without spine")
            << "leaf-spine" << "spines=0"
            << "spines: expected 1 to 1024 spines (several leaves need a spine to reach each "
               "other), found 0";
        QTest::newRow("zero oversubscription")
            << "leaf-spine" << "oversubscription=0"
            << "oversubscription: expected a ratio of host to uplink bandwidth from 0.01 to "
               "1000, found 0";
        QTest::newRow("NaN host link") << "leaf-spine" << "host-gbps=nan"
                                       << "host-gbps: expected a positive link capacity in "
                                          "Gbit/s, found nan";
        QTest::newRow("unknown GPU") << "leaf-spine" << "gpu-type=X100"
                                     << "gpu-type: unknown GPU type \"X100\"; expected one of "
                                        "K80, M60, QuadroP600, GTX1080Ti, P100, V100, T4, "
                                        "A100-40GB, A100-80GB, L4, H100-80GB, H200, GB200";
        QTest::newRow("bad prefix") << "fat-tree" << "prefix=Node_A"
                                    << "prefix: expected a hostname prefix of lowercase letters, "
                                       "digits and '-' (at most 40), found \"Node_A\"";
        QTest::newRow("dgx without NVLink")
            << "dgx" << "gpu-type=T4"
            << "gpu-type: GPU type \"T4\" has no NVLink; choose an NVLink GPU or give "
               "--nvlink-gbps";
        QTest::newRow("dgx units without spines")
            << "dgx" << "spines=0"
            << "spines: expected 1 to 1024 spines (the nodes span 2 scalable units, which "
               "reach each other only through spines), found 0";
        QTest::newRow("dgx one GPU") << "dgx" << "gpus-per-host=1"
                                     << "gpus-per-host: a DGX-style node needs at least 2 GPUs "
                                        "to form an NVLink domain, found 1";
    }

    void badParameters()
    {
        QFETCH(QString, kind);
        QFETCH(QString, change);
        QFETCH(QString, expected);
        const QString key = change.section(QLatin1Char('='), 0, 0);
        const QString value = change.section(QLatin1Char('='), 1);
        HostParams host;
        auto applyHost = [&] {
            if (key == QLatin1String("gpu-type"))
                host.gpuType = value.toStdString();
            if (key == QLatin1String("prefix"))
                host.prefix = value.toStdString();
            if (key == QLatin1String("gpus-per-host"))
                host.gpus = value.toInt();
        };
        Problems problems;
        if (kind == QLatin1String("fat-tree")) {
            FatTreeParams p;
            if (key == QLatin1String("k"))
                p.k = value.toInt();
            host = p.host;
            applyHost();
            p.host = host;
            auto c = generateFatTree(p);
            QVERIFY(!c.ok());
            problems = c.problems();
        } else if (kind == QLatin1String("leaf-spine")) {
            LeafSpineParams p;
            if (key == QLatin1String("leaves"))
                p.leaves = value.toInt();
            if (key == QLatin1String("spines"))
                p.spines = value.toInt();
            if (key == QLatin1String("oversubscription"))
                p.oversubscription = value.toDouble();
            if (key == QLatin1String("host-gbps"))
                p.hostLinkGbps = std::nan("");
            host = p.host;
            applyHost();
            p.host = host;
            auto c = generateLeafSpine(p);
            QVERIFY(!c.ok());
            problems = c.problems();
        } else {
            DgxParams p;
            p.nodes = 40;
            p.nodesPerUnit = 20;
            if (key == QLatin1String("spines"))
                p.spines = value.toInt();
            host = p.host;
            applyHost();
            p.host = host;
            auto c = generateDgx(p);
            QVERIFY(!c.ok());
            problems = c.problems();
        }
        QCOMPARE(problemsText(problems), expected);
    }

    void allProblemsAtOnce()
    {
        LeafSpineParams p;
        p.leaves = 0;
        p.hostsPerLeaf = 0;
        p.host.cpus = -1;
        auto c = generateLeafSpine(p);
        QVERIFY(!c.ok());
        QCOMPARE(c.problems().size(), std::size_t(3));
        QCOMPARE(c.problems()[0].where, std::string("leaves"));
        QCOMPARE(c.problems()[1].where, std::string("hosts-per-leaf"));
        QCOMPARE(c.problems()[2].toString(),
                 std::string("cpus: expected a positive number of CPUs, found -1"));
    }

    void catalogues()
    {
        std::set<std::string> names;
        for (const GpuCatalogEntry &e : gpuCatalog()) {
            QVERIFY(names.insert(e.type.name).second);
            QVERIFY(e.type.memoryGiB > 0);
            QVERIFY(e.type.busyWatts > e.type.idleWatts);
            QVERIFY(e.type.pricePerHour > 0);
            QVERIFY(!e.product.empty());
        }
        QCOMPARE(findGpuCatalogEntry("K80")->type.pricePerHour, 0.56); // STS GPU-cost.csv
        QCOMPARE(findGpuCatalogEntry("A100-80GB")->type.busyWatts, 400.0);
        QVERIFY(!findGpuCatalogEntry("a100"));
        QCOMPARE(findTrainingModel("vgg16")->parameterBytes(), std::int64_t(553430176));
        QCOMPARE(findTrainingModel("resnet50")->parameters, std::int64_t(25557032));
    }

    void modelMix_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("weights") << "resnet50:2, vgg16,bert-base:0.5"
                                 << "resnet50:2 vgg16:1 bert-base:0.5";
        QTest::newRow("unknown") << "resnet50,foo"
                                 << "models item 2: unknown model \"foo\"; expected one of "
                                    "alexnet, vgg16, resnet50, resnet101, inception_v3, "
                                    "bert-base, bert-large, gpt2";
        QTest::newRow("bad weight") << "vgg16:x"
                                    << "models item 1: expected a positive weight after "
                                       "\"vgg16:\", found \"x\"";
        QTest::newRow("zero weight") << "vgg16:0"
                                     << "models item 1: expected a positive weight after "
                                        "\"vgg16:\", found \"0\"";
        QTest::newRow("empty item") << "vgg16,,alexnet"
                                    << "models item 2: expected MODEL or MODEL:WEIGHT, found "
                                       "nothing";
    }

    void modelMix()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        auto mix = parseModelMix(text.toStdString());
        QString got;
        if (mix) {
            for (const ModelShare &s : mix.value())
                got += (got.isEmpty() ? "" : " ") + QString::fromStdString(s.model) + ":" +
                       QString::number(s.weight);
        } else {
            got = problemsText(mix.problems());
        }
        QCOMPARE(got, expected);
    }

    void jobsDeterministic()
    {
        JobSetParams p;
        p.jobs = 50;
        p.seed = 42;
        auto a = generateJobs(p);
        auto b = generateJobs(p);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(a->size(), std::size_t(50));
        QVERIFY(a.value() == b.value());
        p.seed = 43;
        auto c = generateJobs(p);
        QVERIFY(c.ok());
        QVERIFY(!(a.value() == c.value()));
        int sameSubmit = 0;
        for (std::size_t i = 1; i < 50; ++i)
            sameSubmit += a.value()[i].submitSeconds == c.value()[i].submitSeconds;
        QCOMPARE(sameSubmit, 0);
    }

    void jobsShape()
    {
        JobSetParams p;
        p.jobs = 2000;
        p.meanInterarrivalSeconds = 100;
        p.firstArrivalSeconds = 50;
        p.seed = 7;
        auto jobs = generateJobs(p);
        QVERIFY(jobs.ok());
        QCOMPARE(jobs.value()[0].submitSeconds, 50.0);
        QCOMPARE(jobs.value()[0].id, std::string("job-0000"));
        QCOMPARE(jobs->back().id, std::string("job-1999"));
        std::map<JobKind, int> kinds;
        std::set<std::string> ids, models;
        for (std::size_t i = 0; i < jobs->size(); ++i) {
            const Job &j = jobs.value()[i];
            QVERIFY(ids.insert(j.id).second);
            if (i > 0)
                QVERIFY(j.submitSeconds >= jobs.value()[i - 1].submitSeconds);
            QVERIFY(j.dueSeconds && *j.dueSeconds > j.submitSeconds);
            const double ideal = double(j.model.iterations) * j.model.computeSecondsPerIteration;
            QVERIFY(*j.dueSeconds - j.submitSeconds >= 1.5 * ideal - 1e-3);
            QVERIFY(*j.dueSeconds - j.submitSeconds <= 4.0 * ideal + 1e-3);
            QVERIFY(j.tardinessWeight >= 0.0254 && j.tardinessWeight <= 0.0444);
            QCOMPARE(j.model.parameterBytes, findTrainingModel(j.model.name)->parameterBytes());
            kinds[j.kind]++;
            models.insert(j.model.name);
            if (j.kind == JobKind::ParameterServer) {
                QCOMPARE(j.tasks.size(), std::size_t(2));
                QCOMPARE(j.tasks[0].role, TaskRole::Ps);
                QVERIFY(j.tasks[0].replicas >= 1 && j.tasks[0].replicas <= 2);
            }
            if (j.kind != JobKind::Single)
                QVERIFY(j.tasks.back().replicas >= 2 && j.tasks.back().replicas <= 8);
        }
        QCOMPARE(models.size(), trainingModels().size());
        // Seeded, so these shares are fixed; they sit near 20 % / 40 % / 40 %.
        QVERIFY(kinds[JobKind::Single] > 340 && kinds[JobKind::Single] < 460);
        QVERIFY(kinds[JobKind::ParameterServer] > 700 && kinds[JobKind::ParameterServer] < 900);
        // Mean gap of 1999 exponential gaps: within 5 % of 100 s.
        const double meanGap = (jobs->back().submitSeconds - 50.0) / 1999.0;
        QVERIFY2(meanGap > 95 && meanGap < 105, qPrintable(QString::number(meanGap)));
    }

    void jobsOptions()
    {
        JobSetParams p;
        p.jobs = 30;
        p.singleFraction = 0;
        p.psFraction = 1;
        p.modelMix = {{"vgg16", 1}};
        p.minWorkers = p.maxWorkers = 3;
        p.maxSlack = p.minSlack = 0;
        p.idPrefix = "tf";
        p.firstIndex = 70;
        p.gpuType = "V100";
        auto jobs = generateJobs(p);
        QVERIFY(jobs.ok());
        QCOMPARE(jobs->front().id, std::string("tf-70")); // width of the last index, 99
        QCOMPARE(jobs->back().id, std::string("tf-99"));
        for (const Job &j : jobs.value()) {
            QCOMPARE(j.kind, JobKind::ParameterServer);
            QCOMPARE(j.model.name, std::string("vgg16"));
            QCOMPARE(j.tasks[1].replicas, 3);
            QCOMPARE(j.tasks[1].gpuType, std::string("V100"));
            QVERIFY(!j.dueSeconds);
        }
    }

    void jobsBadParameters()
    {
        JobSetParams p;
        p.jobs = -1;
        p.minWorkers = 5;
        p.maxWorkers = 2;
        p.meanInterarrivalSeconds = 0;
        p.modelMix = {{"lenet", 1}};
        auto jobs = generateJobs(p);
        QVERIFY(!jobs.ok());
        QCOMPARE(problemsText(jobs.problems()),
                 QStringLiteral("jobs: expected an integer from 0 to 1000000, found -1\n"
                                "mean-interarrival: expected a positive mean inter-arrival time "
                                "in seconds, found 0\n"
                                "workers: expected the maximum (2) between the minimum (5) and "
                                "4096\n"
                                "models: unknown model \"lenet\"; expected one of alexnet, "
                                "vgg16, resnet50, resnet101, inception_v3, bert-base, "
                                "bert-large, gpt2"));
    }

    void jobsFitGeneratedCluster()
    {
        LeafSpineParams lp;
        auto c = generateLeafSpine(lp);
        JobSetParams jp;
        jp.jobs = 100;
        auto jobs = generateJobs(jp);
        QVERIFY(c.ok() && jobs.ok());
        Scenario s;
        s.cluster = c.value();
        s.jobs = jobs.value();
        const Problems problems = validateScenario(s);
        QVERIFY2(problems.empty(), qPrintable(problemsText(problems)));
    }

    void generateCommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stderrHas");
        const QString out = QStringLiteral("OUT");
        QTest::newRow("no kind") << QStringList{} << 2 << "expected one KIND";
        QTest::newRow("unknown kind") << QStringList{"torus", "--out", out} << 2
                                      << "unknown KIND \"torus\"";
        QTest::newRow("odd k") << QStringList{"fat-tree", "--k", "5", "--out", out} << 2
                               << "--k: expected an even switch radix from 2 to 64";
        QTest::newRow("k not a number") << QStringList{"fat-tree", "--k", "four", "--out", out}
                                        << 2 << "--k: expected an integer, found \"four\"";
        QTest::newRow("foreign option") << QStringList{"fat-tree", "--leaves", "3", "--out", out}
                                        << 2 << "--leaves: does not apply to fat-tree";
        QTest::newRow("job option without jobs")
            << QStringList{"leaf-spine", "--models", "vgg16", "--out", out} << 2
            << "--models: job options need --jobs N";
        QTest::newRow("no out") << QStringList{"fat-tree"} << 2
                                << "--out: missing: where to write the scenario";
        QTest::newRow("jobs without into") << QStringList{"jobs", "--out", out} << 2
                                           << "--into: missing";
        QTest::newRow("bad range") << QStringList{"dgx", "--jobs", "2", "--workers", "2-x",
                                                  "--out", out}
                                   << 2 << "--workers: expected a number, found \"x\"";
        QTest::newRow("tasks too big for hosts")
            << QStringList{"leaf-spine", "--jobs", "3", "--gpus-per-worker", "16", "--out", out}
            << 2 << "not valid with these parameters";
        // (without --data: the copy of the authors' files built into the program)
        QTest::newRow("sts built in")
            << QStringList{"sts", "--nodes", "2", "--out", out} << 0 << "";
        QTest::newRow("sts missing files")
            << QStringList{"sts", "--data", "/nonexistent-sts", "--out", out} << 2
            << "/nonexistent-sts/data_2d10d_filtered.csv";
        QTest::newRow("leaf-spine ok") << QStringList{"leaf-spine", "--leaves", "2",
                                                      "--hosts-per-leaf", "2", "--out", out}
                                       << 0 << "";
    }

    void generateCommand()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, stderrHas);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = tmp.filePath(QStringLiteral("s.json"));
        args.replaceInStrings(QRegularExpression(QStringLiteral("^OUT$")), file);
        const CliRun r = generate(args);
        QVERIFY2(r.code == code, (r.out + r.err).c_str());
        QVERIFY2(QString::fromStdString(r.err).contains(stderrHas), r.err.c_str());
        QCOMPARE(QFile::exists(file), code == 0);
    }

    // The built-in copy of the STS authors' files gives what the files themselves give.
    void stsBuiltInEqualsTheFiles()
    {
        QTemporaryDir tmp;
        const QString a = tmp.filePath(QStringLiteral("a.json"));
        const QString b = tmp.filePath(QStringLiteral("b.json"));
        QCOMPARE(generate({"sts", "--nodes", "3", "--seed", "5", "--out", a}).code, 0);
        QCOMPARE(generate({"sts", "--nodes", "3", "--seed", "5", "--data",
                           CB_SOURCE_DIR "/tests/data/sts", "--out", b})
                     .code,
                 0);
        QFile fa(a), fb(b);
        QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
        const QByteArray ba = fa.readAll();
        QVERIFY(ba.size() > 1000);
        QCOMPARE(ba, fb.readAll());
    }

    void generateThenAddJobs()
    {
        QTemporaryDir tmp;
        const std::string a = tmp.filePath(QStringLiteral("a.json")).toStdString();
        const std::string b = tmp.filePath(QStringLiteral("b.json")).toStdString();
        CliRun r = generate({"dgx", "--nodes", "2", "--jobs", "5", "--seed", "3", "--out",
                             QString::fromStdString(a)});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, "Wrote " + a +
                            ": 2 nodes, 16 GPUs, 10 switches, 32 links, bisection 1,600 "
                            "Gbit/s, 5 jobs\n");
        r = generate({"jobs", "--into", QString::fromStdString(a), "--jobs", "7", "--seed", "4",
                      "--models", "gpt2", "--json", "--out", QString::fromStdString(b)});
        QCOMPARE(r.code, 0);
        const auto summary = nlohmann::json::parse(r.out);
        QCOMPARE(summary["jobs"].get<int>(), 12);
        QCOMPARE(summary["nodes"].get<int>(), 2);
        auto s = loadScenarioFile(b);
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(s->jobs[4].id, std::string("job-4"));
        QCOMPARE(s->jobs[5].id, std::string("job-05")); // continues after the 5 already there
        QCOMPARE(s->jobs[11].id, std::string("job-11"));
        QCOMPARE(s->jobs[11].model.name, std::string("gpt2"));
        QCOMPARE(s->settings.seed, std::uint64_t(3)); // the scenario keeps its own seed
        // Same options, same bytes.
        const std::string c = tmp.filePath(QStringLiteral("c.json")).toStdString();
        r = generate({"dgx", "--nodes", "2", "--jobs", "5", "--seed", "3", "--out",
                      QString::fromStdString(c)});
        QCOMPARE(r.code, 0);
        QFile fa(QString::fromStdString(a)), fc(QString::fromStdString(c));
        QVERIFY(fa.open(QIODevice::ReadOnly) && fc.open(QIODevice::ReadOnly));
        QCOMPARE(fa.readAll(), fc.readAll());
    }

    void hostsPerEdgeZeroIsRefused()
    {
        // The help says 1..256; 0 was taken silently as the default k/2.
        const QString out = QDir::temp().filePath(QStringLiteral("cb-hosts-per-edge-0.json"));
        QFile::remove(out);
        const CliRun r = generate({"fat-tree", "--k", "4", "--hosts-per-edge", "0", "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("--hosts-per-edge: expected 1 to 256 hosts per edge switch, found 0") !=
                     std::string::npos,
                 r.err.c_str());
        QVERIFY(!QFile::exists(out));
    }

    void generateHelp()
    {
        const CliRun r = generate({"--help"});
        QCOMPARE(r.code, 0);
        for (const char *option : {"--hosts-per-leaf", "--oversubscription", "--k K", "--nics",
                                   "--nvlink-gbps", "--mean-interarrival", "--models LIST",
                                   "--ps-fraction", "--into SCENARIO", "--data DIR", "--seed"})
            QVERIFY2(r.out.find(option) != std::string::npos, option);
    }
};

QTEST_APPLESS_MAIN(TestGenerators)
#include "tst_generators.moc"
