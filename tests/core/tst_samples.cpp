// The sample scenarios users open: every one loads, validates, round-trips byte for byte and
// stays small; the generated ones are reproduced exactly by the commands in
// sample-clusters/README.md. Also the reader of the STS authors' CSV files and the STS
// data-centre setup built from them (tests/data/sts).

#include <QtTest>

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>

#include "io/file_io.h"
#include "io/scenario_json.h"
#include "io/sts_data.h"
#include "io/sts_setup.h"
#include "model/validation.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace cb;

namespace {

const QString kSamples = QStringLiteral(CB_SOURCE_DIR "/sample-clusters");
const std::string kStsDir = CB_TEST_DATA "/sts";

QStringList sampleFiles()
{
    QStringList out;
    QDirIterator it(kSamples, {QStringLiteral("*.json")});
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

std::string readAll(const QString &path)
{
    auto text = readTextFile(path.toStdString());
    return text ? text.value() : std::string();
}

QString problemsText(const Problems &p)
{
    return QString::fromStdString(formatProblems(p));
}

/// The "clusterbench generate ..." lines of the samples README.
QStringList readmeCommands()
{
    QStringList out;
    const QString text = QString::fromStdString(readAll(kSamples + "/README.md"));
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (line.trimmed().startsWith(QLatin1String("clusterbench generate ")))
            out << line.trimmed();
    return out;
}

const StsAuthorsData &stsData()
{
    static const Result<StsAuthorsData> data = loadStsAuthorsData(kStsDir);
    if (!data)
        qFatal("%s", data.error().c_str());
    return data.value();
}

} // namespace

class TestSamples : public QObject
{
    Q_OBJECT

private slots:
    void expectedSamplesExist()
    {
        QStringList names;
        for (const QString &f : sampleFiles())
            names << QFileInfo(f).fileName();
        for (const char *name : {"dltap-testbed.json", "sts-datacenter.json", "leaf-spine-gpu.json",
                                 "dgx-nvlink.json", "fat-tree-1024.json"})
            QVERIFY2(names.contains(QLatin1String(name)), name);
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &f : sampleFiles())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    void roundTrip()
    {
        QFETCH(QString, file);
        const std::string bytes = readAll(file);
        QVERIFY(!bytes.empty());
        QVERIFY2(bytes.size() < 2 * 1024 * 1024, "a sample must stay below 2 MB");
        auto s = loadScenarioFile(file.toStdString());
        QVERIFY2(s.ok(), s.error(file.toStdString()).c_str());
        QVERIFY(validateScenario(s.value()).empty());
        QVERIFY(!s->name.empty());
        QVERIFY2(s->description.size() > 40, "a sample says what it is and where it comes from");
        // Canonical: saving what was loaded gives the same bytes.
        QVERIFY2(scenarioToText(s.value()) == bytes, "not canonical: save(load(x)) != x");
    }

    void largeSampleSize()
    {
        auto s = loadScenarioFile((kSamples + "/fat-tree-1024.json").toStdString());
        QVERIFY(s.ok());
        QCOMPARE(s->cluster.nodes.size(), std::size_t(1024));
        QCOMPARE(s->cluster.switches.size(), std::size_t(320));
        QVERIFY(s->jobs.size() >= 200);
    }

    void readmeReproducesSamples_data()
    {
        QTest::addColumn<QString>("command");
        const QStringList commands = readmeCommands();
        for (const QString &c : commands)
            QTest::newRow(qPrintable(c.section(QLatin1String("--out "), 1).section(' ', 0, 0)))
                << c;
    }

    void readmeReproducesSamples()
    {
        QFETCH(QString, command);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QStringList args = command.split(QLatin1Char(' '), Qt::SkipEmptyParts).mid(1);
        QString target;
        for (int i = 0; i + 1 < args.size(); ++i) {
            if (args[i] == QLatin1String("--out")) {
                target = QStringLiteral(CB_SOURCE_DIR "/") + args[i + 1];
                args[i + 1] = tmp.filePath(QStringLiteral("out.json"));
            } else if (args[i] == QLatin1String("--data")) {
                args[i + 1] = QStringLiteral(CB_SOURCE_DIR "/") + args[i + 1];
            }
        }
        QVERIFY(!target.isEmpty());
        QProcess p;
        p.start(QStringLiteral(CB_CLUSTERBENCH), args);
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY2(readAll(tmp.filePath(QStringLiteral("out.json"))) == readAll(target),
                 qPrintable(target + " differs from what its README command generates"));
    }

    void readmeCoversGeneratedSamples()
    {
        const QString all = readmeCommands().join(QLatin1Char('\n'));
        for (const char *name : {"sts-datacenter.json", "leaf-spine-gpu.json", "dgx-nvlink.json",
                                 "fat-tree-1024.json", "nvl72-8racks.json"})
            QVERIFY2(all.contains(QLatin1String(name)), name);
    }

    // --- the STS authors' files ---

    void stsFiles()
    {
        const StsAuthorsData &d = stsData();
        QCOMPARE(d.templates.size(), std::size_t(15));
        const StsJobTemplate &j1 = d.templates.front();
        QCOMPARE(j1.id, std::string("J1"));
        QCOMPARE(j1.application, std::string("pytorch_alexnet"));
        QCOMPARE(j1.epochs, 500);
        QCOMPARE(j1.batchSize, 128);
        QCOMPARE(j1.images, std::int64_t(130000));
        QCOMPARE(j1.memoryGB, 4.0);
        QCOMPARE(j1.line, 2);
        QCOMPARE(j1.times.size(), std::size_t(32)); // 4 GPU types x 1..8 GPUs
        QCOMPARE(j1.times[0].gpuType, std::string("GTX1080Ti"));
        QCOMPARE(j1.times[0].gpus, 1);
        QCOMPARE(j1.times[0].seconds, 65225.02202999999);
        QCOMPARE(j1.times[2].gpuType, std::string("K80"));
        QCOMPARE(j1.times[2].seconds, 84777.89652000001);
        QCOMPARE(d.templates[1].id, std::string("J10"));
        std::set<std::string> ids;
        for (const StsJobTemplate &t : d.templates)
            ids.insert(t.id);
        QVERIFY(!ids.count("J13")); // the authors filtered J13 out

        QCOMPARE(d.distributions.size(), std::size_t(6));
        QVERIFY(d.distributions.count("TF_alexnet")); // the byte-order mark is not in the name
        for (const auto &[name, pmf] : d.distributions) {
            QCOMPARE(pmf.size(), std::size_t(100));
            double sum = 0;
            for (double x : pmf)
                sum += x;
            QVERIFY(std::fabs(sum - 1) < 1e-9);
        }
        QCOMPARE(d.distributions.at("PY")[10], 0.037037037037037);

        QCOMPARE(d.prices.size(), std::size_t(11));
        QCOMPARE(stsPricePerGpu(d.prices, "K80"), 0.56);
        QCOMPARE(stsPricePerGpu(d.prices, "M60"), 0.62);
        QCOMPARE(stsPricePerGpu(d.prices, "QuadroP600"), 0.44 / 8);
        QCOMPARE(stsPricePerGpu(d.prices, "A100"), 0.0);
        QCOMPARE(d.energy.pricePerKWh, 0.17168313);
        QCOMPARE(d.energy.pue, 1.33);
    }

    void stsMalformed_data()
    {
        QTest::addColumn<QString>("parser");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString header =
            QStringLiteral(",Unnamed: 0,Application,Images,Epochs,Batchsize,Jobs,GpuType,GpuNumber,"
                           "ExecutionTime,min,max,Memory\n");
        const QString row = QStringLiteral("0,0,pytorch_alexnet,130000,500,128,J1,K80,1,"
                                           "84777.9,19585.1,226670.1,4\n");
        QTest::newRow("time not a number")
            << "templates"
            << header + row + "1,1,pytorch_alexnet,130000,500,128,J1,K80,2,abc,19585.1,226670.1,4\n"
            << "t.csv:3: column ExecutionTime: expected a number, found \"abc\"";
        QTest::newRow("short row")
            << "templates"
            << header + "0,0,pytorch_alexnet,130000,500,128,J1,K80,1,84777.9,19585.1,4\n"
            << "t.csv:2: expected 13 fields, found 12";
        QTest::newRow("zero GPUs")
            << "templates" << header + "0,0,pytorch_alexnet,130000,500,128,J1,K80,0,84777.9,1,2,4\n"
            << "t.csv:2: column GpuNumber: 0 is out of range [1, 4096]";
        QTest::newRow("missing column")
            << "templates" << QStringLiteral("Application,Images,Epochs\nx,1,2\n")
            << "t.csv:1: missing columns \"Batchsize\", \"Jobs\", \"GpuType\", \"GpuNumber\", "
               "\"ExecutionTime\", \"Memory\" in the header (found: Application, Images, Epochs)";
        QTest::newRow("template changes epochs")
            << "templates"
            << header + row +
                   "1,1,pytorch_alexnet,130000,600,128,J1,K80,2,80000,19585.1,226670.1,4\n"
            << "t.csv:3: job template J1 changes its application, images, epochs or batch size "
               "(first given on line 2)";
        QTest::newRow("duplicate configuration")
            << "templates" << header + row + row
            << "t.csv:3: job template J1 has a second execution time for 1 x K80";
        QTest::newRow("no templates") << "templates" << header
                                      << "t.csv: no job templates (expected rows after the "
                                         "header)";
        QString dist = QStringLiteral("\xEF\xBB\xBF"
                                      "A,B\r\n");
        for (int i = 0; i < 99; ++i)
            dist += QStringLiteral("0.0,0.0\r\n");
        QTest::newRow("99 rows") << "distributions" << dist
                                 << "d.csv: expected 100 rows (the pmf over 1..100 % of the max "
                                    "epochs), found 99";
        QString bad = QStringLiteral("A,B\n");
        for (int i = 0; i < 100; ++i)
            bad += i == 3 ? QStringLiteral("x,0.5\n") : QStringLiteral("0.01,0.01\n");
        QTest::newRow("not a probability")
            << "distributions" << bad << "d.csv:5: column A: expected a number, found \"x\"";
        QTest::newRow("empty cost") << "prices"
                                    << "VMtype,GPUtype,nGPUs,cost\nStandard_NC6,K80,1,\n"
                                    << "p.csv:2: column cost is empty (expected a number)";
        QTest::newRow("no energy column") << "energy"
                                          << "GPUtype,nGPUs,PUE\nTESLA,1,1.33\n"
                                          << "e.csv:1: missing column \"EnergyCost[...]\" in "
                                             "the header";
        QTest::newRow("PUE below 1") << "energy"
                                     << "GPUtype,EnergyCost[EUR/kWh],PUE\nTESLA,0.17,0.9\n"
                                     << "e.csv:2: column PUE: 0.9 is out of range [1, 10]";
    }

    void stsMalformed()
    {
        QFETCH(QString, parser);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const std::string t = text.toStdString();
        Problems problems;
        if (parser == QLatin1String("templates")) {
            auto r = parseStsJobTemplates(t, "t.csv");
            QVERIFY(!r.ok());
            problems = r.problems();
        } else if (parser == QLatin1String("distributions")) {
            auto r = parseStsDistributions(t, "d.csv");
            QVERIFY(!r.ok());
            problems = r.problems();
        } else if (parser == QLatin1String("prices")) {
            auto r = parseStsGpuPrices(t, "p.csv");
            QVERIFY(!r.ok());
            problems = r.problems();
        } else {
            auto r = parseStsEnergyCost(t, "e.csv");
            QVERIFY(!r.ok());
            problems = r.problems();
        }
        QCOMPARE(problemsText(problems), expected);
    }

    void stsMissingFolder()
    {
        auto r = loadStsAuthorsData(CB_TEST_DATA "/no-such-folder");
        QVERIFY(!r.ok());
        QVERIFY(r.problems().size() == 4);
        QVERIFY(r.error().find("no-such-folder/data_2d10d_filtered.csv") != std::string::npos);
    }

    // --- the STS data-centre setup ---

    void stsSetup_data()
    {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("seed");
        QTest::newRow("10 nodes seed 1") << 10 << 1;
        QTest::newRow("10 nodes seed 2") << 10 << 2;
        QTest::newRow("20 nodes seed 5") << 20 << 5;
        QTest::newRow("3 nodes seed 9") << 3 << 9;
    }

    void stsSetup()
    {
        QFETCH(int, nodes);
        QFETCH(int, seed);
        StsSetupParams p;
        p.nodes = nodes;
        p.seed = std::uint64_t(seed);
        auto s = buildStsScenario(stsData(), p);
        QVERIFY2(s.ok(), s.error().c_str());
        QVERIFY2(validateScenario(s.value()).empty(),
                 qPrintable(problemsText(validateScenario(s.value()))));
        QCOMPARE(int(s->cluster.nodes.size()), nodes);
        for (int i = 0; i < nodes; ++i) {
            const Node &n = s->cluster.nodes[std::size_t(i)];
            QCOMPARE(n.gpus, 8);
            QCOMPARE(n.gpuType, std::string(i % 2 == 0 ? "K80" : "M60"));
        }
        QCOMPARE(s->cluster.gpuType("K80")->pricePerHour, 0.56);
        QCOMPARE(s->cluster.gpuType("M60")->pricePerHour, 0.62);
        QCOMPARE(s->settings.pue, 1.33);
        QCOMPARE(s->settings.seed, std::uint64_t(seed));
        QCOMPARE(s->distributions, stsData().distributions);
        QCOMPARE(int(s->jobs.size()), nodes * 10 + 1);
        QCOMPARE(s->jobs[0].submitSeconds, 0.0);
        std::set<std::string> terminations;
        for (std::size_t i = 0; i < s->jobs.size(); ++i) {
            const Job &j = s->jobs[i];
            if (i > 0)
                QVERIFY(j.submitSeconds >= s->jobs[i - 1].submitSeconds);
            QVERIFY(j.sts);
            QCOMPARE(j.sts->executionTimes.size(), std::size_t(16)); // K80 and M60, 1..8
            double lo = INFINITY, hi = 0;
            for (const ExecutionTime &e : j.sts->executionTimes) {
                QVERIFY(e.gpuType == "K80" || e.gpuType == "M60");
                lo = std::min(lo, e.seconds);
                hi = std::max(hi, e.seconds);
            }
            const double slack = *j.dueSeconds - j.submitSeconds;
            QVERIFY(slack >= lo - 1e-3 && slack <= hi + 1e-3);
            QVERIFY(j.tardinessWeight >= 0.02537 && j.tardinessWeight <= 0.04440);
            QVERIFY(j.sts->maxEpochs == 500 || j.sts->maxEpochs == 1000 ||
                    j.sts->maxEpochs == 1500 || j.sts->maxEpochs == 2000);
            terminations.insert(j.sts->termination);
            QCOMPARE(j.model.parameterBytes, std::int64_t(244403360)); // AlexNet, FP32
        }
        if (nodes >= 10)
            QCOMPARE(terminations.size(), std::size_t(6));
        // Mean inter-arrival 50000 / N: with 10 N gaps the sample mean is within 30 %.
        const double meanGap = s->jobs.back().submitSeconds / (nodes * 10);
        QVERIFY2(std::fabs(meanGap / (50000.0 / nodes) - 1) < 0.3,
                 qPrintable(QString::number(meanGap)));
    }

    void stsSetupDeterministic()
    {
        StsSetupParams p;
        auto a = buildStsScenario(stsData(), p);
        auto b = buildStsScenario(stsData(), p);
        p.seed = 2;
        auto c = buildStsScenario(stsData(), p);
        QVERIFY(a.ok() && b.ok() && c.ok());
        QVERIFY(scenarioToText(a.value()) == scenarioToText(b.value()));
        QVERIFY(!(a->jobs == c->jobs));
    }

    void stsSetupRejects()
    {
        StsAuthorsData data = stsData();
        data.templates[2].times.erase(
            std::remove_if(data.templates[2].times.begin(), data.templates[2].times.end(),
                           [](const ExecutionTime &e) { return e.gpuType == "M60"; }),
            data.templates[2].times.end());
        StsSetupParams p;
        p.nodes = 0;
        auto s = buildStsScenario(data, p);
        QVERIFY(!s.ok());
        QCOMPARE(problemsText(s.problems()),
                 QStringLiteral("nodes: expected an integer from 1 to 10000, found 0"));
        p.nodes = 10;
        s = buildStsScenario(data, p);
        QVERIFY(!s.ok());
        QCOMPARE(problemsText(s.problems()),
                 QStringLiteral("data: job template J11 (line 66) has no execution time for GPU "
                                "type M60"));
    }
};

QTEST_GUILESS_MAIN(TestSamples)
#include "tst_samples.moc"
