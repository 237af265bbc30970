#include "stochastic/sts_configuration.h"

#include <sstream>

namespace cb {

std::string StsConfig::toString() const
{
    std::ostringstream s;
    s << gpuType << " x" << gpus;
    if (shared())
        s << " (" << fraction << " GPU)";
    return s.str();
}

} // namespace cb
