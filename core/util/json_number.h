#pragma once
// Numbers in the JSON every format writes: a double that is a whole number (below 1e15 in
// magnitude) is written as an integer, so canonical files stay stable byte for byte.

#include <nlohmann/json.hpp>

namespace cb {

/// A JSON value for a double that is written as an integer when it is one.
nlohmann::ordered_json jsonNumber(double value);

} // namespace cb
