#pragma once
// The versioned scenario file format (documented by resources/schema/scenario.schema.json).
// Loading checks structure and meaning and reports every problem with its JSON pointer;
// saving is canonical (fixed key order, integral numbers written as integers) and atomic,
// so save(load(x)) is stable byte for byte.

#include "model/scenario.h"
#include "util/json_number.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace cb {

/// Reads a scenario from parsed JSON, then validates it (validateScenario).
Result<Scenario> scenarioFromJson(const nlohmann::json &doc);
/// Parses and reads a scenario from text.
Result<Scenario> scenarioFromText(const std::string &text);
/// Reads a scenario file; problems carry JSON pointers (format them with the path as prefix).
Result<Scenario> loadScenarioFile(const std::string &path);

nlohmann::ordered_json scenarioToJson(const Scenario &scenario);
/// Canonical text: 2-space indent, trailing newline.
std::string scenarioToText(const Scenario &scenario);
Status saveScenarioFile(const std::string &path, const Scenario &scenario);
/// Writes the same bytes as saveScenarioFile, atomically, but builds the JSON text one job at
/// a time, so a scenario of millions of jobs needs little memory beyond the scenario itself.
/// `progress(jobs written)`, if set, is called every few thousand jobs; returning false
/// cancels (nothing is written).
Status writeScenarioFile(const std::string &path, const Scenario &scenario,
                         const std::function<bool(std::size_t)> &progress = {});

} // namespace cb
