#pragma once
// The workspace: one SQLite file holding scenarios (versioned by name, identified by content
// digest), runs (scenario digest, policy, parameters, seed, program version), their metrics,
// decision logs and timelines. The schema is versioned with PRAGMA user_version and migrated
// forward on open; a newer workspace is refused untouched. WAL journal; each run is written
// in one transaction, so a crash leaves either the whole run or nothing.

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
    static constexpr int kSchemaVersion = 2;

    /// Opens (creating if needed) and migrates a workspace file. Refuses a file written by a
    /// newer ClusterBench, without changing it.
    static Result<std::unique_ptr<Workspace>> open(const std::string &path);
    /// $CLUSTERBENCH_WORKSPACE, else $XDG_DATA_HOME/clusterbench/workspace.sqlite, else
    /// ~/.local/share/clusterbench/workspace.sqlite.
    static std::string defaultPath();

    ~Workspace();
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;

    const std::string &path() const { return m_path; }
    int schemaVersion() const;

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
    /// Deletes a run with its metrics and timeline in one transaction; fails naming the id
    /// when there is no such run. The scenario it ran on stays (other runs may share it).
    Status deleteRun(std::int64_t id);

private:
    Workspace(std::string path, sqlite3 *db);
    Status exec(const std::string &sql) const;
    Status migrate();
    /// Runs without logs and timelines, newest first; all when onlyId < 0.
    Result<std::vector<RunRecord>> selectRuns(std::int64_t onlyId) const;

    std::string m_path;
    sqlite3 *m_db = nullptr;
};

} // namespace cb
