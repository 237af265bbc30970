#pragma once
// One importer per external format (a Kubernetes node list, a Slurm configuration, a job
// trace, a topology file), all behind this interface. The GUI, the CLI and the tests reach
// them through the registry (importer_registry.h), so adding a format touches only this
// folder.

#include "io/import/import_input.h"
#include "io/import/import_report.h"
#include "io/import/node_template.h"
#include "io/import/time_column.h"
#include "util/result.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cb {

/// What to do with jobs a trace lists but that never started (pending pods, tasks with no
/// start time): leave them out (named in the report), or keep them waiting from their submit
/// time with the default length.
enum class PendingJobs { Skip, Wait };

/// Defaults for what inputs leave out; every use is stated in the report.
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
    /// Time formats the user named (time_column.h); the rest are detected.
    TimeFormats timeFormats{};
    PendingJobs pending = PendingJobs::Skip;
    /// GPU type for clusters whose source names none (and for the default cluster).
    std::string gpuType{};
    /// Node specification for topology-only formats (NodeTemplate).
    NodeTemplate nodeTemplate{};
    /// Identical nodes a one-node description (NCCL or hwloc XML) stands for.
    int nodeCount = 1;
    /// gavel: measured throughputs (Gavel's throughputs JSON); empty: the built-in table.
    std::string throughputsFile{};
    /// Node lists with a state (scontrol show node, Kubernetes Nodes): keep the nodes that
    /// take no new job now (down, drained, failed, cordoned, not ready), which are left out
    /// by default.
    bool keepUnavailableNodes = false;
    /// Bytes read over all inputs and their total, as reading goes (never decreasing; the
    /// last call has done == total).
    std::function<void(std::size_t done, std::size_t total)> progress{};
};

/// The start of an input, for format detection.
struct ImportSample
{
    std::string name; ///< file name as given
    std::string head; ///< the first bytes (up to 64 KiB), a byte-order mark removed
};

/// How much an input looks like a format: 0 not at all, 1 its file name only, 2 its content
/// fits, 3 its content can only be this format. `why` says what was recognised.
struct FormatMatch
{
    int score = 0;
    std::string why;
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
    /// The options of the format's own it reads, by their command-line names ("nodes",
    /// "date", "node-template", "throughputs", "model"): one given that no input's format
    /// reads is said in the report rather than ignored in silence.
    virtual std::vector<std::string> readsOptions() const { return {}; }
    /// Whether `sample` looks like this format (for `import FILE` without a format name).
    virtual FormatMatch detect(const ImportSample &sample) const = 0;
    /// Reads the inputs. A fatal problem (unreadable structure, missing required column)
    /// fails with the file and line; bad rows are skipped and listed in the report.
    virtual Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                                      const ImportOptions &options) const = 0;
};

} // namespace cb
