#pragma once
// The workspace: one SQLite file holding scenarios (versioned by name, identified by content
// digest), runs (scenario digest, policy, parameters, seed, program version), their metrics,
// decision logs and timelines, and the ids of local sweeps. The schema is versioned with
// PRAGMA user_version and migrated forward on open, inside one exclusive transaction (two
// processes creating one new workspace do not race); a newer workspace is refused untouched.
//
// Several processes may write at once: WAL journal, a busy timeout, and each write (a run, a
// scenario, a deletion) is one IMMEDIATE transaction, retried when another writer holds the
// lock longer than the timeout. A crash leaves either the whole run or nothing. Failures say
// what happened in the user's terms: a read-only folder or file, a full disk, a damaged or
// truncated file, a value beyond SQLite's size limit, a workspace busy for too long.

#include "model/scenario.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct sqlite3;

namespace cb {

struct StoredScenario
{
    std::string digest; ///< SHA-256 of the canonical scenario text
    std::string name;
    int version = 0;    ///< 1, 2, ... per scenario name, in order of first storage
    std::string created;
};

struct RunRecord
{
    std::int64_t id = 0;
    std::string scenarioDigest;
    std::string scenarioName;
    std::string kind = "simulate"; ///< place, simulate, experiment, sweep, ...
    std::string policy;
    nlohmann::json parameters = nlohmann::json::object();
    std::uint64_t seed = 0;
    std::string programVersion;
    std::string created;          ///< UTC, ISO 8601; set by the workspace
    std::string status = "complete";
    std::map<std::string, double> metrics;
    nlohmann::json decisionLog;   ///< null when not stored
    nlohmann::json timeline;      ///< null when not stored
};

class Workspace
{
public:
    static constexpr int kSchemaVersion = 3;
    /// How long a writer waits for another process's write lock before retrying, and how
    /// often it retries: a run is stored unless the workspace stays locked for about a minute.
    static constexpr int kBusyTimeoutMs = 10000;
    static constexpr int kWriteAttempts = 6;

    enum class Access {
        ReadWrite, ///< creates the file if needed and migrates it
        ReadOnly,  ///< never writes: a missing file reads as an empty workspace, a workspace
                   ///< in a read-only folder is read as it is on disk
    };

    /// Opens (creating if needed) and migrates a workspace file. Refuses a file written by a
    /// newer ClusterBench, without changing it.
    static Result<std::unique_ptr<Workspace>> open(const std::string &path,
                                                   Access access = Access::ReadWrite);
    /// $CLUSTERBENCH_WORKSPACE, else $XDG_DATA_HOME/clusterbench/workspace.sqlite, else
    /// ~/.local/share/clusterbench/workspace.sqlite.
    static std::string defaultPath();

    ~Workspace();
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;

    const std::string &path() const { return m_path; }
    int schemaVersion() const;
    bool readOnly() const { return m_readOnly; }

    /// PRAGMA integrity_check and foreign_key_check: "ok" alone when the file is sound, else
    /// every problem SQLite reports, one per entry.
    Result<std::vector<std::string>> integrityCheck() const;

    /// The largest text value (a scenario, a decision log, a timeline) the workspace stores:
    /// SQLite's length limit, 10^9 bytes unless lowered (tests lower it).
    std::size_t maxValueBytes() const;
    void setMaxValueBytes(std::size_t bytes);

    /// The digest a scenario is stored under (of its canonical text): runs of it carry it.
    static std::string digestOf(const Scenario &scenario);
    /// Stores the scenario if its content is new; returns its digest.
    Result<StoredScenario> addScenario(const Scenario &scenario);
    Result<std::vector<StoredScenario>> scenarios() const;
    /// The stored scenario text for a digest.
    Result<std::string> scenarioText(const std::string &digest) const;

    /// Writes a run in one transaction and returns its id. `midWrite`, if set, is called after
    /// the rows are written and before the commit (tests use it to crash mid-write).
    Result<std::int64_t> saveRun(RunRecord run, const std::function<void()> &midWrite = {});
    /// Runs, newest first, without decision logs and timelines.
    Result<std::vector<RunRecord>> runs() const;
    /// One run, complete.
    Result<RunRecord> run(std::int64_t id) const;
    /// The run of a sweep's grid point (parameters "sweep" and "grid_index"), 0 when absent;
    /// merging result files uses it to store every point once.
    Result<std::int64_t> findSweepRun(const std::string &sweepId, int gridIndex) const;

    /// Reserves a sweep id unique in this workspace: `base`, else base-2, base-3, ... (two
    /// sweeps started in the same second by two processes get two ids). The sweep is
    /// "running" until finishSweep; its runs are stored with status "partial".
    Result<std::string> beginSweep(const std::string &base, int points);
    /// Marks the sweep and every run stored for it "complete", in one transaction: a sweep
    /// killed before this keeps its stored points "partial".
    Status finishSweep(const std::string &sweepId);
    /// Deletes a run with its metrics and timeline in one transaction; fails naming the id
    /// when there is no such run. The scenario it ran on stays (other runs may share it).
    Status deleteRun(std::int64_t id);

private:
    Workspace(std::string path, sqlite3 *db);
    Status exec(const std::string &sql) const;
    Status migrate();
    /// A problem for SQLite result code `rc` while `doing` something, in the user's terms.
    Problem failure(int rc, const std::string &doing) const;
    /// Runs `body` inside BEGIN IMMEDIATE ... COMMIT, retrying the whole transaction when
    /// the workspace stays busy (another writer); `body` returns the SQLite code of its
    /// first failed step (SQLITE_OK when all went well) and fills `what` with what failed.
    Status writeTransaction(const std::string &doing,
                            const std::function<int(std::string &what)> &body);
    /// Runs without logs and timelines, newest first; all when onlyId < 0.
    Result<std::vector<RunRecord>> selectRuns(std::int64_t onlyId) const;

    std::string m_path;
    sqlite3 *m_db = nullptr;
    bool m_readOnly = false;
};

} // namespace cb
