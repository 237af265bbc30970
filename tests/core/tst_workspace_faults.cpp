// The workspace under faults and concurrency: a read-only folder (read as it is, writes
// refused in plain words), a full disk, a truncated or damaged file (`history --check`),
// values above SQLite's size limit, two processes creating one new workspace, two writers,
// 20 simulate runs during a sweep, unique sweep ids, a sweep killed midway (its points stay
// "partial"), kill -9 at seeded random moments during 50 stored runs and sweeps, errors in a
// sweep's grid.json named by file and pointer, and `show` on odd stored values.
// CB_HARDEN_LONG=1 makes the kill and concurrency campaigns larger.

#include "io/scenario_json.h"
#include "store/workspace.h"

#include <QtTest>

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cb;
namespace fs = std::filesystem;

namespace {

const QString kTiny = QStringLiteral(CB_SOURCE_DIR "/tests/fuzz/seeds/scenario/tiny.json");

bool longRuns()
{
    return qEnvironmentVariableIntValue("CB_HARDEN_LONG") > 0;
}

struct Cli
{
    int code = -1;
    std::string out, err;
};

Cli clusterbench(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(CB_CLUSTERBENCH), args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

std::string sqlText(const std::string &path, const char *sql)
{
    sqlite3 *db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt *st = nullptr;
    std::string v;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = reinterpret_cast<const char *>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

Scenario tiny()
{
    auto s = loadScenarioFile(kTiny.toStdString());
    return s.value();
}

RunRecord sampleRun(const std::string &digest, int n, std::size_t logBytes = 0)
{
    RunRecord r;
    r.scenarioDigest = digest;
    r.kind = "simulate";
    r.policy = "p" + std::to_string(n);
    r.seed = std::uint64_t(n);
    r.metrics = {{"mean_jct_s", double(n)}};
    if (logBytes > 0)
        r.timeline = {{"blob", std::string(logBytes, 'x')}};
    return r;
}

/// Stores `runs` runs in a workspace at `path` (created if needed) in a child process;
/// returns its pid.
pid_t storeInChild(const std::string &path, int runs, int first)
{
    const pid_t pid = ::fork();
    if (pid != 0)
        return pid;
    auto ws = Workspace::open(path);
    if (!ws) {
        std::fprintf(stderr, "%s\n", ws.error().c_str());
        ::_exit(3);
    }
    auto sc = ws.value()->addScenario(tiny());
    if (!sc)
        ::_exit(4);
    for (int i = 0; i < runs; ++i)
        if (!ws.value()->saveRun(sampleRun(sc->digest, first + i)))
            ::_exit(5);
    ::_exit(0);
}

int waitExit(pid_t pid)
{
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// A folder that cannot be written: a tmpfs remounted read-only when we are root (root
/// ignores permission bits), else permission bits. Empty when neither works.
class ReadOnlyFolder
{
public:
    explicit ReadOnlyFolder(const QString &path) : m_path(path.toStdString())
    {
        fs::create_directories(m_path);
        if (::geteuid() == 0)
            m_mounted = ::mount("tmpfs", m_path.c_str(), "tmpfs", 0, "size=8m") == 0;
    }
    ~ReadOnlyFolder()
    {
        if (m_mounted)
            ::umount(m_path.c_str());
        else
            fs::permissions(m_path, fs::perms::owner_all, fs::perm_options::add);
    }
    /// Makes it read-only; false when this machine cannot.
    bool seal()
    {
        if (m_mounted)
            return ::mount("tmpfs", m_path.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, "size=8m") ==
                   0;
        if (::geteuid() == 0)
            return false;
        fs::permissions(m_path, fs::perms(0555));
        return true;
    }
    std::string file(const std::string &name) const { return m_path + "/" + name; }

private:
    std::string m_path;
    bool m_mounted = false;
};

std::set<std::int64_t> reportedIds(const std::string &err)
{
    std::set<std::int64_t> ids;
    static const QRegularExpression one(QStringLiteral("Saved as run (\\d+) in"));
    static const QRegularExpression many(QStringLiteral("Saved as runs ([0-9, -]+) in"));
    const QString text = QString::fromStdString(err);
    for (auto it = one.globalMatch(text); it.hasNext();)
        ids.insert(it.next().captured(1).toLongLong());
    for (auto it = many.globalMatch(text); it.hasNext();)
        for (const QString &part : it.next().captured(1).split(", ")) {
            const QStringList range = part.split('-');
            for (long long i = range.first().toLongLong(); i <= range.last().toLongLong(); ++i)
                ids.insert(i);
        }
    return ids;
}

} // namespace

class TestWorkspaceFaults : public QObject
{
    Q_OBJECT

private slots:
    void readOnlyFolderIsReadAndWritesRefusedClearly()
    {
        QTemporaryDir dir;
        ReadOnlyFolder folder(dir.filePath("ro"));
        const std::string path = folder.file("ws.sqlite");
        {
            auto ws = Workspace::open(path);
            QVERIFY2(ws.ok(), ws.error().c_str());
            auto sc = ws.value()->addScenario(tiny());
            QVERIFY(ws.value()->saveRun(sampleRun(sc->digest, 1)).ok());
        }
        if (!folder.seal())
            QSKIP("cannot make a folder read-only here");
        auto rw = Workspace::open(path);
        QVERIFY(!rw.ok());
        QVERIFY2(rw.error().find("read-only") != std::string::npos, rw.error().c_str());
        QVERIFY2(rw.error().find("not an SQLite database") == std::string::npos, rw.error().c_str());
        auto ro = Workspace::open(path, Workspace::Access::ReadOnly);
        QVERIFY2(ro.ok(), ro.error().c_str());
        QVERIFY(ro.value()->readOnly());
        QCOMPARE(ro.value()->runs()->size(), std::size_t(1));
        QVERIFY(!ro.value()->saveRun(sampleRun("x", 2)).ok());

        const Cli history = clusterbench({"history", "--workspace", QString::fromStdString(path)});
        QVERIFY2(history.code == 0, history.err.c_str());
        QVERIFY(history.out.find("p1") != std::string::npos);
        const Cli check =
            clusterbench({"history", "--check", "--workspace", QString::fromStdString(path)});
        QVERIFY2(check.code == 0, check.err.c_str());
        QVERIFY(check.out.find(": ok (schema version 3)") != std::string::npos);
        const Cli sim = clusterbench(
            {"simulate", kTiny, "--policy", "dltap", "--workspace", QString::fromStdString(path)});
        QCOMPARE(sim.code, 2);
        QVERIFY2(sim.err.find("the workspace is read-only") != std::string::npos, sim.err.c_str());
        QVERIFY(sim.err.find("--no-save") != std::string::npos);
        QVERIFY(sim.out.empty());
        // A missing workspace in a read-only folder reads as empty.
        const Cli empty = clusterbench(
            {"history", "--workspace", QString::fromStdString(folder.file("none.sqlite"))});
        QCOMPARE(empty.code, 0);
        QVERIFY(empty.out.find("No runs in") != std::string::npos);
    }

    void fullDiskFailsWithoutDamage()
    {
        if (::geteuid() != 0)
            QSKIP("mounting a small tmpfs needs root");
        QTemporaryDir dir;
        const std::string mnt = dir.filePath("full").toStdString();
        fs::create_directory(mnt);
        if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=512k") != 0)
            QSKIP("cannot mount a tmpfs here");
        const std::string path = mnt + "/ws.sqlite";
        std::string error;
        std::size_t stored = 0;
        {
            auto ws = Workspace::open(path);
            QVERIFY2(ws.ok(), ws.error().c_str());
            auto sc = ws.value()->addScenario(tiny());
            QVERIFY(sc.ok());
            for (int i = 0; i < 100 && error.empty(); ++i) {
                auto id = ws.value()->saveRun(sampleRun(sc->digest, i, 40000));
                if (id)
                    ++stored;
                else
                    error = id.error();
            }
        }
        const std::string check = sqlText(path, "PRAGMA integrity_check");
        const std::size_t count = std::stoul(sqlText(path, "SELECT count(*) FROM runs"));
        ::umount(mnt.c_str());
        QVERIFY2(error.find("the disk is full") != std::string::npos, error.c_str());
        QVERIFY(error.find("nothing was written") != std::string::npos);
        QCOMPARE(check, std::string("ok"));
        QCOMPARE(count, stored);
        QVERIFY(stored > 0);
    }

    void damagedFilesAreNamedDamaged()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("ws.sqlite").toStdString();
        {
            auto ws = Workspace::open(path);
            auto sc = ws.value()->addScenario(tiny());
            for (int i = 0; i < 20; ++i)
                QVERIFY(ws.value()->saveRun(sampleRun(sc->digest, i, 20000)).ok());
        }
        // Cut in half: the header is SQLite's, the pages it lists are not all there.
        fs::resize_file(path, fs::file_size(path) / 2);
        const Cli history = clusterbench({"history", "--workspace", QString::fromStdString(path)});
        QVERIFY(history.code != 0);
        QVERIFY2(history.err.find("damaged") != std::string::npos, history.err.c_str());
        QVERIFY(history.err.find("not an SQLite database") == std::string::npos);
        const Cli check =
            clusterbench({"history", "--check", "--workspace", QString::fromStdString(path)});
        QCOMPARE(check.code, 1);
        QVERIFY2(!check.out.empty() || !check.err.empty(), "no report");

        // Pages overwritten in the middle: integrity_check lists them.
        const std::string other = dir.filePath("ws2.sqlite").toStdString();
        {
            auto ws = Workspace::open(other);
            auto sc = ws.value()->addScenario(tiny());
            for (int i = 0; i < 20; ++i)
                QVERIFY(ws.value()->saveRun(sampleRun(sc->digest, i, 20000)).ok());
        }
        {
            std::fstream f(other, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(std::streamoff(fs::file_size(other) / 2));
            const std::string junk(8192, '\x5a');
            f.write(junk.data(), std::streamsize(junk.size()));
        }
        const Cli check2 =
            clusterbench({"history", "--check", "--workspace", QString::fromStdString(other)});
        QCOMPARE(check2.code, 1);
        QVERIFY2(check2.out.find("ok (schema") == std::string::npos, check2.out.c_str());

        // Not SQLite at all keeps its own message.
        const std::string text = dir.filePath("notes.sqlite").toStdString();
        std::ofstream(text) << "notes\n";
        auto ws = Workspace::open(text);
        QVERIFY(!ws.ok());
        QVERIFY2(ws.error().find("not an SQLite database") != std::string::npos,
                 ws.error().c_str());
    }

    void valuesAboveTheLimitFailClearly()
    {
        QTemporaryDir dir;
        auto ws = Workspace::open(dir.filePath("ws.sqlite").toStdString());
        QVERIFY(ws.ok());
        QCOMPARE(ws.value()->maxValueBytes(), std::size_t(1000000000));
        ws.value()->setMaxValueBytes(1000);
        auto sc = ws.value()->addScenario(tiny());
        QVERIFY(!sc.ok());
        QVERIFY2(sc.error().find("above the 1000 bytes a workspace value holds") !=
                     std::string::npos,
                 sc.error().c_str());
        ws.value()->setMaxValueBytes(100000);
        auto ok = ws.value()->addScenario(tiny());
        QVERIFY(ok.ok());
        auto run = ws.value()->saveRun(sampleRun(ok->digest, 1, 200000));
        QVERIFY(!run.ok());
        QVERIFY2(run.error().find("its timeline is") != std::string::npos, run.error().c_str());
        QCOMPARE(ws.value()->runs()->size(), std::size_t(0));
    }

    void processesCreatingOneWorkspaceDoNotRace()
    {
        for (int round = 0; round < 5; ++round) {
            QTemporaryDir dir;
            const std::string path = dir.filePath("new.sqlite").toStdString();
            std::vector<pid_t> children;
            for (int i = 0; i < 6; ++i)
                children.push_back(storeInChild(path, 3, 100 * i));
            for (pid_t c : children)
                QCOMPARE(waitExit(c), 0);
            QCOMPARE(sqlText(path, "SELECT count(*) FROM runs"), std::string("18"));
            QCOMPARE(sqlText(path, "PRAGMA user_version"), std::string("3"));
            QCOMPARE(sqlText(path, "PRAGMA integrity_check"), std::string("ok"));
        }
    }

    void twoWritersBothSucceed()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("ws.sqlite").toStdString();
        const pid_t a = storeInChild(path, 60, 0), b = storeInChild(path, 60, 1000);
        QCOMPARE(waitExit(a), 0);
        QCOMPARE(waitExit(b), 0);
        QCOMPARE(sqlText(path, "SELECT count(*) FROM runs"), std::string("120"));
        QCOMPARE(sqlText(path, "SELECT count(DISTINCT policy) FROM runs"), std::string("120"));
    }

    void sweepIdsAreUnique()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("ws.sqlite").toStdString();
        auto a = Workspace::open(path), b = Workspace::open(path);
        QCOMPARE(a.value()->beginSweep("abc-20260101T000000Z", 4).value(),
                 std::string("abc-20260101T000000Z"));
        QCOMPARE(b.value()->beginSweep("abc-20260101T000000Z", 4).value(),
                 std::string("abc-20260101T000000Z-2"));
        QCOMPARE(a.value()->beginSweep("abc-20260101T000000Z", 4).value(),
                 std::string("abc-20260101T000000Z-3"));

        // Two sweeps of one grid started together: two ids, every point stored complete.
        const QString ws = dir.filePath("cli.sqlite");
        QProcess p1, p2;
        const QStringList args = {"sweep", kTiny, "--policies", "dltap", "--seeds", "3",
                                  "--workspace", ws};
        p1.start(QStringLiteral(CB_CLUSTERBENCH), args);
        p2.start(QStringLiteral(CB_CLUSTERBENCH), args);
        QVERIFY(p1.waitForFinished(120000) && p2.waitForFinished(120000));
        QCOMPARE(p1.exitCode(), 0);
        QCOMPARE(p2.exitCode(), 0);
        const std::string w = ws.toStdString();
        QCOMPARE(sqlText(w, "SELECT count(DISTINCT sweep) FROM runs"), std::string("2"));
        QCOMPARE(sqlText(w, "SELECT count(*) FROM runs WHERE status = 'complete'"),
                 std::string("6"));
        QCOMPARE(sqlText(w, "SELECT group_concat(status) FROM sweeps"),
                 std::string("complete,complete"));
    }

    void sweepKilledMidwayStaysPartial()
    {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.sqlite");
        QProcess sweep;
        sweep.start(QStringLiteral(CB_CLUSTERBENCH),
                    {"sweep", kTiny, "--policies", "dltap,binpack", "--seeds", "200", "--jobs",
                     "1", "--simulate", "--workspace", ws});
        QVERIFY(sweep.waitForStarted());
        // Kill it once some points are stored.
        int stored = 0;
        for (int i = 0; i < 600 && stored < 3; ++i) {
            QThread::msleep(50);
            const std::string n = sqlText(ws.toStdString(), "SELECT count(*) FROM runs");
            stored = n.empty() ? 0 : std::stoi(n);
        }
        sweep.kill();
        sweep.waitForFinished();
        QVERIFY(stored >= 3);
        const std::string w = ws.toStdString();
        QCOMPARE(sqlText(w, "SELECT count(*) FROM runs WHERE status <> 'partial'"),
                 std::string("0"));
        QCOMPARE(sqlText(w, "SELECT status FROM sweeps"), std::string("running"));
        QCOMPARE(sqlText(w, "PRAGMA integrity_check"), std::string("ok"));
        const Cli history = clusterbench({"history", "--workspace", ws});
        QCOMPARE(history.code, 0);
        QVERIFY(history.out.find("partial") != std::string::npos);
        QVERIFY(history.out.find("complete") == std::string::npos);
    }

    void killNineNeverLosesAReportedRun()
    {
        // 50 stored runs and sweeps (place, simulate, a small sweep), each killed at a moment
        // drawn from a fixed seed; every run a process reported stored must still be there
        // and the file must pass SQLite's integrity check.
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.sqlite");
        const QString testbed = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
        // Each kind is killed at a moment drawn uniformly over its running time, measured here
        // by one run to completion (the sanitizer build runs several times slower).
        const QStringList kinds[3] = {
            {"place", testbed, "--policy", "dltap"},
            {"simulate", testbed, "--policy", "binpack"},
            {"sweep", testbed, "--policies", "dltap", "--seeds", "4", "--simulate"}};
        std::set<std::int64_t> reported;
        int within[3] = {0, 0, 0};
        for (int k = 0; k < 3; ++k) {
            QProcess p;
            QElapsedTimer timer;
            timer.start();
            p.start(QStringLiteral(CB_CLUSTERBENCH), QStringList(kinds[k]) << "--workspace" << ws);
            QVERIFY(p.waitForFinished(120000));
            QCOMPARE(p.exitCode(), 0);
            within[k] = int(timer.elapsed() * 6 / 5) + 1;
            for (std::int64_t id : reportedIds(p.readAllStandardError().toStdString()))
                reported.insert(id);
        }
        std::mt19937 rng(20261201);
        const int processes = longRuns() ? 200 : 50;
        int killed = 0, reportedInLoop = 0;
        for (int i = 0; i < processes; ++i) {
            QStringList args = kinds[i % 3];
            const int delay = std::uniform_int_distribution<int>(0, within[i % 3])(rng);
            args << "--workspace" << ws;
            QProcess p;
            p.start(QStringLiteral(CB_CLUSTERBENCH), args);
            QVERIFY(p.waitForStarted());
            // Every fifth process runs to the end, so some runs are reported stored in the loop
            // however slow the machine is now against the calibration above (a CI run had all
            // 50 killed while another test loaded the other core).
            const bool toTheEnd = i % 5 == 4;
            if (!p.waitForFinished(toTheEnd ? 120000 : delay)) {
                p.kill();
                ++killed;
            }
            p.waitForFinished();
            for (std::int64_t id : reportedIds(p.readAllStandardError().toStdString())) {
                reported.insert(id);
                ++reportedInLoop;
            }
        }
        const std::string w = ws.toStdString();
        QCOMPARE(sqlText(w, "PRAGMA integrity_check"), std::string("ok"));
        auto opened = Workspace::open(w, Workspace::Access::ReadOnly);
        QVERIFY2(opened.ok(), opened.error().c_str());
        std::set<std::int64_t> present;
        const auto runs = opened.value()->runs();
        QVERIFY2(runs.ok(), runs.error().c_str());
        for (const RunRecord &r : runs.value())
            present.insert(r.id);
        for (std::int64_t id : reported)
            QVERIFY2(present.count(id), qPrintable(QString("run %1 was reported stored").arg(id)));
        qInfo("%d of %d processes killed; %d runs reported stored by them (%zu in all), %zu "
              "present",
              killed, processes, reportedInLoop, reported.size(), present.size());
        // The kill moments fall both before and after runs were reported stored.
        QVERIFY(killed > 0);
        QVERIFY(reportedInLoop > 0);
        // The workspace still takes runs.
        const Cli after = clusterbench({"place", kTiny, "--policy", "dltap", "--workspace", ws});
        QCOMPARE(after.code, 0);
    }

    void simulateRunsDuringASweepAllSucceed()
    {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.sqlite");
        const int runs = longRuns() ? 60 : 20;
        QProcess sweep;
        sweep.start(QStringLiteral(CB_CLUSTERBENCH),
                    {"sweep", kTiny, "--policies", "dltap,binpack", "--seeds", "15", "--jobs",
                     "1", "--simulate", "--workspace", ws});
        QVERIFY(sweep.waitForStarted());
        std::vector<std::unique_ptr<QProcess>> sims;
        for (int i = 0; i < runs; ++i) {
            sims.push_back(std::make_unique<QProcess>());
            sims.back()->start(QStringLiteral(CB_CLUSTERBENCH),
                               {"simulate", kTiny, "--policy", "dltap", "--seed",
                                QString::number(i + 1), "--workspace", ws});
        }
        int failures = 0;
        for (auto &p : sims) {
            p->waitForFinished(300000);
            if (p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0) {
                ++failures;
                qWarning("%s", p->readAllStandardError().constData());
            }
        }
        sweep.waitForFinished(300000);
        QCOMPARE(failures, 0);
        QCOMPARE(sweep.exitCode(), 0);
        const std::string w = ws.toStdString();
        QCOMPARE(sqlText(w, "SELECT count(*) FROM runs WHERE kind = 'simulate'"),
                 std::to_string(runs));
        QCOMPARE(sqlText(w, "SELECT count(*) FROM runs WHERE kind = 'sweep' AND status = "
                            "'complete'"),
                 std::string("30"));
    }

    void gridErrorsNameTheGridFile()
    {
        QTemporaryDir dir;
        const QString emitDir = dir.filePath("emitDir");
        // (two policies with a dltap plugin: four points)
        const Cli made =
            clusterbench({"sweep", kTiny, "--policies", "dltap,dltap-due-energy", "--param",
                          "weight.dltap=1,2", "--emit", "k8s-indexed-job", emitDir});
        QVERIFY2(made.code == 0, made.err.c_str());
        const std::string grid = (emitDir + "/grid.json").toStdString();
        std::ifstream in(grid);
        nlohmann::json doc = nlohmann::json::parse(in);
        doc["points"][2]["policy"] = "no-such-policy";
        doc["points"][1]["params"] = {{"weight.dltap", "heavy"}};
        doc["points"][3]["params"] = {{"plugins", "3"}, {"dltap.variant", "x"}};
        std::ofstream(grid) << doc.dump(1);
        const Cli r = clusterbench({"sweep-point", QString::fromStdString(grid), "0", "--out",
                                    dir.filePath("r.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find(grid + ": /points/2/policy: unknown policy \"no-such-policy\"") !=
                     std::string::npos,
                 r.err.c_str());
        QVERIFY2(r.err.find(grid + ": /points/1/params") != std::string::npos, r.err.c_str());
        QVERIFY2(r.err.find(grid + ": /points/3/params/plugins") != std::string::npos,
                 r.err.c_str());
        QVERIFY(r.err.find("--policy") == std::string::npos);
        QVERIFY(r.err.find("--param") == std::string::npos);
        QVERIFY(r.err.find("internal error") == std::string::npos);
        QVERIFY(!QFileInfo::exists(dir.filePath("r.json")));
    }

    void showReadsOddStoredValues()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("ws.sqlite").toStdString();
        std::vector<std::int64_t> ids;
        {
            auto ws = Workspace::open(path);
            auto sc = ws.value()->addScenario(tiny());
            const std::vector<std::pair<nlohmann::json, nlohmann::json>> odd = {
                {{{"policy", {{"plugins", {{{"plugin", 5}, {"weight", "x"}}, 3, "y"}}}}},
                 {{"placement", 3}, {"run", {{"series", 5}, {"events", "e"}}}}},
                {{{"policy", "text"}}, {{"placement", {{"jobs", 1}}}, {"run", 2}}},
                {nlohmann::json::array({1, 2}),
                 {{"placement", {{"jobs", {1}}, {"waiting", {}}}},
                  {"run", {{"series", {{"bucket_s", "60"}, {"gpu_busy_s", 4}}}}}}},
                {nullptr, nullptr},
            };
            for (const auto &[parameters, timeline] : odd) {
                RunRecord r = sampleRun(sc->digest, int(ids.size()));
                r.parameters = parameters;
                r.timeline = timeline;
                r.decisionLog = {{"decisions", 5}};
                ids.push_back(ws.value()->saveRun(r).value());
            }
        }
        {
            // A row damaged by hand: parameters that are not JSON at all.
            sqlite3 *db = nullptr;
            sqlite3_open(path.c_str(), &db);
            sqlite3_exec(db, "UPDATE runs SET parameters = '{not json' WHERE id = 1", nullptr,
                         nullptr, nullptr);
            sqlite3_close(db);
        }
        for (std::int64_t id : ids) {
            for (const QString &json : {QString(), QStringLiteral("--json")}) {
                QStringList args = {"show", QString::number(id), "--workspace",
                                    QString::fromStdString(path)};
                if (!json.isEmpty())
                    args << json;
                const Cli r = clusterbench(args);
                QVERIFY2(r.code == 0, r.err.c_str());
                QVERIFY2(r.err.find("internal error") == std::string::npos, r.err.c_str());
            }
        }
        const Cli h = clusterbench({"history", "--workspace", QString::fromStdString(path)});
        QCOMPARE(h.code, 0);
    }
};

QTEST_APPLESS_MAIN(TestWorkspaceFaults)
#include "tst_workspace_faults.moc"
