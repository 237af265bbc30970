// Folders of outputs are written all or nothing (FileSetWriter): a write that fails part-way
// (a file size limit, a full tmpfs, a rename that fails) leaves every old file as it was and
// nothing new, in the library and through `export` and `sweep --emitDir`; names that would
// leave the folder or collide are refused before anything is written; permissions of
// replaced files are kept and scripts are executable. A file written in pieces
// (AtomicFileWriter) leaves no hidden temporary file when a signal ends the process.

#include "io/file_io.h"
#include "io/file_set_writer.h"
#include "io/scenario_json.h"

#include <QtTest>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace cb;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Every entry below `dir` with its content ("a/b: text"), hidden ones included.
std::map<std::string, std::string> tree(const fs::path &dir)
{
    std::map<std::string, std::string> out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::end(it); ++it) {
        const std::string rel = fs::relative(it->path(), dir).string();
        out[rel] = it->is_directory() ? std::string("<dir>") : slurp(it->path());
    }
    return out;
}

/// Writes larger than `bytes` fail with EFBIG while this lives (SIGXFSZ ignored).
class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        getrlimit(RLIMIT_FSIZE, &m_old);
        m_handler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = m_old;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_handler);
    }

private:
    rlimit m_old{};
    void (*m_handler)(int) = nullptr;
};

struct Cli
{
    int code = -1;
    std::string out, err;
};

/// clusterbench under a shell file size limit of `kib` KiB (0: none).
Cli clusterbench(const QStringList &args, int kib = 0)
{
    QProcess p;
    QStringList all = {"-c", QString("trap '' XFSZ; %1exec \"$0\" \"$@\"")
                                 .arg(kib > 0 ? QString("ulimit -f %1; ").arg(kib) : QString()),
                       QStringLiteral(CB_CLUSTERBENCH)};
    all += args;
    p.start("bash", all);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

const std::vector<OutputFile> kOld = {{"a.yaml", "old a\n"}, {"sub/b.yaml", "old b\n"}};

} // namespace

class TestFileSetWriter : public QObject
{
    Q_OBJECT

private slots:
    void aSignalRemovesTheTemporaryFile_data()
    {
        QTest::addColumn<bool>("handled");
        QTest::addColumn<int>("signal");
        QTest::newRow("default SIGTERM: the partial file stays") << false << SIGTERM;
        QTest::newRow("handled SIGTERM") << true << SIGTERM;
        QTest::newRow("handled SIGINT") << true << SIGINT;
        QTest::newRow("handled SIGHUP") << true << SIGHUP;
    }

    void aSignalRemovesTheTemporaryFile()
    {
        // A child process writes half a file and is ended by a signal; with the handlers
        // the folder is left as it was (empty), without them a hidden partial file stays
        // (which shows the check can see one).
        QFETCH(bool, handled);
        QFETCH(int, signal);
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        std::ofstream(root / "kept.json") << "{}\n";
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            std::signal(signal, SIG_DFL); // (not the test runner's handler, which prints)
            if (handled)
                removeTemporaryFilesOnSignals();
            AtomicFileWriter other((root / "other.json").string()); // two at once
            AtomicFileWriter w((root / "run.json").string());
            if (!other.open().ok() || !w.open().ok() || !w.write(std::string(3 << 20, 'x')))
                ::_exit(3);
            std::raise(signal);
            ::_exit(4); // (not reached: the signal ends the process)
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFSIGNALED(status), qPrintable(QStringLiteral("status %1").arg(status)));
        QCOMPARE(WTERMSIG(status), signal);
        QStringList names;
        for (const auto &e : fs::directory_iterator(root))
            names << QString::fromStdString(e.path().filename().string());
        names.sort();
        if (handled) {
            QCOMPARE(names, QStringList{QStringLiteral("kept.json")});
        } else {
            QCOMPARE(names.size(), 3);
            QVERIFY2(names[0].startsWith(QStringLiteral(".other.json.")) &&
                         names[1].startsWith(QStringLiteral(".run.json.")),
                     qPrintable(names.join(QLatin1Char(' '))));
            QCOMPARE(fs::file_size(root / names[1].toStdString()), std::uintmax_t(3 << 20));
        }
    }

    void writesEveryFileAndNothingElse()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        std::ofstream(root / "mine.txt") << "not ours\n";
        QVERIFY(FileSetWriter::write(root.string(), kOld, {"logs"}).ok());
        const auto t = tree(root);
        QCOMPARE(t.size(), std::size_t(5)); // mine.txt, a.yaml, sub, sub/b.yaml, logs
        QCOMPARE(t.at("a.yaml"), std::string("old a\n"));
        QCOMPARE(t.at("sub/b.yaml"), std::string("old b\n"));
        QCOMPARE(t.at("logs"), std::string("<dir>"));
        QCOMPARE(t.at("mine.txt"), std::string("not ours\n"));
    }

    void failurePartWayKeepsTheOldContent()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        QVERIFY(FileSetWriter::write(root.string(), kOld).ok());
        const auto before = tree(root);
        // The first new file fits, the second does not: nothing may change.
        const std::vector<OutputFile> next = {
            {"a.yaml", "new a\n"}, {"sub/b.yaml", std::string(64 * 1024, 'b')}, {"c.yaml", "c"}};
        Status st = Ok{};
        {
            FileSizeLimit limit(16 * 1024);
            st = FileSetWriter::write(root.string(), next);
        }
        QVERIFY(!st.ok());
        QVERIFY2(st.error().find("File too large") != std::string::npos, st.error().c_str());
        QVERIFY2(st.error().find("nothing in " + root.string() + " was changed") !=
                     std::string::npos,
                 st.error().c_str());
        QCOMPARE(tree(root), before);
    }

    void failureInANewFolderLeavesNoFolder()
    {
        QTemporaryDir dir;
        const fs::path root = fs::path(dir.path().toStdString()) / "new" / "out";
        Status st = Ok{};
        {
            FileSizeLimit limit(1024);
            st = FileSetWriter::write(root.string(), {{"x", std::string(4096, 'x')}});
        }
        QVERIFY(!st.ok());
        QVERIFY(!fs::exists(root.parent_path()));
    }

    void fullTmpfsKeepsTheOldContent()
    {
        if (::geteuid() != 0)
            QSKIP("mounting a small tmpfs needs root");
        QTemporaryDir dir;
        const std::string mnt = dir.filePath("small").toStdString();
        fs::create_directory(mnt);
        if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0)
            QSKIP("cannot mount a tmpfs here");
        QVERIFY(FileSetWriter::write(mnt, kOld).ok());
        const auto before = tree(mnt);
        const auto st = FileSetWriter::write(
            mnt, {{"a.yaml", "new a\n"}, {"big.yaml", std::string(200 * 1024, 'z')}});
        const auto after = tree(mnt);
        ::umount(mnt.c_str());
        QVERIFY(!st.ok());
        QVERIFY2(st.error().find("No space left on device") != std::string::npos,
                 st.error().c_str());
        QCOMPARE(after, before);
    }

    void failedRenameRollsBackTheOthers()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        QVERIFY(FileSetWriter::write(root.string(), kOld).ok());
        const auto before = tree(root);
        const std::vector<OutputFile> next = {
            {"a.yaml", "new a\n"}, {"fresh.yaml", "fresh\n"}, {"sub/b.yaml", "new b\n"}};
        std::vector<std::size_t> calls;
        const auto st = FileSetWriter::write(root.string(), next, {}, [&](std::size_t i) {
            calls.push_back(i);
            return i < 2; // a.yaml and fresh.yaml go in, then sub/b.yaml fails
        });
        QVERIFY(!st.ok());
        QCOMPARE(calls, (std::vector<std::size_t>{0, 1, 2}));
        QCOMPARE(tree(root), before);
    }

    void refusesNamesOutsideOrTwice_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("parent") << "../x";
        QTest::newRow("inner parent") << "a/../../x";
        QTest::newRow("absolute") << "/tmp/x";
        QTest::newRow("empty") << "";
        QTest::newRow("dot") << ".";
        QTest::newRow("twice") << "a.yaml";
    }
    void refusesNamesOutsideOrTwice()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const fs::path root = fs::path(dir.path().toStdString()) / "out";
        const auto st =
            FileSetWriter::write(root.string(), {{"a.yaml", "a"}, {name.toStdString(), "x"}});
        QVERIFY(!st.ok());
        QVERIFY(!fs::exists(root));
    }

    void aFolderInTheWayFailsFirst()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        fs::create_directories(root / "b.yaml");
        const auto st = FileSetWriter::write(root.string(), {{"a.yaml", "a"}, {"b.yaml", "b"}});
        QVERIFY(!st.ok());
        QVERIFY2(st.error().find("is a folder") != std::string::npos, st.error().c_str());
        QVERIFY(!fs::exists(root / "a.yaml"));
    }

    void keepsPermissionsAndMakesScriptsExecutable()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        QVERIFY(FileSetWriter::write(root.string(), {{"a", "1"}, {"run.sh", "#!/bin/sh\n", true}})
                    .ok());
        fs::permissions(root / "a", fs::perms(0600));
        QVERIFY(FileSetWriter::write(root.string(), {{"a", "2"}}).ok());
        QCOMPARE(int(fs::status(root / "a").permissions() & fs::perms::mask), 0600);
        QCOMPARE(slurp(root / "a"), std::string("2"));
        QVERIFY((fs::status(root / "run.sh").permissions() & fs::perms::owner_exec) !=
                fs::perms::none);
    }

    void exportAndSweepEmitAreAllOrNothing()
    {
        QTemporaryDir dir;
        // The small all-reduce job first: its manifest is staged before the larger one (ten
        // CPU workers) fails.
        auto tiny = loadScenarioFile(CB_SOURCE_DIR "/tests/fuzz/seeds/scenario/tiny.json");
        QVERIFY(tiny.ok());
        TaskGroup &workers = tiny->jobs[0].tasks[1];
        workers.replicas = 10;
        workers.gpus = 0;
        workers.cpus = 1;
        workers.memoryGiB = 1;
        std::reverse(tiny->jobs.begin(), tiny->jobs.end());
        const QString scenario = dir.filePath("tiny.json");
        QVERIFY(saveScenarioFile(scenario.toStdString(), tiny.value()).ok());
        const QString out = dir.filePath("manifests");
        // A first export, then the same folder again with another pinning under a file size
        // limit that only the first (smaller) file fits: the folder keeps the first export.
        Cli first = clusterbench({"export", scenario, "--format", "k8s-pods", "--policy",
                                  "dltap", "--out", out});
        QVERIFY2(first.code == 0, first.err.c_str());
        const auto before = tree(out.toStdString());
        QCOMPARE(before.size(), std::size_t(2));
        std::size_t smallest = SIZE_MAX, largest = 0;
        for (const auto &[name, text] : before) {
            smallest = std::min(smallest, text.size());
            largest = std::max(largest, text.size());
        }
        QVERIFY(largest > smallest + 4096);
        const int kib = int((smallest + largest) / 2 / 1024);
        Cli second = clusterbench({"export", scenario, "--format", "k8s-pods", "--policy",
                                   "dltap", "--pinning", "affinity", "--out", out},
                                  kib);
        QCOMPARE(second.code, 1);
        QVERIFY2(second.err.find("File too large") != std::string::npos, second.err.c_str());
        QCOMPARE(tree(out.toStdString()), before);

        const QString emitDir = dir.filePath("sweep");
        Cli sweep = clusterbench({"sweep", scenario, "--policies", "dltap,binpack", "--seeds",
                                  "40", "--emit", "slurm-array", emitDir},
                                 4);
        QCOMPARE(sweep.code, 1);
        QVERIFY2(!QFileInfo::exists(emitDir), sweep.err.c_str());
    }
};

QTEST_APPLESS_MAIN(TestFileSetWriter)
#include "tst_file_set_writer.moc"
