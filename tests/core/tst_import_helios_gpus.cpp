// The helios-gpus importer on the real Helios Venus file (daily GPUs per virtual cluster,
// April to September 2020) and on malformed variants of it: CRLF, no final newline, BOM,
// a missing column, a bad number, a wrong total, days out of order and repeated.

#include "io/import/importer_registry.h"

#include <QtTest>

#include <set>

using namespace cb;

namespace {

const std::string kData = CB_TEST_DATA "/import/";
const std::string kVenus = kData + "traces/helios/helios_venus_cluster_gpu_number.csv";

Result<ImportReport> import(const std::string &file, const std::string &date = {})
{
    ImportOptions options;
    options.date = date;
    return importFiles(*findImporter("helios-gpus"), {file}, options);
}

bool hasNote(const std::vector<ImportNote> &notes, const std::string &text)
{
    for (const ImportNote &n : notes)
        if (n.toString().find(text) != std::string::npos)
            return true;
    return false;
}

bool hasAssumption(const ImportReport &r, const std::string &text)
{
    for (const std::string &a : r.assumptions)
        if (a.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestImportHeliosGpus : public QObject
{
    Q_OBJECT

private slots:
    void lastDayOfVenus()
    {
        auto r = import(kVenus);
        QVERIFY2(r.ok(), r.error().c_str());
        QVERIFY(r->skipped.empty());
        const Cluster &c = *r->cluster;
        // 2020-09-28: 1,080 GPUs in 16 of the 25 virtual clusters, 8 per node.
        QCOMPARE(c.totalGpus(), 1080);
        QCOMPARE(c.nodes.size(), std::size_t(135));
        std::set<std::string> partitions;
        for (const Node &n : c.nodes) {
            QCOMPARE(n.gpus, 8);
            partitions.insert(n.partition);
        }
        QCOMPARE(partitions.size(), std::size_t(16));
        // vcJsw holds 256 GPUs that day: 32 nodes vcJsw-000 .. vcJsw-031.
        int jsw = 0;
        for (const Node &n : c.nodes)
            jsw += n.partition == "vcJsw";
        QCOMPARE(jsw, 32);
        QVERIFY(c.node("vcJsw-031") && !c.node("vcJsw-032"));
        // A switch per virtual cluster under one core switch; every node linked once.
        QCOMPARE(c.switches.size(), std::size_t(17));
        QCOMPARE(c.links.size(), std::size_t(135 + 16));
        QVERIFY(hasAssumption(r.value(), "as on 2020-09-28, the last day in the file"));
        QVERIFY(hasAssumption(r.value(), "9 virtual clusters have no GPU on 2020-09-28"));
        QVERIFY(hasAssumption(r.value(), "GPU type \"unknown-gpu\""));
    }

    void chosenDay()
    {
        auto r = import(kVenus, "2020-04-01");
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->cluster->totalGpus(), 968);
        QCOMPARE(r->cluster->nodes.size(), std::size_t(121));
        QVERIFY(!hasAssumption(r.value(), "the last day"));

        auto missing = import(kVenus, "2019-01-01");
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().find("no usable row for --date 2019-01-01 (the file covers "
                                      "2020-04-01 to 2020-09-28)") != std::string::npos,
                 missing.error().c_str());
        auto bad = import(kVenus, "April 1");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().find("--date: expected a day as YYYY-MM-DD") != std::string::npos,
                 bad.error().c_str());
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("gpus");         // -1: fatal error expected
        QTest::addColumn<QString>("expected"); // in a skip note, an assumption or the error
        QTest::newRow("CRLF") << "helios_gpus_crlf.csv" << 968 << "as on 2020-04-03";
        QTest::newRow("no final newline")
            << "helios_gpus_no_final_newline.csv" << 968 << "as on 2020-04-03";
        QTest::newRow("BOM") << "helios_gpus_bom.csv" << 968 << "as on 2020-04-03";
        QTest::newRow("missing column")
            << "helios_gpus_missing_date.csv" << -1 << ":1: missing column \"date\"";
        QTest::newRow("bad number") << "helios_gpus_bad_number.csv" << 968
                                    << ":3: column vcHvQ: expected an integer, found \"6x4\"";
        QTest::newRow("wrong total")
            << "helios_gpus_bad_number.csv" << 968
            << ":4: column total: 999 differs from the sum of the virtual clusters, 968";
        // Every row unusable (";" after the date): the error names the first row and why.
        QTest::newRow("no usable day") << "helios_gpus_semicolons.csv" << -1
                                       << "no usable day in the file (3 rows skipped; the first: ";
        QTest::newRow("no usable day: the first row")
            << "helios_gpus_semicolons.csv" << -1
            << "helios_gpus_semicolons.csv:2: expected 27 fields, found 26)";
        QTest::newRow("unsorted") << "helios_gpus_unsorted.csv" << 968
                                  << "2 rows are out of date order";
        QTest::newRow("repeated day")
            << "helios_gpus_unsorted.csv" << 968 << ":5: date 2020-04-01 again (first on line 3)";
    }
    void malformed()
    {
        QFETCH(QString, file);
        QFETCH(int, gpus);
        QFETCH(QString, expected);
        auto r = import(kData + "malformed/" + file.toStdString());
        const std::string want = expected.toStdString();
        if (gpus < 0) {
            QVERIFY(!r.ok());
            QVERIFY2(r.error().find(want) != std::string::npos, r.error().c_str());
            return;
        }
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->cluster->totalGpus(), gpus);
        QVERIFY2(hasNote(r->skipped, want) || hasAssumption(r.value(), want), r->toText().c_str());
        // The first virtual cluster keeps its name whatever precedes the header (BOM).
        QVERIFY(r->cluster->node("vcEwI-000"));
    }

    void unsortedTakesTheLatestDay()
    {
        // Days 04-03, 04-01, 04-02, 04-01 again: the cluster is that of 04-03 (line 2).
        auto r = import(kData + "malformed/helios_gpus_unsorted.csv");
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->skipped.size(), std::size_t(1));
        QCOMPARE(r->skipped[0].line, 5);
        QVERIFY(hasAssumption(r.value(), "as on 2020-04-03"));
    }
};

QTEST_APPLESS_MAIN(TestImportHeliosGpus)
#include "tst_import_helios_gpus.moc"
