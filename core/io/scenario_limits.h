#pragma once
// The value ranges the scenario format accepts (the reader in scenario_json.cpp refuses a file
// beyond them; the schema documents them). Anything beyond is a unit mistake, not a cluster.
// Writers that build scenarios from other sources (the importers) check their output against
// the same limits, so what they write always reads back.

#include "model/scenario.h"
#include "util/result.h"

#include <cstdint>

namespace cb::limits {

constexpr double kMaxCpus = 1e6;
constexpr double kMaxMemoryGiB = 1e9;
constexpr std::int64_t kMaxGpusPerNode = 4096;
constexpr double kMaxGbps = 1e7;
constexpr double kMaxLatencyUs = 1e9;
constexpr double kMaxWatts = 1e7;
constexpr double kMaxPrice = 1e9;
constexpr double kMaxSeconds = 1e12;
constexpr std::int64_t kMaxReplicas = 100000;
constexpr std::int64_t kMaxBytes = std::int64_t(1e15);
constexpr std::int64_t kMaxIterations = std::int64_t(1e12);
constexpr std::int64_t kMaxLocalBatch = 100000000;
constexpr double kMinGpuFraction = 0.01;
constexpr int kMaxPriority = 1000000;
constexpr double kMaxTardinessWeight = 1e9;

/// Fields of `job` outside the ranges above, with JSON pointers below `pointer`
/// ("/jobs/3/model/iterations"), in the reader's words.
Problems jobProblems(const Job &job, const std::string &pointer);
/// The same for the cluster (node, GPU type and link fields).
Problems clusterProblems(const Cluster &cluster);

} // namespace cb::limits
