// The Pollux-style workload replay (sim/pollux_replay.h): one job by hand (arrival at the
// next round, the 30 s restart, epochs ending mid-round); Tiresias demoting and preempting
// a job where FIFO does not, by hand; FIFO against strict FIFO; bad input; then
// `clusterbench fidelity --replay` on the Pollux authors' workload-6 with their measured
// tables and validation runs (tests/data, Apache-2.0), against the Pollux simulator's
// published Tiresias+TunedJobs average JCT (3,469.69 s, simulator/README.md) and its
// per-job JCTs (results-jobload/tiresias-1.0/summary.json).

#include "cli/command.h"
#include "io/import/pollux_validation.h"
#include "sim/pollux_replay.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace cb;

namespace {

/// A toy application: one validation run at batch 8 whose epochs end at the given
/// progress, with no gradient noise (gain 1 per step); 1 s per step on one GPU, 0.5 s on
/// two of one node (0.25 s of it sync).
PolluxApplication toy(const std::vector<double> &epochEnds)
{
    PolluxApplication a;
    a.name = "toy";
    std::vector<PolluxEpoch> run;
    for (double e : epochEnds)
        run.push_back({e, 1.0, 0.0});
    a.validation[8] = run;
    a.validation[16] = run;
    a.maxEpochs = int(epochEnds.size());
    StepTimePoint one;
    one.placement = {1};
    one.nodes = one.replicas = 1;
    one.localBatch = 8;
    one.stepSeconds = 1.0;
    a.table.points.push_back(one);
    StepTimePoint two = one;
    two.placement = {2};
    two.replicas = 2;
    two.stepSeconds = 0.5;
    two.syncSeconds = 0.25;
    a.table.points.push_back(two);
    return a;
}

PolluxWorkloadJob job(const std::string &name, double submit, int replicas, int batch)
{
    PolluxWorkloadJob j;
    j.name = name;
    j.application = "toy";
    j.submitSeconds = submit;
    j.replicas = replicas;
    j.batchSize = batch;
    return j;
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

class TestPolluxReplay : public QObject
{
    Q_OBJECT

private slots:
    void oneJobByHand()
    {
        // Submitted at 0, seen at the end of the first round (60 s), allocated; the next round
        // pays the 30 s restart, then runs at 1 progress per second: epoch 1 (10) at 100 s,
        // epoch 2 (20) at 110 s.
        ReplayOptions o;
        o.gpusPerNode = {1};
        auto r = replayPolluxWorkload({toy({10, 20})}, {job("a", 0, 1, 8)}, o);
        QVERIFY2(r.ok(), qPrintable(QString::fromStdString(r.error())));
        QCOMPARE(r->jobs.size(), std::size_t(1));
        QCOMPARE(r->jobs[0].finishSeconds, 110.0);
        QCOMPARE(r->jobs[0].jct(), 110.0);
        QCOMPARE(r->jobs[0].starts, 1);
        QCOMPARE(r->meanJct, 110.0);
        // Two GPUs of one node at batch 16 (8 each): 0.5 s per step.
        o.gpusPerNode = {2};
        r = replayPolluxWorkload({toy({10, 20})}, {job("a", 0, 2, 16)}, o);
        QVERIFY(r.ok());
        QCOMPARE(r->jobs[0].finishSeconds, 100.0); // 60 + 30 + 20 x 0.5
        // A lone replica with a batch above the smallest validated one accumulates once:
        // batch 16 on one GPU is two steps of 8, 1 + (1 - 0) = 2 s per step of 16.
        o.gpusPerNode = {1};
        r = replayPolluxWorkload({toy({10, 20})}, {job("a", 0, 1, 16)}, o);
        QVERIFY(r.ok());
        QCOMPARE(r->jobs[0].finishSeconds, 130.0); // 60 + 30 + 20 x 2
    }

    void tiresiasPreemptsFifoWaits()
    {
        // One GPU; A (epochs end at 50, 100) submitted at 0; B (10, 20) at 61; Tiresias
        // demotes A after 60 GPU-seconds here.
        //  tiresias: A runs 60-120 (restart to 90, progress 30); at 120 A is demoted, B (Q0)
        //    takes the GPU: restart to 150, done at 170. At 180 A restarts: 210, epoch 1 at
        //    230, done at 280. JCTs 280 and 109.
        //  fifo: A runs on: restart to 90, done at 190; B starts at 240: done at 290.
        PolluxApplication a = toy({50, 100});
        a.name = "toy";
        PolluxApplication b = toy({10, 20});
        b.name = "short";
        PolluxWorkloadJob ja = job("A", 0, 1, 8);
        PolluxWorkloadJob jb = job("B", 61, 1, 8);
        jb.application = "short";
        ReplayOptions o;
        o.gpusPerNode = {1};
        o.demoteGpuSeconds = 60;
        auto t = replayPolluxWorkload({a, b}, {ja, jb}, o);
        QVERIFY(t.ok());
        QCOMPARE(t->jobs[0].finishSeconds, 280.0);
        QCOMPARE(t->jobs[0].starts, 2);
        QCOMPARE(t->jobs[1].finishSeconds, 170.0);
        QCOMPARE(t->preemptions, 1);
        QCOMPARE(t->meanJct, (280.0 + 109.0) / 2);
        o.queue = ReplayQueue::Fifo;
        auto f = replayPolluxWorkload({a, b}, {ja, jb}, o);
        QVERIFY(f.ok());
        QCOMPARE(f->jobs[0].finishSeconds, 190.0);
        QCOMPARE(f->jobs[1].finishSeconds, 290.0);
        QCOMPARE(f->preemptions, 0);
    }

    void fifoAgainstStrict()
    {
        // Two GPUs. A (1 GPU, long) from 0; B (2 GPUs) at 1; C (1 GPU, short) at 2. FIFO lets
        // C take the free GPU past B; strict FIFO keeps C behind B.
        const PolluxApplication a = toy({100, 200});
        ReplayOptions o;
        o.gpusPerNode = {2};
        o.queue = ReplayQueue::Fifo;
        const std::vector<PolluxWorkloadJob> jobs = {job("A", 0, 1, 8), job("B", 1, 2, 16),
                                                     job("C", 2, 1, 8)};
        auto f = replayPolluxWorkload({a}, jobs, o);
        QVERIFY(f.ok());
        // A: 60 + 30 + 200 = 290. C starts with A at 60: 290 too. B at 300: 330 + 100 = 430.
        QCOMPARE(f->jobs[0].finishSeconds, 290.0);
        QCOMPARE(f->jobs[2].finishSeconds, 290.0);
        QCOMPARE(f->jobs[1].finishSeconds, 430.0);
        o.queue = ReplayQueue::FifoStrict;
        auto s = replayPolluxWorkload({a}, jobs, o);
        QVERIFY(s.ok());
        // C waits for B: B from 300 to 430, C from 480: 510 + 200 = 710.
        QCOMPARE(s->jobs[1].finishSeconds, 430.0);
        QCOMPARE(s->jobs[2].finishSeconds, 710.0);
    }

    void badInput()
    {
        ReplayOptions o;
        o.gpusPerNode = {1};
        auto r = replayPolluxWorkload({toy({10})}, {job("a", 0, 2, 16)}, o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("2 GPUs asked, the cluster has 1") != std::string::npos,
                 r.error().c_str());
        PolluxWorkloadJob other = job("b", 0, 1, 8);
        other.application = "resnet";
        r = replayPolluxWorkload({toy({10})}, {other}, o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("no measured tables for application \"resnet\"") !=
                     std::string::npos,
                 r.error().c_str());
        r = replayPolluxWorkload({toy({10})}, {job("c", 0, 1, 4)}, o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("outside the validated batches 8-16") != std::string::npos,
                 r.error().c_str());

        ImportInput in;
        in.name = "v.csv";
        in.text = "progress,iteration,metric,grad_sqr,grad_var\n10,1,0.5,1,1\n5,2,0.6,1,1\n";
        auto v = readPolluxValidation(in);
        QVERIFY(!v.ok());
        QVERIFY2(v.error().find("v.csv:3") != std::string::npos, v.error().c_str());
        in.text = "progress,grad_sqr\n10,1\n";
        QVERIFY(!readPolluxValidation(in).ok());
        in.text = "progress,iteration,metric,grad_sqr,grad_var\n10,1,0.5,1,1\n20,2,0.6,1,2\n";
        v = readPolluxValidation(in);
        QVERIFY(v.ok());
        QCOMPARE(v->size(), std::size_t(2));
        QCOMPARE(v.value()[1].gradVar, 2.0);

        int code = 0;
        std::string err;
        runCli({"fidelity", "--replay", kTraces + "/no-such.csv", kTestbed, kTraces}, code, err);
        QCOMPARE(code, 2);
        QVERIFY2(err.find("no-such.csv") != std::string::npos, err.c_str());
        runCli({"fidelity", "--replay", kTraces + "/workload-6.csv", kTestbed, kTraces, "--queue",
                "sjf"},
               code, err);
        QCOMPARE(code, 2);
        QVERIFY2(err.find("--queue") != std::string::npos, err.c_str());

        // A workload row that is not usable: exit 2 naming the file and its line.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string bad = dir.path().toStdString() + "/workload-bad.csv";
        std::ofstream(bad) << "name,time,application,num_replicas,batch_size\n"
                              "cifar10-0,0,cifar10,1,128\n"
                              "cifar10-1,60,cifar10,two,128\n";
        const std::string out = runCli({"fidelity", "--replay", bad, kTestbed, kTraces}, code, err);
        QCOMPARE(code, 2);
        QCOMPARE(out, std::string());
        QVERIFY2(err.find(bad + ":3") != std::string::npos, err.c_str());
        QVERIFY2(err.find("num_replicas") != std::string::npos, err.c_str());
        // A job asking for more GPUs than the testbed's 64: its row.
        std::ofstream(bad) << "name,time,application,num_replicas,batch_size\n"
                              "cifar10-0,0,cifar10,65,8320\n";
        runCli({"fidelity", "--replay", bad, kTestbed, kTraces}, code, err);
        QCOMPARE(code, 2);
        QVERIFY2(err.find(bad + ":2 (job cifar10-0): 65 GPUs asked, the cluster has 64") !=
                     std::string::npos,
                 err.c_str());
        // A job name given twice: the second row.
        std::ofstream(bad) << "name,time,application,num_replicas,batch_size\n"
                              "cifar10-0,0,cifar10,1,128\ncifar10-0,60,cifar10,1,128\n";
        runCli({"fidelity", "--replay", bad, kTestbed, kTraces}, code, err);
        QCOMPARE(code, 2);
        QVERIFY2(err.find(bad + ":3: job cifar10-0 is named on line 2 already") !=
                     std::string::npos,
                 err.c_str());
        // An application the Pollux simulator does not have.
        std::ofstream(bad) << "name,time,application,num_replicas,batch_size\n"
                              "resnet-0,0,resnet,1,128\n";
        runCli({"fidelity", "--replay", bad, kTestbed, kTraces}, code, err);
        QCOMPARE(code, 2);
        QVERIFY2(err.find("application \"resnet\"") != std::string::npos, err.c_str());
        // A validation run whose progress falls: its file and line.
        const std::string traces = dir.path().toStdString() + "/traces";
        std::filesystem::create_directories(traces);
        for (const char *f : {"/cifar10_placements.csv", "/cifar10_scalability.csv"})
            std::filesystem::copy_file(kTraces + f, traces + f);
        std::ofstream(traces + "/cifar10_validation-128.csv")
            << "progress,iteration,metric,grad_sqr,grad_var\n1,1,0.5,1,1\n0.5,2,0.6,1,1\n";
        std::ofstream(bad) << "name,time,application,num_replicas,batch_size\n"
                              "cifar10-0,0,cifar10,1,128\n";
        runCli({"fidelity", "--replay", bad, kTestbed, traces}, code, err);
        QCOMPARE(code, 2);
        QVERIFY2(err.find("cifar10_validation-128.csv:3") != std::string::npos, err.c_str());
    }

    void workload6()
    {
        int code = 0;
        std::string err;
        qputenv("COLUMNS", "80");
        const std::string text = runCli(
            {"fidelity", "--replay", kTraces + "/workload-6.csv", kTestbed, kTraces}, code, err);
        QCOMPARE(code, 0);
        qInfo().noquote() << "\n" << QString::fromStdString(text);
        // Laid out for 80 columns: the per-model means in blocks of three models.
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);)
            QVERIFY2(line.size() <= 80, line.c_str());
        QVERIFY2(text.find("mean JCT (s)         bert      cifar10  deepspeech2\n") !=
                     std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("\n                 imagenet          ncf       yolov3\n") !=
                     std::string::npos,
                 text.c_str());
        const auto j = nlohmann::json::parse(
            runCli({"fidelity", "--replay", kTraces + "/workload-6.csv", kTestbed, kTraces,
                    "--queue", "tiresias", "--json", "--points"},
                   code, err));
        QCOMPARE(code, 0);
        QCOMPARE(j["jobs"].get<int>(), 160);
        QCOMPARE(j["gpus"].get<int>(), 64);
        const auto &run = j["runs"][0];
        const double ratio = run["ratio"].get<double>();
        QVERIFY2(std::fabs(ratio - 1.0) <= 0.01, qPrintable(QString("ratio %1").arg(ratio)));
        // Job by job against the Pollux simulator's own run.
        std::ifstream f(kTraces + "/results-jobload_tiresias-1.0_summary.json");
        const auto theirs = nlohmann::json::parse(f)["jcts"]["workload-6"];
        QCOMPARE(int(theirs.size()), 160);
        int within = 0;
        for (const auto &jr : run["jobs"]) {
            const std::string name = jr["name"].get<std::string>();
            const double ours = jr["finish_s"].get<double>() - jr["submit_s"].get<double>();
            if (std::fabs(ours / theirs[name].get<double>() - 1.0) <= 0.01)
                ++within;
        }
        qInfo() << within << "of 160 jobs within 1 % of the Pollux simulator's JCT";
        QCOMPARE(within, 160);
    }
};

QTEST_GUILESS_MAIN(TestPolluxReplay)
#include "tst_pollux_replay.moc"
