#pragma once
// Writes an exporter's files below an output folder, all or nothing (FileSetWriter): on any
// failure the folder keeps its old content and nothing new.

#include "io/export/exporter.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace cb {

class ExportWriter
{
public:
    /// Creates `dir` (and subfolders) as needed and writes every file, all or nothing. A file
    /// path must be relative and stay inside `dir`.
    static Status write(const std::string &dir, const ExportResult &result);
    /// Files already in `dir` that look like this export's (in a folder it writes to, with
    /// an extension its files have) but that it does not write: left by an earlier export
    /// of other jobs, they would be submitted with this one's (`sbatch DIR/*.sbatch`,
    /// `kubectl apply -f DIR`). Relative to `dir`, sorted; empty when `dir` does not exist.
    static std::vector<std::string> strayFiles(const std::string &dir, const ExportResult &result);

    /// What writing a file does to what `dir` holds: a new file, one with the same bytes
    /// again, or one whose other content it replaces (an earlier export, of these jobs or in
    /// another format).
    enum class Fate { New, Same, Replaces };
    /// The fate of each of `result`'s files, in their order.
    static std::vector<Fate> fates(const std::string &dir, const ExportResult &result);
    /// Says in each file that takes comments where its schedule came from: "# Scheduled by
    /// ClusterBench VERSION: `origin`" as the first line of a YAML or .conf file, the second
    /// of a script (after its #!); JSON and CSV files stay as they are. Nothing for an empty
    /// origin. The files of one run, in any format, then name the same origin.
    static void stampOrigin(ExportResult &result, const std::string &origin);
    /// The origin of a placement of every job at once by `policy` with `seed`.
    static std::string placementOrigin(const std::string &policy, long long seed);
    /// "scenario sha256:" and the first 12 digits of the SHA-256 of its canonical text: the
    /// scenario a schedule was made for, whatever its file is called.
    static std::string scenarioTag(const Scenario &scenario);
};

} // namespace cb
