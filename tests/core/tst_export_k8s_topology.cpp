// Topology-aware Kubernetes exports on hand-checked cases: the switch tiers as a strict tree
// (switch_tiers.h), Volcano HyperNodes and the networkTopology of Volcano Jobs, Kueue's
// Topology levels, flavors, quotas and podset annotations (required at the level the
// placement needs, preferred when no switch holds it) with the guaranteed / preferred
// header, JobSet replicated jobs per role, and the node labels k8s-nodes writes for them.
// Schema validation of the same exports is in tst_export_schema.

#include "io/export/exporter_registry.h"
#include "io/export/switch_tiers.h"

#include "tst_export_fixtures.h"

#include <QtTest>

#include <yaml-cpp/yaml.h>

using namespace cb;

namespace {

const ExportedFile *fileNamed(const ExportResult &r, const std::string &path)
{
    for (const ExportedFile &f : r.files)
        if (f.path == path)
            return &f;
    return nullptr;
}

ExportResult exportOf(const std::string &format, const Scenario &s, const Placement &p)
{
    auto r = ExporterRegistry::find(format)->exportPlacement(s, p, {});
    if (!r)
        qWarning("%s", r.error().c_str());
    return r ? r.value() : ExportResult{};
}

/// A 3-tier tree: 8 nodes, 2 per edge switch e1..e4; e1,e2 under a1 and e3,e4 under a2 (and
/// e1 also under a2: a second parent, which the strict tree drops); a1, a2 under core c1.
Scenario threeTiers()
{
    Scenario s = cbtest::exportScenario();
    s.cluster.nodes.clear();
    s.cluster.links.clear();
    s.cluster.switches = {{"e1", "edge"}, {"e2", "edge"}, {"e3", "edge"}, {"e4", "edge"},
                          {"a1", "aggregation"}, {"a2", "aggregation"}, {"c1", "core"}};
    for (int i = 1; i <= 8; ++i) {
        const std::string id = "n" + std::to_string(i);
        s.cluster.nodes.push_back(cbtest::exportNode(id, 32, 256, 8, "", "gpu"));
        s.cluster.links.push_back({"e" + std::to_string((i + 1) / 2), id, 100, 1});
    }
    for (const auto &[e, a] : std::vector<std::pair<std::string, std::string>>{
             {"e1", "a1"}, {"e2", "a1"}, {"e3", "a2"}, {"e4", "a2"}, {"e1", "a2"}})
        s.cluster.links.push_back({e, a, 400, 1});
    s.cluster.links.push_back({"a1", "c1", 800, 1});
    s.cluster.links.push_back({"a2", "c1", 800, 1});
    s.jobs = {cbtest::exportJob("ar", JobKind::AllReduce,
                                {cbtest::exportGroup(TaskRole::Worker, 2, 8, 64, 8)}),
              cbtest::exportJob("tf", JobKind::ParameterServer,
                                {cbtest::exportGroup(TaskRole::Ps, 1, 4, 8, 0),
                                 cbtest::exportGroup(TaskRole::Worker, 2, 8, 32, 4)})};
    return s;
}

Placement placed(const std::vector<std::string> &arNodes, const std::string &psNode,
                 const std::vector<std::string> &tfWorkers)
{
    Placement p;
    JobPlacement ar{"ar", {}, 0};
    for (std::size_t i = 0; i < arNodes.size(); ++i)
        ar.tasks.push_back(cbtest::exportTask(TaskRole::Worker, 0, int(i), arNodes[i]));
    JobPlacement tf{"tf", {cbtest::exportTask(TaskRole::Ps, 0, 0, psNode)}, 0};
    for (std::size_t i = 0; i < tfWorkers.size(); ++i)
        tf.tasks.push_back(cbtest::exportTask(TaskRole::Worker, 1, int(i), tfWorkers[i]));
    p.jobs = {ar, tf};
    return p;
}

} // namespace

class TestExportK8sTopology : public QObject
{
    Q_OBJECT

private slots:
    void strictTree()
    {
        const SwitchTiers t(threeTiers().cluster);
        QCOMPARE(t.depth(), 3);
        QCOMPARE(int(t.switches().size()), 7);
        // e1 counts under a1 only (its first parent).
        const auto &chain = t.chain("n1");
        QCOMPARE(int(chain.size()), 3);
        QCOMPARE(chain[0]->switchId, std::string("e1"));
        QCOMPARE(chain[1]->switchId, std::string("a1"));
        QCOMPARE(chain[2]->switchId, std::string("c1"));
        QCOMPARE(t.commonTier({"n1"}), 1);
        QCOMPARE(t.commonTier({"n1", "n2"}), 1);
        QCOMPARE(t.commonTier({"n1", "n3"}), 2);
        QCOMPARE(t.commonTier({"n1", "n8"}), 3);
        // Two separate trees share nothing.
        Scenario split = threeTiers();
        split.cluster.links.pop_back();
        split.cluster.links.pop_back();
        split.cluster.switches.pop_back();
        const SwitchTiers u(split.cluster);
        QCOMPARE(u.commonTier({"n1", "n8"}), 0);
        QCOMPARE(u.commonTier({"n1", "n4"}), 2);
    }

    void hyperNodes()
    {
        const ExportResult r = exportOf("volcano-hypernodes", threeTiers(), {});
        const ExportedFile *f = fileNamed(r, "hypernodes.yaml");
        QVERIFY(f);
        const std::vector<YAML::Node> docs = YAML::LoadAll(f->content);
        QCOMPARE(int(docs.size()), 7);
        std::map<std::string, std::pair<int, std::vector<std::string>>> got;
        for (const YAML::Node &d : docs) {
            QCOMPARE(d["kind"].as<std::string>(), std::string("HyperNode"));
            std::vector<std::string> members;
            for (const YAML::Node &m : d["spec"]["members"])
                members.push_back(m["type"].as<std::string>() + ":" +
                                  m["selector"]["exactMatch"]["name"].as<std::string>());
            got[d["metadata"]["name"].as<std::string>()] = {d["spec"]["tier"].as<int>(), members};
        }
        using V = std::vector<std::string>;
        QCOMPARE(got["e1"], std::make_pair(1, V{"Node:n1", "Node:n2"}));
        QCOMPARE(got["e4"], std::make_pair(1, V{"Node:n7", "Node:n8"}));
        QCOMPARE(got["a1"], std::make_pair(2, V{"HyperNode:e1", "HyperNode:e2"}));
        QCOMPARE(got["a2"], std::make_pair(2, V{"HyperNode:e3", "HyperNode:e4"}));
        QCOMPARE(got["c1"], std::make_pair(3, V{"HyperNode:a1", "HyperNode:a2"}));
        // No switch at all: nothing usable, an error naming the cluster's switches.
        Scenario none = threeTiers();
        none.cluster.switches.clear();
        none.cluster.links.clear();
        auto failed = ExporterRegistry::find("volcano-hypernodes")->exportPlacement(none, {}, {});
        QVERIFY(!failed.ok());
        QVERIFY2(failed.error().find("/cluster/switches") != std::string::npos,
                 failed.error().c_str());
    }

    void volcanoNetworkTopology_data()
    {
        QTest::addColumn<QStringList>("arNodes");
        QTest::addColumn<int>("tier"); // 0: no networkTopology
        QTest::newRow("one edge") << QStringList{"n1", "n2"} << 1;
        QTest::newRow("one aggregation") << QStringList{"n2", "n3"} << 2;
        QTest::newRow("across the core") << QStringList{"n1", "n7"} << 3;
        QTest::newRow("one node") << QStringList{"n5", "n5"} << 0;
    }
    void volcanoNetworkTopology()
    {
        QFETCH(QStringList, arNodes);
        QFETCH(int, tier);
        std::vector<std::string> nodes;
        for (const QString &n : arNodes)
            nodes.push_back(n.toStdString());
        Scenario s = threeTiers();
        s.jobs[0].tasks[0].gpus = 4;
        const ExportResult r = exportOf("volcano", s, placed(nodes, "n4", {"n4", "n4"}));
        const ExportedFile *f = fileNamed(r, "ar.yaml");
        QVERIFY(f);
        const YAML::Node job = YAML::Load(f->content);
        const YAML::Node nt = job["spec"]["networkTopology"];
        QCOMPARE(bool(nt), tier > 0);
        if (tier > 0) {
            QCOMPARE(nt["mode"].as<std::string>(), std::string("hard"));
            QCOMPARE(nt["highestTierAllowed"].as<int>(), tier);
        }
    }

    void kueueSetup()
    {
        Scenario s = threeTiers();
        s.cluster.nodes.push_back(cbtest::exportNode("cpu1", 16, 64, 0, "", "cpu"));
        s.cluster.links.push_back({"e4", "cpu1", 100, 1});
        const ExportResult r = exportOf("kueue", s, placed({"n1", "n2"}, "cpu1", {"n7", "n8"}));
        const ExportedFile *f = fileNamed(r, "00-kueue-setup.yaml");
        QVERIFY(f);
        const std::vector<YAML::Node> docs = YAML::LoadAll(f->content);
        QCOMPARE(int(docs.size()), 5); // Topology, 2 flavors, ClusterQueue, LocalQueue
        QCOMPARE(docs[0]["kind"].as<std::string>(), std::string("Topology"));
        std::vector<std::string> levels;
        for (const YAML::Node &l : docs[0]["spec"]["levels"])
            levels.push_back(l["nodeLabel"].as<std::string>());
        QCOMPARE(levels, (std::vector<std::string>{
                             "clusterbench.io/switch-tier-3", "clusterbench.io/switch-tier-2",
                             "clusterbench.io/switch-tier-1", "kubernetes.io/hostname"}));
        QCOMPARE(docs[1]["metadata"]["name"].as<std::string>(), std::string("gpu-a100"));
        QCOMPARE(docs[1]["spec"]["nodeLabels"]["clusterbench.io/gpu-type"].as<std::string>(),
                 std::string("A100"));
        QCOMPARE(docs[1]["spec"]["topologyName"].as<std::string>(), std::string("clusterbench"));
        QCOMPARE(docs[2]["spec"]["nodeLabels"]["clusterbench.io/gpu-type"].as<std::string>(),
                 std::string("none"));
        // Quotas: 8 A100 nodes of 32 CPUs, 256 GiB, 8 GPUs; one CPU node of 16 and 64 GiB.
        const YAML::Node cq = docs[3];
        QCOMPARE(cq["kind"].as<std::string>(), std::string("ClusterQueue"));
        const YAML::Node gpuFlavor = cq["spec"]["resourceGroups"][0]["flavors"][0];
        QCOMPARE(gpuFlavor["resources"][0]["nominalQuota"].as<std::string>(), std::string("256"));
        QCOMPARE(gpuFlavor["resources"][1]["nominalQuota"].as<std::string>(), std::string("2048Gi"));
        QCOMPARE(gpuFlavor["resources"][2]["nominalQuota"].as<std::string>(), std::string("64"));
        const YAML::Node cpuFlavor = cq["spec"]["resourceGroups"][0]["flavors"][1];
        QCOMPARE(cpuFlavor["resources"][0]["nominalQuota"].as<std::string>(), std::string("16"));
        QCOMPARE(cpuFlavor["resources"][2]["nominalQuota"].as<std::string>(), std::string("0"));
        QCOMPARE(docs[4]["metadata"]["namespace"].as<std::string>(), std::string("default"));

        // The jobs: queue label, suspended, per-role annotations and node selectors.
        const YAML::Node ar = YAML::Load(fileNamed(r, "ar.yaml")->content);
        QCOMPARE(ar["kind"].as<std::string>(), std::string("JobSet"));
        QCOMPARE(ar["metadata"]["labels"]["kueue.x-k8s.io/queue-name"].as<std::string>(),
                 std::string("clusterbench"));
        QCOMPARE(ar["spec"]["suspend"].as<bool>(), true);
        const YAML::Node arPod = ar["spec"]["replicatedJobs"][0]["template"]["spec"]["template"];
        QCOMPARE(arPod["metadata"]["annotations"]["kueue.x-k8s.io/podset-required-topology"]
                     .as<std::string>(),
                 std::string("clusterbench.io/switch-tier-1"));
        const YAML::Node tf = YAML::Load(fileNamed(r, "tf.yaml")->content);
        const YAML::Node ps = tf["spec"]["replicatedJobs"][0];
        QCOMPARE(ps["name"].as<std::string>(), std::string("ps"));
        QCOMPARE(ps["template"]["spec"]["template"]["metadata"]["annotations"]
                   ["kueue.x-k8s.io/podset-required-topology"]
                       .as<std::string>(),
                 std::string("kubernetes.io/hostname"));
        QCOMPARE(ps["template"]["spec"]["template"]["spec"]["nodeSelector"]
                   ["clusterbench.io/gpu-type"]
                       .as<std::string>(),
                 std::string("none"));
        const YAML::Node w = tf["spec"]["replicatedJobs"][1];
        QCOMPARE(w["template"]["spec"]["parallelism"].as<int>(), 2);
        QCOMPARE(w["template"]["spec"]["completionMode"].as<std::string>(), std::string("Indexed"));
    }

    void kueueSaysWhatIsGuaranteed()
    {
        // Workers on n1 and n8: only the core holds both, so the level is tier 3 (required).
        // Without the core the two trees share no switch: only preferred, at the top tier.
        Scenario s = threeTiers();
        const ExportResult r = exportOf("kueue", s, placed({"n1", "n8"}, "n4", {"n3", "n4"}));
        const std::string ar = fileNamed(r, "ar.yaml")->content;
        QVERIFY2(ar.find("#   worker (2 nodes): required: one clusterbench.io/switch-tier-3 "
                         "domain (the placement's is c1)\n") != std::string::npos,
                 ar.c_str());
        QVERIFY(ar.find("# Guaranteed: Kueue admits the job whole") != std::string::npos);
        QVERIFY(ar.find("it picks the domain, not the node") != std::string::npos);
        bool warned = false;
        for (const std::string &w : r.warnings)
            warned = warned || w.find("Kueue picks the topology domain, not the node") !=
                                   std::string::npos;
        QVERIFY(warned);

        Scenario split = threeTiers();
        split.cluster.links.pop_back();
        split.cluster.links.pop_back();
        split.cluster.switches.pop_back();
        const ExportResult r2 = exportOf("kueue", split, placed({"n1", "n8"}, "n4", {"n3", "n4"}));
        const std::string ar2 = fileNamed(r2, "ar.yaml")->content;
        QVERIFY2(ar2.find("#   worker (2 nodes): preferred only: one "
                          "clusterbench.io/switch-tier-2 domain") != std::string::npos,
                 ar2.c_str());
        const YAML::Node pod = YAML::Load(ar2)["spec"]["replicatedJobs"][0]["template"]["spec"]
                                             ["template"];
        QCOMPARE(pod["metadata"]["annotations"]["kueue.x-k8s.io/podset-preferred-topology"]
                     .as<std::string>(),
                 std::string("clusterbench.io/switch-tier-2"));
    }

    void jobSetPeers()
    {
        const ExportResult r = exportOf("jobset", threeTiers(), placed({"n1", "n2"}, "n3", {"n3", "n4"}));
        const YAML::Node ar = YAML::Load(fileNamed(r, "ar.yaml")->content);
        QCOMPARE(ar["apiVersion"].as<std::string>(), std::string("jobset.x-k8s.io/v1alpha2"));
        QVERIFY(!ar["spec"]["suspend"]);
        const YAML::Node c = ar["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]
                               ["spec"]["containers"][0];
        std::map<std::string, std::string> env;
        for (const YAML::Node &e : c["env"])
            env[e["name"].as<std::string>()] = e["value"].as<std::string>();
        QCOMPARE(env["MASTER_ADDR"], std::string("ar-worker-0-0.ar"));
        QCOMPARE(env["WORLD_SIZE"], std::string("2"));
        QCOMPARE(env["CLUSTERBENCH_RANK_OFFSET"], std::string("0"));
        const YAML::Node tf = YAML::Load(fileNamed(r, "tf.yaml")->content);
        const YAML::Node wc = tf["spec"]["replicatedJobs"][1]["template"]["spec"]["template"]
                                ["spec"]["containers"][0];
        std::map<std::string, std::string> tfEnv;
        for (const YAML::Node &e : wc["env"])
            tfEnv[e["name"].as<std::string>()] = e["value"].as<std::string>();
        QCOMPARE(tfEnv["CLUSTERBENCH_TASK_TYPE"], std::string("worker"));
        QCOMPARE(tfEnv["CLUSTERBENCH_TF_CLUSTER"],
                 std::string("{\"ps\":[\"tf-ps-0-0.tf:2222\"],\"worker\":[\"tf-worker-0-0.tf:"
                             "2222\",\"tf-worker-0-1.tf:2222\"]}"));
    }

    void nodeListCarriesTierLabels()
    {
        const ExportResult r = exportOf("k8s-nodes", threeTiers(), {});
        const YAML::Node list = YAML::Load(r.files.at(0).content);
        const YAML::Node n3 = list["items"][2]["metadata"]["labels"];
        QCOMPARE(n3["clusterbench.io/switch-tier-1"].as<std::string>(), std::string("e2"));
        QCOMPARE(n3["clusterbench.io/switch-tier-2"].as<std::string>(), std::string("a1"));
        QCOMPARE(n3["clusterbench.io/switch-tier-3"].as<std::string>(), std::string("c1"));
    }
};

QTEST_APPLESS_MAIN(TestExportK8sTopology)
#include "tst_export_k8s_topology.moc"
