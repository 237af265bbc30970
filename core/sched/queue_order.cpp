#include "sched/queue_order.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

namespace cb {

namespace {

template<typename At>
std::vector<std::size_t> orderOf(std::size_t count, At at, QueueOrder order)
{
    std::vector<std::size_t> idx(count);
    std::iota(idx.begin(), idx.end(), std::size_t(0));
    const double inf = std::numeric_limits<double>::infinity();
    auto key = [&](std::size_t i) {
        const Job &j = at(i);
        double first = 0;
        switch (order) {
        case QueueOrder::Fifo:
            first = j.submitSeconds;
            break;
        case QueueOrder::Edf:
            first = j.dueSeconds ? *j.dueSeconds : inf;
            break;
        case QueueOrder::Sjf:
            first = double(j.model.iterations) * j.model.computeSecondsPerIteration;
            break;
        case QueueOrder::Priority:
            first = -double(j.priority);
            break;
        case QueueOrder::Slack:
            first = j.dueSeconds ? *j.dueSeconds - double(j.model.iterations) *
                                                       j.model.computeSecondsPerIteration
                                 : inf;
            break;
        }
        return std::make_tuple(first, j.submitSeconds, i);
    };
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    return idx;
}

} // namespace

std::vector<std::size_t> queueOrder(const std::vector<Job> &jobs, QueueOrder order)
{
    return orderOf(jobs.size(), [&](std::size_t i) -> const Job & { return jobs[i]; }, order);
}

std::vector<std::size_t> queueOrder(const std::vector<const Job *> &jobs, QueueOrder order)
{
    return orderOf(jobs.size(), [&](std::size_t i) -> const Job & { return *jobs[i]; }, order);
}

} // namespace cb
