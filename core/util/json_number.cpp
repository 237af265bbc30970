#include "util/json_number.h"

#include <cmath>
#include <cstdint>

namespace cb {

nlohmann::ordered_json jsonNumber(double value)
{
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
        return nlohmann::ordered_json(std::int64_t(value));
    return nlohmann::ordered_json(value);
}

} // namespace cb
