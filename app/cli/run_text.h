#pragma once
// The text summary of a simulated run that simulate and show print.

#include "runs/run_service.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cb::cli {

/// "Policy P (seed S): F of N jobs finished" and one line per figure: makespan, mean JCT,
/// mean slowdown, cross-node bytes, energy, cost (with its model), tardiness, total cost,
/// due-date violations; reconfigurations and where the prices came from for stochastic runs;
/// node failures when there were some.
std::string runSummaryText(const Run &run);

/// What the pins cost: the run with the pinned tasks against the policy's own run of the
/// same scenario and seed, one line per figure both have (cross-node bytes per iteration,
/// jobs waiting; when simulated makespan, mean JCT, energy, cost, tardiness), with the
/// difference. Starts with the tasks that moved.
std::string whatIfText(const Run &own, const Run &pinned);
/// The same as JSON: {"pins": [...], "policy": {metric: value}, "pinned": {...}}, every
/// metric both runs have.
nlohmann::ordered_json whatIfJson(const Run &own, const Run &pinned);

} // namespace cb::cli
