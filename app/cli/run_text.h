#pragma once
// The text summary of a simulated run that simulate and show print.

#include "runs/run_service.h"

#include <string>

namespace cb::cli {

/// "Policy P (seed S): F of N jobs finished" and one line per figure: makespan, mean JCT,
/// mean slowdown, cross-node bytes, energy, cost (with its model), tardiness, total cost,
/// due-date violations; reconfigurations and where the prices came from for stochastic runs;
/// node failures when there were some.
std::string runSummaryText(const Run &run);

} // namespace cb::cli
