// Multi-node (rack-scale) NVLink domains: the scenario field and its validation, the GB200
// NVL72 generator's exact counts, flows that run over a domain instead of the links, the
// cross-domain bytes of a placement, the nvlink-domain placement plugin on hand-checkable
// cases, and the acceptance figure on 8 generated NVL72 racks (dltap-nvl against dltap).

#include "io/scenario_json.h"
#include "model/gen_nvl72.h"
#include "model/validation.h"
#include "net/job_flows.h"
#include "net/topology.h"
#include "sched/decision_log.h"
#include "sched/placer.h"
#include "sched/policy.h"
#include "sched/traffic.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

using namespace cb;
using nlohmann::json;

namespace {

json gpuNode(const std::string &id, int gpus = 4)
{
    return {{"id", id}, {"cpus", 16}, {"memory_gib", 64}, {"gpus", gpus}, {"gpu_type", "G"}};
}

/// n1, n2 in NVLink domain d (7,200 Gbit/s per GPU), n3 outside; every node has one
/// 400 Gbit/s link to switch s1.
json threeNodes(json domains)
{
    json cluster = {{"gpu_types", {{{"name", "G"}, {"memory_gib", 80}}}},
                    {"nodes", {gpuNode("n1"), gpuNode("n2"), gpuNode("n3")}},
                    {"switches", {{{"id", "s1"}}}},
                    {"links",
                     {{{"a", "n1"}, {"b", "s1"}, {"capacity_gbps", 400}},
                      {{"a", "n2"}, {"b", "s1"}, {"capacity_gbps", 400}},
                      {{"a", "n3"}, {"b", "s1"}, {"capacity_gbps", 400}}}}};
    if (!domains.is_null())
        cluster["nvlink_domains"] = domains;
    return {{"format", "clusterbench-scenario"}, {"version", 1}, {"cluster", cluster}};
}

json domainD() { return {{{"id", "d"}, {"nodes", {"n1", "n2"}}, {"bandwidth_gbps", 7200}}}; }

Scenario parsed(const json &doc)
{
    auto s = scenarioFromJson(doc);
    if (!s)
        qFatal("bad test scenario: %s", s.error().c_str());
    return s.value();
}

json ringJob(const std::string &id, int workers, int gpus, std::int64_t bytes)
{
    return {{"id", id},
            {"kind", "allreduce"},
            {"tasks", {{{"role", "worker"}, {"replicas", workers}, {"gpus", gpus}}}},
            {"model", {{"name", "m"}, {"parameter_bytes", bytes}}}};
}

TaskAssignment worker(int index, const char *node)
{
    TaskAssignment a;
    a.role = TaskRole::Worker;
    a.group = 0;
    a.indexInRole = index;
    a.node = node;
    return a;
}

/// Domains (Cluster::nvlinkDomains index, or -1 - node index outside them) a job's tasks use.
std::set<int> domainsOf(const JobPlacement &jp, const Cluster &c, const std::vector<int> &of)
{
    std::set<int> out;
    for (const TaskAssignment &a : jp.tasks) {
        const int n = int(*c.nodeIndex(a.node));
        out.insert(of[std::size_t(n)] >= 0 ? of[std::size_t(n)] : -1 - n);
    }
    return out;
}

int jobGpus(const Job &j)
{
    int g = 0;
    for (const TaskGroup &t : j.tasks)
        g += t.gpus * t.replicas;
    return g;
}

struct DomainFigures
{
    int placed = 0;
    int fitting = 0;        ///< placed jobs that some domain could hold when they were placed
    int fittingInOne = 0;   ///< of those, jobs inside one domain
    int oneDomain = 0;      ///< placed jobs inside one domain
    double crossNode = 0, crossDomain = 0;
};

/// Replays a static placement in its order: a job fits when, just before it was placed, some
/// domain had as many free GPUs as the job needs (every task takes whole 4-GPU trays here).
DomainFigures figures(const Scenario &s, const Topology &topo, const Placement &placement)
{
    DomainFigures f;
    const std::vector<int> of = s.cluster.nvlinkDomainOfNodes();
    std::vector<int> freeGpus(s.cluster.nvlinkDomains.size(), 0);
    for (std::size_t i = 0; i < s.cluster.nodes.size(); ++i)
        freeGpus[std::size_t(of[i])] += s.cluster.nodes[i].gpus;
    std::map<std::string, const Job *> byId;
    for (const Job &j : s.jobs)
        byId[j.id] = &j;
    for (const JobPlacement &jp : placement.jobs) {
        const Job &job = *byId.at(jp.jobId);
        ++f.placed;
        const int most = *std::max_element(freeGpus.begin(), freeGpus.end());
        const bool one = domainsOf(jp, s.cluster, of).size() == 1;
        f.oneDomain += one;
        if (jobGpus(job) <= most) {
            ++f.fitting;
            f.fittingInOne += one;
        }
        for (const TaskAssignment &a : jp.tasks)
            freeGpus[std::size_t(of[*s.cluster.nodeIndex(a.node)])] -=
                job.tasks[std::size_t(a.group)].gpus;
    }
    const TrafficReport t = computeTraffic(s.jobs, s.cluster, topo, placement);
    f.crossNode = t.crossNodeBytes;
    f.crossDomain = t.crossDomainBytes;
    return f;
}

/// The acceptance scenario: 8 GB200 NVL72 racks (144 trays, 576 GPUs) and 40 generated jobs
/// of 2 to 16 workers with 4 GPUs each (one tray per worker; 8 to 64 GPUs, each job fits one
/// 72-GPU domain); sample-clusters/README.md has the command that generates it.
Scenario eightRacks()
{
    auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/nvl72-8racks.json");
    if (!s)
        qFatal("%s", s.error().c_str());
    return s.value();
}

} // namespace

class TestNvlinkDomains : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip()
    {
        json doc = threeNodes(json::array(
            {{{"id", "d"}, {"nodes", {"n1", "n2"}}, {"bandwidth_gbps", 7200}, {"latency_us", 2}}}));
        const Scenario s = parsed(doc);
        QCOMPARE(s.cluster.nvlinkDomains.size(), std::size_t(1));
        const NvlinkDomain &d = s.cluster.nvlinkDomains[0];
        QCOMPARE(d.id, std::string("d"));
        QVERIFY(d.nodes == (std::vector<std::string>{"n1", "n2"}));
        QCOMPARE(d.bandwidthGbps, 7200.0);
        QCOMPARE(d.latencyUs, 2.0);
        QVERIFY(s.cluster.nvlinkDomainOfNodes() == (std::vector<int>{0, 0, -1}));
        const std::string text = scenarioToText(s);
        QVERIFY(text.find("\"nvlink_domains\"") != std::string::npos);
        auto again = scenarioFromText(text);
        QVERIFY2(again.ok(), again.error().c_str());
        QVERIFY(again.value() == s);
        QCOMPARE(scenarioToText(again.value()), text);
        // Without domains the field is not written (older files keep their bytes).
        QVERIFY(scenarioToText(parsed(threeNodes(json()))).find("nvlink_domains") ==
                std::string::npos);
    }

    void invalid_data()
    {
        QTest::addColumn<QString>("domains");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown node")
            << R"([{"id": "d", "nodes": ["n1", "n9"], "bandwidth_gbps": 7200}])"
            << "/cluster/nvlink_domains/0/nodes/1: unknown node \"n9\" (no node has this id)";
        QTest::newRow("one node")
            << R"([{"id": "d", "nodes": ["n1"], "bandwidth_gbps": 7200}])"
            << "/cluster/nvlink_domains/0/nodes: a multi-node NVLink domain needs at least two "
               "nodes, found 1 (GPUs of one node form its interconnect's nvlink_domains)";
        QTest::newRow("node in two domains")
            << R"([{"id": "a", "nodes": ["n1", "n2"], "bandwidth_gbps": 7200},
                   {"id": "b", "nodes": ["n3", "n2"], "bandwidth_gbps": 7200}])"
            << "/cluster/nvlink_domains/1/nodes/1: node \"n2\" is already in the NVLink domain "
               "at /cluster/nvlink_domains/0; a node belongs to at most one";
        QTest::newRow("duplicate id")
            << R"([{"id": "a", "nodes": ["n1", "n2"], "bandwidth_gbps": 7200},
                   {"id": "a", "nodes": ["n3", "n1"], "bandwidth_gbps": 7200}])"
            << "/cluster/nvlink_domains/1/id: duplicate NVLink domain id \"a\" (first used at "
               "/cluster/nvlink_domains/0)";
        QTest::newRow("zero bandwidth")
            << R"([{"id": "d", "nodes": ["n1", "n2"], "bandwidth_gbps": 0}])"
            << "/cluster/nvlink_domains/0/bandwidth_gbps: expected a positive bandwidth per "
               "GPU, found 0";
        QTest::newRow("missing bandwidth") << R"([{"id": "d", "nodes": ["n1", "n2"]}])"
                                           << "/cluster/nvlink_domains/0: missing required "
                                              "field \"bandwidth_gbps\"";
        QTest::newRow("missing nodes")
            << R"([{"id": "d", "bandwidth_gbps": 7200}])"
            << "/cluster/nvlink_domains/0: missing required field \"nodes\" (the member node "
               "ids)";
        QTest::newRow("unknown field")
            << R"([{"id": "d", "nodes": ["n1", "n2"], "bandwidth_gbps": 7200, "gpus": 8}])"
            << "/cluster/nvlink_domains/0/gpus: unknown field \"gpus\"";
    }

    void invalid()
    {
        QFETCH(QString, domains);
        QFETCH(QString, expected);
        auto s = scenarioFromJson(threeNodes(json::parse(domains.toStdString())));
        QVERIFY(!s.ok());
        bool found = false;
        for (const Problem &p : s.problems())
            found = found || p.toString() == expected.toStdString();
        QVERIFY2(found, s.error().c_str());
    }

    void generatorCounts_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("racks");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("domains");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("links");
        // GB200: 18 trays x 4 GPUs per rack, 4 NICs per tray; one scalable unit of 8 racks
        // has 4 rail leaves, each linked to the 2 spines: 8 x 18 x 4 + 4 x 2 links.
        QTest::newRow("gb200 1 rack") << "gb200" << 1 << 18 << 72 << 1 << 6 << 80;
        QTest::newRow("gb200 8 racks") << "gb200" << 8 << 144 << 576 << 8 << 6 << 584;
        // 16 racks: two units, 8 rail leaves: 16 x 18 x 4 + 8 x 2.
        QTest::newRow("gb200 16 racks") << "gb200" << 16 << 288 << 1152 << 16 << 10 << 1168;
        // HGX H100: 4 nodes of 8 GPUs per rack, 8 NICs each, the node is the domain.
        QTest::newRow("hgx-h100 2 racks") << "hgx-h100" << 2 << 8 << 64 << 0 << 10 << 80;
        QTest::newRow("hgx-h200 2 racks") << "hgx-h200" << 2 << 8 << 64 << 0 << 10 << 80;
    }

    void generatorCounts()
    {
        QFETCH(QString, variant);
        QFETCH(int, racks);
        QFETCH(int, nodes);
        QFETCH(int, gpus);
        QFETCH(int, domains);
        QFETCH(int, switches);
        QFETCH(int, links);
        const bool gb200 = variant == "gb200";
        Nvl72Params p = nvl72Defaults(gb200                    ? Nvl72Params::Variant::Gb200Nvl72
                                      : variant == "hgx-h100" ? Nvl72Params::Variant::HgxH100
                                                              : Nvl72Params::Variant::HgxH200);
        p.racks = racks;
        auto c = generateNvl72(p);
        QVERIFY2(c.ok(), c.error().c_str());
        QCOMPARE(int(c->nodes.size()), nodes);
        QCOMPARE(c->totalGpus(), gpus);
        QCOMPARE(int(c->nvlinkDomains.size()), domains);
        QCOMPARE(int(c->switches.size()), switches);
        QCOMPARE(int(c->links.size()), links);
        Scenario s;
        s.cluster = c.value();
        const Problems invalid = validateScenario(s);
        QVERIFY2(invalid.empty(), formatProblems(invalid).c_str());
        const Node &first = c->nodes.front();
        if (gb200) {
            // A tray: 2 Grace CPUs (2 x 72 cores, 2 x 480 GB = 894 GiB) and 4 GPUs; 120 kW
            // per rack over 18 trays = 6,666.7 W, 4 x 1,200 W of it for the GPUs.
            QCOMPARE(first.gpus, 4);
            QCOMPARE(first.gpuType, std::string("GB200"));
            QCOMPARE(first.cpus, 144.0);
            QCOMPARE(first.memoryGiB, 894.0);
            QCOMPARE(qRound(first.baseWatts * 10), 18667);
            QCOMPARE(first.interconnect.bandwidthGbps, 7200.0);
            for (const NvlinkDomain &d : c->nvlinkDomains) {
                QCOMPARE(d.nodes.size(), std::size_t(18));
                QCOMPARE(d.bandwidthGbps, 7200.0); // NVLink 5: 900 GB/s per direction
                for (const std::string &id : d.nodes)
                    QCOMPARE(c->node(id)->rack, d.id);
            }
            // Names padded to the widest index: nvl72-0 .. nvl72-7, nvl72-00 .. nvl72-15.
            QCOMPARE(c->nvlinkDomains.front().id, std::string(racks > 10 ? "nvl72-00" : "nvl72-0"));
        } else {
            QCOMPARE(first.gpus, 8);
            QCOMPARE(first.gpuType, std::string(variant == "hgx-h100" ? "H100-80GB" : "H200"));
            QCOMPARE(first.interconnect.nvlinkDomains.size(), std::size_t(1));
            // 8 x 141 GB = 1,128 GB of HBM3e per H200 node, NVLink 4 at 3,600 Gbit/s per GPU
            // and direction on both; 10.2 kW per system at most.
            const GpuType *t = c->gpuType(first.gpuType);
            QVERIFY(t);
            QCOMPARE(t->memoryGiB * first.gpus, variant == "hgx-h100" ? 640.0 : 1128.0);
            QCOMPARE(first.interconnect.bandwidthGbps, 3600.0);
            QCOMPARE(qRound(first.baseWatts + first.gpus * t->busyWatts), 10200);
        }
        // Every node has its NICs on distinct rail leaves.
        int nics = 0;
        for (const Link &l : c->links)
            nics += l.a == first.id;
        QCOMPARE(nics, gb200 ? 4 : 8);
    }

    void flowsOverTheDomain()
    {
        json doc = threeNodes(domainD());
        doc["jobs"] = json::array({ringJob("j", 3, 4, 12000000)});
        const Scenario s = parsed(doc);
        const Topology topo(s.cluster);
        JobPlacement jp;
        jp.jobId = "j";
        jp.tasks = {worker(0, "n1"), worker(1, "n2"), worker(2, "n3")};
        const std::vector<SimFlow> flows =
            jobFlows(s.jobs[0], jp, s.cluster, topo, nodeIndexMap(s.cluster));
        // Ring over 12 ranks: every edge moves 2 x 11/12 x 12 MB = 22 MB; per node one edge
        // inside (3 copies) and one to the next node.
        int domainFlows = 0, linkFlows = 0;
        for (const SimFlow &f : flows) {
            if (f.src == f.dst)
                continue;
            QCOMPARE(f.bytes, 22e6);
            if (f.src == 0 && f.dst == 1) {
                ++domainFlows;
                QCOMPARE(f.nvlinkDomain, 0);
                QVERIFY(f.route.empty());
                QCOMPARE(f.capGbps, 7200.0);
                QVERIFY(!f.crossesDomains());
            } else {
                ++linkFlows;
                QCOMPARE(f.nvlinkDomain, -1);
                QCOMPARE(f.route.size(), std::size_t(2));
                QVERIFY(f.crossesDomains());
            }
        }
        QCOMPARE(domainFlows, 1);
        QCOMPARE(linkFlows, 2);

        Placement placement;
        placement.jobs = {jp};
        const TrafficReport t = computeTraffic(s.jobs, s.cluster, topo, placement);
        QCOMPARE(t.crossNodeBytes, 66e6);
        QCOMPARE(t.crossDomainBytes, 44e6);
        QCOMPARE(t.intraNodeBytes, 198e6);
        // n1 sends only over the domain: its uplink n1->s1 carries nothing.
        QCOMPARE(t.linkBytes[0], 0.0);
        QCOMPARE(t.linkBytes[1], 22e6); // s1->n1 (from n3)
        QCOMPARE(t.toJson(s.cluster, topo)["cross_domain_bytes"].get<double>(), 44e6);

        // Without the domain, the same job crosses the links three times.
        json plain = threeNodes(json());
        plain["jobs"] = json::array({ringJob("j", 3, 4, 12000000)});
        const Scenario p = parsed(plain);
        const TrafficReport u = computeTraffic(p.jobs, p.cluster, Topology(p.cluster), placement);
        QCOMPARE(u.crossDomainBytes, 66e6);
        QCOMPARE(u.linkBytes[0], 22e6);
        QVERIFY(!u.toJson(p.cluster, Topology(p.cluster)).contains("cross_domain_bytes"));
    }

    void pluginKeepsJobsInDomains()
    {
        // dA: 2 nodes (8 GPUs), dB: 3 nodes (12 GPUs), n6 alone (4 GPUs).
        json doc = {{"format", "clusterbench-scenario"}, {"version", 1}};
        json nodes = json::array(), links = json::array();
        for (const char *id : {"a1", "a2", "b1", "b2", "b3", "n6"}) {
            nodes.push_back(gpuNode(id));
            links.push_back({{"a", id}, {"b", "s1"}, {"capacity_gbps", 400}});
        }
        doc["cluster"] = {{"gpu_types", {{{"name", "G"}, {"memory_gib", 80}}}},
                          {"nodes", nodes},
                          {"switches", {{{"id", "s1"}}}},
                          {"links", links},
                          {"nvlink_domains",
                           {{{"id", "dA"}, {"nodes", {"a1", "a2"}}, {"bandwidth_gbps", 7200}},
                            {{"id", "dB"}, {"nodes", {"b1", "b2", "b3"}}, {"bandwidth_gbps", 7200}}}}};
        doc["jobs"] = {ringJob("j8", 2, 4, 1000), ringJob("j12", 3, 4, 1000)};
        const Scenario s = parsed(doc);
        const Topology topo(s.cluster);
        DecisionLog log;
        const Placement p = placeScenario(s, topo, *builtinPolicy("dltap-nvl"), 1, &log);
        QCOMPARE(p.waiting.size(), std::size_t(0));
        auto nodesOf = [&](const char *job) {
            std::set<std::string> out;
            for (const TaskAssignment &a : p.job(job)->tasks)
                out.insert(a.node);
            return out;
        };
        // 8 GPUs: both domains hold them; dA is the tightest. Then 12 GPUs: only dB.
        QVERIFY(nodesOf("j8") == (std::set<std::string>{"a1", "a2"}));
        QVERIFY(nodesOf("j12") == (std::set<std::string>{"b1", "b2", "b3"}));
        QCOMPARE(log.decisions.size(), std::size_t(5));
        const std::string first = log.decisions[0].why;
        QVERIFY2(first.find("; nvlink-domain: the whole job (8 GPUs) fits in NVLink domain dA "
                            "(room for 8), the tightest of 2 domains that hold it") !=
                     std::string::npos,
                 first.c_str());
        QVERIFY2(log.decisions[1].why.find("; nvlink-domain: keeps the job in NVLink domain dA, "
                                           "which holds 1 of its tasks") != std::string::npos,
                 log.decisions[1].why.c_str());
        QVERIFY2(log.decisions[2].why.find("fits in NVLink domain dB (room for 12), the "
                                           "tightest of 1 domain that hold it") !=
                     std::string::npos,
                 log.decisions[2].why.c_str());

        // 20 GPUs fit no domain: the largest (dB) first, then the rest (8) in dA: two
        // domains, not three.
        json big = doc;
        big["jobs"] = json::array({ringJob("j20", 5, 4, 1000)});
        const Scenario b = parsed(big);
        DecisionLog blog;
        const Placement q = placeScenario(b, topo, *builtinPolicy("dltap-nvl"), 1, &blog);
        std::set<std::string> used;
        for (const TaskAssignment &a : q.job("j20")->tasks)
            used.insert(a.node);
        QVERIFY(used == (std::set<std::string>{"a1", "a2", "b1", "b2", "b3"}));
        QVERIFY2(blog.decisions[0].why.find("no NVLink domain has room for the job's 20 GPUs "
                                            "(largest: 12 in dB)") != std::string::npos,
                 blog.decisions[0].why.c_str());
        QVERIFY2(blog.decisions[3].why.find("the whole job (8 GPUs) fits in NVLink domain dA") !=
                     std::string::npos,
                 blog.decisions[3].why.c_str());
    }

    void presetAndName()
    {
        QCOMPARE(std::string(toString(PluginKind::NvlinkDomain)), std::string("nvlink-domain"));
        QVERIFY(pluginKindFromString("nvlink-domain") == PluginKind::NvlinkDomain);
        const Policy p = *builtinPolicy("dltap-nvl");
        const Policy base = *builtinPolicy("dltap");
        QCOMPARE(p.plugins.size(), base.plugins.size() + 1);
        QCOMPARE(p.plugins.back().kind, PluginKind::NvlinkDomain);
        QCOMPARE(p.plugins.back().weight, 10.0);
    }

    void acceptanceEightRacks()
    {
        const Scenario s = eightRacks();
        const Topology topo(s.cluster);
        const std::uint64_t seed = s.settings.seed; // what clusterbench place uses
        const Placement withPlugin = placeScenario(s, topo, *builtinPolicy("dltap-nvl"), seed);
        const Placement without = placeScenario(s, topo, *builtinPolicy("dltap"), seed);
        const DomainFigures a = figures(s, topo, withPlugin);
        const DomainFigures b = figures(s, topo, without);
        qInfo("dltap-nvl: %d placed, %d fitting, %d of them in one domain, %d in one domain; "
              "cross-node %.0f, cross-domain %.0f bytes per iteration",
              a.placed, a.fitting, a.fittingInOne, a.oneDomain, a.crossNode, a.crossDomain);
        qInfo("dltap:     %d placed, %d fitting, %d of them in one domain, %d in one domain; "
              "cross-node %.0f, cross-domain %.0f bytes per iteration",
              b.placed, b.fitting, b.fittingInOne, b.oneDomain, b.crossNode, b.crossDomain);
        // 40 jobs want 1,096 GPUs of 576: both policies place 21 (gang, in queue order).
        // dltap-nvl: 19 of them fit a domain when they are placed and all 19 are inside one;
        // the other two (48 and 12 GPUs, when no domain had more than 32 and 8 free) span
        // two domains each, the fewest they can.
        QCOMPARE(a.placed, 21);
        QCOMPARE(a.fitting, 19);
        QCOMPARE(a.fittingInOne, a.fitting);
        QCOMPARE(a.oneDomain, 19);
        // dltap spreads its workers over the racks: 16 fit a domain, 4 end up inside one.
        QCOMPARE(b.placed, 21);
        QCOMPARE(b.fitting, 16);
        QCOMPARE(b.fittingInOne, 4);
        QCOMPARE(b.oneDomain, 4);
        // Cross-domain bytes per iteration, MB: 65,222 -> 3,455 (-94.7 %); cross-node bytes
        // stay about the same (every worker fills a tray either way).
        QCOMPARE(qRound64(b.crossDomain / 1e6), qint64(65222));
        QCOMPARE(qRound64(a.crossDomain / 1e6), qint64(3455));
        QCOMPARE(qRound64(b.crossNode / 1e6), qint64(76270));
        QCOMPARE(qRound64(a.crossNode / 1e6), qint64(76820));
    }
};

QTEST_GUILESS_MAIN(TestNvlinkDomains)
#include "tst_nvlink_domains.moc"
