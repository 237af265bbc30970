#pragma once
// Gavel's measured throughputs: training steps per second of each job type ("ResNet-50
// (batch size 64)") at each scale factor (GPUs) on each worker type (k80, p100, v100), the
// table Gavel's simulator runs its traces on. Built in (gavel_builtin_throughputs.cpp, the
// run-alone values of Gavel's simulation_throughputs.json), or read from a Gavel throughputs
// JSON file: {"v100": {"('ResNet-50 (batch size 64)', 1)": {"null": 4.39, ...}, ...}, ...}
// (keys may also be a bare job type, scale factor 1, as in combined_throughputs.json).

#include "util/result.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace cb {

struct GavelThroughput
{
    std::string worker; ///< "k80", "p100", "v100"
    std::string job;    ///< "ResNet-50 (batch size 64)"
    int scale = 1;
    double stepsPerSecond = 0;
};

/// The built-in table (249 entries).
std::vector<GavelThroughput> builtinGavelThroughputs();

class GavelThroughputs
{
public:
    static GavelThroughputs builtin();
    /// Reads a Gavel throughputs JSON file; problems name the file and key.
    static Result<GavelThroughputs> fromJson(const std::string &text, const std::string &file);

    /// Steps per second of `job` at `scale` on `worker`, or nullopt (not measured). A zero
    /// (Gavel's mark for a job that does not fit that GPU) is returned as zero.
    std::optional<double> find(const std::string &worker, const std::string &job, int scale) const;
    /// The worker types, in name order.
    std::vector<std::string> workers() const;
    std::size_t size() const { return m_table.size(); }
    /// Where the table comes from, for the report.
    const std::string &source() const { return m_source; }

private:
    std::map<std::tuple<std::string, std::string, int>, double> m_table;
    std::string m_source;
};

} // namespace cb
