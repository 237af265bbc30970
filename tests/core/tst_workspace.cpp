// The workspace database: scenarios by digest and version, runs in one transaction each,
// migration from the first schema, refusal of newer files, and a crash in mid-write.

#include "io/scenario_json.h"
#include "store/workspace.h"
#include "util/sha256.h"

#include <QtTest>

#include <sqlite3.h>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace cb;

namespace {

Scenario tinyScenario(const std::string &name, double cpus = 8)
{
    Scenario s;
    s.name = name;
    Node n;
    n.id = "n1";
    n.cpus = cpus;
    n.memoryGiB = 16;
    s.cluster.nodes.push_back(n);
    return s;
}

int sqlInt(const std::string &path, const char *sql)
{
    sqlite3 *db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt *st = nullptr;
    int v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

std::string sqlText(const std::string &path, const char *sql)
{
    sqlite3 *db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt *st = nullptr;
    std::string v;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = reinterpret_cast<const char *>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

void sqlExec(const std::string &path, const char *sql)
{
    sqlite3 *db = nullptr;
    sqlite3_open(path.c_str(), &db);
    char *err = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &err);
    if (rc != SQLITE_OK)
        qWarning("%s", err);
    sqlite3_free(err);
    sqlite3_close(db);
}

RunRecord sampleRun(const std::string &digest, const std::string &policy, double jct)
{
    RunRecord r;
    r.scenarioDigest = digest;
    r.policy = policy;
    r.seed = 7;
    r.parameters = {{"gang", true}};
    r.metrics = {{"mean_jct_s", jct}, {"cross_node_bytes", 1.5e9}};
    r.decisionLog = nlohmann::json::array({{{"task", "j1/ps-0"}, {"node", "n1"}}});
    r.timeline = {{"events", 3}};
    return r;
}

} // namespace

class TestWorkspace : public QObject
{
    Q_OBJECT

private slots:
    void sha256Vectors_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("digest");
        QTest::newRow("empty") << QByteArray()
                               << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        QTest::newRow("abc") << QByteArray("abc")
                             << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QTest::newRow("two blocks")
            << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
        QTest::newRow("million a") << QByteArray(1000000, 'a')
                                   << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    }
    void sha256Vectors()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, digest);
        QCOMPARE(QString::fromStdString(Sha256::hex(std::string_view(input.data(), std::size_t(input.size())))),
                 digest);
    }

    void scenariosAreVersionedByContent()
    {
        QTemporaryDir dir;
        auto ws = Workspace::open(dir.filePath("w.sqlite").toStdString());
        QVERIFY2(ws.ok(), ws.error().c_str());
        QCOMPARE(ws.value()->schemaVersion(), Workspace::kSchemaVersion);
        auto a = ws.value()->addScenario(tinyScenario("lab"));
        auto again = ws.value()->addScenario(tinyScenario("lab"));
        auto b = ws.value()->addScenario(tinyScenario("lab", 16));
        QVERIFY(a.ok() && again.ok() && b.ok());
        QCOMPARE(a->version, 1);
        QCOMPARE(again->digest, a->digest);
        QCOMPARE(again->version, 1);
        QCOMPARE(b->version, 2);
        QVERIFY(b->digest != a->digest);
        QCOMPARE(a->digest, Sha256::hex(scenarioToText(tinyScenario("lab"))));
        auto text = ws.value()->scenarioText(b->digest);
        QVERIFY(text.ok());
        QCOMPARE(scenarioFromText(text.value()).value(), tinyScenario("lab", 16));
        QCOMPARE(ws.value()->scenarios()->size(), std::size_t(2));
    }

    void runsRoundTrip()
    {
        QTemporaryDir dir;
        auto ws = Workspace::open(dir.filePath("w.sqlite").toStdString());
        QVERIFY(ws.ok());
        auto sc = ws.value()->addScenario(tinyScenario("lab"));
        auto first = ws.value()->saveRun(sampleRun(sc->digest, "k8s-default", 100));
        auto second = ws.value()->saveRun(sampleRun(sc->digest, "dltap", 80));
        QVERIFY(first.ok() && second.ok());
        auto all = ws.value()->runs();
        QVERIFY(all.ok());
        QCOMPARE(all->size(), std::size_t(2));
        QCOMPARE(all.value()[0].policy, std::string("dltap")); // newest first
        QCOMPARE(all.value()[0].scenarioName, std::string("lab"));
        QCOMPARE(all.value()[0].metrics.at("mean_jct_s"), 80.0);
        QVERIFY(all.value()[0].decisionLog.is_null()); // the list stays light
        auto one = ws.value()->run(first.value());
        QVERIFY(one.ok());
        QCOMPARE(one->seed, std::uint64_t(7));
        QCOMPARE(one->parameters["gang"].get<bool>(), true);
        QCOMPARE(one->decisionLog[0]["node"].get<std::string>(), std::string("n1"));
        QCOMPARE(one->timeline["events"].get<int>(), 3);
        QCOMPARE(one->programVersion, std::string(CB_VERSION));
        QVERIFY(!ws.value()->run(99).ok());
    }

    void migratesFromVersionOne()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("old.sqlite").toStdString();
        sqlExec(path, R"(
            CREATE TABLE scenarios(digest TEXT PRIMARY KEY, name TEXT NOT NULL,
                version INTEGER NOT NULL, content TEXT NOT NULL, created TEXT NOT NULL);
            CREATE TABLE runs(id INTEGER PRIMARY KEY, scenario_digest TEXT NOT NULL,
                policy TEXT NOT NULL, parameters TEXT NOT NULL, seed INTEGER NOT NULL,
                program_version TEXT NOT NULL, created TEXT NOT NULL, metrics TEXT NOT NULL,
                decision_log TEXT);
            INSERT INTO runs VALUES (1, 'abc', 'binpack', '{}', 3, '0.0.9',
                '2026-01-01T00:00:00Z', '{"makespan_s": 360.5, "note": "text"}', NULL);
            PRAGMA user_version = 1;)");
        auto ws = Workspace::open(path);
        QVERIFY2(ws.ok(), ws.error().c_str());
        QCOMPARE(ws.value()->schemaVersion(), Workspace::kSchemaVersion);
        auto run = ws.value()->run(1);
        QVERIFY2(run.ok(), run.error().c_str());
        QCOMPARE(run->policy, std::string("binpack"));
        QCOMPARE(run->kind, std::string("simulate"));
        QCOMPARE(run->status, std::string("complete"));
        QCOMPARE(run->metrics.size(), std::size_t(1)); // the text value is not a metric
        QCOMPARE(run->metrics.at("makespan_s"), 360.5);
    }

    void migratesSweepsFromVersionTwo()
    {
        // A version-2 workspace with the runs of two sweeps (one with odd parameters): version
        // 3 names each run's sweep in a column and lists the sweeps, complete.
        QTemporaryDir dir;
        const std::string path = dir.filePath("v2.sqlite").toStdString();
        {
            auto ws = Workspace::open(path);
            QVERIFY(ws.ok());
        }
        sqlExec(path, R"(
            DROP TABLE sweeps; DROP INDEX runs_by_sweep; ALTER TABLE runs DROP COLUMN sweep;
            INSERT INTO runs(id, scenario_digest, policy, parameters, seed, program_version,
                created, metrics, kind, status) VALUES
              (1, 'd', 'dltap', '{"sweep": "s1", "grid_index": 0}', 1, '0', '2026-01-01T00:00:00Z', '{}', 'sweep', 'complete'),
              (2, 'd', 'dltap', '{"sweep": "s1", "grid_index": 1}', 2, '0', '2026-01-01T00:00:01Z', '{}', 'sweep', 'complete'),
              (3, 'd', 'dltap', '{"sweep": 7}', 3, '0', '2026-01-02T00:00:00Z', '{}', 'sweep', 'complete'),
              (4, 'd', 'dltap', 'not json', 3, '0', '2026-01-02T00:00:00Z', '{}', 'sweep', 'complete'),
              (5, 'd', 'dltap', '{"sweep": "s2"}', 3, '0', '2026-01-03T00:00:00Z', '{}', 'sweep', 'complete');
            PRAGMA user_version = 2;)");
        auto ws = Workspace::open(path);
        QVERIFY2(ws.ok(), ws.error().c_str());
        QCOMPARE(ws.value()->schemaVersion(), 3);
        QCOMPARE(sqlText(path, "SELECT group_concat(id || ':' || points, ' ') FROM sweeps"),
                 std::string("s1:2 s2:1"));
        QCOMPARE(sqlInt(path, "SELECT count(*) FROM runs WHERE sweep = 's1'"), 2);
        QCOMPARE(sqlInt(path, "SELECT count(*) FROM runs WHERE sweep IS NULL"), 2);
        // The next sweep of the same base gets a fresh id.
        QCOMPARE(ws.value()->beginSweep("s1", 3).value(), std::string("s1-2"));
    }

    void refusesNewerWorkspaceUntouched()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("new.sqlite").toStdString();
        sqlExec(path, "CREATE TABLE future(x); PRAGMA user_version = 9;");
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        auto ws = Workspace::open(path);
        QVERIFY(!ws.ok());
        QVERIFY2(ws.error().find("workspace schema version 9 is newer than this ClusterBench "
                                 "supports (3); it was left untouched") != std::string::npos,
                 ws.error().c_str());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        QVERIFY(!QFile::exists(QString::fromStdString(path + "-wal")));
    }

    void refusesOtherFiles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("notes.txt");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("these are my notes, not a database\n");
        f.close();
        auto ws = Workspace::open(path.toStdString());
        QVERIFY(!ws.ok());
        QVERIFY2(ws.error().find("not a ClusterBench workspace") != std::string::npos,
                 ws.error().c_str());
        const std::string other = dir.filePath("other.sqlite").toStdString();
        sqlExec(other, "CREATE TABLE accounts(id)");
        auto ws2 = Workspace::open(other);
        QVERIFY(!ws2.ok());
        QVERIFY(ws2.error().find("no ClusterBench schema version") != std::string::npos);
    }

    void killedMidWriteLeavesNoPartialRun()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("w.sqlite").toStdString();
        std::string digest;
        {
            auto ws = Workspace::open(path);
            QVERIFY(ws.ok());
            digest = ws.value()->addScenario(tinyScenario("lab"))->digest;
            QVERIFY(ws.value()->saveRun(sampleRun(digest, "k8s-default", 100)).ok());
        }
        int ready[2];
        QVERIFY(::pipe(ready) == 0);
        const pid_t child = ::fork();
        if (child == 0) {
            ::close(ready[0]);
            auto ws = Workspace::open(path);
            RunRecord big = sampleRun(digest, "dltap", 80);
            big.decisionLog = nlohmann::json::array();
            for (int i = 0; i < 20000; ++i)
                big.decisionLog.push_back({{"task", i}, {"node", "n1"}});
            (void)ws.value()->saveRun(big, [&] {
                const char c = 'x';
                (void)!::write(ready[1], &c, 1);
                ::pause(); // killed here, with the rows written but not committed
            });
            ::_exit(0);
        }
        ::close(ready[1]);
        char c = 0;
        QCOMPARE(::read(ready[0], &c, 1), ssize_t(1));
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        QVERIFY(WIFSIGNALED(status));
        ::close(ready[0]);

        QCOMPARE(sqlText(path, "PRAGMA integrity_check"), std::string("ok"));
        auto ws = Workspace::open(path);
        QVERIFY(ws.ok());
        auto runs = ws.value()->runs();
        QCOMPARE(runs->size(), std::size_t(1));
        QCOMPARE(runs.value()[0].policy, std::string("k8s-default"));
        QCOMPARE(runs.value()[0].metrics.at("mean_jct_s"), 100.0);
        QCOMPARE(sqlInt(path, "SELECT count(*) FROM metrics"), 2);
        // The workspace still takes new runs.
        QVERIFY(ws.value()->saveRun(sampleRun(digest, "binpack", 90)).ok());
    }
};

QTEST_APPLESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
