// Every input a fuzz campaign found crashing or breaking an invariant, replayed through the
// same target code (tests/fuzz/fuzz_targets.h) in every build, sanitized or not: each file
// of tests/fuzz/regressions/TARGET/ must now be read or refused cleanly.

#include "fuzz_targets.h"
#include "io/import/importer_registry.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace cb;

class TestFuzzRegressions : public QObject
{
    Q_OBJECT

private slots:
    void everyTargetHasAName()
    {
        // The seven readers of ClusterBench's own files, and one target per importer.
        QCOMPARE(fuzz::targets().size(), std::size_t(7) + importers().size());
        for (const fuzz::Target &t : fuzz::targets()) {
            QVERIFY(!t.name.empty());
            QVERIFY(t.run != nullptr);
            QCOMPARE(fuzz::findTarget(t.name), &t);
        }
        QVERIFY(fuzz::findTarget("import-k8s-nodes"));
        QVERIFY(!fuzz::findTarget("import-nothing"));
    }

    void seedsRunClean()
    {
        // The tiny seed scenario is read, saved and read again without a broken invariant.
        const fuzz::Target *t = fuzz::findTarget("scenario");
        const char *path = CB_SOURCE_DIR "/tests/fuzz/seeds/scenario/tiny.json";
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        QCOMPARE(QString::fromStdString(t->run(text.str(), *t)), QString());
    }

    void regressions_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("file");
        namespace fs = std::filesystem;
        const fs::path root = fs::path(CB_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
        std::vector<std::pair<std::string, std::string>> cases;
        std::error_code ec;
        for (const auto &dir : fs::directory_iterator(root, ec))
            if (dir.is_directory())
                for (const auto &f : fs::directory_iterator(dir.path()))
                    if (f.is_regular_file() && f.path().filename().string()[0] != '.')
                        cases.push_back({dir.path().filename().string(), f.path().string()});
        std::sort(cases.begin(), cases.end());
        for (const auto &[target, file] : cases)
            QTest::newRow((target + "/" + fs::path(file).filename().string()).c_str())
                << QString::fromStdString(target) << QString::fromStdString(file);
    }
    void regressions()
    {
        QFETCH(QString, target);
        QFETCH(QString, file);
        const fuzz::Target *t = fuzz::findTarget(target.toStdString());
        QVERIFY2(t, qPrintable("no fuzz target " + target));
        std::ifstream in(file.toStdString(), std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        std::string broken;
        try {
            broken = t->run(text.str(), *t);
        } catch (const std::exception &e) {
            broken = std::string("exception: ") + e.what();
        }
        QCOMPARE(QString::fromStdString(broken), QString());
    }
};

QTEST_APPLESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
