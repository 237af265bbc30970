// Beyond the STS paper, on hand-checkable cases: multi-node placement (plain best fit against
// the network-aware split of STS-net), the ring traffic and slowdown of split jobs in the
// job-level simulation, STS-net keeping a job on one node or in one rack where STS splits
// it, time tables for jobs without STS data, and GPU-sharing slice memory per GPU.

#include "cli/command.h"
#include "io/scenario_json.h"
#include "io/sts_data.h"
#include "stochastic/gpu_pool.h"
#include "runs/sts_experiment.h"
#include "stochastic/sts_policy.h"
#include "sim/simulator.h"
#include "sim/stochastic_jobs.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>
#include <limits>

using namespace cb;

namespace {

/// Racks r1 = {a1, a2}, r2 = {b1, b2}, 4 K80 each, 10 Gbit/s uplinks.
GpuPool twoRacks()
{
    GpuPool pool;
    pool.addNode("a1", "K80", 4, "r1", 10);
    pool.addNode("a2", "K80", 4, "r1", 10);
    pool.addNode("b1", "K80", 4, "r2", 10);
    pool.addNode("b2", "K80", 4, "r2", 10);
    return pool;
}

/// Occupies GPUs so that a1, a2, b1, b2 have 1, 3, 2 and 4 free.
void occupy(GpuPool &pool)
{
    QVERIFY(pool.reserve({"K80", 3, 1.0}, {0, -1, {}}));
    QVERIFY(pool.reserve({"K80", 1, 1.0}, {1, -1, {}}));
    QVERIFY(pool.reserve({"K80", 2, 1.0}, {2, -1, {}}));
}

StsJob fixedJob(const std::string &id, int gpus, double seconds)
{
    StsJob j;
    j.id = id;
    j.dueSeconds = std::numeric_limits<double>::infinity();
    j.maxEpochs = 100;
    j.times = {{{"K80", gpus, 1.0}, seconds}};
    return j;
}

PriceCatalogue perGpu(double rate)
{
    PriceCatalogue p;
    p.set("K80", 1, rate);
    return p;
}

} // namespace

class TestStsVariants : public QObject
{
    Q_OBJECT

private slots:
    void splitModes()
    {
        // 5 GPUs fit no node (at most 4 free).
        GpuPool none = twoRacks();
        occupy(none);
        QVERIFY(!none.place({"K80", 5, 1.0}));
        QVERIFY(!none.fits({"K80", 5, 1.0}));

        // Best fit, racks ignored: the fullest nodes first, a1 (1), b1 (2), a2 (2 of 3).
        GpuPool plain = twoRacks();
        occupy(plain);
        plain.setSplit(StsSplit::BestFit);
        QVERIFY(plain.fits({"K80", 5, 1.0}));
        auto p = plain.place({"K80", 5, 1.0});
        QVERIFY(p);
        QCOMPARE(plain.describe(*p), std::string("a1:1+b1:2+a2:2"));
        QCOMPARE(p->nodeCount(), 3);
        QCOMPARE(plain.freeGpus("K80"), 5);

        // Network: r1 has only 4 free; r2 has 6: b2 (4) then b1 (1), one rack, two nodes.
        GpuPool net = twoRacks();
        occupy(net);
        auto n = net.place({"K80", 5, 1.0}, StsSplit::Network);
        QVERIFY(n);
        QCOMPARE(net.describe(*n), std::string("b2:4+b1:1"));
        QCOMPARE(n->nodeCount(), 2);
        // Released exactly.
        net.release({"K80", 5, 1.0}, *n);
        QCOMPARE(net.freeGpus("K80"), 10);

        // No rack holds 9 of 10 free GPUs: the freer rack first (r2: b2 4, b1 2), then r1.
        auto wide = net.place({"K80", 9, 1.0}, StsSplit::Network);
        QVERIFY(wide);
        QCOMPARE(net.describe(*wide), std::string("b2:4+b1:2+a2:3"));
        // A single node still comes first and by best fit (a2 has 0 left now, a1 1).
        QVERIFY(!net.place({"K80", 2, 1.0}, StsSplit::Network));
        auto one = net.place({"K80", 1, 1.0}, StsSplit::Network);
        QCOMPARE(net.describe(*one), std::string("a1"));

        // Within a rack: fewest nodes, then least left over. r1 = {4, 3} free, r2 = {3, 2}:
        // 5 GPUs take two nodes in either; r2 leaves 0 over, r1 2.
        GpuPool tie = twoRacks();
        QVERIFY(tie.reserve({"K80", 1, 1.0}, {1, -1, {}}));
        QVERIFY(tie.reserve({"K80", 1, 1.0}, {2, -1, {}}));
        QVERIFY(tie.reserve({"K80", 2, 1.0}, {3, -1, {}}));
        auto t = tie.place({"K80", 5, 1.0}, StsSplit::Network);
        QCOMPARE(tie.describe(*t), std::string("b1:3+b2:2"));
    }

    void splitJobIsSlowerAndMovesBytes()
    {
        // Two nodes of 2 GPUs; one job of 4 GPUs: 1000 iterations (10 per epoch), 1000 s on
        // one node = 1 s per iteration. Split 2 + 2 it takes 1 + 1.2 s per iteration: 2200 s,
        // and moves 1000 x 3e9 bytes across nodes: the ring over its 4 GPUs crosses the nodes
        // twice, each crossing 2 x 1e9 x 3/4 = 1.5e9 bytes per iteration (1.2 s at 10 Gbit/s,
        // the two directions on separate links). It pays 4 GPUs x 2200 s at 3600 per hour.
        GpuPool pool;
        pool.addNode("n1", "K80", 2, "r", 10);
        pool.addNode("n2", "K80", 2, "r", 10);
        StsJob j = fixedJob("j", 4, 1000);
        j.parameterBytes = 1e9;
        j.iterationsPerEpoch = 10;
        const Scenario scenario = stochasticScenario({j}, pool);
        {
            auto run = simulateStochastic(scenario, {j}, pool, perGpu(3600),
                                          std::make_shared<StsPolicy>(), 1);
            QVERIFY(!run); // no split allowed: fits no node
        }
        pool.setSplit(StsSplit::BestFit);
        auto run = simulateStochastic(scenario, {j}, pool, perGpu(3600),
                                      std::make_shared<StsPolicy>(), 1);
        QVERIFY2(run.ok(), run.error().c_str());
        QVERIFY(std::fabs(run->jobs[0].finishSeconds.value_or(0) - 2200) < 1e-6);
        QVERIFY(std::fabs(run->crossNodeBytes() - 3e12) < 1e3);
        QVERIFY(std::fabs(run->cost - 4 * 2200.0) < 1e-6);
        QCOMPARE(run->multiNodePlacements, 1);
        // The job ran on both nodes, two GPUs each, as one segment.
        QCOMPARE(run->jobs[0].segments.size(), std::size_t(1));
        QCOMPARE(run->jobs[0].segments[0].config->toString(), std::string("K80 x4"));
        QCOMPARE(run->jobs[0].placement.tasks.size(), std::size_t(4));
        QCOMPARE(run->jobs[0].placement.tasks[0].node, std::string("n1"));
        QCOMPARE(run->jobs[0].placement.tasks[3].node, std::string("n2"));
    }

    void stsNetKeepsTheJobInOneRack()
    {
        // a1, a2, b1, b2 with 1, 3, 2, 4 free GPUs; a job that can only run on 5 GPUs.
        // STS splits it by best fit over three nodes in both racks; STS-net over two in r2.
        const std::vector<StsJob> jobs = {fixedJob("big", 5, 1000)};
        for (const bool network : {false, true}) {
            GpuPool pool = twoRacks();
            occupy(pool);
            pool.setSplit(StsSplit::BestFit);
            StsPass pass;
            pass.now = 0;
            pass.jobs = &jobs;
            pass.states = {StsJobState{}};
            const PriceCatalogue prices = perGpu(1);
            pass.prices = &prices;
            pass.pool = &pool;
            StsEventRecord record;
            pass.log = &record;
            StsPolicy policy(network);
            const auto out = policy.schedule(pass);
            QCOMPARE(out.size(), std::size_t(1));
            QCOMPARE(record.jobs.size(), std::size_t(1));
            QCOMPARE(record.jobs[0].node,
                     std::string(network ? "b2:4+b1:1" : "a1:1+b1:2+a2:2"));
            QCOMPARE(out[0].at.nodeCount(), network ? 2 : 3);
            QCOMPARE(policy.name(), std::string(network ? "STS-net" : "STS"));
        }
    }

    void stsNetPrefersAnotherTypeOnOneNode()
    {
        // The job runs 4 GPUs of K80 (cheaper) or of M60. K80 has 2 + 2 free, M60 one node
        // with 4 free. STS takes the cheaper K80 plan split over two nodes; STS-net keeps it
        // on the M60 node.
        std::vector<StsJob> jobs = {fixedJob("j", 4, 1000)};
        jobs[0].times.push_back({{"M60", 4, 1.0}, 1000});
        PriceCatalogue prices;
        prices.set("K80", 1, 1);
        prices.set("M60", 1, 2);
        for (const bool network : {false, true}) {
            GpuPool pool;
            pool.addNode("k1", "K80", 2, "r", 10);
            pool.addNode("k2", "K80", 2, "r", 10);
            pool.addNode("m1", "M60", 4, "r", 10);
            pool.setSplit(StsSplit::BestFit);
            StsPass pass;
            pass.jobs = &jobs;
            pass.states = {StsJobState{}};
            pass.prices = &prices;
            pass.pool = &pool;
            StsPolicy policy(network);
            const auto out = policy.schedule(pass);
            QCOMPARE(out.size(), std::size_t(1));
            QCOMPARE(out[0].config.gpuType, std::string(network ? "M60" : "K80"));
            QCOMPARE(out[0].at.nodeCount(), network ? 1 : 2);
        }
    }

    void saturationGuardShrinksTheLargest()
    {
        // One node of 8 K80. Job a is already late on every configuration (due 45 s, x8
        // takes 50 s): highest pressure, plan "tardy", x8, the whole node. Job b (due 1000 s)
        // would run on x1. As the authors wrote STS, b waits; with the guard a moves to its
        // largest configuration leaving one GPU (x7) and b runs beside it.
        auto make = [](const std::string &id, double due) {
            StsJob j;
            j.id = id;
            j.dueSeconds = due;
            j.tardinessWeight = 1;
            j.maxEpochs = 100;
            j.times = {{{"K80", 1, 1.0}, 100}, {{"K80", 7, 1.0}, 55}, {{"K80", 8, 1.0}, 50}};
            return j;
        };
        const std::vector<StsJob> jobs = {make("a", 45), make("b", 1000)};
        const PriceCatalogue prices = perGpu(3600);
        for (const bool guard : {false, true}) {
            GpuPool pool;
            pool.addNode("n", "K80", 8);
            StsPass pass;
            pass.jobs = &jobs;
            StsJobState a, b;
            a.job = 0;
            b.job = 1;
            pass.states = {b, a};
            pass.prices = &prices;
            pass.pool = &pool;
            StsEventRecord record;
            pass.log = &record;
            StsPolicy policy(false, guard);
            const auto out = policy.schedule(pass);
            QCOMPARE(record.jobs.size(), std::size_t(2));
            QCOMPARE(record.jobs[0].job, std::string("a")); // pressure order
            if (!guard) {
                QCOMPARE(out.size(), std::size_t(1));
                QCOMPARE(out[0].config, (StsConfig{"K80", 8, 1.0}));
                QCOMPARE(record.jobs[1].reason, std::string("nothing fits: waits"));
                continue;
            }
            QCOMPARE(out.size(), std::size_t(2));
            QCOMPARE(out[0].job, std::size_t(0));
            QCOMPARE(out[0].config, (StsConfig{"K80", 7, 1.0}));
            QCOMPARE(out[1].job, std::size_t(1));
            QCOMPARE(out[1].config, (StsConfig{"K80", 1, 1.0}));
            QCOMPARE(pool.freeGpus("K80"), 0);
            QCOMPARE(record.jobs[1].chosen, std::string("K80 x1"));
            QCOMPARE(record.jobs[1].reason,
                     std::string("saturated: a shrinks from K80 x8 to K80 x7 to admit it"));
        }
    }

    void jobsWithoutStsData()
    {
        // The DLTAP testbed: PS jobs without STS tables get their own GPU count on K80,
        // iterations x compute seconds, 100 "epochs" of 1 % each, no due date.
        auto s = loadScenarioFile(std::string(CB_SOURCE_DIR) +
                                  "/sample-clusters/dltap-testbed.json");
        QVERIFY2(s.ok(), s.error().c_str());
        auto jobs = stsJobsFromScenario(s.value(), StsAuthorsData{}, nullptr, 1);
        QVERIFY2(jobs.ok(), jobs.error().c_str());
        QCOMPARE(jobs->size(), std::size_t(9));
        const StsJob &a = jobs.value()[0]; // alexnet-a: 2 workers, 20000 x 0.78 s
        QCOMPARE(a.times.size(), std::size_t(1));
        QCOMPARE(a.times[0].config, (StsConfig{"K80", 2, 1.0}));
        QCOMPARE(a.times[0].fullSeconds, 20000 * 0.78);
        QCOMPARE(a.maxEpochs, 100.0);
        QCOMPARE(a.iterationsPerEpoch, 200.0);
        QCOMPARE(a.parameterBytes, 244403360.0);
        QCOMPARE(a.trueStopPercent, 100);
        QVERIFY(std::isinf(a.dueSeconds));
        const StsJob &c = jobs.value()[6]; // alexnet-c: 4 workers
        QCOMPARE(c.times[0].config.gpus, 4);

        // Pool: racks and 1 Gbit/s uplinks from the file.
        const GpuPool pool = stsPoolFromScenario(s.value());
        QCOMPARE(pool.nodes().size(), std::size_t(8));
        QCOMPARE(pool.nodes()[0].rack, std::string("rack-1"));
        QCOMPARE(pool.nodes()[7].rack, std::string("rack-2"));
        QCOMPARE(pool.nodes()[0].nicGbps, 1.0);
    }

    void experimentOnTheTestbed()
    {
        // `experiment sts --scenario` on the DLTAP testbed (9 PS jobs of 2-4 GPUs on 4-GPU
        // nodes in two racks, 1 Gbit/s uplinks): the methods array keeps its fields, adds
        // cross-node bytes, and STS-net is compared with STS.
        std::ostringstream out, err;
        cli::Io io{out, err};
        const int code = cli::runCommand(
            {"experiment", "sts", "--scenario",
             std::string(CB_SOURCE_DIR) + "/sample-clusters/dltap-testbed.json", "--methods",
             "STS,STS-net", "--multi-node", "--seeds", "2", "--data",
             std::string(CB_TEST_DATA) + "/sts", "--json"},
            io);
        QVERIFY2(code == 0, err.str().c_str());
        const nlohmann::json j = nlohmann::json::parse(out.str());
        QCOMPARE(j["jobs_per_seed"].get<int>(), 9);
        QVERIFY(j["multi_node"].get<bool>());
        QCOMPARE(j["methods"].size(), std::size_t(2));
        for (const nlohmann::json &m : j["methods"]) {
            for (const char *k : {"name", "total_cost", "energy_cost", "tardiness_cost",
                                  "violations", "cross_node_bytes"})
                QVERIFY2(m.contains(k), k);
            QCOMPARE(m["violations"].get<double>(), 0.0); // no due dates on the testbed
        }
        QVERIFY(j.contains("sts_net_vs_sts"));
        // STS-net never moves more bytes across nodes than best-fit STS here.
        QVERIFY(j["methods"][1]["cross_node_bytes"].get<double>() <=
                j["methods"][0]["cross_node_bytes"].get<double>());
        std::ostringstream out2, err2;
        cli::Io io2{out2, err2};
        QCOMPARE(cli::runCommand({"experiment", "sts", "--slice-memory", "boards"}, io2), 2);
        std::ostringstream out3, err3;
        cli::Io io3{out3, err3};
        QCOMPARE(cli::runCommand({"experiment", "sts", "--scenario", "/nonexistent.json"}, io3), 2);
        // The problem names the file, as every command's do.
        QVERIFY2(err3.str().rfind("/nonexistent.json: ", 0) == 0, err3.str().c_str());
    }

    void sliceMemoryPerGpu()
    {
        // fractions.csv gives K80 slices of 6 and 12 GB and M60 of 4 and 8 GB (whole boards,
        // 24 and 16 GB). Per GPU (12 and 8 GB): K80 3 and 6 GB, M60 2 and 4 GB.
        SharingSlices slices;
        slices.add({"K80", 6, 0.25, 1.11});
        slices.add({"K80", 12, 0.5, 1.05});
        slices.add({"M60", 4, 0.25, 1.11});
        slices.add({"M60", 8, 0.5, 1.05});
        Scenario s;
        GpuType k80, m60;
        k80.name = "K80";
        k80.memoryGiB = 12;
        m60.name = "M60";
        m60.memoryGiB = 8;
        s.cluster.gpuTypes = {k80, m60};
        const SharingSlices per = perGpuSlices(slices, s);
        QCOMPARE(per.slices().size(), std::size_t(4));
        QCOMPARE(per.slices()[0].memoryGB, 3.0);
        QCOMPARE(per.slices()[1].memoryGB, 6.0);
        QCOMPARE(per.slices()[2].memoryGB, 2.0);
        QCOMPARE(per.slices()[3].memoryGB, 4.0);
        // A 6 GB job: authors' table fits K80 1/4 and 1/2 and M60 1/2; per GPU only K80 1/2.
        QCOMPARE(slices.fitting("K80", 6).size(), std::size_t(2));
        QCOMPARE(slices.fitting("M60", 6).size(), std::size_t(1));
        QCOMPARE(per.fitting("K80", 6).size(), std::size_t(1));
        QCOMPARE(per.fitting("K80", 6)[0].fraction, 0.5);
        QCOMPARE(per.fitting("M60", 6).size(), std::size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestStsVariants)
#include "tst_sts_variants.moc"
