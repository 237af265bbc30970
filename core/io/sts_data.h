#pragma once
// Readers for the STS authors' data files (ai-sprint-eu-project/GPUScheduler, build/data;
// copies in tests/data/sts): profiled job templates, early-termination distributions, GPU
// prices and energy costs. Every problem names the file and line and what was expected.

#include "model/job.h"
#include "stochastic/price_catalogue.h"
#include "stochastic/sharing_slices.h"
#include "util/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb {

/// One profiled job of data_2d10d_filtered.csv (its rows share the Jobs column, e.g. "J10").
struct StsJobTemplate
{
    std::string id;           ///< "J10"
    std::string application;  ///< "pytorch_alexnet"
    std::int64_t images = 0;  ///< training-set size
    int epochs = 0;           ///< max epochs the execution times cover
    int batchSize = 0;
    double memoryGB = 0;      ///< GPU memory the job needs (decides GPU-sharing slices)
    /// Time to run all epochs per (GPU type, count), in file order. GPU type names are the
    /// file's without blanks ("GTX 1080Ti" -> "GTX1080Ti"), as in the GPU catalogue.
    std::vector<ExecutionTime> times;
    int line = 0;             ///< first line of the template
};

/// One row of GPU-cost.csv: a VM type with nGPUs GPUs of one type and its hourly cost.
struct StsGpuPrice
{
    std::string vmType;
    std::string gpuType;      ///< without blanks, as in StsJobTemplate
    int gpus = 1;
    double costPerHour = 0;
    int line = 0;
};

/// The energy price and PUE of GPU-cost_server_4-2.csv (the same on every row).
struct StsEnergyCost
{
    double pricePerKWh = 0;
    double pue = 1;
};

/// Everything the data-centre setup needs, read from one folder or built into the program.
struct StsAuthorsData
{
    std::vector<StsJobTemplate> templates;
    std::map<std::string, std::vector<double>> distributions;
    std::vector<StsGpuPrice> prices;
    StsEnergyCost energy;
    /// GPU-cost_server.csv (every count 1..8 per GPU type), when the source has it.
    std::optional<PriceCatalogue> serverPrices;
    /// fractions.csv (GPU-sharing slices), when the source has it.
    std::optional<SharingSlices> slices;
    /// Where the files came from: a folder's path, or "built in (...)".
    std::string source;
    /// The copy built into the program (builtinStsAuthorsData), not a folder.
    bool builtin = false;
    /// The file the cloud prices come from, for reports: source/GPU-cost_server.csv or
    /// source/GPU-cost.csv.
    std::string cloudPricesFile() const;
};

/// data_2d10d_filtered.csv: columns Application, Images, Epochs, Batchsize, Jobs, GpuType,
/// GpuNumber, ExecutionTime, Memory (others ignored); templates in order of first appearance.
Result<std::vector<StsJobTemplate>> parseStsJobTemplates(const std::string &text,
                                                         const std::string &file);
/// distributions.csv: one column per distribution, exactly 100 rows (pmf over 1..100 % of
/// the max epochs); a byte-order mark and CRLF endings are accepted.
Result<std::map<std::string, std::vector<double>>>
parseStsDistributions(const std::string &text, const std::string &file);
/// GPU-cost.csv: VMtype, GPUtype, nGPUs, cost.
Result<std::vector<StsGpuPrice>> parseStsGpuPrices(const std::string &text,
                                                    const std::string &file);
/// GPU-cost_server_4-2.csv: the EnergyCost[...] and PUE columns.
Result<StsEnergyCost> parseStsEnergyCost(const std::string &text, const std::string &file);

/// Reads the four files above from `dir`, and GPU-cost_server.csv and fractions.csv when they
/// are there; problems name each file by its path.
Result<StsAuthorsData> loadStsAuthorsData(const std::string &dir);
/// The same files as built into the program (resources/data/sts): always there, so STS runs
/// need no data folder. Problems would name the built-in file (they are checked by a test).
Result<StsAuthorsData> builtinStsAuthorsData();

/// Per-GPU hourly price of a GPU type: the cost per GPU of its smallest VM (0 if absent).
double stsPricePerGpu(const std::vector<StsGpuPrice> &prices, const std::string &gpuType);

} // namespace cb
