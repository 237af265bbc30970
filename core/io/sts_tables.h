#pragma once
// Readers for the STS price and GPU-sharing tables (the authors' GPU-cost*.csv and
// fractions.csv). Every problem names the file and line and what was expected.

#include "stochastic/price_catalogue.h"
#include "stochastic/sharing_slices.h"
#include "util/result.h"

#include <string>

namespace cb {

/// Cloud prices: GPUtype, nGPUs, cost columns (VMtype optional), e.g. GPU-cost_server.csv.
/// GPU type names lose their blanks ("GTX 1080Ti" -> "GTX1080Ti").
Result<PriceCatalogue> parseCloudPriceCsv(const std::string &text, const std::string &file);
/// Energy prices: GPUtype, nGPUs, PowerConsumption[W] and EnergyCost[...] and PUE columns;
/// cost = watts / 1000 * price * PUE per hour.
Result<PriceCatalogue> parseEnergyPriceCsv(const std::string &text, const std::string &file);
/// fractions.csv: GPUtype, Memory, GPUf, inflate_max (inflate ignored: it is drawn).
Result<SharingSlices> parseSharingSlicesCsv(const std::string &text, const std::string &file);

} // namespace cb
