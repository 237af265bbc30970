// Measured step-time models (issue 7): the lookup rule on a hand-made table, the Pollux
// importer on the authors' CIFAR-10 files and on malformed variants, the scenario JSON round
// trip and schema, the simulator using the measured time, and the import progress hook
// (issue 8).

#include "io/import/import_into_scenario.h"
#include "io/import/importer_registry.h"
#include "io/scenario_json.h"
#include "model/step_time_table.h"
#include "model/validation.h"
#include "sched/policy.h"
#include "sim/simulator.h"

#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <fstream>

using namespace cb;

namespace {

const std::string kPollux = CB_TEST_DATA "/import/traces/pollux/";
const std::string kPlacements = kPollux + "cifar10_placements.csv";
const std::string kScalability = kPollux + "cifar10_scalability.csv";

StepTimePoint shaped(std::vector<int> placement, int batch, double step, double sync)
{
    StepTimePoint p;
    p.nodes = int(placement.size());
    for (int c : placement)
        p.replicas += c;
    p.placement = std::move(placement);
    p.localBatch = batch;
    p.stepSeconds = step;
    p.syncSeconds = sync;
    return p;
}

StepTimePoint grid(int nodes, int replicas, int batch, double step, double sync)
{
    StepTimePoint p;
    p.nodes = nodes;
    p.replicas = replicas;
    p.localBatch = batch;
    p.stepSeconds = step;
    p.syncSeconds = sync;
    return p;
}

// Round numbers, so every rule of model/step_time_table.h can be checked by hand.
StepTimeTable handTable()
{
    StepTimeTable t;
    t.source = "hand";
    t.points = {shaped({1}, 64, 0.2, 0.01), shaped({1}, 32, 0.1, 0), shaped({1, 2}, 32, 0.3, 0.1),
                grid(4, 8, 32, 0.8, 0.4), grid(4, 16, 32, 1.2, 0.6)};
    return t;
}

const ImportOptions kDefaults;

Result<ImportReport> importTexts(const std::vector<std::pair<std::string, std::string>> &files,
                                 const ImportOptions &options = kDefaults)
{
    std::vector<ImportInput> inputs;
    for (const auto &[name, text] : files)
        inputs.push_back({name, text, {}});
    return findImporter("pollux-throughput")->read(inputs, options);
}

const char *kHeader = "placement,local_bsz,step_time,sync_time\n";

std::string skippedText(const ImportReport &r)
{
    std::string s;
    for (const ImportNote &n : r.skipped)
        s += n.toString() + "\n";
    return s;
}

Scenario twoNodes()
{
    Scenario s;
    s.name = "two nodes";
    GpuType t;
    t.name = "V100";
    s.cluster.gpuTypes = {t};
    for (const char *id : {"n0", "n1"}) {
        Node n;
        n.id = id;
        n.cpus = 16;
        n.memoryGiB = 64;
        n.gpus = 4;
        n.gpuType = "V100";
        s.cluster.nodes.push_back(n);
        s.cluster.links.push_back({id, "sw", 100, 1});
    }
    s.cluster.switches = {{"sw", "tor"}};
    return s;
}

Job trainingJob(const std::string &id, JobKind kind, int workers, int gpus, int batch)
{
    Job j;
    j.id = id;
    j.kind = kind;
    TaskGroup g;
    g.role = kind == JobKind::Single ? TaskRole::Single : TaskRole::Worker;
    g.replicas = workers;
    g.gpus = gpus;
    j.tasks = {g};
    j.model.name = "resnet18";
    j.model.parameterBytes = 46800000;
    j.model.iterations = 1000;
    j.model.computeSecondsPerIteration = 0.5;
    j.model.localBatch = batch;
    return j;
}

SimOptions simOptions()
{
    SimOptions o;
    o.policy = *builtinPolicy("k8s-default");
    o.seed = 1;
    return o;
}

} // namespace

class TestStepTimes : public QObject
{
    Q_OBJECT

private slots:
    void lookupRules_data()
    {
        QTest::addColumn<QList<int>>("placement");
        QTest::addColumn<int>("batch");
        QTest::addColumn<double>("step");
        QTest::addColumn<double>("sync");
        QTest::addColumn<bool>("exact");
        QTest::newRow("measured point") << QList<int>{1} << 32 << 0.1 << 0.0 << true;
        QTest::newRow("between batches") << QList<int>{1} << 48 << 0.15 << 0.005 << false;
        QTest::newRow("below smallest batch") << QList<int>{1} << 16 << 0.1 << 0.0 << false;
        QTest::newRow("above largest batch") << QList<int>{1} << 128 << 0.2 << 0.01 << false;
        QTest::newRow("no batch stated") << QList<int>{1} << 0 << 0.1 << 0.0 << true;
        QTest::newRow("rotation") << QList<int>{2, 1} << 32 << 0.3 << 0.1 << true;
        QTest::newRow("zero counts dropped") << QList<int>{0, 2, 0, 1} << 32 << 0.3 << 0.1 << true;
        QTest::newRow("grid between replicas")
            << QList<int>{3, 3, 3, 3} << 32 << 1.0 << 0.5 << false;
        QTest::newRow("grid measured") << QList<int>{2, 2, 2, 2} << 32 << 0.8 << 0.4 << true;
        QTest::newRow("grid above replicas") << QList<int>{8, 8, 8, 8} << 32 << 1.2 << 0.6 << false;
        // 1 node, 2 GPUs: no shape {2}; the 1-node grid has only 1 replica (the mean of {1}).
        QTest::newRow("grid clamp to 1 node") << QList<int>{2} << 64 << 0.2 << 0.01 << false;
        // 2 nodes: only {1,2} (3 replicas) was measured with 2 nodes.
        QTest::newRow("grid below replicas") << QList<int>{1, 1} << 32 << 0.3 << 0.1 << false;
        // 3 nodes: 2 and 4 are as near; the smaller wins.
        QTest::newRow("nearest nodes tie") << QList<int>{1, 1, 1} << 32 << 0.3 << 0.1 << false;
    }
    void lookupRules()
    {
        QFETCH(QList<int>, placement);
        QFETCH(int, batch);
        QFETCH(double, step);
        QFETCH(double, sync);
        QFETCH(bool, exact);
        const auto e = lookupStepTime(handTable(), {placement.begin(), placement.end()}, batch);
        QVERIFY(e.has_value());
        QCOMPARE(e->stepSeconds, step);
        QCOMPARE(e->syncSeconds, sync);
        QCOMPARE(e->exact, exact);
    }

    void lookupNothing()
    {
        QVERIFY(!lookupStepTime(handTable(), {}, 32));
        QVERIFY(!lookupStepTime(handTable(), {0, 0}, 32));
        QVERIFY(!lookupStepTime(StepTimeTable{}, {1}, 32));
    }

    void tableProblems()
    {
        StepTimeTable t = handTable();
        QVERIFY(stepTimeProblems(t).empty());
        t.points.push_back(shaped({2, 1}, 32, 0.3, 0.1)); // 5: {1,2} rotated
        t.points.push_back(grid(4, 8, 32, 0.9, 0.1));     // 6: same grid key as 3
        t.points.push_back(shaped({1}, 16, 0, 0));        // 7: zero step
        t.points.push_back(shaped({1}, 8, 0.1, 0.2));     // 8: sync above step
        t.points.push_back(grid(3, 2, 32, 0.1, 0));       // 9: fewer replicas than nodes
        StepTimePoint wrong = shaped({1, 1}, 32, 0.1, 0);
        wrong.replicas = 5; // 10: disagrees with placement
        t.points.push_back(wrong);
        const auto p = stepTimeProblems(t);
        QStringList got;
        for (const auto &[i, m] : p)
            got << QString::number(i) + ": " + QString::fromStdString(m);
        QCOMPARE(got,
                 QStringList({
                     "5: duplicate point (placement 12, local batch 32) first given at index 2",
                     "6: duplicate point (4 nodes, 8 replicas, local batch 32) first given "
                     "at index 3",
                     "7: step time must be a positive number of seconds, found 0",
                     "8: sync time must be between 0 and the step time (0.1 s), found 0.2",
                     "9: expected at least 1 node and at least one replica per node, found "
                     "3 nodes, 2 replicas",
                     "10: nodes and replicas (2, 5) disagree with placement 11",
                 }));
    }

    // The authors' files: every row imports, exact at the measured points.
    void importsPolluxFiles()
    {
        auto r = importFiles(*findImporter("pollux-throughput"), {kPlacements, kScalability});
        QVERIFY2(r.ok(), r.error().c_str());
        QVERIFY2(r->skipped.empty(), skippedText(r.value()).c_str());
        QCOMPARE(int(r->jobs.size()), 0);
        QCOMPARE(int(r->stepTimeModels.size()), 1);
        const StepTimeTable &t = r->stepTimeModels.at("resnet18");
        QCOMPARE(int(t.points.size()), 1183 + 329);
        QCOMPARE(t.source, std::string("Pollux cifar10_placements.csv, cifar10_scalability.csv"));
        QVERIFY(stepTimeProblems(t).empty());
        QVERIFY(
            QString::fromStdString(r->assumptions.front())
                .contains(
                    "model profile \"resnet18\" (from the file name: application "
                    "cifar10; Pollux application cifar10 trains the CIFAR-10 ResNet-18 (11,173,962 "
                    "parameters))"));

        auto at = [&](std::vector<int> p, int b) { return lookupStepTime(t, p, b).value(); };
        QVERIFY(at({1}, 32).stepSeconds == 0.0427886962890625);
        QVERIFY(at({1}, 32).syncSeconds == 0.0004995360016822816);
        QVERIFY(at({1}, 32).exact);
        QCOMPARE(at({2, 1}, 45).stepSeconds, 0.12848591804504395); // row "12,45"
        QCOMPARE(at({4, 4}, 32).stepSeconds, 0.18453335762023926);
        // Between 32 and 45 on one GPU: linear.
        QCOMPARE(at({1}, 40).stepSeconds,
                 0.0427886962890625 + 8.0 / 13.0 * (0.05048525333404541 - 0.0427886962890625));
        // 6 nodes x 1 GPU: no placement row; the scalability row (6, 6, 32).
        QCOMPARE(at({1, 1, 1, 1, 1, 1}, 32).stepSeconds, 0.14090566635131835);
        // 6 nodes, 9 replicas: halfway between (6, 8) and (6, 10).
        QCOMPARE(at({2, 2, 2, 1, 1, 1}, 32).stepSeconds,
                 0.14016461372375488 + 0.5 * (0.16063389778137208 - 0.14016461372375488));
        // 5 nodes x 1 GPU: 4 and 6 nodes are as near, so 4 nodes with 5 replicas ("1112").
        QCOMPARE(at({1, 1, 1, 1, 1}, 32).stepSeconds, 0.12809860706329346);

        // --model names the profile instead of the file name.
        ImportOptions o;
        o.model = "my-cifar";
        auto named = importFiles(*findImporter("pollux-throughput"), {kScalability}, o);
        QVERIFY(named.ok());
        QCOMPARE(int(named->stepTimeModels.at("my-cifar").points.size()), 329);
    }

    // Malformed variants and their documented results (pollux_throughput_importer.h).
    void malformed()
    {
        const std::string clean =
            std::string(kHeader) + "2,64,0.2,0.01\n1,32,0.1,0\n12,32,0.3,0.1\n";
        auto ok = importTexts({{"cifar10_placements.csv", clean}});
        QVERIFY2(ok.ok(), ok.error().c_str());
        const StepTimeTable want = ok->stepTimeModels.at("resnet18");
        QCOMPARE(int(want.points.size()), 3);

        // CRLF, byte-order mark, no final newline: the same table.
        std::string crlf;
        for (char c : clean)
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        std::string bom = "\xEF\xBB\xBF" + clean;
        std::string noFinal = clean.substr(0, clean.size() - 1);
        for (const std::string &variant : {crlf, bom, noFinal}) {
            auto r = importTexts({{"cifar10_placements.csv", variant}});
            QVERIFY2(r.ok(), r.error().c_str());
            QVERIFY(r->skipped.empty());
            QCOMPARE(r->stepTimeModels.at("resnet18"), want);
        }

        // Missing column: nothing imported, file and line 1.
        auto missing =
            importTexts({{"cifar10_placements.csv", "placement,local_bsz,step_time\n1,32,0.1\n"}});
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error(),
                 std::string("cifar10_placements.csv:1: missing column \"sync_time\" in the "
                             "header (found: placement, local_bsz, step_time)"));
        auto neither = importTexts({{"cifar10_placements.csv", "a,b\n1,2\n"}});
        QVERIFY(!neither.ok());
        QVERIFY(QString::fromStdString(neither.error())
                    .startsWith("cifar10_placements.csv:1: expected the header of "
                                "placements.csv"));

        // Bad numbers: those rows skipped with their line; the rest imported.
        auto bad = importTexts(
            {{"cifar10_placements.csv", std::string(kHeader) +
                                            "1,32,abc,0\n1,64,0.2,0.3\n1x,32,0.1,0\n1,0,0.1,0\n"
                                            "1,16,0,0\n2,32,0.2,0.1\n"}});
        QVERIFY2(bad.ok(), bad.error().c_str());
        QCOMPARE(skippedText(bad.value()),
                 std::string("cifar10_placements.csv:2: column step_time: expected a number, "
                             "found \"abc\"\n"
                             "cifar10_placements.csv:3: column sync_time: 0.3 is above the "
                             "step time 0.2 (the step includes the sync)\n"
                             "cifar10_placements.csv:4: column placement: expected digits 1-9 "
                             "(GPUs per node), found \"1x\"\n"
                             "cifar10_placements.csv:5: column local_bsz: 0 is out of range "
                             "[1, 100000000]\n"
                             "cifar10_placements.csv:6: column step_time: must be positive, "
                             "found 0\n"));
        QCOMPARE(int(bad->stepTimeModels.at("resnet18").points.size()), 1);

        // A short row is skipped like in every CSV importer.
        auto shortRow =
            importTexts({{"cifar10_placements.csv", std::string(kHeader) + "1,32\n1,64,0.2,0\n"}});
        QVERIFY(shortRow.ok());
        QCOMPARE(skippedText(shortRow.value()),
                 std::string("cifar10_placements.csv:2: expected 4 fields, found 2\n"));

        // Duplicate key (also after rotating "21" to "12"): nothing imported, both lines.
        auto dup =
            importTexts({{"cifar10_placements.csv",
                          std::string(kHeader) + "12,32,0.3,0.1\n1,32,0.1,0\n21,32,0.4,0.1\n"}});
        QVERIFY(!dup.ok());
        QCOMPARE(dup.error(), std::string("cifar10_placements.csv:4: duplicate point (placement "
                                          "12, local batch 32), first given at "
                                          "cifar10_placements.csv:2"));
        auto dupGrid = importTexts(
            {{"a/cifar10/scalability.csv", "num_nodes,num_replicas,local_bsz,step_time,sync_time\n"
                                           "6,6,32,0.1,0.05\n6,6,32,0.2,0.05\n"}});
        QVERIFY(!dupGrid.ok());
        QCOMPARE(dupGrid.error(), std::string("a/cifar10/scalability.csv:3: duplicate point (6 "
                                              "nodes, 6 replicas, local batch 32), first given "
                                              "at a/cifar10/scalability.csv:2"));

        // Unsorted rows: the same lookups as sorted ones.
        auto unsorted = importTexts(
            {{"cifar10_placements.csv", std::string(kHeader) + "1,64,0.2,0.01\n1,32,0.1,0\n"}});
        QVERIFY(unsorted.ok());
        QCOMPARE(lookupStepTime(unsorted->stepTimeModels.at("resnet18"), {1}, 48)->stepSeconds,
                 0.15);

        // Nothing usable, or no model name to attach to: failures that say so.
        auto none = importTexts({{"cifar10_placements.csv", std::string(kHeader) + "1,32,x,0\n"}});
        QVERIFY(!none.ok());
        // (with the first row skipped and why)
        QVERIFY2(none.error().rfind("cifar10_placements.csv: no usable row: nothing to import "
                                    "(1 row skipped; the first: cifar10_placements.csv:2: ",
                                    0) == 0,
                 none.error().c_str());
        auto anonymous = importTexts({{"times.csv", clean}});
        QVERIFY(!anonymous.ok());
        QVERIFY(QString::fromStdString(anonymous.error()).contains("--model"));
    }

    // Scenario JSON: written, read back equal, written again byte-identical; bad tables are
    // refused with the JSON pointer of the point.
    void scenarioRoundTrip()
    {
        auto r = importFiles(*findImporter("pollux-throughput"), {kPlacements, kScalability});
        QVERIFY(r.ok());
        Scenario s = twoNodes();
        ImportReport rep = r.value();
        addImportedJobs(s, rep);
        s.jobs = {trainingJob("j", JobKind::AllReduce, 2, 4, 32)};
        const std::string text = scenarioToText(s);
        auto back = scenarioFromText(text);
        QVERIFY2(back.ok(), back.error().c_str());
        QCOMPARE(int(back->stepTimeModels.at("resnet18").points.size()), 1512);
        QCOMPARE(back->jobs.front().model.localBatch, 32);
        QVERIFY(back.value() == s);
        QCOMPARE(scenarioToText(back.value()), text);

        // The schema accepts the written file.
        QTemporaryDir dir;
        const QString file = dir.filePath("s.json");
        std::ofstream(file.toStdString()) << text;
        QProcess py;
        py.start("/usr/bin/python3",
                 {"-c",
                  "import json,sys\n"
                  "try:\n import jsonschema\nexcept ImportError:\n print('SKIP'); sys.exit(0)\n"
                  "v=jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))\n"
                  "d=json.load(open(sys.argv[2]))\n"
                  "e=sorted(v.iter_errors(d),key=str)\n"
                  "d['step_time_models']['resnet18']['points'][0]['nodes']=1\n"
                  "bad=list(v.iter_errors(d))\n"
                  "print(e[0].message if e else 'OK' if bad else 'placement+nodes accepted')\n",
                  CB_SOURCE_DIR "/core/io/scenario.schema.json", file});
        QVERIFY(py.waitForFinished(60000));
        const QString out = QString::fromUtf8(py.readAllStandardOutput()).trimmed();
        if (out != "SKIP")
            QCOMPARE(out, QString("OK"));

        // Bad tables in a scenario file: each problem names the point.
        nlohmann::json doc = nlohmann::json::parse(text);
        auto &pts = doc["step_time_models"]["resnet18"]["points"];
        pts[1] = pts[0];
        pts[2]["step_s"] = 0;
        pts[3]["nodes"] = 1;
        auto refused = scenarioFromJson(doc);
        QVERIFY(!refused.ok());
        QCOMPARE(QString::fromStdString(refused.error()),
                 QString("/step_time_models/resnet18/points/3/placement: give either placement "
                         "or nodes and replicas, not both"));
        pts[3].erase("nodes");
        refused = scenarioFromJson(doc);
        QCOMPARE(QString::fromStdString(refused.error()),
                 QString("/step_time_models/resnet18/points/1: duplicate point (placement 1, "
                         "local batch 32) first given at index 0\n"
                         "/step_time_models/resnet18/points/2: step time must be a positive "
                         "number of seconds, found 0\n"
                         "/step_time_models/resnet18/points/2: sync time must be between 0 and "
                         "the step time (0 s), found 0.000508"));
    }

    // The simulator takes the measured step time: iterations x table time, exactly.
    void simulatorUsesMeasuredTime_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("workers");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("batch");
        QTest::addColumn<double>("step");
        QTest::newRow("1 node x 1 GPU, batch 32")
            << int(JobKind::Single) << 1 << 1 << 32 << 0.0427886962890625;
        QTest::newRow("1 GPU, no batch stated: the smallest")
            << int(JobKind::Single) << 1 << 1 << 0 << 0.0427886962890625;
        QTest::newRow("2 nodes x 4 GPUs, batch 45")
            << int(JobKind::AllReduce) << 2 << 4 << 45 << 0.1681447982788086;
    }
    void simulatorUsesMeasuredTime()
    {
        QFETCH(int, kind);
        QFETCH(int, workers);
        QFETCH(int, gpus);
        QFETCH(int, batch);
        QFETCH(double, step);
        auto r = importFiles(*findImporter("pollux-throughput"), {kPlacements, kScalability});
        QVERIFY(r.ok());
        Scenario s = twoNodes();
        s.stepTimeModels = r->stepTimeModels;
        s.jobs = {trainingJob("j", JobKind(kind), workers, gpus, batch)};
        auto run = simulate(s, simOptions());
        QVERIFY2(run.ok(), run.error().c_str());
        const JobRun &j = run->jobs.front();
        // Exact, not approximately: the table's number times the iterations.
        QVERIFY2(*j.jctSeconds() == 1000 * step,
                 qPrintable(QString::number(*j.jctSeconds(), 'g', 17)));
        QVERIFY(j.iterationSeconds == step);
        QVERIFY(j.isolatedSeconds && *j.isolatedSeconds == 1000 * step);
        // Without the table the same job runs on the modelled time (0.5 s compute + comm).
        s.stepTimeModels.clear();
        auto modelled = simulate(s, simOptions());
        QVERIFY(modelled.ok());
        QVERIFY(modelled->jobs.front().iterationSeconds >= 0.5);
    }

    // Issue 8: the progress hook follows the bytes read, never backwards, and ends at 100 %.
    void progressHook()
    {
        QTemporaryDir dir;
        const std::string big = dir.filePath("big_tiresias.csv").toStdString();
        {
            std::ofstream f(big);
            f << "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n";
            for (int i = 0; i < 12000; ++i)
                f << i << "," << 1 + i % 8 << "," << i * 7 << ",1000,vgg16,3600,10\n";
        }
        auto check = [](const std::string &format, const std::vector<std::string> &files,
                        std::size_t expectTotal, int minCalls) {
            std::vector<std::pair<std::size_t, std::size_t>> calls;
            ImportOptions o;
            o.progress = [&](std::size_t done, std::size_t total) {
                calls.push_back({done, total});
            };
            auto r = importFiles(*findImporter(format), files, o);
            QVERIFY2(r.ok(), r.error().c_str());
            QVERIFY2(int(calls.size()) >= minCalls, qPrintable(QString::number(calls.size())));
            for (std::size_t i = 0; i < calls.size(); ++i) {
                QCOMPARE(calls[i].second, expectTotal);
                QVERIFY(calls[i].first <= expectTotal);
                if (i > 0)
                    QVERIFY(calls[i].first >= calls[i - 1].first);
            }
            QCOMPARE(calls.back().first, expectTotal);
        };
        const std::size_t bigSize = std::size_t(QFileInfo(QString::fromStdString(big)).size());
        QVERIFY(bigSize > 4 * 64 * 1024);
        // A CSV larger than 64 KiB reports on the way (once per 64 KiB), then the end.
        check("tiresias", {big}, bigSize, int(bigSize / (64 * 1024)));
        // Two inputs: one running total.
        const std::size_t pair =
            std::size_t(QFileInfo(QString::fromStdString(kPlacements)).size() +
                        QFileInfo(QString::fromStdString(kScalability)).size());
        check("pollux-throughput", {kPlacements, kScalability}, pair, 2);
        // JSON input: reported when parsed.
        const std::string philly =
            CB_TEST_DATA "/import/traces/philly/philly_cluster_job_log_README_example.json";
        check("philly", {philly}, std::size_t(QFileInfo(QString::fromStdString(philly)).size()), 1);
    }

    // The terminal command: attaches the table to a new scenario, then a trace goes into it;
    // no progress bar when stderr is not a terminal.
    void command()
    {
        QTemporaryDir dir;
        const QString s1 = dir.filePath("cifar.json"), s2 = dir.filePath("jobs.json");
        QProcess p;
        p.start(CB_CLUSTERBENCH,
                {"import", "pollux-throughput", QString::fromStdString(kPlacements),
                 QString::fromStdString(kScalability), "--out", s1, "--json"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(!err.contains('\r') && !err.contains("[#"), err.constData());
        const auto j = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(j["step_time_points"]["resnet18"].get<int>(), 1512);
        QCOMPARE(j["written"].get<bool>(), true);

        p.start(CB_CLUSTERBENCH,
                {"import", "pollux", QString::fromStdString(kPollux + "workload-6.csv"),
                 "--cluster", s1, "--out", s2});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        auto loaded = loadScenarioFile(s2.toStdString());
        QVERIFY2(loaded.ok(), loaded.error().c_str());
        QCOMPARE(int(loaded->stepTimeModels.at("resnet18").points.size()), 1512);
        int cifar = 0;
        for (const Job &job : loaded->jobs)
            cifar += job.model.name == "resnet18";
        QVERIFY(cifar > 0);
        // Row 2, "cifar10-0,53,cifar10,6,2048": 2048 samples over 6 replicas, rounded up.
        const Job *first = loaded->job("cifar10-0");
        QVERIFY(first);
        QCOMPARE(first->model.name, std::string("resnet18"));
        QCOMPARE(first->model.localBatch, 342);
        // info counts the table and the jobs that will use it.
        p.start(CB_CLUSTERBENCH, {"info", "--json", s2});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const auto info = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(info["step_time_models"]["resnet18"]["points"].get<int>(), 1512);
        QCOMPARE(info["step_time_models"]["resnet18"]["jobs"].get<int>(), cifar);

        // Bad input: exit 2 with the file and line.
        const QString bad = dir.filePath("cifar10_placements.csv");
        std::ofstream(bad.toStdString()) << "placement,local_bsz\n1,32\n";
        p.start(CB_CLUSTERBENCH,
                {"import", "pollux-throughput", bad, "--out", dir.filePath("x.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("cifar10_placements.csv:1: missing column"));
        QVERIFY(!QFile::exists(dir.filePath("x.json")));
    }
};

QTEST_GUILESS_MAIN(TestStepTimes)
#include "tst_step_times.moc"
