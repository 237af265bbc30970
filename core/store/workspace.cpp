#include "store/workspace.h"

#include "io/scenario_json.h"
#include "util/sha256.h"

#include <sqlite3.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace cb {

namespace {

// The first schema, kept so that migration from it stays testable and exact.
constexpr const char *kSchemaV1 = R"sql(
CREATE TABLE scenarios(
    digest TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    content TEXT NOT NULL,
    created TEXT NOT NULL);
CREATE TABLE runs(
    id INTEGER PRIMARY KEY,
    scenario_digest TEXT NOT NULL,
    policy TEXT NOT NULL,
    parameters TEXT NOT NULL,
    seed INTEGER NOT NULL,
    program_version TEXT NOT NULL,
    created TEXT NOT NULL,
    metrics TEXT NOT NULL,
    decision_log TEXT);
)sql";

// Version 2: metrics as rows (queryable for comparisons), run kind and status, timelines.
constexpr const char *kMigrateV1toV2 = R"sql(
ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'simulate';
ALTER TABLE runs ADD COLUMN status TEXT NOT NULL DEFAULT 'complete';
CREATE TABLE metrics(
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value REAL NOT NULL,
    PRIMARY KEY(run_id, name));
INSERT INTO metrics(run_id, name, value)
    SELECT runs.id, j.key, j.value FROM runs, json_each(runs.metrics) AS j
    WHERE j.type IN ('integer', 'real');
CREATE TABLE timelines(
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    content TEXT NOT NULL);
CREATE INDEX runs_by_scenario ON runs(scenario_digest);
)sql";

class Statement
{
public:
    Statement(sqlite3 *db, const char *sql)
    {
        m_rc = sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr);
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    bool ok() const { return m_rc == SQLITE_OK; }
    void bind(int i, const std::string &s)
    {
        sqlite3_bind_text(m_stmt, i, s.data(), int(s.size()), SQLITE_TRANSIENT);
    }
    void bind(int i, std::int64_t v) { sqlite3_bind_int64(m_stmt, i, v); }
    void bind(int i, double v) { sqlite3_bind_double(m_stmt, i, v); }
    void bindNull(int i) { sqlite3_bind_null(m_stmt, i); }
    int step() { return sqlite3_step(m_stmt); }
    void reset()
    {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }
    std::string text(int col) const
    {
        const auto *p = sqlite3_column_text(m_stmt, col);
        return p ? std::string(reinterpret_cast<const char *>(p)) : std::string();
    }
    bool isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
    std::int64_t integer(int col) const { return sqlite3_column_int64(m_stmt, col); }
    double real(int col) const { return sqlite3_column_double(m_stmt, col); }

private:
    sqlite3_stmt *m_stmt = nullptr;
    int m_rc = SQLITE_ERROR;
};

std::string nowUtc()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

nlohmann::json parseOrNull(const std::string &text)
{
    return nlohmann::json::parse(text, nullptr, false);
}

} // namespace

std::string Workspace::defaultPath()
{
    if (const char *p = std::getenv("CLUSTERBENCH_WORKSPACE"); p && *p)
        return p;
    std::filesystem::path dir;
    if (const char *x = std::getenv("XDG_DATA_HOME"); x && *x)
        dir = x;
    else if (const char *h = std::getenv("HOME"); h && *h)
        dir = std::filesystem::path(h) / ".local" / "share";
    else
        dir = ".";
    return (dir / "clusterbench" / "workspace.sqlite").string();
}

Workspace::Workspace(std::string path, sqlite3 *db) : m_path(std::move(path)), m_db(db) {}

Workspace::~Workspace()
{
    sqlite3_close(m_db);
}

Status Workspace::exec(const std::string &sql) const
{
    char *err = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string message = err ? err : "unknown SQLite error";
        sqlite3_free(err);
        return Status::failure(m_path, message);
    }
    return Ok{};
}

int Workspace::schemaVersion() const
{
    Statement s(m_db, "PRAGMA user_version");
    return s.ok() && s.step() == SQLITE_ROW ? int(s.integer(0)) : -1;
}

Result<std::unique_ptr<Workspace>> Workspace::open(const std::string &path)
{
    using R = Result<std::unique_ptr<Workspace>>;
    std::error_code ec;
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty())
        std::filesystem::create_directories(parent, ec);
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
        const std::string message = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        return R::failure(path, "cannot open workspace: " + message);
    }
    std::unique_ptr<Workspace> ws(new Workspace(path, db));
    sqlite3_busy_timeout(db, 5000);
    // Read the version before touching anything, so a newer file stays untouched.
    std::int64_t tables = 0;
    {
        Statement check(db, "SELECT count(*) FROM sqlite_master");
        if (!check.ok() || check.step() != SQLITE_ROW)
            return R::failure(path, "not a ClusterBench workspace (not an SQLite database)");
        tables = check.integer(0);
    } // finalised here: an open statement would hold a read transaction
    const int version = ws->schemaVersion();
    if (version > kSchemaVersion)
        return R::failure(path, "workspace schema version " + std::to_string(version) +
                                    " is newer than this ClusterBench supports (" +
                                    std::to_string(kSchemaVersion) +
                                    "); it was left untouched: open it with a newer ClusterBench");
    if (version == 0 && tables > 0)
        return R::failure(path, "not a ClusterBench workspace (an SQLite database with other "
                                "tables and no ClusterBench schema version)");
    if (auto st = ws->exec("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;"); !st)
        return R(st.problems());
    if (auto st = ws->migrate(); !st)
        return R(st.problems());
    return R(std::move(ws));
}

Status Workspace::migrate()
{
    int version = schemaVersion();
    if (version == kSchemaVersion)
        return Ok{};
    if (auto st = exec("BEGIN IMMEDIATE"); !st)
        return st;
    auto fail = [&](Status st) {
        (void)exec("ROLLBACK"); // best effort: the error above is what counts
        return Status::failure(m_path, "migration from schema version " +
                                           std::to_string(version) + " failed: " + st.error());
    };
    if (version == 0) {
        if (auto st = exec(kSchemaV1); !st)
            return fail(st);
        version = 1;
    }
    if (version == 1) {
        if (auto st = exec(kMigrateV1toV2); !st)
            return fail(st);
        version = 2;
    }
    if (auto st = exec("PRAGMA user_version = " + std::to_string(version)); !st)
        return fail(st);
    return exec("COMMIT");
}

Result<StoredScenario> Workspace::addScenario(const Scenario &scenario)
{
    const std::string text = scenarioToText(scenario);
    StoredScenario stored;
    stored.digest = Sha256::hex(text);
    stored.name = scenario.name.empty() ? std::string("unnamed") : scenario.name;
    {
        Statement find(m_db, "SELECT name, version, created FROM scenarios WHERE digest = ?");
        find.bind(1, stored.digest);
        if (find.step() == SQLITE_ROW) {
            stored.name = find.text(0);
            stored.version = int(find.integer(1));
            stored.created = find.text(2);
            return stored;
        }
    }
    Statement next(m_db, "SELECT coalesce(max(version), 0) + 1 FROM scenarios WHERE name = ?");
    next.bind(1, stored.name);
    next.step();
    stored.version = int(next.integer(0));
    stored.created = nowUtc();
    Statement insert(m_db, "INSERT INTO scenarios(digest, name, version, content, created) "
                           "VALUES (?, ?, ?, ?, ?)");
    insert.bind(1, stored.digest);
    insert.bind(2, stored.name);
    insert.bind(3, std::int64_t(stored.version));
    insert.bind(4, text);
    insert.bind(5, stored.created);
    if (insert.step() != SQLITE_DONE)
        return Result<StoredScenario>::failure(m_path, std::string("cannot store scenario: ") +
                                                           sqlite3_errmsg(m_db));
    return stored;
}

Result<std::vector<StoredScenario>> Workspace::scenarios() const
{
    std::vector<StoredScenario> out;
    Statement s(m_db, "SELECT digest, name, version, created FROM scenarios ORDER BY name, version");
    while (s.step() == SQLITE_ROW)
        out.push_back({s.text(0), s.text(1), int(s.integer(2)), s.text(3)});
    return out;
}

Result<std::string> Workspace::scenarioText(const std::string &digest) const
{
    Statement s(m_db, "SELECT content FROM scenarios WHERE digest = ?");
    s.bind(1, digest);
    if (s.step() != SQLITE_ROW)
        return Result<std::string>::failure(m_path, "no scenario with digest " + digest);
    return s.text(0);
}

Result<std::int64_t> Workspace::saveRun(RunRecord run, const std::function<void()> &midWrite)
{
    using R = Result<std::int64_t>;
    if (auto st = exec("BEGIN IMMEDIATE"); !st)
        return R(st.problems());
    auto fail = [&](const std::string &what) {
        const std::string message = what + ": " + sqlite3_errmsg(m_db);
        (void)exec("ROLLBACK"); // best effort: the error above is what counts
        return R::failure(m_path, message);
    };
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto &[name, value] : run.metrics)
        metrics[name] = value;
    Statement insert(m_db,
                     "INSERT INTO runs(scenario_digest, policy, parameters, seed, program_version,"
                     " created, metrics, decision_log, kind, status)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insert.bind(1, run.scenarioDigest);
    insert.bind(2, run.policy);
    insert.bind(3, run.parameters.dump());
    insert.bind(4, std::int64_t(run.seed));
    insert.bind(5, run.programVersion.empty() ? std::string(CB_VERSION) : run.programVersion);
    insert.bind(6, nowUtc());
    insert.bind(7, metrics.dump());
    if (run.decisionLog.is_null())
        insert.bindNull(8);
    else
        insert.bind(8, run.decisionLog.dump());
    insert.bind(9, run.kind);
    insert.bind(10, run.status);
    if (insert.step() != SQLITE_DONE)
        return fail("cannot store run");
    const std::int64_t id = sqlite3_last_insert_rowid(m_db);
    Statement metric(m_db, "INSERT INTO metrics(run_id, name, value) VALUES (?, ?, ?)");
    for (const auto &[name, value] : run.metrics) {
        metric.bind(1, id);
        metric.bind(2, name);
        metric.bind(3, value);
        if (metric.step() != SQLITE_DONE)
            return fail("cannot store metric " + name);
        metric.reset();
    }
    if (!run.timeline.is_null()) {
        Statement timeline(m_db, "INSERT INTO timelines(run_id, content) VALUES (?, ?)");
        timeline.bind(1, id);
        timeline.bind(2, run.timeline.dump());
        if (timeline.step() != SQLITE_DONE)
            return fail("cannot store timeline");
    }
    if (midWrite)
        midWrite();
    if (auto st = exec("COMMIT"); !st) {
        (void)exec("ROLLBACK"); // best effort: the error above is what counts
        return R(st.problems());
    }
    return id;
}

Result<std::vector<RunRecord>> Workspace::runs() const
{
    return selectRuns(-1);
}

Result<std::vector<RunRecord>> Workspace::selectRuns(std::int64_t onlyId) const
{
    std::vector<RunRecord> out;
    Statement s(m_db, "SELECT runs.id, scenario_digest, coalesce(scenarios.name, ''), kind, policy,"
                      " parameters, seed, program_version, runs.created, status"
                      " FROM runs LEFT JOIN scenarios ON scenarios.digest = runs.scenario_digest"
                      " WHERE ?1 < 0 OR runs.id = ?1 ORDER BY runs.id DESC");
    s.bind(1, onlyId);
    while (s.step() == SQLITE_ROW) {
        RunRecord r;
        r.id = s.integer(0);
        r.scenarioDigest = s.text(1);
        r.scenarioName = s.text(2);
        r.kind = s.text(3);
        r.policy = s.text(4);
        r.parameters = parseOrNull(s.text(5));
        r.seed = std::uint64_t(s.integer(6));
        r.programVersion = s.text(7);
        r.created = s.text(8);
        r.status = s.text(9);
        out.push_back(std::move(r));
    }
    Statement m(m_db, "SELECT name, value FROM metrics WHERE run_id = ? ORDER BY name");
    for (RunRecord &r : out) {
        m.bind(1, r.id);
        while (m.step() == SQLITE_ROW)
            r.metrics[m.text(0)] = m.real(1);
        m.reset();
    }
    return out;
}

Result<std::int64_t> Workspace::findSweepRun(const std::string &sweepId, int gridIndex) const
{
    Statement s(m_db, "SELECT id FROM runs WHERE kind = 'sweep'"
                      " AND json_extract(parameters, '$.sweep') = ?"
                      " AND json_extract(parameters, '$.grid_index') = ? ORDER BY id LIMIT 1");
    if (!s.ok())
        return Result<std::int64_t>::failure(m_path, sqlite3_errmsg(m_db));
    s.bind(1, sweepId);
    s.bind(2, std::int64_t(gridIndex));
    const int rc = s.step();
    if (rc == SQLITE_ROW)
        return s.integer(0);
    if (rc != SQLITE_DONE)
        return Result<std::int64_t>::failure(m_path, sqlite3_errmsg(m_db));
    return std::int64_t(0);
}

Result<RunRecord> Workspace::run(std::int64_t id) const
{
    auto found = selectRuns(id);
    if (!found)
        return Result<RunRecord>(found.problems());
    if (found->empty())
        return Result<RunRecord>::failure(m_path, "no run " + std::to_string(id) +
                                                      " (see clusterbench history)");
    RunRecord r = std::move(found->front());
    Statement log(m_db, "SELECT decision_log FROM runs WHERE id = ?");
    log.bind(1, id);
    if (log.step() == SQLITE_ROW && !log.isNull(0))
        r.decisionLog = parseOrNull(log.text(0));
    Statement timeline(m_db, "SELECT content FROM timelines WHERE run_id = ?");
    timeline.bind(1, id);
    if (timeline.step() == SQLITE_ROW)
        r.timeline = parseOrNull(timeline.text(0));
    return r;
}

Status Workspace::deleteRun(std::int64_t id)
{
    if (auto st = exec("BEGIN IMMEDIATE"); !st)
        return st;
    auto fail = [&](const std::string &what) {
        const std::string message = what + ": " + sqlite3_errmsg(m_db);
        (void)exec("ROLLBACK"); // best effort: the error above is what counts
        return Status::failure(m_path, message);
    };
    // Children first, explicitly: foreign-key cascades depend on a per-connection pragma.
    for (const char *sql : {"DELETE FROM metrics WHERE run_id = ?",
                            "DELETE FROM timelines WHERE run_id = ?"}) {
        Statement child(m_db, sql);
        child.bind(1, id);
        if (child.step() != SQLITE_DONE)
            return fail("cannot delete run " + std::to_string(id));
    }
    Statement remove(m_db, "DELETE FROM runs WHERE id = ?");
    remove.bind(1, id);
    if (remove.step() != SQLITE_DONE)
        return fail("cannot delete run " + std::to_string(id));
    if (sqlite3_changes(m_db) == 0) {
        (void)exec("ROLLBACK"); // nothing was changed
        return Status::failure(m_path, "no run " + std::to_string(id) +
                                           " (see clusterbench history)");
    }
    return exec("COMMIT");
}

} // namespace cb
