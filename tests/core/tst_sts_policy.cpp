// STS policy, baselines and the job-level simulation on hand-checkable cases: best-fit
// placement and GPU slices, the cost model, the receding horizon with its reconfiguration
// event, non-preemptive FIFO, the decision log, pressure and determinism.

#include "stochastic/first_principle_scheduler.h"
#include "stochastic/greedy_scheduler.h"
#include "stochastic/gpu_pool.h"
#include "stochastic/sts_policy.h"
#include "sim/simulator.h"
#include "sim/stochastic_jobs.h"

#include <QtTest>

using namespace cb;

namespace {

TerminationDistribution halfHalf()
{
    std::vector<double> w(100, 0.0);
    w[49] = 1;
    w[99] = 1;
    return TerminationDistribution::fromWeights("half", w).value();
}

/// 1 GPU: 100 s for all 100 epochs at 1 per second; 2 GPUs: 50 s at 4 per second.
PriceCatalogue prices()
{
    PriceCatalogue p;
    p.set("K80", 1, 3600);
    p.set("K80", 2, 14400);
    return p;
}

StsJob job(const std::string &id, double submit, double due, int stop)
{
    StsJob j;
    j.id = id;
    j.submitSeconds = submit;
    j.dueSeconds = due;
    j.tardinessWeight = 0.5;
    j.maxEpochs = 100;
    j.times = {{{"K80", 1, 1.0}, 100}, {{"K80", 2, 1.0}, 50}};
    j.termination = halfHalf();
    j.trueStopPercent = stop;
    return j;
}

GpuPool onePool(int gpus)
{
    GpuPool pool;
    pool.addNode("n0", "K80", gpus);
    return pool;
}

/// The jobs on the pool, run by core/sim as `experiment sts` runs them.
struct StsSim
{
    std::vector<StsJob> jobs;
    GpuPool pool;
    PriceCatalogue catalogue;
    StsSim(std::vector<StsJob> j, GpuPool p, PriceCatalogue c)
        : jobs(std::move(j)), pool(std::move(p)), catalogue(std::move(c))
    {}
    template <typename S>
    Result<RunResult> run(S &scheduler, std::uint64_t seed, StsDecisionLog *log = nullptr) const
    {
        // A scheduler keeps no state between runs: a copy runs as the original would.
        return simulateStochastic(stochasticScenario(jobs, pool), jobs, pool, catalogue,
                                  std::make_shared<S>(scheduler), seed, log);
    }
};

} // namespace

class TestStsPolicy : public QObject
{
    Q_OBJECT

private slots:
    void bestFitAndSlices()
    {
        GpuPool pool;
        pool.addNode("a", "K80", 8);
        pool.addNode("b", "K80", 8);
        pool.addNode("c", "M60", 8);
        auto six = pool.place({"K80", 6, 1.0});
        QVERIFY(six);
        QCOMPARE(six->node, std::size_t(0));
        auto two = pool.place({"K80", 2, 1.0}); // best fit: a has exactly 2 left
        QVERIFY(two);
        QCOMPARE(two->node, std::size_t(0));
        QVERIFY(!pool.place({"K80", 9, 1.0}));
        auto quarter = pool.place({"K80", 1, 0.25});
        QVERIFY(quarter);
        QCOMPARE(quarter->node, std::size_t(1));
        QCOMPARE(quarter->sharedGpu, 0);
        auto half = pool.place({"K80", 1, 0.5}); // onto the already shared GPU
        QVERIFY(half);
        QCOMPARE(half->node, std::size_t(1));
        QCOMPARE(half->sharedGpu, 0);
        QCOMPARE(pool.busyGpus(1), 1);
        auto half2 = pool.place({"K80", 1, 0.5}); // 0.25 left there: a fresh GPU
        QVERIFY(half2);
        QCOMPARE(half2->sharedGpu, 1);
        QCOMPARE(pool.busyGpus(1), 2);
        pool.release({"K80", 1, 0.5}, *half2);
        QCOMPARE(pool.busyGpus(1), 1);
        QCOMPARE(pool.freeGpus("K80"), 7);
        QVERIFY(pool.fits({"M60", 8, 1.0}));
        QVERIFY(!pool.fits({"V100", 1, 1.0}));
    }

    void pressureAndRanking()
    {
        const StsJob j = job("j", 0, 120, 100);
        // now + min remaining - due: 10 + 50 - 120 = -60 (not weighted when negative).
        QCOMPARE(stsPressure(j, 0, 10), -60.0);
        // 80 + 50 - 120 = 10, times 0.5.
        QCOMPARE(stsPressure(j, 0, 80), 5.0);
        // Half done: 25 s left at best.
        QCOMPARE(stsPressure(j, 50, 100), 2.5);
        // Due 120: both meet it; cost 100 s x 1/s = 100 vs 50 s x 4/s = 200.
        QCOMPARE(rankConfigurations(j, 0, 0, prices()), (std::vector<std::size_t>{0, 1}));
        // At 30 only 2 GPUs still meet 120.
        QCOMPARE(rankConfigurations(j, 0, 30, prices()), (std::vector<std::size_t>{1, 0}));
    }

    void fifoCostsByHand_data()
    {
        QTest::addColumn<double>("due");
        QTest::addColumn<double>("finish");
        QTest::addColumn<double>("energy");
        QTest::addColumn<double>("tardiness");
        QTest::addColumn<int>("violations");
        QTest::newRow("one GPU meets the due date") << 150.0 << 100.0 << 100.0 << 0.0 << 0;
        QTest::newRow("needs two GPUs") << 60.0 << 50.0 << 200.0 << 0.0 << 0;
        // Nothing meets 30 s: the fastest, 20 s late at 0.5 per second.
        QTest::newRow("late anyway") << 30.0 << 50.0 << 200.0 << 10.0 << 1;
    }
    void fifoCostsByHand()
    {
        QFETCH(double, due);
        QFETCH(double, finish);
        QFETCH(double, energy);
        QFETCH(double, tardiness);
        QFETCH(int, violations);
        StsSim sim({job("j", 0, due, 100)}, onePool(8), prices());
        FirstPrincipleScheduler fifo(FirstPrincipleScheduler::Order::Fifo);
        auto r = sim.run(fifo, 1);
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->jobs[0].finishSeconds.value_or(-1), finish);
        QCOMPARE(r->cost, energy);
        QCOMPARE(r->tardinessCost, tardiness);
        QCOMPARE(r->totalCost(), energy + tardiness);
        QCOMPARE(r->violations(), violations);
    }

    void stsRecedingHorizon_data()
    {
        QTest::addColumn<int>("stop");
        QTest::addColumn<double>("finish");
        QTest::addColumn<double>("energy");
        QTest::addColumn<int>("reconfigurations");
        // Plan for due 75: 1 GPU on [0, 50] (50 s), then 2 GPUs on (50, 100] (25 s).
        QTest::newRow("runs to the end") << 100 << 75.0 << 50.0 + 25.0 * 4 << 1;
        QTest::newRow("stops at 50 %") << 50 << 50.0 << 50.0 << 0;
    }
    void stsRecedingHorizon()
    {
        QFETCH(int, stop);
        QFETCH(double, finish);
        QFETCH(double, energy);
        QFETCH(int, reconfigurations);
        StsSim sim({job("j", 0, 75, stop)}, onePool(8), prices());
        StsPolicy sts;
        StsDecisionLog log;
        auto r = sim.run(sts, 1, &log);
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->jobs[0].finishSeconds.value_or(-1), finish);
        QVERIFY(std::abs(r->cost - energy) < 1e-9);
        QCOMPARE(r->tardinessCost, 0.0);
        QCOMPARE(r->jobs[0].reconfigurations, reconfigurations);

        const nlohmann::json j = log.toJson();
        const nlohmann::json &first = j["events"][0];
        QCOMPARE(first["trigger"].get<std::string>(), std::string("arrival"));
        const nlohmann::json &d = first["jobs"][0];
        QCOMPARE(d["chosen"].get<std::string>(), std::string("K80 x1"));
        QCOMPARE(d["node"].get<std::string>(), std::string("n0"));
        QCOMPARE(d["phase_seconds"].get<double>(), 50.0);
        QCOMPARE(d["candidates"][0]["kind"].get<std::string>(), std::string("optimised"));
        QCOMPARE(d["candidates"][0]["expected_cost"].get<double>(), 100.0);
        QCOMPARE(d["candidates"][0]["phases"].size(), std::size_t(2));
        if (stop == 100) {
            QCOMPARE(j["events"].size(), std::size_t(2));
            const nlohmann::json &second = j["events"][1];
            QCOMPARE(second["trigger"].get<std::string>(), std::string("reconfiguration"));
            QCOMPARE(second["time"].get<double>(), 50.0);
            QCOMPARE(second["jobs"][0]["chosen"].get<std::string>(), std::string("K80 x2"));
            QCOMPARE(second["jobs"][0]["candidates"][0]["kind"].get<std::string>(),
                     std::string("loose"));
        }
    }

    void fifoDoesNotPreempt()
    {
        // Two GPUs in all. a (due 60) takes both at 0; b arrives at 10 and must wait until
        // a ends at 50, then runs on 1 GPU (due 1000) for 100 s.
        StsSim sim({job("a", 0, 60, 100), job("b", 10, 1000, 100)}, onePool(2), prices());
        FirstPrincipleScheduler fifo(FirstPrincipleScheduler::Order::Fifo);
        auto r = sim.run(fifo, 1);
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->jobs[0].finishSeconds.value_or(-1), 50.0);
        QCOMPARE(r->jobs[1].finishSeconds.value_or(-1), 150.0);
        QCOMPARE(r->cost, 200.0 + 100.0);
    }

    void sharedGpuCostModel()
    {
        // Two quarter slices on one GPU: each pays rate(K80, 1 busy) x 1/1 x 0.25.
        StsJob a = job("a", 0, 1000, 100), b = job("b", 0, 1000, 100);
        for (StsJob *j : {&a, &b})
            j->times = {{{"K80", 1, 0.25}, 110}};
        StsSim sim({a, b}, onePool(1), prices());
        FirstPrincipleScheduler fifo(FirstPrincipleScheduler::Order::Fifo);
        auto r = sim.run(fifo, 1);
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->jobs[0].finishSeconds.value_or(-1), 110.0);
        QCOMPARE(r->jobs[1].finishSeconds.value_or(-1), 110.0);
        QVERIFY(std::abs(r->jobs[0].cost - 110 * 0.25) < 1e-9);
        QVERIFY(std::abs(r->cost - 110 * 0.5) < 1e-9);
    }

    void jobThatFitsNowhereFails()
    {
        StsJob j = job("big", 0, 100, 100);
        j.times = {{{"K80", 4, 1.0}, 10}};
        StsSim sim({j}, onePool(2), prices());
        StsPolicy sts;
        auto r = sim.run(sts, 1);
        QVERIFY(!r);
        QCOMPARE(QString::fromStdString(r.problems()[0].where), QString("big"));
    }

    void seededAndDeterministic_data()
    {
        QTest::addColumn<QString>("method");
        for (const char *m : {"STS", "G", "RG", "LS", "EDF", "PS"})
            QTest::newRow(m) << QString(m);
    }
    void seededAndDeterministic()
    {
        QFETCH(QString, method);
        std::vector<StsJob> jobs;
        for (int i = 0; i < 12; ++i)
            jobs.push_back(job("j" + std::to_string(i), 7.0 * i, 60.0 + 13.0 * i,
                               i % 3 == 0 ? 50 : 100));
        GpuPool pool;
        pool.addNode("a", "K80", 4);
        pool.addNode("b", "K80", 2);
        std::unique_ptr<StsScheduler> s;
        GreedyScheduler::Params p;
        p.randomIterations = 50;
        if (method == "STS")
            s = std::make_unique<StsPolicy>();
        else if (method == "G")
            s = std::make_unique<GreedyScheduler>(GreedyScheduler::Variant::Greedy, p);
        else if (method == "RG")
            s = std::make_unique<GreedyScheduler>(GreedyScheduler::Variant::RandomGreedy, p);
        else if (method == "LS")
            s = std::make_unique<GreedyScheduler>(GreedyScheduler::Variant::LocalSearch, p);
        else if (method == "EDF")
            s = std::make_unique<FirstPrincipleScheduler>(FirstPrincipleScheduler::Order::Edf);
        else
            s = std::make_unique<FirstPrincipleScheduler>(
                FirstPrincipleScheduler::Order::Priority);
        StsDecisionLog l1, l2;
        const Scenario scenario = stochasticScenario(jobs, pool);
        std::shared_ptr<StsScheduler> shared = std::move(s);
        auto r1 = simulateStochastic(scenario, jobs, pool, prices(), shared, 42, &l1);
        auto r2 = simulateStochastic(scenario, jobs, pool, prices(), shared, 42, &l2);
        QVERIFY2(r1.ok(), r1.error().c_str());
        QVERIFY(r2.ok());
        QCOMPARE(r1->totalCost(), r2->totalCost());
        QCOMPARE(l1.toJson().dump(), l2.toJson().dump());
        for (const JobRun &o : r1->jobs)
            QVERIFY(o.finishSeconds.value_or(0) > 0);
        QVERIFY(r1->totalCost() > 0);
        QCOMPARE(r1->policy, method.toStdString());
    }
};

QTEST_APPLESS_MAIN(TestStsPolicy)
#include "tst_sts_policy.moc"
