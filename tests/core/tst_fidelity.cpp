// The fidelity check (sim/fidelity_check.h): percentiles on hand-checkable lists; a synthetic
// table made from known parameters (co-location 0.1, overlap 0.5) on a 2-node testbed, whose
// calibration must recover them and whose held-out errors are set by hand; then
// `clusterbench fidelity` on the Pollux authors' six measured traces (tests/data, Apache-2.0)
// on tests/data/fidelity/pollux-testbed.json, printing the table and holding every model to the
// floor the project set itself (held-out step time: median <= 10 %, p90 <= 25 %); and the
// NCCL bus-bandwidth comparison.

#include "cli/command.h"
#include "sim/fidelity_check.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

using namespace cb;

namespace {

bool near(double a, double b, double tol = 1e-9) { return std::fabs(a - b) <= tol; }

#define CB_NEAR(a, b)                                                                          \
    QVERIFY2(near((a), (b)), qPrintable(QString("%1 = %2, expected %3")                        \
                                            .arg(#a).arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))

/// Two nodes of 4 GPUs, interconnect 32 Gbit/s (4e9 B/s), one switch, 8 Gbit/s links (1e9
/// B/s), no latency anywhere.
Cluster testbed()
{
    Cluster c;
    GpuType t;
    t.name = "G";
    c.gpuTypes = {t};
    for (const char *id : {"h0", "h1"}) {
        Node n;
        n.id = id;
        n.cpus = 16;
        n.memoryGiB = 64;
        n.gpus = 4;
        n.gpuType = "G";
        n.interconnect.bandwidthGbps = 32;
        n.interconnect.latencyUs = 0;
        c.nodes.push_back(n);
        Link l;
        l.a = id;
        l.b = "sw";
        l.capacityGbps = 8;
        l.latencyUs = 0;
        c.links.push_back(l);
    }
    c.switches.push_back({"sw", "leaf"});
    return c;
}

// The truth: 1-GPU step 1 s at batch 10 and 2 s at batch 20, 0.1 s of it sync; co-location
// 0.1 per further GPU on a node, overlap 0.5, nothing exposed, no straggling; a fifth of the
// exposed communication stretches the backward pass (comm interference 0.2), so the sync a
// worker on the least crowded node (g GPUs there) measures is 0.1 x (1 + 0.1 (g - 1)) +
// 0.8 x exposed + its wait for the most crowded node. With S = 1e9 bytes the all-reduce takes (ring): {2} S / 4e9 = 0.25 s; {3}
// 4/3 S / 4e9 = 1/3 s; {1,1} S / 1e9 = 1 s; {1,2} 4/3 S / 1e9 = 4/3 s; {2,2} 1.5 S / 1e9 = 1.5 s.
struct Truth
{
    std::vector<int> shape;
    int batch;
    double comm;
};

double step1(int batch) { return batch == 10 ? 1.0 : 2.0; }

double slowdownOf(int gpus) { return 1.0 + 0.1 * (gpus - 1); }

double truthExposed(const Truth &t)
{
    const int most = *std::max_element(t.shape.begin(), t.shape.end());
    return std::max(t.comm - 0.5 * step1(t.batch) * slowdownOf(most), 0.0);
}

double truthStep(const Truth &t)
{
    const int most = *std::max_element(t.shape.begin(), t.shape.end());
    return step1(t.batch) * slowdownOf(most) + truthExposed(t);
}

double truthSync(const Truth &t)
{
    const int most = *std::max_element(t.shape.begin(), t.shape.end());
    const int least = *std::min_element(t.shape.begin(), t.shape.end());
    return 0.1 * slowdownOf(least) + 0.8 * truthExposed(t) +
           (slowdownOf(most) - slowdownOf(least)) * (step1(t.batch) - 0.1);
}

StepTimePoint point(const std::vector<int> &shape, int batch, double step, double sync)
{
    StepTimePoint p;
    p.placement = shape;
    p.nodes = int(shape.size());
    p.replicas = std::accumulate(shape.begin(), shape.end(), 0);
    p.localBatch = batch;
    p.stepSeconds = step;
    p.syncSeconds = sync;
    return p;
}

std::string runCli(const std::vector<std::string> &args, int &code, std::string &err)
{
    std::ostringstream out, errs;
    cli::Io io{out, errs, false};
    code = cli::runCommand(args, io);
    err = errs.str();
    return out.str();
}

const std::string kTraces = CB_TEST_DATA "/import/traces/pollux";
const std::string kTestbed = CB_TEST_DATA "/fidelity/pollux-testbed.json";

} // namespace

class TestFidelity : public QObject
{
    Q_OBJECT

private slots:
    void percentiles()
    {
        QCOMPARE(medianOf({}), 0.0);
        QCOMPARE(medianOf({3.0}), 3.0);
        QCOMPARE(medianOf({4.0, 1.0, 3.0, 2.0}), 2.5);
        // 0.9 x (5 - 1) = 3.6: 4 + 0.6 x (10 - 4).
        CB_NEAR(percentileOf({10.0, 1.0, 2.0, 3.0, 4.0}, 0.9), 7.6);
        QCOMPARE(percentileOf({1.0, 2.0}, 1.5), 2.0); // q clamped to 1
    }

    void recoversKnownParameters()
    {
        // Split half over the shapes in order {1} {2} {3} {1,1} {1,2} {2,2}: {1}, {3}, {1,2}
        // train; {2}, {1,1}, {2,2} are held out, each measured 1/(1 - k) times the truth for
        // k = 0, 0.01, ..., 0.05, so their absolute errors are exactly those k.
        FidelityModelInput in;
        in.name = "synthetic";
        in.parameterBytes = 1000000000;
        for (int b : {10, 20})
            in.table.points.push_back(point({1}, b, step1(b), 0.1));
        const std::vector<Truth> training = {{{3}, 10, 1.0 / 3}, {{3}, 20, 1.0 / 3},
                                             {{1, 2}, 10, 4.0 / 3}, {{1, 2}, 20, 4.0 / 3}};
        for (const Truth &t : training)
            in.table.points.push_back(point(t.shape, t.batch, truthStep(t), truthSync(t)));
        const std::vector<Truth> heldOut = {{{2}, 10, 0.25}, {{2}, 20, 0.25},
                                            {{1, 1}, 10, 1.0}, {{1, 1}, 20, 1.0},
                                            {{2, 2}, 10, 1.5}, {{2, 2}, 20, 1.5}};
        for (std::size_t i = 0; i < heldOut.size(); ++i) {
            const Truth &t = heldOut[i];
            in.table.points.push_back(
                point(t.shape, t.batch, truthStep(t) / (1.0 - 0.01 * double(i)), truthSync(t)));
        }
        StepTimePoint unshaped; // scalability.csv style: 2 nodes, 4 GPUs -> {2, 2}
        unshaped.nodes = 2;
        unshaped.replicas = 4;
        unshaped.localBatch = 10;
        unshaped.stepSeconds = truthStep({{2, 2}, 10, 1.5});
        unshaped.syncSeconds = truthSync({{2, 2}, 10, 1.5});
        in.table.points.push_back(unshaped);

        auto r = checkFidelity(testbed(), AllReduceAlgorithm::Ring, {in}, FidelitySplit::Half);
        QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
        const FidelityModelReport &m = r->models.front();
        CB_NEAR(m.calibration.colocationSlowdown, 0.1);
        CB_NEAR(m.calibration.overlap, 0.5);
        CB_NEAR(m.calibration.exposedCommFraction, 0.0);
        CB_NEAR(m.calibration.computeCv, 0.0);
        CB_NEAR(m.calibration.commInterference, 0.2);
        QCOMPARE(m.trainingPoints, 6);
        QCOMPARE(m.heldOut.points, 6);
        CB_NEAR(m.heldOut.stepMedian, 0.025);
        CB_NEAR(m.heldOut.stepP90, 0.045);
        CB_NEAR(m.heldOut.syncMedian, 0.0);
        QCOMPARE(m.worst.placement, (std::vector<int>{2, 2}));
        QCOMPARE(m.worst.localBatch, 20);
        CB_NEAR(m.worst.predictedStep, 2.6); // 2.2 + (1.5 - 1.1)
        CB_NEAR(m.worst.stepError(), -0.05);
        QCOMPARE(m.scalability.points, 1);
        CB_NEAR(m.scalability.stepMedian, 0.0);
        for (const FidelityPoint &p : m.points)
            if (p.placement == std::vector<int>{1, 2})
                CB_NEAR(p.commSeconds, 4.0 / 3);

        // One-node trains on the single-node shapes and holds out every multi-node one.
        auto one = checkFidelity(testbed(), AllReduceAlgorithm::Ring, {in}, FidelitySplit::OneNode);
        QVERIFY(one.ok());
        QCOMPARE(one->models.front().trainingPoints, 6); // {1}, {2}, {3} x 2 batches
        QCOMPARE(one->models.front().heldOut.points, 6);  // {1,1}, {1,2}, {2,2}
    }

    void syncNoiseFloor()
    {
        // Shapes in order {1} {1,2} {2,1} {2,2}: {1} and {2,1} train, {1,2} and {2,2} are held
        // out. {1,2} shares nodes (2), GPUs (3) and each batch with {2,1}; {2,2} has no
        // training point at 2 nodes and 4 GPUs, so the floor leaves it out.
        FidelityModelInput in;
        in.name = "repeats";
        in.parameterBytes = 1000000000;
        for (int b : {10, 20})
            in.table.points.push_back(point({1}, b, step1(b), 0.1));
        const double step10 = truthStep({{1, 2}, 10, 4.0 / 3});
        const double step20 = truthStep({{1, 2}, 20, 4.0 / 3});
        // {2,1} measured twice at batch 10 (syncs 0.5 and 0.7: median 0.6), once at 20 (0.6).
        in.table.points.push_back(point({2, 1}, 10, step10, 0.5));
        in.table.points.push_back(point({2, 1}, 10, step10, 0.7));
        in.table.points.push_back(point({2, 1}, 20, step20, 0.6));
        // Held out: {1,2} syncs 0.4 (floor |0.6 / 0.4 - 1| = 0.5) and 0.8 (|0.6 / 0.8 - 1| =
        // 0.25): the floor's median is 0.375.
        in.table.points.push_back(point({1, 2}, 10, step10, 0.4));
        in.table.points.push_back(point({1, 2}, 20, step20, 0.8));
        for (int b : {10, 20})
            in.table.points.push_back(
                point({2, 2}, b, truthStep({{2, 2}, b, 1.5}), truthSync({{2, 2}, b, 1.5})));

        auto r = checkFidelity(testbed(), AllReduceAlgorithm::Ring, {in}, FidelitySplit::Half);
        QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
        const FidelityModelReport &m = r->models.front();
        QCOMPARE(m.heldOut.points, 4);
        QCOMPARE(m.syncFloorPoints, 2);
        CB_NEAR(m.syncFloorMedian, 0.375);
        // The model's error on the same two points, not on all four held out.
        std::vector<double> modelErrors;
        for (const FidelityPoint &p : m.points)
            if (p.placement == std::vector<int>{1, 2})
                modelErrors.push_back(std::fabs(p.syncError()));
        QCOMPARE(int(modelErrors.size()), 2);
        QVERIFY(modelErrors[0] != modelErrors[1]);
        CB_NEAR(m.syncModelAtFloorMedian, (modelErrors[0] + modelErrors[1]) / 2);
        const std::string text = r->text(80);
        QVERIFY2(text.find("sync noise floor") != std::string::npos, text.c_str());
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);)
            QVERIFY2(line.size() <= 80, line.c_str());
        QVERIFY2(text.find("37.5 %") != std::string::npos, text.c_str());
        const auto j = r->toJson(false);
        CB_NEAR(j["models"][0]["held_out"]["sync_floor_median"].get<double>(), 0.375);
        CB_NEAR(j["models"][0]["held_out"]["sync_model_at_floor_median"].get<double>(),
                m.syncModelAtFloorMedian);
    }

    void badInput()
    {
        FidelityModelInput in;
        in.name = "m";
        in.parameterBytes = 4;
        in.table.points.push_back(point({2}, 10, 1.0, 0.1));
        auto r = checkFidelity(testbed(), AllReduceAlgorithm::Ring, {in}, FidelitySplit::Half);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("no measured 1-GPU point") != std::string::npos,
                 r.error().c_str());
        in.table.points.push_back(point({1}, 10, 1.0, 0.1));
        in.table.points.push_back(point({1, 1, 1}, 10, 1.0, 0.1));
        r = checkFidelity(testbed(), AllReduceAlgorithm::Ring, {in}, FidelitySplit::Half);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("needs 3 nodes, the testbed has 2") != std::string::npos,
                 r.error().c_str());

        int code = 0;
        std::string err;
        const std::string out =
            runCli({"fidelity", kTestbed, kTraces, "--split", "thirds"}, code, err);
        QCOMPARE(code, 2);
        QVERIFY(out.empty());
        QVERIFY2(err.find("--split") != std::string::npos, err.c_str());
        runCli({"fidelity", kTestbed, CB_TEST_DATA "/schemas"}, code, err);
        QCOMPARE(code, 2);
        QVERIFY2(err.find("no <model>_placements.csv") != std::string::npos, err.c_str());
    }

    void polluxTraces()
    {
        int code = 0;
        std::string err;
        const std::string text = runCli({"fidelity", kTestbed, kTraces}, code, err);
        QCOMPARE(code, 0);
        qInfo().noquote() << "\n" << QString::fromStdString(text);
        const std::string out = runCli({"fidelity", kTestbed, kTraces, "--json"}, code, err);
        QCOMPARE(code, 0);
        const auto j = nlohmann::json::parse(out);
        // The same traces, every held-out point: training and held-out never overlap and
        // every measured row is there (cifar10: 1,512 rows, placements and scalability).
        const auto pts = nlohmann::json::parse(
            runCli({"fidelity", kTestbed, kTraces, "--json", "--points"}, code, err));
        QCOMPARE(j["split"].get<std::string>(), std::string("half"));
        std::vector<std::string> names;
        for (const auto &m : j["models"]) {
            const std::string name = m["model"].get<std::string>();
            names.push_back(name);
            const double median = m["held_out"]["step_error_median"].get<double>();
            const double p90 = m["held_out"]["step_error_p90"].get<double>();
            QVERIFY2(m["held_out"]["points"].get<int>() > 100, name.c_str());
            QVERIFY2(median <= 0.10, qPrintable(QString("%1 median %2").arg(name.c_str()).arg(median)));
            QVERIFY2(p90 <= 0.25, qPrintable(QString("%1 p90 %2").arg(name.c_str()).arg(p90)));
        }
        QCOMPARE(names, (std::vector<std::string>{"cifar10", "imagenet", "deepspeech2", "bert",
                                                  "yolov3", "ncf"}));
        const auto &cifar = pts["models"][0];
        QCOMPARE(int(cifar["points"].size()), 1512);
        QCOMPARE(cifar["training_points"].get<int>() + cifar["held_out"]["points"].get<int>() +
                     cifar["scalability"]["points"].get<int>(),
                 1512);

        // A Pollux workload imported onto the testbed: its cifar10 jobs train resnet18 (the
        // importer's name), found under the application's file names; the same 1,512 rows.
        QTemporaryDir dir;
        const std::string imported = dir.filePath(QStringLiteral("w6.json")).toStdString();
        QCOMPARE((runCli({"import", kTraces + "/workload-6.csv", "--cluster", kTestbed, "--out",
                          imported},
                         code, err),
                  code),
                 0);
        const auto fromImport = nlohmann::json::parse(
            runCli({"fidelity", imported, kTraces, "--json", "--points"}, code, err));
        QVERIFY2(code == 0, err.c_str());
        const auto found = std::find_if(
            fromImport["models"].begin(), fromImport["models"].end(),
            [](const nlohmann::json &m) { return m["model"].get<std::string>() == "resnet18"; });
        QVERIFY(found != fromImport["models"].end());
        QCOMPARE(int((*found)["points"].size()), 1512);
    }

    void ncclBusBandwidth()
    {
        // 8 ranks, 240 GB/s, 8.4 us + 14 x 3.4 us: at 1 GiB t = 56 us + 1.75 GiB / 240 GB/s.
        const auto points = ncclA100BusBandwidth(240, 3.4e-6, 8.4e-6);
        QCOMPARE(points.size(), std::size_t(24));
        const BusBandwidthPoint &g = points[20];
        QCOMPARE(g.bytes, 1073741824.0);
        QCOMPARE(g.measuredGBps, 228.10);
        const double t = 56e-6 + 1.75 * 1073741824.0 / 240e9;
        CB_NEAR(g.predictedGBps, 1.75 * 1073741824.0 / t / 1e9);
        // Large messages: within 5 % of the measurement from 1 GiB up.
        for (std::size_t i = 20; i < points.size(); ++i)
            QVERIFY(std::fabs(points[i].predictedGBps / points[i].measuredGBps - 1.0) < 0.05);
    }
};

QTEST_GUILESS_MAIN(TestFidelity)
#include "tst_fidelity.moc"
