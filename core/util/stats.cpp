#include "util/stats.h"

#include <cmath>

namespace cb {

MeanStd meanAndStd(const std::vector<double> &values)
{
    MeanStd s;
    if (values.empty())
        return s;
    for (double x : values)
        s.mean += x;
    s.mean /= double(values.size());
    if (values.size() > 1) {
        double ss = 0;
        for (double x : values)
            ss += (x - s.mean) * (x - s.mean);
        s.std = std::sqrt(ss / double(values.size() - 1));
    }
    return s;
}

} // namespace cb
