#pragma once
// One instance of the STS authors' own experiment, as their generator wrote it and their
// simulator scored it (ai-sprint-eu-project/GPUScheduler, script/py/generate_data.py and
// build/main; Filippini et al., IEEE TCC 2024). A folder holds:
//   Lof_Selectjobs.csv    ID, SubmissionTime, Deadline, TardinessWeight, ..., Epochs,
//                         Distribution (the job list: due date, weight, max epochs, law)
//   SelectJobs_times.csv  ID, GPUtype, nGPUs, GPUf, ExecutionTime, RealExecutionTime (time of
//                         all epochs per configuration, and the time the job really runs:
//                         the hidden stop point, the same percentage on every configuration)
//   tNodes.csv            ID, GPUtype, nGPUs, cost
//   GPU-costs.csv         GPUtype, nGPUs, cost (hourly price of n busy GPUs of a type)
//   authors_results_*.csv optional: their all_results.csv rows (method, C++ seed,
//                         tardiness s, tardiness cost, node cost, GPU cost, energy cost, total)
// Every problem names the file and line and what was expected.

#include "io/sts_data.h"
#include "model/scenario.h"
#include "stochastic/price_catalogue.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

/// One row of the authors' all_results.csv.
struct StsAuthorsResult
{
    std::string method;        ///< FIFO, EDF, PS, G, RG, LS, STS
    std::uint64_t seed = 0;    ///< their C++ seed (RG and LS differ by it)
    double tardinessSeconds = 0;
    double tardinessCost = 0;
    double nodeCost = 0;
    double gpuCost = 0;
    double energyCost = 0;
    double totalCost = 0;
    std::string file;          ///< where it was read, for reports
    int line = 0;
};

struct StsAuthorsInstance
{
    std::string dir;
    /// The nodes of tNodes.csv on one switch, the jobs of Lof_Selectjobs.csv with their
    /// execution times; distributions and energy settings from `data`.
    Scenario scenario;
    /// Per job (scenario order): RealExecutionTime / ExecutionTime in percent of max epochs.
    std::vector<int> stopPercent;
    /// GPU-costs.csv.
    PriceCatalogue prices;
    /// authors_results_baselines.csv then authors_results_sts.csv, when present.
    std::vector<StsAuthorsResult> results;
};

/// Reads an instance folder. The termination distributions named by the job list must be in
/// `data` (the authors' distributions.csv).
Result<StsAuthorsInstance> loadStsAuthorsInstance(const std::string &dir,
                                                  const StsAuthorsData &data);

/// Parsers of the single files (`file` names them in problems).
Result<std::vector<StsAuthorsResult>> parseStsAuthorsResults(const std::string &text,
                                                             const std::string &file);

} // namespace cb
