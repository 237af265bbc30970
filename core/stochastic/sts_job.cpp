#include "stochastic/sts_job.h"

#include <algorithm>
#include <limits>

namespace cb {

double StsJob::minRemainingSeconds(double done) const
{
    double best = std::numeric_limits<double>::infinity();
    for (const StsConfigTime &t : times)
        best = std::min(best, t.remainingSeconds(done, maxEpochs));
    return best;
}

double StsJob::maxRemainingSeconds(double done) const
{
    double worst = 0;
    for (const StsConfigTime &t : times)
        if (!t.config.shared())
            worst = std::max(worst, t.remainingSeconds(done, maxEpochs));
    return worst;
}

const StsConfigTime *StsJob::find(const StsConfig &c) const
{
    for (const StsConfigTime &t : times)
        if (t.config == c)
            return &t;
    return nullptr;
}

double stsPressure(const StsJob &job, double doneEpochs, double now)
{
    const double p = now + job.minRemainingSeconds(doneEpochs) - job.dueSeconds;
    return p <= 0 ? p : p * job.tardinessWeight;
}

} // namespace cb
