#pragma once
// A whole import, as `clusterbench import` and the window's import dialogs run it, with no Qt
// and no terminal: pick the format of each file (named, or detected from the content), read
// them, put the cluster and the jobs into a scenario (a new one, the cluster of --cluster, or
// all of --append-to), check it the way `validate` will, and only then write it, atomically.
// Every failure says which input file and line is to blame and whether anything usable was
// found; nothing is written on failure.

#include "io/import/import_report.h"
#include "io/import/importer.h"
#include "model/scenario.h"
#include "util/result.h"

#include <functional>
#include <string>
#include <vector>

namespace cb {

/// What to import.
struct ImportRequest
{
    std::string format;             ///< registry name; empty: detected from each file
    std::vector<std::string> files; ///< the inputs
    ImportOptions options;
    std::string clusterFile;  ///< a scenario whose cluster the jobs go to (its jobs not kept)
    std::string appendTo;     ///< a scenario the jobs are added to (its jobs kept)
    std::string nodeTemplate; ///< NodeTemplate text, or a node file (NCCL or hwloc XML)
    std::string name;         ///< scenario name; empty: the first input's file name
};

/// Why an import produced nothing: the exit codes of the terminal command follow it.
enum class ImportFailure {
    None,
    BadInput,      ///< usage or input that cannot be read as its format (exit 2)
    NothingUsable, ///< read, but no job (or node) could be kept (exit 1)
    WriteFailed,   ///< the scenario could not be written (exit 1)
    Cancelled,
};

class ScenarioImport
{
public:
    /// Told the import's progress: the phase ("reading", "checking", "writing") and the
    /// fraction of the whole import done, 0 to 1. Returning false cancels.
    using Progress = std::function<bool(const std::string &phase, double fraction)>;

    explicit ScenarioImport(ImportRequest request, Progress progress = {});

    /// Reads the inputs and builds and checks the scenario; writes nothing.
    bool run();
    /// Writes the scenario to `path` (atomically, one job at a time); the report then counts
    /// what was written. Only after a successful run().
    bool write(const std::string &path);

    ImportFailure failure() const { return m_failure; }
    /// Why it failed, each naming the input file and line (or the option) to blame.
    const Problems &problems() const { return m_problems; }
    const Scenario &scenario() const { return m_scenario; }
    Scenario &scenario() { return m_scenario; }
    /// The merged report of every importer that ran, and of the checks.
    const ImportReport &report() const { return m_report; }
    /// The format(s) used: "philly-pollux", or "nccl-topo + philly-pollux".
    std::string formats() const;
    /// For each detected format, the files and what was recognised in them.
    const std::vector<std::string> &detected() const { return m_detected; }

private:
    struct Group
    {
        const Importer *importer = nullptr;
        std::vector<std::string> files;
    };
    bool fail(ImportFailure kind, Problems problems);
    bool resolveFormats(std::vector<Group> &groups);
    bool resolveNodeTemplate();
    bool report(const std::string &phase, double fraction);

    ImportRequest m_request;
    Progress m_progress;
    ImportFailure m_failure = ImportFailure::None;
    Problems m_problems;
    Scenario m_scenario;
    ImportReport m_report;
    std::vector<std::string> m_detected;
    std::vector<std::string> m_formats;
    std::vector<std::string> m_clusterSources; ///< files the cluster came from
    bool m_ran = false;
};

/// No imported format gives a server's own power: its nodes would draw 0 W besides their
/// GPUs, and a run's energy and cost would count the GPUs only. Unless some node has a draw,
/// the generator's server draw (HostParams) is given to every node, and said in `report`.
/// (The terminal's import and the window's cluster import both call it.)
void assumeHostPower(Cluster &c, ImportReport &report);

/// Reading, checking and writing take these parts of the progress bar (measured on the
/// 100,000-row benchmark trace, tests/bench/bench_import.cpp).
constexpr double kImportReadShare = 0.55;
constexpr double kImportCheckShare = 0.15;

} // namespace cb
