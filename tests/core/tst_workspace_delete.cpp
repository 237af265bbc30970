// Deleting a run from the workspace: its metrics and timeline go with it in one transaction,
// other runs and the scenario stay, and an unknown id fails naming the id.

#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace cb;

namespace {

int count(const std::string &path, const char *sql)
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

} // namespace

class TestWorkspaceDelete : public QObject
{
    Q_OBJECT

private slots:
    void deletesOneRunCompletely()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("ws.sqlite")).toStdString();
        std::int64_t first = 0, second = 0;
        {
            auto ws = Workspace::open(path);
            QVERIFY(ws.ok());
            Scenario s;
            s.name = "tiny";
            Node n;
            n.id = "n1";
            n.cpus = 4;
            n.memoryGiB = 8;
            s.cluster.nodes.push_back(n);
            auto stored = ws.value()->addScenario(s);
            QVERIFY(stored.ok());
            RunRecord r;
            r.scenarioDigest = stored->digest;
            r.policy = "k8s-default";
            r.metrics = {{"mean_jct_s", 10}, {"cost", 2}};
            r.timeline = {{"events", 1}};
            first = ws.value()->saveRun(r).value();
            r.policy = "dltap";
            second = ws.value()->saveRun(r).value();
            QCOMPARE(count(path, "SELECT count(*) FROM metrics"), 4);

            QVERIFY(ws.value()->deleteRun(first).ok());
            auto runs = ws.value()->runs();
            QCOMPARE(runs->size(), std::size_t(1));
            QCOMPARE(runs->front().id, second);
            QCOMPARE(runs->front().metrics.at("cost"), 2.0);

            auto missing = ws.value()->deleteRun(first);
            QVERIFY(!missing.ok());
            QCOMPARE(QString::fromStdString(missing.error()),
                     QString::fromStdString(path + ": no run " + std::to_string(first) +
                                            " (see clusterbench history)"));
            QVERIFY(ws.value()->run(second).ok());
        }
        QCOMPARE(count(path, "SELECT count(*) FROM metrics"), 2);
        QCOMPARE(count(path, "SELECT count(*) FROM timelines"), 1);
        QCOMPARE(count(path, "SELECT count(*) FROM scenarios"), 1);
        QCOMPARE(count(path, "SELECT count(*) FROM runs WHERE id = 1"), 0);
    }
};

QTEST_MAIN(TestWorkspaceDelete)
#include "tst_workspace_delete.moc"
