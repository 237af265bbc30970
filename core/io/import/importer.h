#pragma once
// One importer per external format (a Kubernetes node list, a Slurm configuration, a job
// trace), all behind this interface. The GUI, the CLI and the tests reach them through the
// registry (importer_registry.h), so adding a format touches only this folder.

#include "io/import/csv_reader.h"
#include "io/import/import_report.h"
#include "util/result.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cb {

/// One input file, already read: `name` is what messages call it (usually the path).
struct ImportInput
{
    std::string name;
    std::string text;
    /// Bytes of `text` read so far (importFiles sets it; may be empty). CSV readers call it
    /// as they go; importers of JSON, YAML and line formats call done() after each input.
    ReadProgress progress{};

    void done() const
    {
        if (progress)
            progress(text.size());
    }
};

/// Defaults for what traces leave out; every use is stated in the report.
struct ImportOptions
{
    /// Model profile for jobs whose trace names no known model.
    std::string defaultModel = "resnet50";
    /// Seconds per training iteration on the reference GPU, to turn durations into
    /// iteration counts when a trace gives no iteration count.
    double secondsPerIteration = 0.1;
    /// Iterations for jobs whose trace gives neither a duration nor an iteration count.
    long long defaultIterations = 1000;
    /// Day (YYYY-MM-DD) of a daily table to build the cluster from (helios-gpus); empty:
    /// the last day in the file.
    std::string date;
    /// pollux-throughput: the model profile name the measured table is for; empty: taken
    /// from the file names (Pollux application names map through the model catalogue).
    std::string model{};
    /// Bytes read over all inputs and their total, as reading goes (never decreasing; the
    /// last call has done == total). Set by the terminal command for its progress bar.
    std::function<void(std::size_t done, std::size_t total)> progress{};
};

class Importer
{
public:
    /// ModelData: measured model data (step-time tables) for an existing or new scenario.
    enum class Produces { Cluster, Jobs, ClusterAndJobs, ModelData };

    virtual ~Importer() = default;
    /// Registry key, e.g. "k8s-nodes", "slurm", "philly".
    virtual std::string name() const = 0;
    /// One line for --help: what it reads.
    virtual std::string description() const = 0;
    virtual Produces produces() const = 0;
    /// How many input files it takes (min, max); max 0 means unlimited.
    virtual std::pair<int, int> fileCount() const { return {1, 1}; }
    /// Reads the inputs. A fatal problem (unreadable structure, missing required column)
    /// fails with the file and line; bad rows are skipped and listed in the report.
    virtual Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                                      const ImportOptions &options) const = 0;
};

} // namespace cb
