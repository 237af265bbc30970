#include "store/workspace.h"

#include "io/scenario_json.h"
#include "util/sha256.h"

#include <sqlite3.h>
#include <zlib.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

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

// Version 3: local sweeps get ids unique in the workspace (the sweeps table) and their runs
// name the sweep in a column, so a sweep is marked complete in one statement.
constexpr const char *kMigrateV2toV3 = R"sql(
ALTER TABLE runs ADD COLUMN sweep TEXT;
UPDATE runs SET sweep = json_extract(parameters, '$.sweep')
    WHERE kind = 'sweep' AND json_valid(parameters)
      AND json_type(parameters, '$.sweep') = 'text';
CREATE TABLE sweeps(
    id TEXT PRIMARY KEY,
    created TEXT NOT NULL,
    points INTEGER NOT NULL,
    status TEXT NOT NULL);
INSERT OR IGNORE INTO sweeps(id, created, points, status)
    SELECT sweep, min(created), count(*), 'complete' FROM runs
    WHERE sweep IS NOT NULL GROUP BY sweep;
CREATE INDEX runs_by_sweep ON runs(sweep);
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
    /// The prepare's result code (SQLITE_OK when the statement is usable).
    int rc() const { return m_rc; }
    int bind(int i, const std::string &s)
    {
        return sqlite3_bind_text64(m_stmt, i, s.data(), s.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    }
    int bind(int i, std::int64_t v) { return sqlite3_bind_int64(m_stmt, i, v); }
    int bind(int i, double v) { return sqlite3_bind_double(m_stmt, i, v); }
    int bindNull(int i) { return sqlite3_bind_null(m_stmt, i); }
    int bindBlob(int i, const std::string &bytes)
    {
        return sqlite3_bind_blob64(m_stmt, i, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
    }
    int step() { return m_stmt ? sqlite3_step(m_stmt) : m_rc; }
    void reset()
    {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }
    std::string text(int col) const
    {
        const auto *p = sqlite3_column_text(m_stmt, col);
        return p ? std::string(reinterpret_cast<const char *>(p),
                               std::size_t(sqlite3_column_bytes(m_stmt, col)))
                 : std::string();
    }
    bool isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
    bool isBlob(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_BLOB; }
    std::string blob(int col) const
    {
        const auto *p = static_cast<const char *>(sqlite3_column_blob(m_stmt, col));
        return p ? std::string(p, std::size_t(sqlite3_column_bytes(m_stmt, col))) : std::string();
    }
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

// Large JSON values (a run's timeline and decision log) are stored deflated, as a BLOB: the
// magic "cbz1", the text's length (8 bytes, little-endian), then zlib's stream. A TEXT value
// (written before, or by hand) reads as it is.
constexpr char kDeflatedMagic[] = "cbz1";
constexpr std::size_t kDeflatedHeader = 4 + 8;

std::string deflated(const std::string &text)
{
    uLongf size = compressBound(uLong(text.size()));
    std::string out(kDeflatedHeader + size, '\0');
    std::copy(kDeflatedMagic, kDeflatedMagic + 4, out.begin());
    const std::uint64_t n = text.size();
    for (int b = 0; b < 8; ++b)
        out[std::size_t(4 + b)] = char((n >> (8 * b)) & 0xff);
    if (compress2(reinterpret_cast<Bytef *>(out.data() + kDeflatedHeader), &size,
                  reinterpret_cast<const Bytef *>(text.data()), uLong(text.size()),
                  Z_DEFAULT_COMPRESSION) != Z_OK)
        return {};
    out.resize(kDeflatedHeader + size);
    return out;
}

/// The text of a deflated value; empty (which reads as null) when it is damaged.
std::string inflated(const std::string &blob)
{
    if (blob.size() < kDeflatedHeader || !std::equal(kDeflatedMagic, kDeflatedMagic + 4, blob.begin()))
        return {};
    std::uint64_t n = 0;
    for (int b = 0; b < 8; ++b)
        n |= std::uint64_t(static_cast<unsigned char>(blob[std::size_t(4 + b)])) << (8 * b);
    if (n > std::uint64_t(std::numeric_limits<uLong>::max()) || n > (std::uint64_t(1) << 40))
        return {};
    std::string out(std::size_t(n), '\0');
    uLongf size = uLongf(n);
    if (uncompress(reinterpret_cast<Bytef *>(out.data()), &size,
                   reinterpret_cast<const Bytef *>(blob.data() + kDeflatedHeader),
                   uLong(blob.size() - kDeflatedHeader)) != Z_OK ||
        size != n)
        return {};
    return out;
}

/// A stored JSON value's text: a deflated BLOB inflated, a TEXT value as it is.
std::string storedText(const Statement &s, int col)
{
    return s.isBlob(col) ? inflated(s.blob(col)) : s.text(col);
}

/// The stored JSON text, or null when it is not JSON (a damaged or hand-edited row).
nlohmann::json parseOrNull(const std::string &text)
{
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    return j.is_discarded() ? nlohmann::json() : j;
}

bool isBusy(int rc)
{
    return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

/// Runs `attempt` (it returns an SQLite result code) until it returns `success` or fails with
/// something other than busy, at most Workspace::kWriteAttempts times. Between tries it steps
/// back 20 ms per try so far: another writer held the lock past the busy timeout, or SQLite
/// answered busy at once because waiting could deadlock. Returns the last code.
int retryWhileBusy(int success, const std::function<int()> &attempt)
{
    for (int n = 1;; ++n) {
        const int rc = attempt();
        if (rc == success || !isBusy(rc) || n >= Workspace::kWriteAttempts)
            return rc;
        std::this_thread::sleep_for(std::chrono::milliseconds(20 * n));
    }
}

std::string folderOf(const std::string &path)
{
    const auto parent = std::filesystem::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

/// Why `path` cannot be written, or "" when it can (a missing file: whether its folder can).
std::string whyNotWritable(const std::string &path)
{
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        if (::access(path.c_str(), W_OK) != 0)
            return "the file " + path + " cannot be written (" + std::strerror(errno) + ")";
    }
    const std::string dir = folderOf(path);
    if (::access(dir.c_str(), W_OK) != 0)
        return "its folder " + dir + " cannot be written (" + std::strerror(errno) +
               "), and SQLite keeps its journal files there";
    return {};
}

bool hasSqliteHeader(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    char header[16] = {};
    in.read(header, sizeof header);
    return in.gcount() == 16 && std::memcmp(header, "SQLite format 3", 16) == 0;
}

/// The problem for SQLite result code `rc` while `doing` something, in the user's terms.
Problem describe(sqlite3 *db, int rc, const std::string &path, const std::string &doing)
{
    const std::string sqlite = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    const int primary = rc & 0xff;
    const std::string what = doing.empty() ? std::string() : doing + ": ";
    switch (primary) {
    case SQLITE_FULL:
        return {path, what + "the disk is full (SQLite: " + sqlite +
                          "); nothing was written: free some space, or keep the workspace on "
                          "another disk"};
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_AUTH: {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            return {path, what + "is a folder, expected a workspace file"};
        if (!std::filesystem::exists(folderOf(path), ec))
            return {path, what + "the folder " + folderOf(path) + " does not exist and cannot "
                                 "be created"};
        if (const std::string why = whyNotWritable(path); !why.empty())
            return {path, what + "the workspace is read-only: " + why};
        return {path, what + "SQLite cannot open it (" + sqlite + ")"};
    }
    case SQLITE_NOTADB:
        if (hasSqliteHeader(path))
            return {path, what + "the workspace file is damaged: it starts like an SQLite "
                                 "database but SQLite cannot read it (truncated or "
                                 "overwritten?)"};
        return {path, "not a ClusterBench workspace (not an SQLite database)"};
    case SQLITE_CORRUPT:
        return {path, what + "the workspace file is damaged (SQLite: " + sqlite +
                          "); `clusterbench history --check` lists what is wrong, and the "
                          "sqlite3 shell's .recover command copies out what can be read"};
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return {path, what + "another process kept the workspace locked for over " +
                          std::to_string(Workspace::kWriteAttempts * Workspace::kBusyTimeoutMs /
                                         1000) +
                          " s (SQLite: " + sqlite + "); nothing was written, try again"};
    case SQLITE_TOOBIG:
        return {path, what + "a value is larger than the workspace holds (SQLite: " + sqlite +
                          ")"};
    case SQLITE_IOERR: {
        const int sys = db ? sqlite3_system_errno(db) : 0;
        if (sys == ENOSPC || sys == EDQUOT)
            return describe(db, SQLITE_FULL, path, doing);
        return {path, what + "input/output error (SQLite: " + sqlite +
                          (sys ? std::string("; ") + std::strerror(sys) : std::string()) + ")"};
    }
    default:
        return {path, what + sqlite};
    }
}

/// SQLite's URI for opening a file read-only and immutable (in a folder that cannot hold
/// the journal files). Characters with a meaning in URIs are %-escaped.
std::string immutableUri(const std::string &path)
{
    std::string absolute = std::filesystem::absolute(path).string();
    std::string uri = "file:";
    for (char c : absolute) {
        if (c == '%' || c == '?' || c == '#') {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
            uri += buf;
        } else {
            uri += c;
        }
    }
    return uri + "?immutable=1";
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
    const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err);
    sqlite3_free(err);
    if (rc != SQLITE_OK)
        return Status(Problems{failure(rc, {})});
    return Ok{};
}

Problem Workspace::failure(int rc, const std::string &doing) const
{
    return describe(m_db, rc, m_path, doing);
}

int Workspace::schemaVersion() const
{
    Statement s(m_db, "PRAGMA user_version");
    return s.ok() && s.step() == SQLITE_ROW ? int(s.integer(0)) : -1;
}

std::size_t Workspace::maxValueBytes() const
{
    return std::size_t(sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, -1));
}

void Workspace::setMaxValueBytes(std::size_t bytes)
{
    sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, int(std::min<std::size_t>(bytes, 2147483647u)));
}

Result<std::unique_ptr<Workspace>> Workspace::open(const std::string &path, Access access)
{
    using R = Result<std::unique_ptr<Workspace>>;
    std::error_code ec;
    const bool existed = std::filesystem::exists(path, ec);
    if (access == Access::ReadOnly && (!existed || !whyNotWritable(path).empty())) {
        // Nothing may be written here: read the file as it is on disk, or an empty
        // workspace when there is none yet.
        sqlite3 *db = nullptr;
        int rc = existed ? sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr)
                         : sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nullptr);
        std::unique_ptr<Workspace> ws(new Workspace(path, db));
        if (rc != SQLITE_OK)
            return R(Problems{ws->failure(rc, "cannot open the workspace")});
        sqlite3_busy_timeout(db, kBusyTimeoutMs);
        if (!existed) {
            if (auto st = ws->migrate(); !st)
                return R(st.problems());
            ws->m_readOnly = true;
            return R(std::move(ws));
        }
        rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
        if ((rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_READONLY) {
            // A WAL workspace in a read-only folder: SQLite cannot create the shared-memory
            // file. Without unfinished writes in the -wal file the database file is whole.
            if (std::filesystem::file_size(path + "-wal", ec) > 0 && !ec)
                return R::failure(path, "cannot read the workspace: its folder cannot be "
                                        "written and " + path + "-wal holds writes not yet in "
                                        "the database file; open it once where it can be "
                                        "written");
            sqlite3_close(db);
            ws->m_db = nullptr;
            rc = sqlite3_open_v2(immutableUri(path).c_str(), &ws->m_db,
                                 SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
            if (rc == SQLITE_OK)
                rc = sqlite3_exec(ws->m_db, "SELECT count(*) FROM sqlite_master", nullptr,
                                  nullptr, nullptr);
        }
        if (rc != SQLITE_OK)
            return R(Problems{ws->failure(rc, "cannot read the workspace")});
        const int version = ws->schemaVersion();
        if (version > kSchemaVersion)
            return R::failure(path, "workspace schema version " + std::to_string(version) +
                                        " is newer than this ClusterBench supports (" +
                                        std::to_string(kSchemaVersion) +
                                        "); open it with a newer ClusterBench");
        if (version < 2)
            return R::failure(path, "the workspace was written by an older ClusterBench and "
                                    "cannot be updated here (" +
                                        whyNotWritable(path) +
                                        "); open it once where it can be written");
        ws->m_readOnly = true;
        return R(std::move(ws));
    }

    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty())
        std::filesystem::create_directories(parent, ec);
    sqlite3 *db = nullptr;
    const int opened =
        sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    std::unique_ptr<Workspace> ws(new Workspace(path, db));
    if (opened != SQLITE_OK)
        return R(Problems{ws->failure(opened, "cannot open the workspace")});
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    // Read the version before touching anything, so a newer file stays untouched.
    std::int64_t tables = 0;
    {
        Statement check(db, "SELECT count(*) FROM sqlite_master");
        const int rc = check.step();
        if (rc != SQLITE_ROW)
            return R(Problems{ws->failure(rc, "cannot open the workspace")});
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
    if (sqlite3_db_readonly(db, "main") == 1)
        return R(Problems{ws->failure(SQLITE_READONLY, "cannot store runs")});
    // WAL: readers never block the writer. Switching needs a moment of exclusive access,
    // which several processes creating one workspace contend for, so it retries as writes do.
    Problem walProblem;
    const int walRc = retryWhileBusy(SQLITE_ROW, [&] {
        Statement wal(db, "PRAGMA journal_mode=WAL");
        const int rc = wal.step();
        if (rc != SQLITE_ROW)
            walProblem = ws->failure(rc, "cannot set up the workspace");
        return rc;
    });
    if (walRc != SQLITE_ROW)
        return R(Problems{walProblem});
    if (auto st = ws->exec("PRAGMA foreign_keys=ON"); !st)
        return R(st.problems());
    if (auto st = ws->migrate(); !st)
        return R(st.problems());
    return R(std::move(ws));
}

Status Workspace::migrate()
{
    if (schemaVersion() == kSchemaVersion)
        return Ok{};
    // One exclusive transaction that reads the version again: a second process creating the
    // same new workspace waits here, then finds it migrated.
    int from = 0;
    std::string refused;
    auto st = writeTransaction("migrating the workspace schema", [&](std::string &what) {
        refused.clear();
        Statement v(m_db, "PRAGMA user_version");
        if (const int rc = v.step(); rc != SQLITE_ROW)
            return rc;
        int version = int(v.integer(0));
        from = version;
        if (version == kSchemaVersion)
            return int(SQLITE_OK);
        Statement t(m_db, "SELECT count(*) FROM sqlite_master");
        if (const int rc = t.step(); rc != SQLITE_ROW)
            return rc;
        if (version == 0 && t.integer(0) > 0) {
            refused = "not a ClusterBench workspace (an SQLite database with other tables and "
                      "no ClusterBench schema version)";
            return int(SQLITE_OK);
        }
        if (version > kSchemaVersion) {
            refused = "workspace schema version " + std::to_string(version) +
                      " is newer than this ClusterBench supports (" +
                      std::to_string(kSchemaVersion) + ")";
            return int(SQLITE_OK);
        }
        const std::pair<int, const char *> steps[] = {
            {0, kSchemaV1}, {1, kMigrateV1toV2}, {2, kMigrateV2toV3}};
        for (const auto &[at, sql] : steps) {
            if (version != at)
                continue;
            if (const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr);
                rc != SQLITE_OK) {
                what = "migration from schema version " + std::to_string(from) + " failed";
                return rc;
            }
            version = at + 1;
        }
        const std::string set = "PRAGMA user_version = " + std::to_string(version);
        if (const int rc = sqlite3_exec(m_db, set.c_str(), nullptr, nullptr, nullptr);
            rc != SQLITE_OK) {
            what = "migration from schema version " + std::to_string(from) + " failed";
            return rc;
        }
        return int(SQLITE_OK);
    });
    if (!st)
        return st;
    if (!refused.empty())
        return Status::failure(m_path, refused);
    return Ok{};
}

Status Workspace::writeTransaction(const std::string &doing,
                                   const std::function<int(std::string &what)> &body)
{
    if (m_readOnly)
        return Status(Problems{failure(SQLITE_READONLY, doing)});
    Problem problem;
    const int last = retryWhileBusy(SQLITE_OK, [&] {
        std::string what;
        int rc = sqlite3_exec(m_db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK) {
            rc = body(what);
            if (rc == SQLITE_OK)
                rc = sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr);
            if (rc == SQLITE_OK)
                return rc;
        }
        // The message before ROLLBACK, which resets SQLite's error text.
        problem = failure(rc, what.empty() ? doing : what);
        if (!sqlite3_get_autocommit(m_db))
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
        return rc;
    });
    if (last == SQLITE_OK)
        return Ok{};
    return Status(Problems{problem});
}

Result<std::vector<std::string>> Workspace::integrityCheck() const
{
    std::vector<std::string> problems;
    {
        Statement s(m_db, "PRAGMA integrity_check");
        int rc;
        while ((rc = s.step()) == SQLITE_ROW)
            problems.push_back(s.text(0));
        if (rc != SQLITE_DONE)
            return Result<std::vector<std::string>>(
                Problems{failure(rc, "PRAGMA integrity_check failed")});
    }
    if (problems.size() == 1 && problems.front() == "ok")
        problems.clear();
    {
        Statement s(m_db, "PRAGMA foreign_key_check");
        int rc;
        while ((rc = s.step()) == SQLITE_ROW)
            problems.push_back("table " + s.text(0) + " row " + s.text(1) +
                               ": refers to a missing row of " + s.text(2));
        if (rc != SQLITE_DONE)
            return Result<std::vector<std::string>>(
                Problems{failure(rc, "PRAGMA foreign_key_check failed")});
    }
    if (problems.empty())
        problems.push_back("ok");
    return problems;
}

std::string Workspace::digestOf(const Scenario &scenario)
{
    return Sha256::hex(scenarioToText(scenario));
}

Result<StoredScenario> Workspace::addScenario(const Scenario &scenario)
{
    const std::string text = scenarioToText(scenario);
    StoredScenario stored;
    stored.digest = Sha256::hex(text);
    stored.name = scenario.name.empty() ? std::string("unnamed") : scenario.name;
    const std::string name = stored.name;
    if (text.size() > maxValueBytes())
        return Result<StoredScenario>::failure(
            m_path, "cannot store scenario \"" + name + "\": its text is " +
                        std::to_string(text.size()) + " bytes, above the " +
                        std::to_string(maxValueBytes()) +
                        " bytes a workspace value holds (SQLite's length limit)");
    auto st = writeTransaction("cannot store scenario \"" + name + "\"", [&](std::string &) {
        stored.name = name;
        Statement find(m_db, "SELECT name, version, created FROM scenarios WHERE digest = ?");
        find.bind(1, stored.digest);
        int rc = find.step();
        if (rc == SQLITE_ROW) {
            stored.name = find.text(0);
            stored.version = int(find.integer(1));
            stored.created = find.text(2);
            return int(SQLITE_OK);
        }
        if (rc != SQLITE_DONE)
            return rc;
        Statement next(m_db, "SELECT coalesce(max(version), 0) + 1 FROM scenarios WHERE name = ?");
        next.bind(1, stored.name);
        if (rc = next.step(); rc != SQLITE_ROW)
            return rc;
        stored.version = int(next.integer(0));
        stored.created = nowUtc();
        Statement insert(m_db, "INSERT INTO scenarios(digest, name, version, content, created) "
                               "VALUES (?, ?, ?, ?, ?)");
        if (!insert.ok())
            return insert.rc();
        insert.bind(1, stored.digest);
        insert.bind(2, stored.name);
        insert.bind(3, std::int64_t(stored.version));
        if (rc = insert.bind(4, text); rc != SQLITE_OK)
            return rc;
        insert.bind(5, stored.created);
        rc = insert.step();
        return rc == SQLITE_DONE ? int(SQLITE_OK) : rc;
    });
    if (!st)
        return Result<StoredScenario>(st.problems());
    return stored;
}

Result<std::vector<StoredScenario>> Workspace::scenarios() const
{
    std::vector<StoredScenario> out;
    Statement s(m_db, "SELECT digest, name, version, created FROM scenarios ORDER BY name, version");
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        out.push_back({s.text(0), s.text(1), int(s.integer(2)), s.text(3)});
    if (rc != SQLITE_DONE)
        return Result<std::vector<StoredScenario>>(
            Problems{failure(rc, "cannot read the stored scenarios")});
    return out;
}

Result<std::string> Workspace::scenarioText(const std::string &digest) const
{
    Statement s(m_db, "SELECT content FROM scenarios WHERE digest = ?");
    s.bind(1, digest);
    const int rc = s.step();
    if (rc == SQLITE_ROW)
        return s.text(0);
    if (rc != SQLITE_DONE)
        return Result<std::string>(Problems{failure(rc, "cannot read scenario " + digest)});
    return Result<std::string>::failure(m_path, "no scenario with digest " + digest);
}

Result<std::int64_t> Workspace::saveRun(RunRecord run, const std::function<void()> &midWrite)
{
    using R = Result<std::int64_t>;
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto &[name, value] : run.metrics)
        metrics[name] = value;
    const std::string parameters = run.parameters.dump();
    const std::string log = run.decisionLog.is_null() ? std::string() : run.decisionLog.dump();
    const std::string timeline = run.timeline.is_null() ? std::string() : run.timeline.dump();
    for (const auto &[what, text] : {std::pair<const char *, const std::string &>{"parameters",
                                                                                  parameters},
                                     {"decision log", log},
                                     {"timeline", timeline}})
        if (text.size() > maxValueBytes())
            return R::failure(m_path, std::string("cannot store the run: its ") + what + " is " +
                                          std::to_string(text.size()) + " bytes, above the " +
                                          std::to_string(maxValueBytes()) +
                                          " bytes a workspace value holds (SQLite's length "
                                          "limit)");
    const std::string deflatedLog = log.empty() ? std::string() : deflated(log);
    const std::string deflatedTimeline = timeline.empty() ? std::string() : deflated(timeline);
    if ((!log.empty() && deflatedLog.empty()) || (!timeline.empty() && deflatedTimeline.empty()))
        return R::failure(m_path, "cannot store the run: zlib could not compress it");
    const bool inSweep = run.kind == "sweep" && run.parameters.is_object() &&
                         run.parameters.contains("sweep") && run.parameters["sweep"].is_string();
    std::int64_t id = 0;
    auto st = writeTransaction("cannot store the run", [&](std::string &what) {
        Statement insert(m_db, "INSERT INTO runs(scenario_digest, policy, parameters, seed, "
                               "program_version, created, metrics, decision_log, kind, status, "
                               "sweep) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        if (!insert.ok())
            return insert.rc();
        int rc = SQLITE_OK;
        auto keep = [&rc](int r) {
            if (rc == SQLITE_OK)
                rc = r;
        };
        keep(insert.bind(1, run.scenarioDigest));
        keep(insert.bind(2, run.policy));
        keep(insert.bind(3, parameters));
        keep(insert.bind(4, std::int64_t(run.seed)));
        keep(insert.bind(5, run.programVersion.empty() ? std::string(CB_VERSION)
                                                       : run.programVersion));
        keep(insert.bind(6, nowUtc()));
        keep(insert.bind(7, metrics.dump()));
        keep(run.decisionLog.is_null() ? insert.bindNull(8) : insert.bindBlob(8, deflatedLog));
        keep(insert.bind(9, run.kind));
        keep(insert.bind(10, run.status));
        keep(inSweep ? insert.bind(11, run.parameters["sweep"].get<std::string>())
                     : insert.bindNull(11));
        if (rc != SQLITE_OK)
            return rc;
        if (rc = insert.step(); rc != SQLITE_DONE)
            return rc;
        id = sqlite3_last_insert_rowid(m_db);
        Statement metric(m_db, "INSERT INTO metrics(run_id, name, value) VALUES (?, ?, ?)");
        for (const auto &[name, value] : run.metrics) {
            metric.bind(1, id);
            metric.bind(2, name);
            metric.bind(3, value);
            if (rc = metric.step(); rc != SQLITE_DONE) {
                what = "cannot store metric " + name;
                return rc;
            }
            metric.reset();
        }
        if (!run.timeline.is_null()) {
            Statement t(m_db, "INSERT INTO timelines(run_id, content) VALUES (?, ?)");
            t.bind(1, id);
            if (rc = t.bindBlob(2, deflatedTimeline); rc != SQLITE_OK)
                return rc;
            if (rc = t.step(); rc != SQLITE_DONE) {
                what = "cannot store the timeline";
                return rc;
            }
        }
        if (midWrite)
            midWrite();
        return int(SQLITE_OK);
    });
    if (!st)
        return R(st.problems());
    return id;
}

Result<std::vector<RunRecord>> Workspace::runs() const
{
    return selectRuns(-1);
}

Result<std::vector<RunRecord>> Workspace::selectRuns(std::int64_t onlyId) const
{
    using R = Result<std::vector<RunRecord>>;
    std::vector<RunRecord> out;
    Statement s(m_db, "SELECT runs.id, scenario_digest, coalesce(scenarios.name, ''), kind, policy,"
                      " parameters, seed, program_version, runs.created, status"
                      " FROM runs LEFT JOIN scenarios ON scenarios.digest = runs.scenario_digest"
                      " WHERE ?1 < 0 OR runs.id = ?1 ORDER BY runs.id DESC");
    s.bind(1, onlyId);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
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
    if (rc != SQLITE_DONE)
        return R(Problems{failure(rc, "cannot read the stored runs")});
    Statement m(m_db, "SELECT name, value FROM metrics WHERE run_id = ? ORDER BY name");
    for (RunRecord &r : out) {
        m.bind(1, r.id);
        while ((rc = m.step()) == SQLITE_ROW)
            r.metrics[m.text(0)] = m.real(1);
        if (rc != SQLITE_DONE)
            return R(Problems{failure(rc, "cannot read the metrics of run " +
                                              std::to_string(r.id))});
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
        return Result<std::int64_t>(Problems{failure(s.rc(), "cannot look up sweep runs")});
    s.bind(1, sweepId);
    s.bind(2, std::int64_t(gridIndex));
    const int rc = s.step();
    if (rc == SQLITE_ROW)
        return s.integer(0);
    if (rc != SQLITE_DONE)
        return Result<std::int64_t>(Problems{failure(rc, "cannot look up sweep runs")});
    return std::int64_t(0);
}

Result<std::string> Workspace::beginSweep(const std::string &base, int points)
{
    std::string id;
    auto st = writeTransaction("cannot record the sweep", [&](std::string &) {
        Statement insert(m_db, "INSERT OR IGNORE INTO sweeps(id, created, points, status) "
                               "VALUES (?, ?, ?, 'running')");
        if (!insert.ok())
            return insert.rc();
        const std::string created = nowUtc();
        for (int n = 1;; ++n) {
            id = n == 1 ? base : base + "-" + std::to_string(n);
            insert.bind(1, id);
            insert.bind(2, created);
            insert.bind(3, std::int64_t(points));
            if (const int rc = insert.step(); rc != SQLITE_DONE)
                return rc;
            if (sqlite3_changes(m_db) == 1)
                return int(SQLITE_OK);
            insert.reset();
        }
    });
    if (!st)
        return Result<std::string>(st.problems());
    return id;
}

Status Workspace::finishSweep(const std::string &sweepId)
{
    return writeTransaction("cannot mark sweep " + sweepId + " complete", [&](std::string &) {
        for (const char *sql : {"UPDATE runs SET status = 'complete' WHERE sweep = ?",
                                "UPDATE sweeps SET status = 'complete' WHERE id = ?"}) {
            Statement s(m_db, sql);
            if (!s.ok())
                return s.rc();
            s.bind(1, sweepId);
            if (const int rc = s.step(); rc != SQLITE_DONE)
                return rc;
        }
        return int(SQLITE_OK);
    });
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
    int rc = log.step();
    if (rc == SQLITE_ROW && !log.isNull(0))
        r.decisionLog = parseOrNull(storedText(log, 0));
    else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return Result<RunRecord>(Problems{failure(rc, "cannot read run " + std::to_string(id))});
    Statement timeline(m_db, "SELECT content FROM timelines WHERE run_id = ?");
    timeline.bind(1, id);
    rc = timeline.step();
    if (rc == SQLITE_ROW)
        r.timeline = parseOrNull(storedText(timeline, 0));
    else if (rc != SQLITE_DONE)
        return Result<RunRecord>(Problems{failure(rc, "cannot read run " + std::to_string(id))});
    return r;
}

Status Workspace::deleteRun(std::int64_t id)
{
    bool missing = false;
    auto st = writeTransaction("cannot delete run " + std::to_string(id), [&](std::string &) {
        // Children first, explicitly: foreign-key cascades depend on a per-connection pragma.
        for (const char *sql : {"DELETE FROM metrics WHERE run_id = ?",
                                "DELETE FROM timelines WHERE run_id = ?"}) {
            Statement child(m_db, sql);
            child.bind(1, id);
            if (const int rc = child.step(); rc != SQLITE_DONE)
                return rc;
        }
        Statement remove(m_db, "DELETE FROM runs WHERE id = ?");
        remove.bind(1, id);
        if (const int rc = remove.step(); rc != SQLITE_DONE)
            return rc;
        missing = sqlite3_changes(m_db) == 0;
        return int(SQLITE_OK);
    });
    if (!st)
        return st;
    if (missing)
        return Status::failure(m_path, "no run " + std::to_string(id) +
                                           " (see clusterbench history)");
    return Ok{};
}

} // namespace cb
