#pragma once
// Summary statistics shared by every report (experiments, sweeps, comparisons).

#include <vector>

namespace cb {

struct MeanStd
{
    double mean = 0;
    double std = 0; ///< sample standard deviation (n - 1); 0 for fewer than two values
};

/// Mean and sample standard deviation of `values` (both 0 when empty).
MeanStd meanAndStd(const std::vector<double> &values);

} // namespace cb
