// Trace importers on the real files as their authors publish them: the Pollux Philly trace
// with its date-time timestamps, Alibaba GPU 2023 pod lists with and without time columns
// (and pending pods), Gavel jobs at Gavel's measured throughputs, Tiresias's older trace
// layout; how time columns are detected and overridden; and every model name these traces
// use either mapped to a catalogue model or reported.

#include "io/import/csv_reader.h"
#include "io/import/gavel_throughputs.h"
#include "io/import/import_into_scenario.h"
#include "io/import/importer_registry.h"
#include "io/import/model_catalog.h"
#include "io/import/text_fields.h"
#include "io/import/time_column.h"
#include "tst_import_fixtures.h"

#include <QDir>
#include <QtTest>

#include <set>

using namespace cb;

namespace {

const std::string &kData = cbtest::kImportData;

using cbtest::importData;
using cbtest::importNotes;
using cbtest::importNotesHave;

const Job *jobById(const ImportReport &r, const std::string &id)
{
    for (const Job &j : r.jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

} // namespace

class TestImportTraces : public QObject
{
    Q_OBJECT

private slots:
    // The Pollux authors' Philly trace (adaptdl osdi21-artifact simulator/traces/philly.csv):
    // date-time timestamps, rows out of time order; every row imports.
    void polluxPhillyWithDateTimes()
    {
        auto r = importData("philly-pollux", {"traces/pollux/philly_osdi21_head200.csv"});
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->rowsRead, std::size_t(200));
        QCOMPARE(r->jobs.size(), std::size_t(200));
        QCOMPARE(r->skippedCount, std::size_t(0));
        QVERIFY2(importNotesHave(r.value(),
                                 "column timestamp: date-time without a zone (read as UTC), "
                                 "detected from line 2 (\"2017-10-09 07:01:55\")"),
                 importNotes(r.value()).c_str());
        // The earliest of the 200 rows is 2017-09-29 07:58:32 (found by hand in the file).
        QVERIFY(importNotesHave(r.value(),
                                "times rebased: the first submission (2017-09-29 07:58:32 UTC) "
                                "is at 0 s"));
        // Line 2: 2017-10-09 07:01:55, 66.0 s on 1 GPU: 10 days less 56 min 37 s after the
        // first, 660 iterations of 0.1 s.
        const Job *j = jobById(r.value(), "philly-2");
        QVERIFY(j);
        QCOMPARE(j->submitSeconds, 864000.0 - 3397.0);
        QCOMPARE(qint64(j->model.iterations), qint64(660));
        QCOMPARE(j->gpuCount(), 1);
        // The last 20 rows, and the file's trailing empty line (not a row).
        auto tail = importData("philly-pollux", {"traces/pollux/philly_osdi21_tail20.csv"});
        QVERIFY2(tail.ok(), tail.error().c_str());
        QCOMPARE(tail->rowsRead, std::size_t(20));
        QCOMPARE(tail->jobs.size(), std::size_t(20));
        QCOMPARE(tail->skippedCount, std::size_t(0));
        // The 4-GPU row "2017-11-02 05:43:55,528732.0,4" is the first: an all-reduce job of
        // four one-GPU workers, 5,287,320 iterations.
        QCOMPARE(tail->jobs.front().kind, JobKind::AllReduce);
        QCOMPARE(tail->jobs.front().tasks.front().replicas, 4);
        QCOMPARE(qint64(tail->jobs.front().model.iterations), qint64(5287320));
    }

    // Each time column's format is detected from its first value, or named.
    void timeColumns_data()
    {
        QTest::addColumn<QString>("format"); // --time-format value, "" for none
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<double>("firstSeconds");
        QTest::addColumn<double>("secondSeconds");
        QTest::addColumn<QString>("described");
        // 2017-10-09 07:01:55 UTC is 1507532515 s after 1970.
        QTest::newRow("date-time") << ""
                                   << "2017-10-09 07:01:55"
                                   << "2017-10-09 07:02:05" << 1507532515.0 << 1507532525.0
                                   << "date-time without a zone (read as UTC)";
        QTest::newRow("ISO with zones") << ""
                                        << "2017-10-09T07:01:55Z"
                                        << "2017-10-09T00:02:05-07:00" << 1507532515.0
                                        << 1507532525.0 << "date-time with a time zone";
        QTest::newRow("US zone abbreviation") << ""
                                              << "2017-10-09 00:01:55 PDT"
                                              << "2017-10-09 00:02:05 PDT" << 1507532515.0
                                              << 1507532525.0 << "date-time with a time zone";
        QTest::newRow("epoch seconds")
            << ""
            << "1507532515"
            << "1507532525.5" << 1507532515.0 << 1507532525.5 << "seconds since 1970 (epoch)";
        QTest::newRow("epoch milliseconds")
            << ""
            << "1507532515000"
            << "1507532525000" << 1507532515.0 << 1507532525.0 << "milliseconds since 1970 (epoch)";
        QTest::newRow("relative seconds")
            << ""
            << "0"
            << "30" << 0.0 << 30.0 << "seconds from the trace's start";
        QTest::newRow("named minutes")
            << "t=minutes"
            << "2"
            << "3" << 120.0 << 180.0
            << "minutes from the trace's start (--time-format, or the mapping's time_format)";
        QTest::newRow("named for all columns")
            << "hours"
            << "1"
            << "2" << 3600.0 << 7200.0 << "hours from the trace's start";
    }
    void timeColumns()
    {
        QFETCH(QString, format);
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(double, firstSeconds);
        QFETCH(double, secondSeconds);
        QFETCH(QString, described);
        TimeFormats formats;
        if (!format.isEmpty())
            QVERIFY(formats.add(format.toStdString()).ok());
        TimeColumn c("t", formats);
        std::string error;
        QCOMPARE(c.read(first.toStdString(), 2, &error).value_or(-1), firstSeconds);
        QCOMPARE(c.read(second.toStdString(), 3, &error).value_or(-1), secondSeconds);
        QVERIFY2(QString::fromStdString(c.describe()).contains(described), c.describe().c_str());
        // A value of another kind than the column's first names the column's format.
        const bool dates = described.contains("date-time");
        QVERIFY(!c.read(dates ? "12" : "yesterday", 4, &error));
        QVERIFY2(QString::fromStdString(error).contains(dates ? "expected a date-time"
                                                              : "expected a number of"),
                 error.c_str());
    }

    void timeFormatNames()
    {
        TimeFormats f;
        const Status bad = f.add("submit=fortnights");
        QVERIFY(!bad.ok());
        QCOMPARE(QString::fromStdString(bad.error()),
                 QString("--time-format: expected FORMAT or COLUMN=FORMAT with FORMAT one of "
                         "auto, datetime, epoch, epoch-ms, seconds, ms, minutes, hours, found "
                         "\"submit=fortnights\""));
        QCOMPARE(importtext::formatDateTime(1507532515), std::string("2017-10-09 07:01:55"));
    }

    // Pods that never started are named and left out, or kept waiting with --pending wait.
    void alibabaPendingPods()
    {
        auto r = importData("alibaba-gpu2023", {"malformed/alibaba2023_pending.csv"});
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->jobs.size(), std::size_t(4));
        QCOMPARE(r->skippedCount, std::size_t(2));
        QCOMPARE(QString::fromStdString(r->skipGroups.front().reason),
                 QString("never started (pending): left out, --pending wait keeps them"));
        QVERIFY(importNotesHave(r.value(),
                                "alibaba2023_pending.csv:4: pod \"openb-pod-0002\" never started "
                                "(Pending, no scheduled_time): left out (--pending wait keeps "
                                "it)"));
        ImportOptions wait;
        wait.pending = PendingJobs::Wait;
        auto kept = importData("alibaba-gpu2023", {"malformed/alibaba2023_pending.csv"}, wait);
        QVERIFY2(kept.ok(), kept.error().c_str());
        QCOMPARE(kept->jobs.size(), std::size_t(6));
        const Job *p = jobById(kept.value(), "openb-pod-0002");
        QVERIFY(p);
        QCOMPARE(p->submitSeconds, 1558381.0); // its creation_time (the first pod's is 0)
        QCOMPARE(qint64(p->model.iterations), qint64(1000)); // the default length
        QVERIFY(importNotesHave(kept.value(),
                                "2 jobs never started (pending): kept waiting from their "
                                "submit time (--pending wait)"));
    }

    // A Helios job cancelled before it started has no start_time and a duration of 0: it
    // never ran, so it is left out like one with no duration at all (it had been kept as a
    // job of one iteration).
    void heliosCancelledBeforeStart()
    {
        auto r = importData("helios", {"malformed/helios_cancelled.csv"});
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->jobs.size(), std::size_t(1));
        QCOMPARE(r->jobs[0].id, std::string("1"));
        QCOMPARE(r->skippedCount, std::size_t(1));
        QVERIFY(importNotesHave(r.value(), "helios_cancelled.csv:3: job \"4\" never started (no "
                                           "start_time): left out (--pending wait keeps it)"));
        ImportOptions wait;
        wait.pending = PendingJobs::Wait;
        auto kept = importData("helios", {"malformed/helios_cancelled.csv"}, wait);
        QVERIFY2(kept.ok(), kept.error().c_str());
        QCOMPARE(kept->jobs.size(), std::size_t(2));
    }

    // The pod lists without time columns (multigpu20/30/40/50) import with every pod at 0 s.
    void alibabaPodsWithoutTimes()
    {
        auto r = importData("alibaba-gpu2023",
                            {"traces/alibaba-gpu2023/openb_pod_list_multigpu20_head50.csv"});
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->jobs.size(), std::size_t(50));
        QCOMPARE(r->skippedCount, std::size_t(0));
        for (const Job &j : r->jobs)
            QCOMPARE(j.submitSeconds, 0.0);
        QVERIFY(importNotesHave(r.value(), "50 pods come from a pod list without time columns"));
        // The full layout: durations from scheduled_time to deletion_time; row 2 runs
        // 12537496 - 0 s; row 3 "460" gpu_milli is 0.46 of a GPU.
        auto timed = importData("alibaba-gpu2023",
                                {"traces/alibaba-gpu2023/openb_pod_list_default_head50.csv"});
        QVERIFY2(timed.ok(), timed.error().c_str());
        QCOMPARE(timed->jobs.size(), std::size_t(50));
        const Job *first = jobById(timed.value(), "openb-pod-0000");
        QCOMPARE(qint64(first->model.iterations), qint64(125374960));
        QCOMPARE(jobById(timed.value(), "openb-pod-0001")->tasks.front().gpuFraction, 0.46);
    }

    // gpu_spec names a GPU model; a cluster GPU type of the same model meets it.
    void alibabaGpuSpecMatchesTheCluster()
    {
        auto r = importData("alibaba-gpu2023",
                            {"traces/alibaba-gpu2023/openb_pod_list_gpuspec33_head50.csv"});
        QVERIFY2(r.ok(), r.error().c_str());
        std::set<std::string> specs;
        for (const Job &j : r->jobs)
            if (!j.tasks.front().gpuType.empty())
                specs.insert(j.tasks.front().gpuType);
        QVERIFY(!specs.empty());
        Scenario s;
        s.cluster = defaultImportCluster("V100");
        ImportReport rep = r.value();
        QVERIFY(addImportedJobs(s, rep));
        // Line 19's pod asks for 88 CPUs; the default nodes have 64.
        QCOMPARE(s.jobs.size(), std::size_t(49));
        QCOMPARE(rep.skipped.front().line, 19);
        for (const Job &j : s.jobs)
            QVERIFY2(j.tasks.front().gpuType.empty() || j.tasks.front().gpuType == "V100",
                     j.tasks.front().gpuType.c_str());
    }

    // The built-in table is Gavel's simulation_throughputs.json, row for row (the copy in
    // tests/data holds each key's run-alone value).
    void gavelBuiltinTableIsGavels()
    {
        auto rows = CsvReader().read(
            [] {
                ImportInput in;
                in.name = in.path =
                    kData + "traces/gavel/simulation_throughputs_isolated.DERIVED.csv";
                return in.wholeText().value();
            }(),
            "derived.csv");
        QVERIFY(rows.ok());
        const GavelThroughputs t = GavelThroughputs::builtin();
        int compared = 0;
        for (std::size_t i = 1; i < rows.value().size(); ++i) {
            const auto &f = rows.value()[i].fields;
            if (f[0].find("unconsolidated") != std::string::npos)
                continue;
            const auto v = t.find(f[0], f[1], int(*importtext::parseInteger(f[2])));
            QVERIFY2(v, (f[0] + " " + f[1] + " " + f[2]).c_str());
            QCOMPARE(*v, *importtext::parseNumber(f[3]));
            ++compared;
        }
        QCOMPARE(compared, 249);
        QCOMPARE(int(t.size()), 249);
    }

    // Gavel jobs run at Gavel's measured throughputs: the physical_cluster small test's first
    // job is "Transformer (batch size 128)", 346 steps on 2 GPUs, arriving at 0: 173
    // two-GPU iterations of 2 / 10.069238394742342 s on a V100 (the table's value).
    void gavelMeasuredTimes()
    {
        ImportOptions k80;
        k80.gpuType = "K80";
        auto r = importData("gavel", {"traces/gavel/physical_cluster_small_test.trace"}, k80);
        QVERIFY2(r.ok(), r.error().c_str());
        const Job &j = r->jobs.front();
        QCOMPARE(QString::fromStdString(j.name), QString("Transformer (batch size 128)"));
        QCOMPARE(QString::fromStdString(j.model.name), QString("transformer"));
        QCOMPARE(qint64(j.model.iterations), qint64(173));
        QCOMPARE(j.model.computeSecondsPerIteration, 2.0 / 10.069238394742342);
        QCOMPARE(j.model.computeSecondsByGpuType.at("V100"), 2.0 / 10.069238394742342);
        QVERIFY(j.model.computeSecondsByGpuType.count("K80"));
        QVERIFY(j.model.computeSecondsByGpuType.count("P100"));
        // On a K80 cluster only the K80 time stays, under the cluster's name for it.
        Scenario s;
        s.cluster = defaultImportCluster("K80");
        ImportReport rep = r.value();
        QVERIFY(addImportedJobs(s, rep));
        QCOMPARE(s.jobs.front().model.computeSecondsByGpuType.size(), std::size_t(1));
        QVERIFY(s.jobs.front().model.computeSecondsByGpuType.count("K80"));
        QVERIFY2(importNotesHave(
                     rep, "measured times per GPU type used for the cluster's K80; not used (no "
                          "such GPU in the cluster): P100, V100"),
                 importNotes(rep).c_str());
        // A user's own throughputs file (combined_throughputs.json's shape: bare job names,
        // scale factor 1) replaces the table.
        QTemporaryDir dir;
        const QString file = dir.filePath("mine.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"json({"v100": {"Transformer (batch size 128)": {"null": 4.0}}})json");
        f.close();
        ImportOptions own;
        own.throughputsFile = file.toStdString();
        auto mine = importData("gavel", {"traces/gavel/physical_cluster_small_test.trace"}, own);
        QVERIFY2(mine.ok(), mine.error().c_str());
        // Transformer at scale 1 only: the first job (scale 2) takes the one-GPU step time,
        // 1 / 4.0 s per iteration on a V100 (the network adds the exchange), not 2 / 4.0 and
        // not the reference 0.1 s; the other job types are not in the file at all.
        QCOMPARE(mine->jobs.front().model.computeSecondsByGpuType.size(), std::size_t(1));
        QCOMPARE(mine->jobs.front().model.computeSecondsByGpuType.at("V100"), 0.25);
        QVERIFY2(importNotesHave(mine.value(),
                                 "measured on one GPU only: Transformer (batch size 128) at "
                                 "scale 2"),
                 importNotes(mine.value()).c_str());
        QVERIFY2(importNotesHave(mine.value(), "no measured throughput for"),
                 importNotes(mine.value()).c_str());
    }

    // Every model name in the Gavel, Tiresias and Pollux traces of tests/data maps to a
    // catalogue model, or is known to have no size (and is reported so).
    void everyTraceModelIsKnown()
    {
        std::set<std::string> names;
        for (const QString &f :
             QDir(QString::fromStdString(kData + "traces/gavel")).entryList({"*.trace"})) {
            auto r = importData("gavel", {"traces/gavel/" + f.toStdString()});
            QVERIFY(r.ok());
            for (const Job &j : r->jobs)
                names.insert(j.name);
        }
        for (const std::string f : {"60_job.csv", "tf_job.csv"}) {
            ImportInput in;
            in.name = in.path = kData + "traces/tiresias/" + f;
            auto rows = CsvReader().read(in.wholeText().value(), f);
            for (std::size_t i = 1; i < rows.value().size(); ++i)
                names.insert(rows.value()[i].fields[f == std::string("60_job.csv") ? 4 : 7]);
        }
        for (const std::string f : {"workload-6.csv", "workloads-realistic_workload-6.csv"}) {
            ImportInput in;
            in.name = in.path = kData + "traces/pollux/" + f;
            auto rows = CsvReader().read(in.wholeText().value(), f);
            for (std::size_t i = 1; i < rows.value().size(); ++i)
                names.insert(rows.value()[i].fields[2]);
        }
        QVERIFY(names.size() >= 20);
        std::string unknown;
        int unsized = 0;
        for (const std::string &n : names) {
            if (findKnownModel(n.starts_with("ResNet-18") ? "resnet18-cifar10" : n))
                continue;
            if (!findModelSizeNote(n).empty()) {
                ++unsized;
                continue;
            }
            unknown += n + "; ";
        }
        QVERIFY2(unknown.empty(), unknown.c_str());
        // Gavel's "Recommendation (batch size 8192)" and Pollux's deepspeech2.
        QCOMPARE(unsized, 2);
        // The unsized ones are reported with the reason.
        auto rec = importData("gavel", {"traces/gavel/msr_seed0_23dbec.trace"});
        QVERIFY2(importNotesHave(rec.value(),
                                 "\"Recommendation (batch size 8192)\" (1 job): its size "
                                 "depends on the item count"),
                 importNotes(rec.value()).c_str());
    }

    // Tiresias's older layout (job_id, num_gpu, submit_time, start_time, duration, ...): two
    // identical rows are one job and a reported duplicate.
    void tiresiasOlderLayout()
    {
        auto r = importData("tiresias", {"traces/tiresias/tf_job.csv"});
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->jobs.size(), std::size_t(1));
        QCOMPARE(r->skippedCount, std::size_t(1));
        QVERIFY(
            importNotesHave(r.value(), "tf_job.csv:3: duplicate job id \"10\" (first at line 2)"));
        // 12 GPUs, 20 s: 200 iterations on the default 0.1 s.
        QCOMPARE(r->jobs.front().gpuCount(), 12);
        QCOMPARE(qint64(r->jobs.front().model.iterations), qint64(200));
        QCOMPARE(QString::fromStdString(r->jobs.front().model.name), QString("vgg19"));
    }
};

QTEST_GUILESS_MAIN(TestImportTraces)
#include "tst_import_traces.moc"
