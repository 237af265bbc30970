// Gang admission with a minimum (a job's min_available workers) and the fragmentation that
// all-or-nothing admission leaves: hand-counted decisions, start times, stranded GPU-seconds.

#include "io/export/exporter_registry.h"
#include "io/policy_json.h"
#include "io/run_json.h"
#include "io/scenario_json.h"
#include "model/gen_jobs.h"
#include "model/validation.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "sched/policy.h"
#include "sim/simulator.h"

#include <QtTest>

using namespace cb;

namespace {

Node node(const std::string &id, int gpus)
{
    Node n;
    n.id = id;
    n.cpus = 16;
    n.memoryGiB = 64;
    n.gpus = gpus;
    n.gpuType = "G";
    return n;
}

TaskGroup group(TaskRole role, int replicas, int gpus)
{
    TaskGroup g;
    g.role = role;
    g.replicas = replicas;
    g.cpus = 1;
    g.memoryGiB = 1;
    g.gpus = gpus;
    return g;
}

/// Two nodes of 4 GPUs under one switch.
Scenario twoNodes()
{
    Scenario s;
    s.name = "two nodes";
    GpuType t;
    t.name = "G";
    t.relativeSpeed = 1;
    t.idleWatts = 50;
    t.busyWatts = 250;
    s.cluster.gpuTypes = {t};
    s.cluster.nodes = {node("n0", 4), node("n1", 4)};
    s.cluster.switches = {{"sw", "tor"}};
    for (const char *n : {"n0", "n1"}) {
        Link l;
        l.a = n;
        l.b = "sw";
        l.capacityGbps = 100;
        s.cluster.links.push_back(l);
    }
    return s;
}

/// A parameter-server job: one PS without GPUs, `workers` workers of `gpus` GPUs each, no
/// gradient bytes (an iteration is its 1 s of compute).
Job psJob(const std::string &id, double submit, int workers, int gpus, std::int64_t iterations,
          std::optional<int> minAvailable)
{
    Job j;
    j.id = id;
    j.kind = JobKind::ParameterServer;
    j.submitSeconds = submit;
    j.tasks = {group(TaskRole::Ps, 1, 0), group(TaskRole::Worker, workers, gpus)};
    j.model.iterations = iterations;
    j.model.computeSecondsPerIteration = 1;
    j.minAvailable = minAvailable;
    return j;
}

Job singleJob(const std::string &id, int gpus, std::int64_t iterations)
{
    Job j;
    j.id = id;
    j.kind = JobKind::Single;
    j.tasks = {group(TaskRole::Single, 1, gpus)};
    j.model.iterations = iterations;
    j.model.computeSecondsPerIteration = 1;
    return j;
}

Policy policy(bool minAvailable)
{
    Policy p = *builtinPolicy("k8s-default");
    p.tieBreak = TieBreak::First;
    p.minAvailable = minAvailable;
    return p;
}

/// "a" (2 GPUs, 100 s) from t = 0; "b" at t = 10: a PS and two 4-GPU workers for 50
/// iterations, min_available 1. Only n1 still has 4 GPUs free when b arrives.
Scenario busyCluster()
{
    Scenario s = twoNodes();
    s.jobs = {singleJob("a", 2, 100), psJob("b", 10, 2, 4, 50, 1)};
    return s;
}

const JobRun &jobRun(const RunResult &r, const std::string &id)
{
    for (const JobRun &j : r.jobs)
        if (j.id == id)
            return j;
    static const JobRun none;
    return none;
}

std::string eventsText(const DecisionLog &log)
{
    std::string out;
    for (const JobEvent &e : log.events)
        out += std::string(toString(e.kind)) + " " + e.jobId + " @" +
               std::to_string(e.afterDecision) + ": " + e.what + "\n";
    return out;
}

} // namespace

class TestGang : public QObject
{
    Q_OBJECT

private slots:
    void placerAdmitsAtTheMinimum_data()
    {
        QTest::addColumn<int>("minAvailable"); // 0: none
        QTest::addColumn<bool>("honoured");
        QTest::addColumn<int>("placedTasks");
        QTest::addColumn<int>("decisions");
        QTest::addColumn<QString>("events");
        // 4 workers of 3 GPUs on two 4-GPU nodes: two fit (one per node), two do not. The
        // PS and worker-0, worker-1 are decisions 0-2; worker-2 fails at 3, worker-3 at 4.
        QTest::newRow("min 2: starts with 2 of 4")
            << 2 << true << 3 << 5
            << "admitted j @4: gang (min-available 2): 2 of 4 workers placed; the job starts "
               "without the other 2\n";
        QTest::newRow("min 3: too few fit")
            << 3 << true << 0 << 5
            << "rolled-back j @4: gang (min-available 3): too few workers fit; rolled back 3 "
               "placed task(s); the job waits\n";
        QTest::newRow("no minimum: all or nothing")
            << 0 << true << 0 << 4
            << "rolled-back j @3: gang: a task did not fit; rolled back 3 placed task(s); the "
               "job waits\n";
        QTest::newRow("gang all ignores min 2")
            << 2 << false << 0 << 4
            << "rolled-back j @3: gang: a task did not fit; rolled back 3 placed task(s); the "
               "job waits\n";
    }

    void placerAdmitsAtTheMinimum()
    {
        QFETCH(int, minAvailable);
        QFETCH(bool, honoured);
        QFETCH(int, placedTasks);
        QFETCH(int, decisions);
        QFETCH(QString, events);
        Scenario s = twoNodes();
        s.jobs = {psJob("j", 0, 4, 3, 10,
                        minAvailable > 0 ? std::optional<int>(minAvailable) : std::nullopt)};
        const Topology topo(s.cluster);
        Placer placer(s.cluster, topo, policy(honoured), 1);
        DecisionLog log;
        const Placement p = placer.place(s.jobs, &log);
        QCOMPARE(QString::fromStdString(eventsText(log)), events);
        QCOMPARE(int(placer.decisionCount()), decisions);
        QCOMPARE(int(p.jobs.empty() ? 0 : p.jobs.front().tasks.size()), placedTasks);
        QCOMPARE(p.waiting.size(), std::size_t(placedTasks > 0 ? 0 : 1));
        if (placedTasks > 0) {
            QCOMPARE(p.jobs.front().pendingTasks, 0);
            // Both nodes hold a 3-GPU worker; the state keeps them bound.
            QCOMPARE(placer.state().gpuUsed()[0] + placer.state().gpuUsed()[1], 6.0);
        } else {
            QCOMPARE(placer.state().gpuUsed()[0] + placer.state().gpuUsed()[1], 0.0);
        }
        // Without a log the placer decides the same (no fast path for such jobs).
        Placer quiet(s.cluster, topo, policy(honoured), 1);
        const Placement q = quiet.place(s.jobs);
        QCOMPARE(q, p);
        QCOMPARE(quiet.decisionCount(), placer.decisionCount());
    }

    void simulatedStartAndStrandedGpus_data()
    {
        QTest::addColumn<bool>("honoured");
        QTest::addColumn<double>("bStart");
        QTest::addColumn<double>("bFinish");
        QTest::addColumn<double>("stranded");
        QTest::addColumn<QString>("startDetail");
        // min-available: b starts at 10 with worker-0 on n1 alone; one worker does the
        // work of two: 2 x 50 iterations of 1 s, done at 110. Nothing waits after 10.
        QTest::newRow("min-available 1")
            << true << 10.0 << 110.0 << 0.0
            << "ps-0@n1 worker-0@n1 (1 of 2 workers, min-available 1)";
        // all: b waits for a (done at 100) although n1's 4 GPUs are free, enough for one of
        // its workers: 4 GPUs x 90 s stranded. Then 50 iterations on both nodes (worker-0
        // on n1, less allocated than n0 with the PS).
        QTest::newRow("all-or-nothing")
            << false << 100.0 << 150.0 << 360.0 << "ps-0@n0 worker-0@n1 worker-1@n0";
    }

    void simulatedStartAndStrandedGpus()
    {
        QFETCH(bool, honoured);
        QFETCH(double, bStart);
        QFETCH(double, bFinish);
        QFETCH(double, stranded);
        QFETCH(QString, startDetail);
        const Scenario s = busyCluster();
        SimOptions o;
        o.policy = policy(honoured);
        o.seed = 1;
        o.initialBucketSeconds = 60;
        auto r = simulate(s, o);
        QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
        const JobRun &b = jobRun(r.value(), "b");
        QCOMPARE(b.startSeconds.value_or(-1), bStart);
        QCOMPARE(b.finishSeconds.value_or(-1), bFinish);
        QCOMPARE(b.isolatedSeconds.value_or(-1), 50.0); // alone, both workers fit
        QCOMPARE(r->strandedGpuSeconds, stranded);
        QString detail;
        for (const SimLogEntry &e : r->log)
            if (e.kind == RunEventKind::Start && e.job == "b")
                detail = QString::fromStdString(e.detail);
        QCOMPARE(detail, startDetail);
        if (stranded > 0) {
            // [10, 60) and [60, 100) of the 60 s buckets: 4 x 50 and 4 x 40.
            QCOMPARE(r->series.strandedGpuSeconds, (std::vector<double>{200.0, 160.0, 0.0}));
            const auto summary = runSummaryJson(r.value());
            QCOMPARE(summary.value("stranded_gpu_s", -1.0), 360.0);
        } else {
            QVERIFY(r->series.strandedGpuSeconds.empty());
            QVERIFY(!runSummaryJson(r.value()).contains("stranded_gpu_s"));
        }
        // The run file keeps it: written and read back equal.
        const Topology topo(s.cluster);
        const auto back = runFromJson(
            nlohmann::json(runToJson(r.value(), s.cluster, topo, RunJsonLayout::Stored)),
            s.cluster);
        QVERIFY2(back.ok(), qPrintable(QString::fromStdString(back.error())));
        QCOMPARE(back->strandedGpuSeconds, r->strandedGpuSeconds);
        QCOMPARE(back->series.strandedGpuSeconds, r->series.strandedGpuSeconds);
    }

    void aJobThatNeverStartsStrandsNothing()
    {
        // "big" needs 3 x 4 GPUs at once on 8: it waits for ever. n1's 4 free GPUs would fit
        // one of its workers, but it can never start, so they are not stranded.
        Scenario s = twoNodes();
        s.jobs = {singleJob("a", 2, 100), psJob("big", 0, 3, 4, 50, std::nullopt)};
        QCOMPARE(jobsThatNeverStart(s).size(), std::size_t(1));
        SimOptions o;
        o.policy = policy(false);
        o.seed = 1;
        auto r = simulate(s, o);
        QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
        QCOMPARE(jobRun(r.value(), "a").finishSeconds.value_or(-1), 100.0);
        QVERIFY(!jobRun(r.value(), "big").startSeconds);
        QCOMPARE(r->strandedGpuSeconds, 0.0);
        QVERIFY(r->series.strandedGpuSeconds.empty());

        // Beside it, a job that could start but waits still counts: "w" (2 x 4 GPUs,
        // all-or-nothing) waits for "a" while n1's 4 GPUs sit free: 4 x 100 GPU-seconds.
        s.jobs.push_back(psJob("w", 0, 2, 4, 10, std::nullopt));
        r = simulate(s, o);
        QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
        QCOMPARE(jobRun(r.value(), "w").startSeconds.value_or(-1), 100.0);
        QCOMPARE(r->strandedGpuSeconds, 400.0);
    }

    void requeueAndFailureRescaleTheWork()
    {
        // b (100 iterations) starts at 10 with one of its two workers: 200 iterations of 1 s.
        Scenario s = twoNodes();
        s.jobs = {singleJob("a", 2, 1000), psJob("b", 10, 2, 4, 100, 1)};
        {
            // Requeued at 60 keeping its progress: 50 of 200 done = 25 of the job's 100; it
            // is placed again at once, one worker: (100 - 25) x 2 s more, done at 210.
            SimOptions o;
            o.policy = policy(true);
            o.seed = 1;
            Simulator sim(s, o);
            sim.scheduleAt(60, "requeue b",
                           [](Simulator &sm) { QVERIFY(sm.requeue("b", true, "test")); });
            auto r = sim.run();
            QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
            QCOMPARE(jobRun(r.value(), "b").attempts, 2);
            QCOMPARE(jobRun(r.value(), "b").startSeconds.value_or(-1), 60.0);
            QCOMPARE(jobRun(r.value(), "b").finishSeconds.value_or(-1), 210.0);
        }
        {
            // n1 fails at 60 (progress lost) and is back at 70, while a holds n0: b starts
            // again with one worker and all 100 iterations: 200 s, done at 270.
            SimOptions o;
            o.policy = policy(true);
            o.seed = 1;
            o.failures = {{"n1", 60, 10.0}};
            auto r = simulate(s, o);
            QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
            QCOMPARE(jobRun(r.value(), "b").attempts, 2);
            QCOMPARE(jobRun(r.value(), "b").startSeconds.value_or(-1), 70.0);
            QCOMPARE(jobRun(r.value(), "b").finishSeconds.value_or(-1), 270.0);
        }
    }

    void volcanoMinAvailableCountsTheMinimum()
    {
        const Scenario s = busyCluster();
        SimOptions o;
        o.policy = policy(true);
        o.seed = 1;
        auto r = simulate(s, o);
        QVERIFY(r.ok());
        Placement placement;
        placement.jobs.push_back(jobRun(r.value(), "b").placement);
        const Exporter *volcano = ExporterRegistry::find("volcano");
        QVERIFY(volcano);
        ExportOptions eo;
        const auto files = volcano->exportPlacement(s, placement, eo);
        QVERIFY2(files.ok(), qPrintable(QString::fromStdString(files.error())));
        const std::string yaml = files->files.front().content;
        // The PS and the one worker placed (of min_available 1): both are the gang.
        QVERIFY2(yaml.find("minAvailable: 2") != std::string::npos, yaml.c_str());
        QVERIFY(yaml.find("worker-1") == std::string::npos);

        // A placement below the minimum is refused, naming the job and the minimum.
        placement.jobs.front().tasks.pop_back();
        const auto refused = volcano->exportPlacement(s, placement, eo);
        QVERIFY(!refused.ok());
        QCOMPARE(QString::fromStdString(refused.error()).contains(
                     "it may start with 1 of its 2 workers, min_available"),
                 true);
    }

    void policyGangModes_data()
    {
        QTest::addColumn<QString>("gang");
        QTest::addColumn<bool>("on");
        QTest::addColumn<bool>("minimum");
        QTest::addColumn<QString>("written");
        QTest::newRow("true") << "true" << true << true << "true";
        QTest::newRow("min-available") << "\"min-available\"" << true << true << "true";
        QTest::newRow("all") << "\"all\"" << true << false << "\"all\"";
        QTest::newRow("off") << "\"off\"" << false << true << "false";
        QTest::newRow("false") << "false" << false << true << "false";
    }

    void policyGangModes()
    {
        QFETCH(QString, gang);
        QFETCH(bool, on);
        QFETCH(bool, minimum);
        QFETCH(QString, written);
        const auto doc = nlohmann::json::parse(R"({"name": "g", "base": "k8s-default", "gang": )" +
                                               gang.toStdString() + "}");
        const auto p = policyFromJson(doc, "/policies/0", {});
        QVERIFY2(p.ok(), qPrintable(QString::fromStdString(p.error())));
        QCOMPARE(p->gang, on);
        QCOMPARE(p->minAvailable, minimum);
        QCOMPARE(QString::fromStdString(policyToJson(p.value())["gang"].dump()), written);
    }

    void badGangModeNamesTheField()
    {
        const auto doc = nlohmann::json::parse(R"({"name": "g", "base": "k8s-default", "gang": "most"})");
        const auto p = policyFromJson(doc, "/policies/0", {});
        QVERIFY(!p.ok());
        QCOMPARE(QString::fromStdString(p.error()),
                 QString("/policies/0/gang: expected true, false, \"all\", \"min-available\" or "
                         "\"off\", found \"most\""));
    }

    void minAvailableIsValidatedAndRoundTrips()
    {
        Scenario s = twoNodes();
        s.jobs = {psJob("j", 0, 2, 1, 10, 3)};
        const Problems problems = validateScenario(s);
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(problems.front().where), QString("/jobs/0/min_available"));
        QCOMPARE(QString::fromStdString(problems.front().message),
                 QString("min_available counts workers: expected 1 to 2 (the job's workers), "
                         "found 3"));
        s.jobs.front().minAvailable = 2;
        QVERIFY(validateScenario(s).empty());
        const auto back = scenarioFromJson(nlohmann::json(scenarioToJson(s)));
        QVERIFY2(back.ok(), qPrintable(QString::fromStdString(back.error())));
        QCOMPARE(back->jobs.front().minAvailable, std::optional<int>(2));
    }

    void generatorSetsTheMinimumOnPsJobsOnly()
    {
        JobSetParams p;
        p.jobs = 40;
        p.seed = 3;
        const auto plain = generateJobs(p);
        p.psMinAvailableFraction = 0.5;
        const auto elastic = generateJobs(p);
        QVERIFY(plain.ok() && elastic.ok());
        QCOMPARE(elastic->size(), plain->size());
        int withMinimum = 0;
        for (std::size_t i = 0; i < plain->size(); ++i) {
            Job j = elastic.value()[i];
            if (j.kind == JobKind::ParameterServer) {
                // ceil(workers / 2)
                QCOMPARE(j.minAvailable, std::optional<int>((j.workerCount() + 1) / 2));
                ++withMinimum;
            } else {
                QCOMPARE(j.minAvailable, std::optional<int>());
            }
            j.minAvailable.reset();
            QCOMPARE(j, plain.value()[i]); // nothing else drawn differently
        }
        QVERIFY(withMinimum > 0);
    }
};

QTEST_APPLESS_MAIN(TestGang)
#include "tst_gang.moc"
