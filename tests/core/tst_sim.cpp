// The discrete-event simulator: hand-computed job completion times, shared links, failures,
// energy and cost, agreement with the traffic report, determinism.

#include "io/file_io.h"
#include "io/run_json.h"
#include "io/scenario_json.h"
#include "net/job_flows.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "sched/policy.h"
#include "sched/traffic.h"
#include "sim/bucket_stream.h"
#include "sim/event_queue.h"
#include "sim/price_schedule.h"
#include "sim/simulator.h"
#include "sim/time_buckets.h"
#include "util/text.h"

#include <QtTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

using namespace cb;

namespace {

bool near(double a, double b, double rel = 1e-9)
{
    return std::fabs(a - b) <= rel * std::max(1.0, std::fabs(b));
}

#define CB_NEAR(a, b)                                                                          \
    QVERIFY2(near((a), (b)), qPrintable(QString("%1 = %2, expected %3")                        \
                                            .arg(#a).arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))

Node node(const std::string &id, int gpus, std::map<std::string, std::string> labels = {})
{
    Node n;
    n.id = id;
    n.cpus = 16;
    n.memoryGiB = 64;
    n.gpus = gpus;
    n.gpuType = gpus > 0 ? "G" : "";
    n.labels = std::move(labels);
    return n;
}

Link link(const std::string &a, const std::string &b, double gbps)
{
    Link l;
    l.a = a;
    l.b = b;
    l.capacityGbps = gbps;
    l.latencyUs = 0;
    return l;
}

GpuType gpuType()
{
    GpuType t;
    t.name = "G";
    t.relativeSpeed = 1;
    t.idleWatts = 50;
    t.busyWatts = 250;
    t.pricePerHour = 2;
    return t;
}

TaskGroup group(TaskRole role, int replicas, int gpus, const std::string &selector = {})
{
    TaskGroup g;
    g.role = role;
    g.replicas = replicas;
    g.cpus = 1;
    g.memoryGiB = 1;
    g.gpus = gpus;
    if (!selector.empty())
        g.nodeSelector["role"] = selector;
    return g;
}

Job singleJob(const std::string &id, double submit, std::int64_t iterations, double compute)
{
    Job j;
    j.id = id;
    j.kind = JobKind::Single;
    j.submitSeconds = submit;
    j.tasks = {group(TaskRole::Single, 1, 1)};
    j.model.iterations = iterations;
    j.model.computeSecondsPerIteration = compute;
    return j;
}

/// A PS job with `workers` workers on nodes labelled role=<workerSel>, PS on role=<psSel>.
Job psJob(const std::string &id, double submit, std::int64_t iterations, int workers,
          const std::string &psSel, const std::string &workerSel, double bytes = 1.25e9)
{
    Job j;
    j.id = id;
    j.kind = JobKind::ParameterServer;
    j.submitSeconds = submit;
    j.tasks = {group(TaskRole::Ps, 1, 0, psSel), group(TaskRole::Worker, workers, 1, workerSel)};
    j.model.iterations = iterations;
    j.model.computeSecondsPerIteration = 1.0;
    j.model.parameterBytes = std::int64_t(bytes);
    return j;
}

SimOptions options()
{
    SimOptions o;
    o.policy = *builtinPolicy("k8s-default");
    o.policy.tieBreak = TieBreak::First;
    o.seed = 1;
    return o;
}

const JobRun &jobRun(const RunResult &r, const std::string &id)
{
    for (const JobRun &j : r.jobs)
        if (j.id == id)
            return j;
    static JobRun none;
    return none;
}

/// Two hosts on one switch, 10 Gbit/s links: h0 (role=ps, no GPU), h1 (role=worker, 2 GPUs).
Scenario twoHosts()
{
    Scenario s;
    s.name = "two hosts";
    s.cluster.gpuTypes = {gpuType()};
    s.cluster.nodes = {node("h0", 0, {{"role", "ps"}}), node("h1", 2, {{"role", "worker"}})};
    s.cluster.switches = {{"sw", "tor"}};
    s.cluster.links = {link("h0", "sw", 10), link("h1", "sw", 10)};
    return s;
}

/// Leaf-spine with an oversubscribed spine: leaf0 {h0 (ps), h1}, leaf1 {h2, h3 (workers)};
/// host links 10 Gbit/s, leaf-spine links 5 Gbit/s.
Scenario oversubscribed()
{
    Scenario s;
    s.name = "oversubscribed spine";
    s.cluster.gpuTypes = {gpuType()};
    s.cluster.nodes = {node("h0", 0, {{"role", "ps"}}), node("h1", 1),
                       node("h2", 1, {{"role", "worker"}}), node("h3", 1, {{"role", "worker"}})};
    s.cluster.switches = {{"leaf0", "leaf"}, {"leaf1", "leaf"}, {"spine", "spine"}};
    s.cluster.links = {link("h0", "leaf0", 10),   link("h1", "leaf0", 10),
                       link("h2", "leaf1", 10),   link("h3", "leaf1", 10),
                       link("leaf0", "spine", 5), link("leaf1", "spine", 5)};
    return s;
}

} // namespace

class TestSim : public QObject
{
    Q_OBJECT

private slots:
    void timeLimitOverrunsAreSaid();
    void oneJobAlone_data();
    void oneJobAlone();
    void twoJobsShareLinks();
    void isolatedTimeAtTheFastestType();
    void psJobOversubscribedSpine();
    void overlapFactor_data();
    void overlapFactor();
    void nodeFailure_data();
    void nodeFailure();
    void unknownFailureNode();
    void energyAndCost();
    void gpuHourCost();
    void eventOrder();
    void priceSchedule_data();
    void priceSchedule();
    void timeBucketsMergeExactly();
    void timeBucketsDenseLinksMatchSorted();
    void bucketStreamMatchesBuckets();
    void flowsMatchTrafficReport();
    void hookRequeueKeepsProgress();
    void deterministicRunFile();
    void threadedRunIsDeterministicAndCancels();
    void runFileIsTheDocument();
    void parseFailures_data();
    void parseFailures();
};

void TestSim::oneJobAlone_data()
{
    QTest::addColumn<double>("submit");
    QTest::addColumn<int>("iterations");
    QTest::addColumn<double>("compute");
    QTest::newRow("1000 x 0.1 s") << 0.0 << 1000 << 0.1;
    QTest::newRow("submitted at 5, 250 x 0.4 s") << 5.0 << 250 << 0.4;
    QTest::newRow("one iteration") << 3.0 << 1 << 7.0;
}

void TestSim::oneJobAlone()
{
    QFETCH(double, submit);
    QFETCH(int, iterations);
    QFETCH(double, compute);
    Scenario s = twoHosts();
    s.jobs = {singleJob("j", submit, iterations, compute)};
    auto r = simulate(s, options());
    QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
    const JobRun &j = r->jobs.front();
    QVERIFY(j.finishSeconds.has_value());
    CB_NEAR(*j.jctSeconds(), iterations * compute);
    CB_NEAR(*j.startSeconds, submit);
    CB_NEAR(*j.queueDelaySeconds(), 0.0);
    CB_NEAR(*j.isolatedSeconds, iterations * compute);
    CB_NEAR(*j.slowdown(), 1.0);
    CB_NEAR(r->makespanSeconds, submit + iterations * compute);
    QCOMPARE(j.attempts, 1);
    QCOMPARE(j.totalBytes, 0.0);
    QCOMPARE(r->multiNodePlacements, 0); // (one task: one node)
}

void TestSim::isolatedTimeAtTheFastestType()
{
    // h0 has one GPU of a type at half speed, h1 one at full speed; 100 iterations of 1 s at
    // full speed. A asks for the slow type (200 s on h0); B, any type, queued behind it, gets
    // h1 (100 s). Alone the policy puts a job on h0 (first of equals): C, submitted when both
    // are free, runs 200 s there. The time alone is at the fastest type the job can take, so
    // B's slowdown is 1 (it was 0.5 against its time alone on h0) and C's is 2.
    Scenario s = twoHosts();
    GpuType slow = gpuType();
    slow.name = "S";
    slow.relativeSpeed = 0.5;
    s.cluster.gpuTypes.push_back(slow);
    s.cluster.nodes = {node("h0", 1), node("h1", 1)};
    s.cluster.nodes[0].gpuType = "S";
    Job a = singleJob("A", 0, 100, 1.0);
    a.tasks[0].gpuType = "S";
    s.jobs = {a, singleJob("B", 0, 100, 1.0), singleJob("C", 300, 100, 1.0)};
    auto r = simulate(s, options());
    QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
    const JobRun &ra = jobRun(r.value(), "A"), &rb = jobRun(r.value(), "B"),
                 &rc = jobRun(r.value(), "C");
    CB_NEAR(*ra.jctSeconds(), 200.0);
    CB_NEAR(*ra.isolatedSeconds, 200.0); // (it can take the slow type only)
    CB_NEAR(*rb.jctSeconds(), 100.0);
    CB_NEAR(*rb.isolatedSeconds, 100.0);
    CB_NEAR(*rb.slowdown(), 1.0);
    QCOMPARE(rc.placement.tasks.front().node, std::string("h0"));
    CB_NEAR(*rc.jctSeconds(), 200.0);
    CB_NEAR(*rc.isolatedSeconds, 100.0);
    CB_NEAR(*rc.slowdown(), 2.0);
}

void TestSim::twoJobsShareLinks()
{
    // Each job: PS on h0, one worker on h1, 10 Gbit (1.25e9 bytes) each way per iteration:
    // the push (1 s at 10 Gbit/s), then the pull (1 s). Alone: compute 1 s + 2 s = 3 s per
    // iteration. Together each direction of each host link carries two flows at 5 Gbit/s:
    // push 2 s + pull 2 s + compute 1 s = 5 s per iteration.
    // A: submit 0, 10 iterations; B: submit 4, 2 iterations.
    // 0..4 A alone: 4/3 iterations. 4..14 both: B does 2 (finishes at 14), A does 2.
    // A's last 20/3 iterations alone: 20 s -> finishes at 34.
    Scenario s = twoHosts();
    s.jobs = {psJob("A", 0, 10, 1, "ps", "worker"), psJob("B", 4, 2, 1, "ps", "worker")};
    auto r = simulate(s, options());
    QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
    const JobRun &a = jobRun(r.value(), "A"), &b = jobRun(r.value(), "B");
    CB_NEAR(*b.startSeconds, 4.0);
    CB_NEAR(*b.finishSeconds, 14.0);
    CB_NEAR(*a.finishSeconds, 34.0);
    CB_NEAR(*a.jctSeconds(), 34.0);
    CB_NEAR(*b.jctSeconds(), 10.0);
    CB_NEAR(*a.isolatedSeconds, 30.0);
    CB_NEAR(*b.slowdown(), 10.0 / 6.0);
    CB_NEAR(a.crossNodeBytes, 10 * 2 * 1.25e9);
    CB_NEAR(b.crossNodeBytes, 2 * 2 * 1.25e9);
    CB_NEAR(r->crossNodeBytes(), 12 * 2 * 1.25e9);
    CB_NEAR(r->meanJctSeconds(), 22.0);
    QCOMPARE(r->multiNodePlacements, 2); // each job started on h0 and h1
    // Cumulative node-pair matrix: h1 -> h0 carries each job's worker-to-PS bytes.
    CB_NEAR((r->pairBytes.at({1, 0})), 12 * 1.25e9);
}

void TestSim::psJobOversubscribedSpine()
{
    // PS on h0 (leaf0), workers on h2 and h3 (leaf1). The leaf1 -> spine uplink (5 Gbit/s)
    // carries both workers' pushes: 2.5 Gbit/s each, so 10 Gbit take 4 s (the 10 Gbit/s host
    // links give 5 each, not the bottleneck); the pulls take 4 s the other way. Iteration =
    // 1 s compute + 4 s + 4 s = 9 s; 10 iterations = 90 s, the same alone (slowdown 1).
    Scenario s = oversubscribed();
    s.jobs = {psJob("P", 0, 10, 2, "ps", "worker")};
    auto r = simulate(s, options());
    QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
    const JobRun &p = r->jobs.front();
    CB_NEAR(p.iterationSeconds, 9.0);
    CB_NEAR(*p.jctSeconds(), 90.0);
    CB_NEAR(*p.slowdown(), 1.0);
    CB_NEAR(p.crossNodeBytes, 10 * 4 * 1.25e9);
    // The same job with a full-bisection spine (10 Gbit/s uplinks) is limited by the PS host
    // link, which also carries two flows each way: 5 Gbit/s each -> 2 s push + 2 s pull, 5 s
    // per iteration.
    Scenario full = oversubscribed();
    full.cluster.links[4].capacityGbps = 10;
    full.cluster.links[5].capacityGbps = 10;
    full.jobs = s.jobs;
    auto f = simulate(full, options());
    QVERIFY(f.ok());
    CB_NEAR(*f->jobs.front().jctSeconds(), 50.0);
}

void TestSim::overlapFactor_data()
{
    QTest::addColumn<double>("overlap");
    QTest::addColumn<double>("iteration");
    // compute 1 s, comm 8 s (oversubscribed case): 1 + max(8 - overlap x 1, 0).
    QTest::newRow("no overlap") << 0.0 << 9.0;
    QTest::newRow("half") << 0.5 << 8.5;
    QTest::newRow("full") << 1.0 << 8.0;
}

void TestSim::overlapFactor()
{
    QFETCH(double, overlap);
    QFETCH(double, iteration);
    Scenario s = oversubscribed();
    s.settings.overlap = overlap;
    s.jobs = {psJob("P", 0, 10, 2, "ps", "worker")};
    auto r = simulate(s, options());
    QVERIFY(r.ok());
    CB_NEAR(r->jobs.front().iterationSeconds, iteration);
    CB_NEAR(*r->jobs.front().jctSeconds(), 10 * iteration);
}

void TestSim::nodeFailure_data()
{
    QTest::addColumn<bool>("otherNodeHasGpu");
    QTest::addColumn<QString>("failure");
    QTest::addColumn<double>("finish");
    QTest::addColumn<int>("attempts");
    // The job (100 x 1 s) starts at 0 on g0 (first in cluster order).
    QTest::newRow("fails at 30, moves to g1 at once") << true << "g0@30" << 130.0 << 2;
    QTest::newRow("fails at 30, repaired 20 s later") << false << "g0@30+20" << 150.0 << 2;
    QTest::newRow("failure after the job ended") << true << "g0@500" << 100.0 << 1;
    QTest::newRow("other node fails") << true << "g1@30" << 100.0 << 1;
}

void TestSim::nodeFailure()
{
    QFETCH(bool, otherNodeHasGpu);
    QFETCH(QString, failure);
    QFETCH(double, finish);
    QFETCH(int, attempts);
    Scenario s;
    s.cluster.gpuTypes = {gpuType()};
    s.cluster.nodes = {node("g0", 1), node("g1", otherNodeHasGpu ? 1 : 0)};
    s.jobs = {singleJob("X", 0, 100, 1.0)};
    SimOptions o = options();
    auto f = parseNodeFailures(failure.toStdString());
    QVERIFY(f.ok());
    o.failures = f.value();
    auto r = simulate(s, o);
    QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
    const JobRun &x = r->jobs.front();
    QVERIFY(x.finishSeconds.has_value());
    CB_NEAR(*x.finishSeconds, finish);
    QCOMPARE(x.attempts, attempts);
    CB_NEAR(*x.firstStartSeconds, 0.0);
    bool killed = false, downLogged = false;
    for (const SimLogEntry &e : r->log) {
        killed = killed || (e.kind == RunEventKind::Kill && e.job == "X");
        downLogged = downLogged || e.kind == RunEventKind::NodeDown;
    }
    QCOMPARE(killed, attempts == 2);
    QVERIFY(downLogged || finish == 100.0);
}

void TestSim::unknownFailureNode()
{
    Scenario s = twoHosts();
    s.jobs = {singleJob("j", 0, 1, 1)};
    SimOptions o = options();
    o.failures = {{"nope", 1, std::nullopt}};
    auto r = simulate(s, o);
    QVERIFY(!r.ok());
    QVERIFY(r.error().find("nope") != std::string::npos);
}

void TestSim::energyAndCost()
{
    // One node: base 100 W, 2 GPUs idle 50 W / busy 250 W; PUE 1.5; flat 0.2 per kWh.
    // Job: 1 GPU for 100 s. Baseline (100 + 2 x 50) x 1.5 = 300 W; the busy GPU adds
    // (250 - 50) x 1.5 = 300 W. Cluster: 600 W x 100 s = 60,000 J = 1/60 kWh.
    // Job: 250 x 1.5 x 100 = 37,500 J.
    Scenario s;
    s.cluster.gpuTypes = {gpuType()};
    s.cluster.nodes = {node("n", 2)};
    s.cluster.nodes[0].baseWatts = 100;
    s.settings.pue = 1.5;
    s.settings.energyPricePerKWh = 0.2;
    s.jobs = {singleJob("j", 0, 100, 1.0)};
    auto r = simulate(s, options());
    QVERIFY(r.ok());
    CB_NEAR(r->energyKWh, 60000.0 / 3.6e6);
    CB_NEAR(r->energyCost, 60000.0 / 3.6e6 * 0.2);
    CB_NEAR(r->cost, r->energyCost);
    CB_NEAR(r->jobs[0].energyKWh, 37500.0 / 3.6e6);
    CB_NEAR(r->jobs[0].cost, 37500.0 / 3.6e6 * 0.2);
    // GPU utilisation: 1 of 2 GPUs busy for the whole makespan.
    double busy = 0;
    for (double b : r->series.gpuBusySeconds)
        busy += b;
    CB_NEAR(busy, 100.0);
    CB_NEAR(runSummaryJson(r.value())["gpu_utilisation"].get<double>(), 0.5);
}

void TestSim::gpuHourCost()
{
    Scenario s = twoHosts();
    s.jobs = {singleJob("j", 0, 1800, 1.0)}; // half an hour on one GPU at 2 per hour
    SimOptions o = options();
    o.costModel = CostModel::GpuHours;
    auto r = simulate(s, o);
    QVERIFY(r.ok());
    CB_NEAR(r->gpuHourCost, 1.0);
    CB_NEAR(r->cost, 1.0);
    CB_NEAR(r->jobs[0].cost, 1.0);
}

void TestSim::priceSchedule_data()
{
    QTest::addColumn<double>("t0");
    QTest::addColumn<double>("t1");
    QTest::addColumn<double>("integral");
    const double h = 3600;
    // Periods: 0 h 0.1, 8 h 0.3, 20 h 0.2 (a day integrates to 5.2 price-hours).
    QTest::newRow("inside one period") << 1 * h << 2 * h << 0.1 * h;
    QTest::newRow("across 8 h") << 7 * h << 9 * h << 0.4 * h;
    QTest::newRow("across midnight") << 22 * h << 26 * h << 0.6 * h;
    QTest::newRow("one whole day") << 5 * h << 29 * h << 5.2 * h;
    QTest::newRow("three days and a bit") << 0.0 << 72 * h + 8.5 * h << (15.6 + 0.8 + 0.15) * h;
    QTest::newRow("empty") << 9 * h << 9 * h << 0.0;
}

void TestSim::eventOrder()
{
    // Events leave by time, then in the order they were scheduled, whether they were known
    // before the run (pushKnown: the arrivals, kept sorted beside the heap) or not.
    EventQueue q;
    q.push(5, SimEventKind::Callback, 100);        // seq 0
    q.pushKnown(5, SimEventKind::Arrival, 1);      // seq 1: after the callback at t = 5
    q.pushKnown(2, SimEventKind::Arrival, 2);      // seq 2
    q.pushKnown(5, SimEventKind::Arrival, 3);      // seq 3
    q.push(2, SimEventKind::NodeFailure, 101);     // seq 4: after arrival 2 at t = 2
    q.pushKnown(0, SimEventKind::Arrival, 4);      // seq 5
    QCOMPARE(q.size(), std::size_t(6));
    std::vector<int> order;
    order.push_back(q.pop().subject);              // 4 (t = 0)
    q.push(2, SimEventKind::Completion, 102);      // seq 6
    q.pushKnown(1, SimEventKind::Arrival, 5);      // seq 7: popping began, into the heap
    while (!q.empty())
        order.push_back(q.pop().subject);
    QCOMPARE(order, (std::vector<int>{4, 5, 2, 101, 102, 100, 1, 3}));
    QCOMPARE(q.size(), std::size_t(0));
}

void TestSim::priceSchedule()
{
    QFETCH(double, t0);
    QFETCH(double, t1);
    QFETCH(double, integral);
    Settings settings;
    settings.priceSchedule = {{20, 0.2}, {0, 0.1}, {8, 0.3}}; // unsorted on purpose
    const PriceSchedule p(settings);
    CB_NEAR(p.integral(t0, t1), integral);
    // Without a 0 h entry the last period wraps from the day before.
    Settings late;
    late.priceSchedule = {{6, 1.0}, {18, 3.0}};
    const PriceSchedule q(late);
    CB_NEAR(q.priceAt(3 * 3600.0), 3.0);
    CB_NEAR(q.integral(0, 24 * 3600.0), (6 * 3.0 + 12 * 1.0 + 6 * 3.0) * 3600.0);
    Settings flat;
    flat.energyPricePerKWh = 0.5;
    CB_NEAR(PriceSchedule(flat).integral(10, 20), 5.0);
}

void TestSim::timeBucketsMergeExactly()
{
    RunSeries s;
    TimeBuckets b(s, 10, 4, true);
    b.addGpuBusy(5, 25, 20);                          // 1 per second over [5, 25]
    QCOMPARE(s.bucketSeconds, 10.0);
    QCOMPARE(s.gpuBusySeconds, (std::vector<double>{5, 10, 5}));
    b.addLinkBytes(0, 10, {{3, 100.0}}, 2.0);         // 200 bytes in bucket 0
    b.addGpuBusy(35, 45, 10);                         // needs bucket 4 -> merge to width 20
    QCOMPARE(s.bucketSeconds, 20.0);
    QCOMPARE(s.gpuBusySeconds, (std::vector<double>{15, 10, 5}));
    QCOMPARE(s.linkBytes[0].at(3), 200.0);
    b.addPairBytes(0, 0, {{{0, 1}, 7.0}}, 1.0);       // zero-length interval: one bucket
    QCOMPARE(s.pairBytes[0].at({0, 1}), 7.0);
}

void TestSim::timeBucketsDenseLinksMatchSorted()
{
    // The same additions to link sums that turn dense mid-run (after a merge, by hand), turn
    // dense by themselves (after 400 link sums, 8 buckets x 50 links: later), or stay in the
    // sorted arrays: the same series to the bit, through three merges (max 8 buckets, times
    // up to 600 s at width 10).
    RunSeries byHandSeries, automaticSeries, sortedSeries;
    TimeBuckets byHand(byHandSeries, 10, 8, false, 50);
    TimeBuckets automatic(automaticSeries, 10, 8, false, 50);
    TimeBuckets sorted(sortedSeries, 10, 8, false);
    QVERIFY(!byHand.denseLinks());
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    double t = 0;
    for (int i = 0; i < 400; ++i) {
        if (i == 100) {
            QVERIFY(!byHand.denseLinks());
            QVERIFY(!automatic.denseLinks());
            byHand.useDenseLinks();
            QVERIFY(byHand.denseLinks());
            QCOMPARE(byHandSeries.bucketSeconds, 20.0);
        }
        std::vector<std::pair<int, double>> bytes;
        for (int l = 0; l < 50; ++l)
            if (unit(rng) < 0.03)
                bytes.emplace_back(l, 1e6 * unit(rng));
        const double t0 = t - 5 * unit(rng), t1 = t + (i % 7 == 0 ? 0.0 : 5 * unit(rng));
        const double scale = 1 + 100 * unit(rng);
        for (TimeBuckets *b : {&byHand, &automatic, &sorted})
            b->addLinkBytes(std::max(0.0, t0), t1, bytes, scale);
        t += 1.5;
    }
    QVERIFY(automatic.denseLinks());
    QVERIFY(!sorted.denseLinks());
    for (TimeBuckets *b : {&byHand, &automatic, &sorted})
        b->finish(t);
    QCOMPARE(sortedSeries.bucketSeconds, 80.0);
    std::size_t keys = 0;
    for (const RunSeries *series : {&byHandSeries, &automaticSeries}) {
        QCOMPARE(series->bucketSeconds, 80.0);
        QCOMPARE(series->linkBytes.size(), sortedSeries.linkBytes.size());
        for (std::size_t b = 0; b < series->linkBytes.size(); ++b) {
            const auto &d = series->linkBytes[b], &s = sortedSeries.linkBytes[b];
            QCOMPARE(d.size(), s.size());
            for (auto di = d.begin(), si = s.begin(); di != d.end(); ++di, ++si) {
                QCOMPARE(di->first, si->first);
                QCOMPARE(std::bit_cast<std::uint64_t>(di->second),
                         std::bit_cast<std::uint64_t>(si->second));
            }
            keys += d.size();
        }
    }
    QVERIFY2(keys > 200, std::to_string(keys).c_str()); // (links never added to: absent)

    // Past the budget, a cluster's links stay in the sorted arrays.
    RunSeries big;
    TimeBuckets past(big, 10, 256, false, 1 << 20);
    past.useDenseLinks();
    QVERIFY(!past.denseLinks());
}

void TestSim::bucketStreamMatchesBuckets()
{
    // The same adds made to time buckets directly and through a stream (its worker thread
    // applying them in batches, or all at finish on the caller's thread): the same series to
    // the bit, through merges (max 16 buckets, times up to 12,000 s at width 10), with every
    // kind of add and shared traffic replaced while adds that use the old one are queued.
    RunSeries direct, threaded, inline_;
    TimeBuckets buckets(direct, 10, 16, true, 40);
    BucketStream streamT(threaded, 10, 16, true, 40, true);
    BucketStream streamI(inline_, 10, 16, true, 40, false);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto traffic = std::make_shared<BucketStream::Traffic>();
    const int adds = int(3 * BucketStream::kBatch + 100); // three batches and a part
    double t = 0;
    for (int i = 0; i < adds; ++i) {
        if (i % 50 == 0) {
            auto next = std::make_shared<BucketStream::Traffic>();
            for (int l = 0; l < 40; ++l)
                if (unit(rng) < 0.2)
                    next->links.emplace_back(l, 1e6 * unit(rng));
            for (int p = 0; p < 8; ++p)
                if (unit(rng) < 0.5)
                    next->pairs.push_back({{p, p + 1}, 1e5 * unit(rng)});
            traffic = next; // (the streams' queued adds keep the old one)
        }
        const double t0 = std::max(0.0, t - 20 * unit(rng)), t1 = t + 3 * unit(rng);
        const double x = 1 + 50 * unit(rng);
        switch (i % 4) {
        case 0:
            buckets.addGpuBusy(t0, t1, x);
            streamT.addGpuBusy(t0, t1, x);
            streamI.addGpuBusy(t0, t1, x);
            break;
        case 1:
            buckets.addLinkBytes(t0, t1, traffic->links, x);
            buckets.addPairBytes(t0, t1, traffic->pairs, x);
            streamT.addTraffic(t0, t1, traffic, x);
            streamI.addTraffic(t0, t1, traffic, x);
            break;
        case 2:
            buckets.addCost(t0, t1, x);
            streamT.addCost(t0, t1, x);
            streamI.addCost(t0, t1, x);
            break;
        default:
            buckets.addStranded(t0, t1, x);
            streamT.addStranded(t0, t1, x);
            streamI.addStranded(t0, t1, x);
        }
        t += 3.0;
    }
    buckets.finish(t);
    streamT.finish(t);
    streamI.finish(t);
    QCOMPARE(direct.bucketSeconds, 1280.0); // (merged 7 times)
    auto bits = [](const std::vector<double> &v) {
        std::vector<std::uint64_t> out;
        for (double d : v)
            out.push_back(std::bit_cast<std::uint64_t>(d));
        return out;
    };
    for (const RunSeries *s : {&threaded, &inline_}) {
        QCOMPARE(s->bucketSeconds, direct.bucketSeconds);
        QCOMPARE(bits(s->gpuBusySeconds), bits(direct.gpuBusySeconds));
        QCOMPARE(bits(s->cost), bits(direct.cost));
        QCOMPARE(bits(s->strandedGpuSeconds), bits(direct.strandedGpuSeconds));
        QCOMPARE(s->linkBytes.size(), direct.linkBytes.size());
        for (std::size_t b = 0; b < direct.linkBytes.size(); ++b) {
            QVERIFY(s->linkBytes[b] == direct.linkBytes[b]);
            QVERIFY(s->pairBytes[b] == direct.pairBytes[b]);
        }
    }
    QVERIFY(!direct.linkBytes.back().empty());
    QVERIFY(!direct.pairBytes.back().empty());

    // An add after finish is applied at once, as the buckets take it.
    buckets.addGpuBusy(0, 10, 5);
    streamT.addGpuBusy(0, 10, 5);
    QCOMPARE(bits(threaded.gpuBusySeconds), bits(direct.gpuBusySeconds));

    // A stream dropped before its finish (a cancelled run) stops its worker.
    RunSeries dropped;
    {
        BucketStream gone(dropped, 10, 16, true, 40, true);
        for (int i = 0; i < int(2 * BucketStream::kBatch); ++i)
            gone.addGpuBusy(i, i + 1, 1);
    }
}

void TestSim::flowsMatchTrafficReport()
{
    auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
    QVERIFY2(loaded.ok(), qPrintable(QString::fromStdString(loaded.error())));
    const Scenario &s = loaded.value();
    const Topology topo(s.cluster);
    const Placement placement = placeScenario(s, topo, *builtinPolicy("dltap"), 1);
    const TrafficReport traffic = computeTraffic(s.jobs, s.cluster, topo, placement);
    const auto idx = nodeIndexMap(s.cluster);
    double cross = 0, total = 0;
    std::vector<double> linkBytes(std::size_t(topo.directedLinkCount()), 0.0);
    for (const JobPlacement &jp : placement.jobs) {
        for (const SimFlow &f : jobFlows(*s.job(jp.jobId), jp, s.cluster, topo, idx)) {
            total += f.totalBytes();
            if (f.src != f.dst)
                cross += f.totalBytes();
            for (int l : f.route)
                linkBytes[std::size_t(l)] += f.totalBytes();
        }
    }
    QVERIFY(traffic.crossNodeBytes > 0);
    CB_NEAR(cross, traffic.crossNodeBytes);
    CB_NEAR(total, traffic.totalBytes);
    for (std::size_t l = 0; l < linkBytes.size(); ++l)
        CB_NEAR(linkBytes[l], traffic.linkBytes[l]);
}

void TestSim::hookRequeueKeepsProgress()
{
    // A planned reconfiguration at 40 s requeues the job keeping its progress; it is placed
    // again at once, so it still ends at 100 s, in two attempts.
    Scenario s = twoHosts();
    s.jobs = {singleJob("j", 0, 100, 1.0)};
    Simulator sim(s, options());
    bool called = false;
    sim.scheduleAt(40, "reconfigure j", [&](Simulator &sm) {
        called = true;
        QCOMPARE(sm.now(), 40.0);
        QVERIFY(sm.requeue("j", true, "reconfiguration"));
        QVERIFY(!sm.requeue("nope", true, "x"));
    });
    auto r = sim.run();
    QVERIFY(r.ok());
    QVERIFY(called);
    CB_NEAR(*r->jobs[0].finishSeconds, 100.0);
    QCOMPARE(r->jobs[0].attempts, 2);
    CB_NEAR(*r->jobs[0].startSeconds, 40.0);
}

void TestSim::deterministicRunFile()
{
    auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
    QVERIFY(loaded.ok());
    const Scenario &s = loaded.value();
    const Topology topo(s.cluster);
    SimOptions o;
    o.policy = *builtinPolicy("k8s-default"); // random tie-breaks, seeded
    o.seed = 7;
    o.failures = {{"node-02", 400, 600.0}};
    auto a = simulate(s, o);
    auto b = simulate(s, o);
    QVERIFY(a.ok() && b.ok());
    const std::string ja = runToJson(a.value(), s.cluster, topo).dump(1);
    QCOMPARE(ja, runToJson(b.value(), s.cluster, topo).dump(1));
    QCOMPARE(a->finishedJobs(), int(s.jobs.size()));
    // Every byte the jobs moved shows up in the node-pair matrix and the buckets.
    double pairs = 0, bucketPairs = 0;
    for (const auto &[p, v] : a->pairBytes)
        pairs += v;
    for (const auto &m : a->series.pairBytes)
        for (const auto &[p, v] : m)
            bucketPairs += v;
    CB_NEAR(pairs, a->totalBytes());
    CB_NEAR(bucketPairs, a->totalBytes());
}

void TestSim::threadedRunIsDeterministicAndCancels()
{
    // fat-tree-1024's 300 jobs make thousands of time-bucket adds, applied by the stream's
    // worker in batches, while another thread works out the jobs' times alone: two runs give
    // the same run file, every finished job has its time alone, and a run cancelled half-way
    // stops both threads and says so.
    auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json");
    QVERIFY(loaded.ok());
    const Scenario &s = loaded.value();
    const Topology topo(s.cluster);
    SimOptions o;
    o.policy = *builtinPolicy("k8s-default");
    o.seed = 3;
    auto a = simulate(s, o);
    auto b = simulate(s, o);
    QVERIFY(a.ok() && b.ok());
    QVERIFY2(a->events > 2000, std::to_string(a->events).c_str());
    QCOMPARE(runToJson(a.value(), s.cluster, topo).dump(),
             runToJson(b.value(), s.cluster, topo).dump());
    int alone = 0;
    for (const JobRun &jr : a->jobs)
        if (jr.finishSeconds && jr.isolatedSeconds) {
            QVERIFY(*jr.isolatedSeconds > 0);
            QVERIFY(*jr.isolatedSeconds <= *jr.finishSeconds - jr.submitSeconds + 1e-6);
            ++alone;
        }
    QCOMPARE(alone, a->finishedJobs());
    QCOMPARE(a->finishedJobs(), int(s.jobs.size()));

    int calls = 0;
    o.progress = [&calls](double done) {
        ++calls;
        return done < 0.5;
    };
    auto cancelled = simulate(s, o);
    QVERIFY(!cancelled.ok());
    QCOMPARE(QString::fromStdString(cancelled.error()), QStringLiteral("simulate: cancelled"));
    QVERIFY(calls > 1);
}

void TestSim::runFileIsTheDocument()
{
    // saveRunFile streams the run file piece by piece: the same bytes as the document's
    // dump(1), on a run with failures (segments with their own placements), a 3 MB run file
    // (leaf-spine-gpu: fat-tree-1024's 100 MB took 25 s under the sanitizers), and a run with
    // no jobs (empty arrays).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("run.json").toStdString();
    struct Case
    {
        const char *sample;
        bool failures, noJobs;
    };
    for (const Case c : {Case{"dltap-testbed", true, false}, Case{"leaf-spine-gpu", false, false},
                         Case{"dgx-nvlink", false, true}}) {
        auto loaded = loadScenarioFile(std::string(CB_SOURCE_DIR "/sample-clusters/") +
                                       c.sample + ".json");
        QVERIFY(loaded.ok());
        Scenario s = loaded.value();
        if (c.noJobs)
            s.jobs.clear();
        const Topology topo(s.cluster);
        SimOptions o;
        o.policy = *builtinPolicy("k8s-default");
        o.seed = 3;
        if (c.failures)
            o.failures = {{s.cluster.nodes[1].id, 300, 500.0}};
        auto r = simulate(s, o);
        QVERIFY2(r.ok(), c.sample);
        QVERIFY(saveRunFile(path, r.value(), s.cluster, topo).ok());
        auto written = readTextFile(path);
        QVERIFY(written.ok());
        const std::string document = runToJson(r.value(), s.cluster, topo).dump(1) + "\n";
        QCOMPARE(written->size(), document.size());
        QVERIFY2(written.value() == document, c.sample);
        if (c.noJobs)
            QVERIFY(written->find("\"jobs\": []") != std::string::npos);
    }
    // A file that cannot be written: the error names it, and nothing is left behind.
    auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
    QVERIFY(loaded.ok());
    const Topology topo(loaded->cluster);
    SimOptions o;
    o.policy = *builtinPolicy("dltap");
    auto r = simulate(loaded.value(), o);
    QVERIFY(r.ok());
    const std::string missing = dir.filePath("no-such-dir/run.json").toStdString();
    const Status saved = saveRunFile(missing, r.value(), loaded->cluster, topo);
    QVERIFY(!saved.ok());
    QVERIFY2(saved.error().find(missing) != std::string::npos, saved.error().c_str());
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden),
             QStringList{"run.json"});
}

void TestSim::parseFailures_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("count");
    QTest::newRow("one") << "n1@30" << true << 1;
    QTest::newRow("with repair") << "n1@30+5.5" << true << 1;
    QTest::newRow("two") << "n1@30,n2@40+1" << true << 2;
    QTest::newRow("no time") << "n1" << false << 0;
    QTest::newRow("bad time") << "n1@soon" << false << 0;
    QTest::newRow("negative") << "n1@-3" << false << 0;
    QTest::newRow("bad repair") << "n1@3+x" << false << 0;
}

void TestSim::parseFailures()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(int, count);
    auto r = parseNodeFailures(text.toStdString());
    QCOMPARE(r.ok(), ok);
    if (ok)
        QCOMPARE(int(r->size()), count);
    else
        QVERIFY(r.error().find("--fail") != std::string::npos);
}

void TestSim::timeLimitOverrunsAreSaid()
{
    // One job with a time limit below its run, one above, one without: only the first is
    // said, at its pointer, with the time it ran (first start to finish) and its limit.
    Scenario s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json").value();
    SimOptions o;
    o.policy = *builtinPolicy("dltap");
    const auto plain = simulate(s, o);
    QVERIFY2(plain.ok(), plain.error().c_str());
    const JobRun &first = plain->jobs[0], &second = plain->jobs[1];
    const double ran0 = *first.finishSeconds - *first.firstStartSeconds;
    const double ran1 = *second.finishSeconds - *second.firstStartSeconds;
    QVERIFY(ran0 > 600);
    s.jobs[0].timeLimitSeconds = 600;
    s.jobs[1].timeLimitSeconds = std::ceil(ran1); // at least its run: not said
    const auto limited = simulate(s, o);
    QVERIFY2(limited.ok(), limited.error().c_str());
    const Problems p = timeLimitOverruns(s, limited.value());
    QCOMPARE(int(p.size()), 1);
    QCOMPARE(p[0].where, std::string("/jobs/0/time_limit_s"));
    QCOMPARE(p[0].message, "job \"" + s.jobs[0].id + "\" ran " + clockText(ran0) +
                               " in the simulation, past its time limit of 0:10:00: deployed, it "
                               "is ended there (Slurm's --time, Kubernetes' "
                               "activeDeadlineSeconds); the simulation lets it finish");
}

QTEST_APPLESS_MAIN(TestSim)
#include "tst_sim.moc"
