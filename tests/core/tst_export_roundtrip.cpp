// Exporting a cluster and importing it back gives the same cluster, as far as the format
// carries it. Every sample scenario and the export fixture go through
//   slurm-cluster (slurm.conf + gres.conf + topology.conf) -> the slurm importer, and
//   k8s-nodes (kubectl get nodes -o json)                  -> the k8s-nodes importer.
//
// What comes back exactly: node names and order, CPUs, memory, GPU count; with Slurm the
// switch tree (every switch that reaches a node, every node-switch and switch-switch link
// between neighbouring levels) and the partition; with Kubernetes the GPU type name, the
// rack, the partition, the node's labels and the GPU memory.
// What a format cannot carry, checked as such:
//   Slurm: a node linked to several switches keeps only the first (a tree has one leaf switch
//   per node); links between switches of the same level are lost (the exporter joins those
//   switches under "cb-root"); gres types are lowercased ("A100" comes back as "a100"); a node's
//   rack comes back as the name of its leaf switch; a node in no partition comes back in partition
//   "all"; top switches are joined under "cb-root"; link speeds, NVLink, power, labels and the GPU
//   type's memory, speed and price are not in the files (importer defaults apply).
//   Kubernetes: no switches or links (a switch "rack-R" per rack under one "core" switch is
//   rebuilt from the rack labels); NVLink, power and the GPU type's speed and price are lost;
//   the node gets the exporter's labels (hostname, GPU product/count/memory, rack, partition)
//   on top of its own.

#include "io/export/exporter_registry.h"
#include "io/export/k8s_nodes_exporter.h"
#include "io/export/kubernetes_names.h"
#include "io/export/slurm_names.h"
#include "io/import/importer_registry.h"
#include "io/scenario_json.h"
#include "model/validation.h"

#include "tst_export_fixtures.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace cb;

namespace {

using Pair = std::pair<std::string, std::string>;

Pair unordered(const std::string &a, const std::string &b)
{
    return a < b ? Pair(a, b) : Pair(b, a);
}

std::set<Pair> linkPairs(const Cluster &c)
{
    std::set<Pair> pairs;
    for (const Link &l : c.links)
        pairs.insert(unordered(l.a, l.b));
    return pairs;
}

Result<ImportReport> reimport(const std::string &format, const ExportResult &exported)
{
    std::vector<ImportInput> inputs;
    for (const ExportedFile &f : exported.files)
        inputs.push_back({f.path, f.content});
    static const ImportOptions defaults;
    return findImporter(format)->read(inputs, defaults);
}

QString describe(const std::set<Pair> &pairs)
{
    QStringList out;
    for (const Pair &p : pairs)
        out << QString::fromStdString(p.first + "-" + p.second);
    return out.join(", ");
}

} // namespace

class TestExportRoundTrip : public QObject
{
    Q_OBJECT

    static Scenario scenarioFor(const QString &source)
    {
        if (source == "fixture")
            return cbtest::exportScenario();
        auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/" + source.toStdString());
        return loaded ? loaded.value() : Scenario{};
    }

    static void sources()
    {
        QTest::addColumn<QString>("source");
        QTest::newRow("fixture") << "fixture";
        const QDir samples(CB_SOURCE_DIR "/sample-clusters");
        for (const QString &f : samples.entryList({"*.json"}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << f;
    }

private slots:
    void slurmCluster_data() { sources(); }
    void slurmCluster()
    {
        QFETCH(QString, source);
        const Scenario s = scenarioFor(source);
        const Cluster &orig = s.cluster;
        QVERIFY(!orig.nodes.empty());
        auto exported = ExporterRegistry::find("slurm-cluster")->exportPlacement(s, {}, {});
        QVERIFY2(exported.ok(), exported.error().c_str());
        auto back = reimport("slurm", exported.value());
        QVERIFY2(back.ok(), back.error().c_str());
        QVERIFY(back->cluster.has_value());
        const Cluster &got = *back->cluster;
        // A node linked to several switches (rails, as in dgx-nvlink) is listed under each in
        // topology.conf, and the importer links it to each again: nothing is skipped, and
        // its rack is the first (in the scenario's switch order).
        std::set<std::string> switchIds;
        for (const Switch &sw : orig.switches)
            switchIds.insert(sw.id);
        std::map<std::string, std::vector<std::string>> switchesOf;
        for (const Switch &sw : orig.switches)
            for (const Link &l : orig.links)
                if ((l.a == sw.id && !switchIds.count(l.b)) ||
                    (l.b == sw.id && !switchIds.count(l.a)))
                    switchesOf[l.a == sw.id ? l.b : l.a].push_back(sw.id);
        std::set<Pair> secondSwitchLinks;
        for (const auto &[node, sws] : switchesOf)
            for (std::size_t k = 1; k < sws.size(); ++k)
                secondSwitchLinks.insert(unordered(node, sws[k]));
        QCOMPARE(back->skipped.size(), std::size_t(0));
        const bool railNote = std::any_of(
            back->assumptions.begin(), back->assumptions.end(), [](const std::string &a) {
                return a.find("under several leaf switches (a rail-optimized fabric)") !=
                       std::string::npos;
            });
        QCOMPARE(railNote, !secondSwitchLinks.empty());

        QCOMPARE(got.nodes.size(), orig.nodes.size());
        std::map<std::string, std::string> leafOf; // node -> its (first) switch
        for (const auto &[node, sws] : switchesOf)
            leafOf[node] = sws.front();
        for (std::size_t i = 0; i < orig.nodes.size(); ++i) {
            const Node &a = orig.nodes[i];
            const Node &b = got.nodes[i];
            const QByteArray where = QByteArray("node ") + a.id.c_str();
            QVERIFY2(b.id == a.id, where.constData());
            QVERIFY2(b.cpus == a.cpus, where.constData());
            QVERIFY2(b.memoryGiB == a.memoryGiB, where.constData());
            QVERIFY2(b.gpus == a.gpus, where.constData());
            QVERIFY2(b.gpuType == (a.gpus > 0 ? SlurmNames::gpuType(a.gpuType) : ""),
                     (where + ": " + b.gpuType.c_str()).constData());
            QVERIFY2(b.partition == (a.partition.empty() ? "all" : a.partition),
                     (where + ": " + b.partition.c_str()).constData());
            if (leafOf.count(a.id))
                QVERIFY2(b.rack == leafOf[a.id], (where + ": " + b.rack.c_str()).constData());
        }

        // The switch tree: every switch that reaches a node, and every link of the original
        // between a node and its switch or between switches of neighbouring levels; the
        // exporter's cb-root (joining several top switches) and cb-unattached come on top.
        std::set<std::string> gotSwitches;
        for (const Switch &sw : got.switches)
            gotSwitches.insert(sw.id);
        std::set<Pair> gotLinks, added;
        for (const Pair &p : linkPairs(got))
            (p.first.rfind("cb-", 0) == 0 || p.second.rfind("cb-", 0) == 0 ? added : gotLinks)
                .insert(p);
        std::set<Pair> origLinks = linkPairs(orig);
        if (orig.switches.empty()) {
            // No network in the scenario: the importer hangs every node off cb-unattached.
            QVERIFY(gotLinks.empty());
            QCOMPARE(added.size(), orig.nodes.size());
            return;
        }
        std::set<Pair> missing, extra;
        std::set_difference(origLinks.begin(), origLinks.end(), gotLinks.begin(), gotLinks.end(),
                            std::inserter(missing, missing.end()));
        std::set_difference(gotLinks.begin(), gotLinks.end(), origLinks.begin(), origLinks.end(),
                            std::inserter(extra, extra.end()));
        QVERIFY2(extra.empty(), qPrintable("links not in the original: " + describe(extra)));
        // Lost, as the format must: links between switches of the same level (racks linked
        // directly, as in dltap-testbed), which a tree cannot hold: the exporter hangs those
        // switches under cb-root instead.
        std::set<std::string> underRoot;
        for (const Pair &p : added)
            if (p.first == "cb-root" || p.second == "cb-root")
                underRoot.insert(p.first == "cb-root" ? p.second : p.first);
        std::set<Pair> unexpected;
        for (const Pair &p : missing)
            if (!(underRoot.count(p.first) && underRoot.count(p.second)))
                unexpected.insert(p);
        QVERIFY2(unexpected.empty(), qPrintable("links lost: " + describe(unexpected)));
        if (source == "dltap-testbed.json") // tor-1 - tor-2, linked directly
            QCOMPARE(missing.size(), std::size_t(1));
        if (source == "dgx-nvlink.json") { // 8 DGX nodes on 8 rails each: every link back
            QCOMPARE(missing.size(), std::size_t(0));
            QCOMPARE(secondSwitchLinks.size(), std::size_t(56));
        }
        for (const Switch &sw : orig.switches)
            QVERIFY2(gotSwitches.count(sw.id), sw.id.c_str());
        for (const std::string &id : gotSwitches)
            QVERIFY2(switchIds.count(id) || id.rfind("cb-", 0) == 0, id.c_str());
    }

    // A slurm.conf's partitions keep their MaxTime and which one is the default through an
    // import and an export (they had come back INFINITE, with a new "all" as the default, so
    // that jobs submitted without -p went elsewhere); read again, the same settings.
    void partitionSettingsRoundTrip()
    {
        const std::string conf = "ClusterName=lab\n"
                                 "NodeName=dgx[01-02] CPUs=128 RealMemory=1000000 Gres=gpu:a100:8\n"
                                 "NodeName=gpu[01-02] CPUs=64 RealMemory=512000 Gres=gpu:v100:4\n"
                                 "PartitionName=DEFAULT MaxTime=12:00:00\n"
                                 "PartitionName=dgx Nodes=dgx[01-02] MaxTime=2-00:00:00 State=UP\n"
                                 "PartitionName=gpu Nodes=gpu[01-02] Default=YES State=UP\n"
                                 "PartitionName=debug Nodes=gpu01 MaxTime=30 State=UP\n";
        static const ImportOptions defaults;
        auto read = findImporter("slurm")->read({{"slurm.conf", conf}}, defaults);
        QVERIFY2(read.ok(), read.error().c_str());
        QVERIFY(read->cluster.has_value());
        const std::vector<Partition> expected = {
            {"dgx", 172800.0, false}, {"gpu", 43200.0, true}, {"debug", 1800.0, false}};
        QCOMPARE(read->cluster->partitions.size(), expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k)
            QVERIFY2(read->cluster->partitions[k] == expected[k],
                     read->cluster->partitions[k].name.c_str());
        Scenario s;
        s.name = "lab";
        s.cluster = *read->cluster;
        auto exported = ExporterRegistry::find("slurm-cluster")->exportPlacement(s, {}, {});
        QVERIFY2(exported.ok(), exported.error().c_str());
        std::string slurmConf;
        for (const ExportedFile &f : exported->files)
            if (f.path == "slurm.conf")
                slurmConf = f.content;
        for (const char *line : {"PartitionName=dgx Nodes=dgx[01-02] Default=NO "
                                 "MaxTime=2-00:00:00 State=UP\n",
                                 "PartitionName=gpu Nodes=gpu[01-02] Default=YES "
                                 "MaxTime=12:00:00 State=UP\n",
                                 "PartitionName=all Nodes=ALL Default=NO MaxTime=INFINITE "
                                 "State=UP\n"})
            QVERIFY2(slurmConf.find(line) != std::string::npos, slurmConf.c_str());
        // ("debug" lists gpu01 second: a node keeps its first partition, so no node names it)
        auto back = reimport("slurm", exported.value());
        QVERIFY2(back.ok(), back.error().c_str());
        QVERIFY(back->cluster->partitions.size() >= 2);
        QVERIFY(back->cluster->partitions[0] == expected[0]);
        QVERIFY(back->cluster->partitions[1] == expected[1]);
        // The scenario file keeps them too, and a second default is refused.
        const auto json = scenarioToJson(s);
        QCOMPARE(json["cluster"]["partitions"][0]["max_time_s"].get<double>(), 172800.0);
        QCOMPARE(json["cluster"]["partitions"][1]["default"].get<bool>(), true);
        auto reread = scenarioFromJson(nlohmann::json::parse(json.dump()));
        QVERIFY2(reread.ok(), reread.error().c_str());
        QVERIFY(reread->cluster.partitions == s.cluster.partitions);
        Scenario twoDefaults = s;
        twoDefaults.cluster.partitions[0].isDefault = true;
        const Problems problems = validateScenario(twoDefaults);
        QVERIFY(std::any_of(problems.begin(), problems.end(), [](const Problem &p) {
            return p.where == "/cluster/partitions/1/default";
        }));
    }

    // Slurm's time formats (slurm.conf(5) MaxTime), and what is not one.
    void slurmTimes()
    {
        const std::pair<const char *, double> good[] = {
            {"60", 3600},     {"30:15", 1815},   {"2:00:00", 7200}, {"2-00:00:00", 172800},
            {"1-12", 129600}, {"1-2:30", 95400}, {"0-0:0:1", 1}};
        for (const auto &[text, seconds] : good) {
            auto t = SlurmNames::parseTime(text);
            QVERIFY2(t.ok() && t.value() == std::optional<double>(seconds), text);
        }
        for (const char *none : {"INFINITE", "unlimited"}) {
            auto t = SlurmNames::parseTime(none);
            QVERIFY2(t.ok() && !t.value(), none);
        }
        for (const char *bad : {"", "2h", "-5", "1-", "0", "1:2:3:4", "1.5", "x-1"}) {
            auto t = SlurmNames::parseTime(bad);
            QVERIFY2(!t.ok(), bad);
        }
        QCOMPARE(SlurmNames::timeText(172800), std::string("2-00:00:00"));
        QCOMPARE(SlurmNames::timeText(59.2), std::string("0:01:00"));
    }

    void k8sNodes_data() { sources(); }
    void k8sNodes()
    {
        QFETCH(QString, source);
        const Scenario s = scenarioFor(source);
        const Cluster &orig = s.cluster;
        QVERIFY(!orig.nodes.empty());
        auto exported = ExporterRegistry::find("k8s-nodes")->exportPlacement(s, {}, {});
        QVERIFY2(exported.ok(), exported.error().c_str());
        QCOMPARE(exported->files.size(), std::size_t(1));
        QCOMPARE(exported->files[0].path, std::string("nodes.json"));
        auto back = reimport("k8s-nodes", exported.value());
        QVERIFY2(back.ok(), back.error().c_str());
        QVERIFY2(back->skipped.empty(), back->toText().c_str());
        const Cluster &got = *back->cluster;

        QCOMPARE(got.nodes.size(), orig.nodes.size());
        std::map<std::string, std::set<std::string>> rackNodes;
        for (std::size_t i = 0; i < orig.nodes.size(); ++i) {
            const Node &a = orig.nodes[i];
            const Node &b = got.nodes[i];
            const QByteArray where = QByteArray("node ") + a.id.c_str();
            QVERIFY2(b.id == a.id, where.constData());
            QVERIFY2(b.cpus == a.cpus, where.constData());
            QVERIFY2(b.memoryGiB == a.memoryGiB, where.constData());
            QVERIFY2(b.gpus == a.gpus, where.constData());
            QVERIFY2(b.gpuType == (a.gpus > 0 ? a.gpuType : ""), where.constData());
            QVERIFY2(b.rack == a.rack, where.constData());
            QVERIFY2(b.partition == a.partition, where.constData());
            for (const auto &[k, v] : a.labels)
                QVERIFY2(b.labels.count(k) && b.labels.at(k) == v,
                         (where + " " + k.c_str()).constData());
            if (!a.rack.empty())
                rackNodes[a.rack].insert(a.id);
        }
        // GPU memory travels in nvidia.com/gpu.memory (MiB).
        for (const auto &[type, count] : orig.gpusByType()) {
            const GpuType *a = orig.gpuType(type);
            const GpuType *b = got.gpuType(type);
            QVERIFY2(a && b, type.c_str());
            QCOMPARE(b->memoryGiB, a->memoryGiB);
        }
        // The network: one switch per rack, linked to exactly that rack's nodes.
        std::map<std::string, std::set<std::string>> gotRack;
        for (const Link &l : got.links)
            for (const auto &[sw, other] : {Pair(l.a, l.b), Pair(l.b, l.a)})
                if (sw.rfind("rack-", 0) == 0 && got.node(other))
                    gotRack[sw.substr(5)].insert(other);
        QVERIFY(gotRack == rackNodes);
        if (rackNodes.empty())
            QCOMPARE(got.switches.size(), std::size_t(1)); // every node on one switch
    }

    void k8sNodesExport()
    {
        // The exported Node of the fixture's gpu-01, field by field.
        auto exported =
            ExporterRegistry::find("k8s-nodes")->exportPlacement(cbtest::exportScenario(), {}, {});
        QVERIFY2(exported.ok(), exported.error().c_str());
        const auto list = nlohmann::json::parse(exported->files[0].content);
        QCOMPARE(list["kind"].get<std::string>(), std::string("List"));
        QCOMPARE(list["items"].size(), std::size_t(5));
        const auto &node = list["items"][0];
        QCOMPARE(node["metadata"]["name"].get<std::string>(), std::string("gpu-01"));
        const auto &labels = node["metadata"]["labels"];
        QCOMPARE(labels["clusterbench.io/gpu-type"].get<std::string>(), std::string("A100"));
        QCOMPARE(labels["nvidia.com/gpu.product"].get<std::string>(), std::string("A100"));
        QCOMPARE(labels["nvidia.com/gpu.count"].get<std::string>(), std::string("8"));
        QCOMPARE(labels["nvidia.com/gpu.memory"].get<std::string>(), std::string("81920"));
        QCOMPARE(labels["clusterbench.io/rack"].get<std::string>(), std::string("r1"));
        QCOMPARE(labels["clusterbench.io/partition"].get<std::string>(), std::string("gpu"));
        QCOMPARE(labels["kubernetes.io/hostname"].get<std::string>(), std::string("gpu-01"));
        const auto &cap = node["status"]["capacity"];
        QCOMPARE(cap["cpu"].get<std::string>(), std::string("32"));
        QCOMPARE(cap["memory"].get<std::string>(), std::string("256Gi"));
        QCOMPARE(cap["nvidia.com/gpu"].get<std::string>(), std::string("8"));
        QVERIFY(node["status"]["allocatable"] == cap);
        // cpu-01 has no GPU: no GPU resource and no GPU labels.
        const auto &cpu = list["items"][4];
        QVERIFY(!cpu["status"]["capacity"].contains("nvidia.com/gpu"));
        QVERIFY(!cpu["metadata"]["labels"].contains("nvidia.com/gpu.product"));
        QCOMPARE(exported->warnings.size(), std::size_t(1)); // switches and links not exported
    }

    void k8sQuantities()
    {
        QCOMPARE(K8sNodesExporter::cpuQuantity(32), std::string("32"));
        QCOMPARE(K8sNodesExporter::cpuQuantity(7.5), std::string("7500m"));
        QCOMPARE(K8sNodesExporter::memoryQuantity(256), std::string("256Gi"));
        QCOMPARE(K8sNodesExporter::memoryQuantity(1.5), std::string("1536Mi"));
        QCOMPARE(K8sNodesExporter::memoryQuantity(1.0 / 3.0), std::string("357913941"));
    }

    void k8sNodesDerivesValidNames()
    {
        // A node id and a rack Kubernetes would refuse: valid names derived from them, the
        // originals in annotations, and a warning that says so.
        Scenario s = cbtest::exportScenario();
        s.cluster.nodes[1].id = "GPU_02";
        for (Link &l : s.cluster.links)
            if (l.b == "gpu-02")
                l.b = "GPU_02";
        s.cluster.nodes[2].rack = "rack with spaces";
        auto exported = ExporterRegistry::find("k8s-nodes")->exportPlacement(s, {}, {});
        QVERIFY2(exported.ok(), exported.error().c_str());
        const auto items = nlohmann::json::parse(exported->files[0].content)["items"];
        const auto &renamed = items[1]["metadata"];
        QCOMPARE(renamed["name"].get<std::string>(),
                 "gpu-02-" + KubernetesNames::valueHash("GPU_02"));
        QCOMPARE(renamed["annotations"]["clusterbench.io/node-id"].get<std::string>(),
                 std::string("GPU_02"));
        QCOMPARE(renamed["labels"]["kubernetes.io/hostname"], renamed["name"]);
        const auto &racked = items[2]["metadata"];
        QCOMPARE(racked["labels"]["clusterbench.io/rack"].get<std::string>(),
                 "rack-with-spaces-" + KubernetesNames::valueHash("rack with spaces"));
        QCOMPARE(racked["annotations"]["clusterbench.io/rack"].get<std::string>(),
                 std::string("rack with spaces"));
        QVERIFY(!items[0]["metadata"].contains("annotations"));
        QCOMPARE(exported->warnings.size(), std::size_t(2));
        QVERIFY2(exported->warnings[0].find("\"GPU_02\" as gpu-02-") != std::string::npos,
                 exported->warnings[0].c_str());
    }
};

QTEST_APPLESS_MAIN(TestExportRoundTrip)
#include "tst_export_roundtrip.moc"
