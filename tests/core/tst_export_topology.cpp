// Topology-aware exports: Slurm topology.conf in block form (BlockName / BlockSizes) and
// topology.yaml, checked against the grammar Slurm documents in topology.conf(5) and
// topology.yaml(5) (the local controller is Slurm 22.05, which predates topology/block and
// topology.yaml, so these forms cannot be fed to it; the tree form is, in
// tst_export_slurm), and read back by ClusterBench's own Slurm importer; --switches and
// --segment in batch scripts on hand-checked placements.

#include "io/export/exporter_registry.h"
#include "io/export/slurm_topology.h"
#include "io/import/hostlist.h"
#include "io/import/import_report.h"
#include "io/import/slurm_config_text.h"
#include "io/import/slurm_topology_yaml.h"

#include "tst_export_fixtures.h"

#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <regex>
#include <sstream>
#include <set>

using namespace cb;

namespace {

const ExportedFile *fileNamed(const ExportResult &r, const std::string &path)
{
    for (const ExportedFile &f : r.files)
        if (f.path == path)
            return &f;
    return nullptr;
}

ExportResult exportWith(const std::string &format, const Scenario &s, const Placement &p,
                        bool blocks)
{
    ExportOptions o;
    o.slurmBlocks = blocks;
    auto r = ExporterRegistry::find(format)->exportPlacement(s, p, o);
    return r ? r.value() : ExportResult{};
}

std::vector<std::string> expand(const std::string &hostlist)
{
    auto r = expandHostlist(hostlist);
    return r ? r.value() : std::vector<std::string>{"<bad hostlist " + hostlist + ">"};
}

/// Lines of a topology.conf without comments, as "key=value key=value".
std::vector<std::string> flatten(const std::vector<SlurmConfigLine> &lines)
{
    std::vector<std::string> out;
    for (const SlurmConfigLine &l : lines) {
        std::string s;
        for (const auto &[k, v] : l.pairs)
            s += (s.empty() ? "" : " ") + k + "=" + v;
        out.push_back(s);
    }
    return out;
}

/// Eight nodes in racks of 4 (ra) and 4 (rb) under two leaves.
Scenario twoRacks()
{
    Scenario s = cbtest::exportScenario();
    s.cluster.nodes.clear();
    s.cluster.links.clear();
    for (int i = 1; i <= 8; ++i) {
        const std::string id = "n0" + std::to_string(i);
        s.cluster.nodes.push_back(cbtest::exportNode(id, 32, 256, 8, i <= 4 ? "ra" : "rb", "gpu"));
        s.cluster.links.push_back({i <= 4 ? "leaf-1" : "leaf-2", id, 100, 1});
    }
    s.cluster.links.push_back({"leaf-1", "spine-1", 400, 1});
    s.cluster.links.push_back({"leaf-2", "spine-1", 400, 1});
    s.jobs = {cbtest::exportJob("wide", JobKind::AllReduce,
                                {cbtest::exportGroup(TaskRole::Worker, 4, 8, 64, 8)})};
    return s;
}

Placement wideOn(const std::vector<std::string> &nodes)
{
    Placement p;
    JobPlacement jp;
    jp.jobId = "wide";
    for (std::size_t i = 0; i < nodes.size(); ++i)
        jp.tasks.push_back(cbtest::exportTask(TaskRole::Worker, 0, int(i), nodes[i]));
    p.jobs.push_back(jp);
    return p;
}

} // namespace

class TestExportTopology : public QObject
{
    Q_OBJECT

private slots:
    void blockFormFollowsSlurmGrammar()
    {
        // topology.conf(5), topology/block: "BlockName=NAME Nodes=HOSTLIST" per block and one
        // "BlockSizes=N[,N...]"; comments start with '#'.
        const ExportResult r =
            exportWith("slurm-cluster", cbtest::exportScenario(), {}, true);
        const ExportedFile *topo = fileNamed(r, "topology.conf");
        QVERIFY(topo);
        static const std::regex blockLine(
            R"(^BlockName=[A-Za-z0-9][A-Za-z0-9._-]* Nodes=[A-Za-z0-9._,\[\]-]+$)");
        static const std::regex sizesLine(R"(^BlockSizes=[1-9][0-9]*(,[1-9][0-9]*)*$)");
        std::istringstream in(topo->content);
        std::string line;
        int blocks = 0, sizes = 0;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            if (std::regex_match(line, blockLine))
                ++blocks;
            else if (std::regex_match(line, sizesLine))
                ++sizes;
            else
                QFAIL(("not topology/block grammar: " + line).c_str());
        }
        QCOMPARE(blocks, 2);
        QCOMPARE(sizes, 1);
        // r1 holds 3 nodes, r2 2: the base block is 2 nodes, aggregated to 2 blocks = 4.
        QVERIFY(topo->content.find("\nBlockName=r1 Nodes=cpu-01,gpu-[01-02]\n"
                                   "BlockName=r2 Nodes=gpu-[03-04]\n"
                                   "BlockSizes=2,4\n") != std::string::npos);
        QCOMPARE(r.warnings.size(), std::size_t(1));
        QVERIFY2(r.warnings[0].find("blocks hold 2 to 3 nodes") != std::string::npos,
                 r.warnings[0].c_str());

        const auto b = SlurmTopology::blocks(twoRacks().cluster);
        QVERIFY(b.ok());
        QCOMPARE(b->baseBlockSize, 4);
        QCOMPARE(b->blockSizes, (std::vector<int>{4, 8}));
        QVERIFY(b->warnings.empty());
    }

    void yamlFollowsSlurmGrammar()
    {
        // topology.yaml(5): a list; each entry starts with "topology: NAME", may say
        // cluster_default, and has exactly one of tree (switches: [{switch, children |
        // nodes}]), block (block_sizes, blocks: [{block, nodes}]) or flat.
        const bool blocks = true;
        QVERIFY(!fileNamed(exportWith("slurm-cluster", cbtest::exportScenario(), {}, false),
                           "topology.yaml"));
        const ExportResult r = exportWith("slurm-cluster", cbtest::exportScenario(), {}, blocks);
        const ExportedFile *yaml = fileNamed(r, "topology.yaml");
        QVERIFY(yaml);
        const YAML::Node doc = YAML::Load(yaml->content);
        QVERIFY(doc.IsSequence());
        QCOMPARE(doc.size(), std::size_t(2));
        int defaults = 0;
        std::set<std::string> names;
        for (const YAML::Node &t : doc) {
            QVERIFY(t.IsMap());
            QCOMPARE(t.begin()->first.as<std::string>(), std::string("topology"));
            names.insert(t["topology"].as<std::string>());
            int kinds = 0;
            for (const auto &kv : t) {
                const std::string k = kv.first.as<std::string>();
                QVERIFY2(k == "topology" || k == "cluster_default" || k == "tree" ||
                             k == "block" || k == "flat",
                         k.c_str());
                kinds += k == "tree" || k == "block" || k == "flat";
            }
            QCOMPARE(kinds, 1);
            defaults += t["cluster_default"].as<bool>() ? 1 : 0;
            if (t["tree"]) {
                for (const YAML::Node &sw : t["tree"]["switches"]) {
                    QVERIFY(sw["switch"].IsScalar());
                    QVERIFY(bool(sw["children"]) != bool(sw["nodes"]));
                }
            } else {
                QVERIFY(t["block"]["block_sizes"].IsSequence());
                for (const YAML::Node &b : t["block"]["blocks"]) {
                    QCOMPARE(b.size(), std::size_t(2));
                    QVERIFY(b["block"].IsScalar() && b["nodes"].IsScalar());
                }
            }
        }
        QCOMPARE(names, (std::set<std::string>{"tree", "block"}));
        QCOMPARE(defaults, 1);
        QCOMPARE(doc[blocks ? 1 : 0]["cluster_default"].as<bool>(), true);

        // The default topology reads back (through the Slurm importer's topology.yaml
        // reader) as exactly the lines of topology.conf.
        ImportReport report;
        auto lines = slurmTopologyYamlLines(yaml->content, "topology.yaml", report);
        QVERIFY2(lines.ok(), lines.ok() ? "" : lines.error().c_str());
        const ExportedFile *conf = fileNamed(r, "topology.conf");
        QVERIFY(conf);
        QCOMPARE(flatten(lines.value()), flatten(parseSlurmConfig(conf->content)));
    }

    void railOptimisedNodesGetNoSwitchCount()
    {
        // A node under two leaves (one per rail): Slurm's leaf count is not ours, so no
        // --switches.
        Scenario s = twoRacks();
        s.cluster.links.push_back({"leaf-2", "n01", 100, 1});
        const ExportResult r = exportWith("slurm", s, wideOn({"n01", "n02", "n03", "n04"}), false);
        QCOMPARE(r.files.size(), std::size_t(1));
        QCOMPARE(r.files[0].content.find("--switches"), std::string::npos);
    }

    void blockHostlistsCoverEveryNodeOnce()
    {
        const Scenario s = twoRacks();
        const ExportResult r = exportWith("slurm-cluster", s, {}, true);
        std::multiset<std::string> seen;
        for (const SlurmConfigLine &l : parseSlurmConfig(fileNamed(r, "topology.conf")->content))
            if (l.firstKey() == "blockname")
                for (const std::string &n : expand(l.value("nodes")))
                    seen.insert(n);
        std::multiset<std::string> all;
        for (const Node &n : s.cluster.nodes)
            all.insert(n.id);
        QCOMPARE(seen, all);
    }

    void batchScriptsAskForSwitchesAndSegments_data()
    {
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<QString>("switches"); // expected #SBATCH line or empty
        QTest::addColumn<QString>("segment");
        QTest::newRow("one leaf, one block")
            << QStringList{"n01", "n02", "n03", "n04"} << "--switches=1" << "--segment=4";
        QTest::newRow("two leaves, 2+2")
            << QStringList{"n03", "n04", "n05", "n06"} << "--switches=2" << "--segment=2";
        QTest::newRow("3+1: no segment above one node")
            << QStringList{"n02", "n03", "n04", "n05"} << "--switches=2" << "";
        QTest::newRow("one node") << QStringList{"n01", "n01", "n01", "n01"} << "" << "";
    }
    void batchScriptsAskForSwitchesAndSegments()
    {
        QFETCH(QStringList, nodes);
        QFETCH(QString, switches);
        QFETCH(QString, segment);
        std::vector<std::string> n;
        for (const QString &s : nodes)
            n.push_back(s.toStdString());
        Scenario s = twoRacks();
        if (n[0] == n[1])
            s.jobs[0].tasks[0].gpus = 2;
        for (bool blocks : {false, true}) {
            const ExportResult r = exportWith("slurm", s, wideOn(n), blocks);
            QCOMPARE(r.files.size(), std::size_t(1));
            const std::string &text = r.files[0].content;
            const auto has = [&](const QString &opt) {
                return text.find("\n#SBATCH " + opt.toStdString() + "\n") != std::string::npos;
            };
            QCOMPARE(text.find("#SBATCH --switches") != std::string::npos, !switches.isEmpty());
            if (!switches.isEmpty())
                QVERIFY2(has(switches), text.c_str());
            const bool wantSegment = blocks && !segment.isEmpty();
            QCOMPARE(text.find("#SBATCH --segment") != std::string::npos, wantSegment);
            if (wantSegment)
                QVERIFY2(has(segment), text.c_str());
        }
    }

    void badRackNamesAreRefusedForBlocks()
    {
        Scenario s = cbtest::exportScenario();
        s.cluster.nodes[2].rack = "r 2,=x";
        for (const char *format : {"slurm-cluster", "slurm"}) {
            ExportOptions o;
            o.slurmBlocks = true;
            auto r = ExporterRegistry::find(format)->exportPlacement(s, cbtest::exportPlacement(), o);
            QVERIFY(!r.ok());
            QVERIFY2(r.error().find("/cluster/nodes/2/rack") != std::string::npos,
                     r.error().c_str());
        }
        // Without blocks the tree still exports.
        auto r = ExporterRegistry::find("slurm-cluster")->exportPlacement(s, {}, {});
        QVERIFY(r.ok());
        QVERIFY(fileNamed(r.value(), "topology.conf"));
    }
};

QTEST_APPLESS_MAIN(TestExportTopology)
#include "tst_export_topology.moc"
