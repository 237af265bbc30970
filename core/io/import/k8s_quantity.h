#pragma once
// Kubernetes resource quantities: "8", "7500m", "1.5", "64Gi", "65536Ki", "1e9", "500M".

#include <optional>
#include <string_view>

namespace cb {

/// The value of a quantity in base units (cores for cpu, bytes for memory): binary suffixes
/// Ki Mi Gi Ti Pi Ei, decimal suffixes n u m k M G T P E, or an exponent. nullopt if invalid.
std::optional<double> parseK8sQuantity(std::string_view text);

} // namespace cb
