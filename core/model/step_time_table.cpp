#include "model/step_time_table.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

namespace cb {

namespace {

struct Sample
{
    int batch = 0;
    double step = 0;
    double sync = 0;
};

// Linear in the batch between the samples around b (sorted by batch, batches distinct); the
// end value outside their range; b <= 0 takes the smallest batch.
StepTimeEstimate interpolateBatch(const std::vector<Sample> &s, int b)
{
    if (b <= 0 || b <= s.front().batch)
        return {s.front().step, s.front().sync, b <= 0 || b == s.front().batch};
    if (b >= s.back().batch)
        return {s.back().step, s.back().sync, b == s.back().batch};
    auto hi =
        std::lower_bound(s.begin(), s.end(), b, [](const Sample &x, int v) { return x.batch < v; });
    if (hi->batch == b)
        return {hi->step, hi->sync, true};
    auto lo = hi - 1;
    const double f = double(b - lo->batch) / double(hi->batch - lo->batch);
    return {lo->step + f * (hi->step - lo->step), lo->sync + f * (hi->sync - lo->sync), false};
}

std::string decimalText(double v)
{
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s;
}

} // namespace

std::vector<int> normalisePlacement(std::vector<int> p)
{
    p.erase(std::remove_if(p.begin(), p.end(), [](int c) { return c <= 0; }), p.end());
    std::vector<int> best = p;
    for (std::size_t i = 1; i < p.size(); ++i) {
        std::rotate(p.begin(), p.begin() + 1, p.end());
        if (p < best)
            best = p;
    }
    return best;
}

std::string placementText(const std::vector<int> &placement)
{
    std::string s;
    for (int c : placement)
        s += c >= 0 && c <= 9 ? std::to_string(c) : "[" + std::to_string(c) + "]";
    return s;
}

std::string stepTimeKey(const StepTimePoint &pt)
{
    if (!pt.placement.empty())
        return "placement " + placementText(normalisePlacement(pt.placement)) + ", local batch " +
               std::to_string(pt.localBatch);
    return std::to_string(pt.nodes) + " nodes, " + std::to_string(pt.replicas) +
           " replicas, local batch " + std::to_string(pt.localBatch);
}

std::vector<std::pair<std::size_t, std::string>> stepTimeProblems(const StepTimeTable &t)
{
    std::vector<std::pair<std::size_t, std::string>> out;
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < t.points.size(); ++i) {
        const StepTimePoint &pt = t.points[i];
        if (!std::isfinite(pt.stepSeconds) || pt.stepSeconds <= 0)
            out.emplace_back(i, "step time must be a positive number of seconds, found " +
                                    decimalText(pt.stepSeconds));
        if (!std::isfinite(pt.syncSeconds) || pt.syncSeconds < 0 || pt.syncSeconds > pt.stepSeconds)
            out.emplace_back(i, "sync time must be between 0 and the step time (" +
                                    decimalText(pt.stepSeconds) + " s), found " + decimalText(pt.syncSeconds));
        if (pt.localBatch < 1)
            out.emplace_back(i, "local batch must be at least 1, found " +
                                    std::to_string(pt.localBatch));
        if (!pt.placement.empty()) {
            if (std::any_of(pt.placement.begin(), pt.placement.end(), [](int c) { return c < 1; }))
                out.emplace_back(i, "every node of a placement needs at least 1 GPU");
            const int replicas = std::accumulate(pt.placement.begin(), pt.placement.end(), 0);
            if (pt.nodes != int(pt.placement.size()) || pt.replicas != replicas)
                out.emplace_back(i, "nodes and replicas (" + std::to_string(pt.nodes) + ", " +
                                        std::to_string(pt.replicas) + ") disagree with placement " +
                                        placementText(pt.placement));
        } else if (pt.nodes < 1 || pt.replicas < pt.nodes) {
            out.emplace_back(i, "expected at least 1 node and at least one replica per node, "
                                "found " +
                                    std::to_string(pt.nodes) + " nodes, " +
                                    std::to_string(pt.replicas) + " replicas");
        }
        auto [it, fresh] = seen.emplace(stepTimeKey(pt), i);
        if (!fresh)
            out.emplace_back(i, "duplicate point (" + it->first + ") first given at index " +
                                    std::to_string(it->second));
    }
    return out;
}

std::optional<StepTimeEstimate> lookupStepTime(const StepTimeTable &table,
                                               const std::vector<int> &gpusPerNode, int localBatch)
{
    const std::vector<int> p = normalisePlacement(gpusPerNode);
    if (p.empty() || table.points.empty())
        return std::nullopt;

    // 2. Shaped points of this placement.
    std::vector<Sample> shaped;
    for (const StepTimePoint &pt : table.points)
        if (!pt.placement.empty() && normalisePlacement(pt.placement) == p)
            shaped.push_back({pt.localBatch, pt.stepSeconds, pt.syncSeconds});
    if (!shaped.empty()) {
        std::sort(shaped.begin(), shaped.end(),
                  [](const Sample &a, const Sample &b) { return a.batch < b.batch; });
        return interpolateBatch(shaped, localBatch);
    }

    // 3. The (nodes, replicas) grid: unshaped points, and the mean of shaped ones.
    struct Sum
    {
        double step = 0, sync = 0;
        int n = 0;
    };
    std::map<std::tuple<int, int, int>, Sum> grid; // (nodes, replicas, batch)
    std::map<std::tuple<int, int, int>, Sum> unshaped;
    for (const StepTimePoint &pt : table.points) {
        Sum &s = (pt.placement.empty() ? unshaped : grid)[{pt.nodes, pt.replicas, pt.localBatch}];
        s.step += pt.stepSeconds;
        s.sync += pt.syncSeconds;
        ++s.n;
    }
    for (const auto &[key, s] : unshaped)
        grid[key] = s; // a measured (nodes, replicas) point outranks the mean of shapes
    const int nodes = int(p.size());
    const int replicas = std::accumulate(p.begin(), p.end(), 0);
    int bestNodes = -1;
    for (const auto &[key, s] : grid) {
        const int n = std::get<0>(key);
        if (bestNodes < 0 || std::abs(n - nodes) < std::abs(bestNodes - nodes))
            bestNodes = n; // keys ascend, so a tie keeps the smaller count
    }
    std::map<int, std::vector<Sample>> byReplicas;
    for (const auto &[key, s] : grid)
        if (std::get<0>(key) == bestNodes)
            byReplicas[std::get<1>(key)].push_back(
                {std::get<2>(key), s.step / s.n, s.sync / s.n}); // batches ascend per key
    auto hi = byReplicas.lower_bound(replicas);
    bool exact = bestNodes == nodes;
    if (hi == byReplicas.end()) {
        auto e = interpolateBatch(std::prev(hi)->second, localBatch);
        e.exact = false;
        return e;
    }
    if (hi->first == replicas || hi == byReplicas.begin()) {
        auto e = interpolateBatch(hi->second, localBatch);
        e.exact = e.exact && exact && hi->first == replicas;
        return e;
    }
    auto lo = std::prev(hi);
    const StepTimeEstimate a = interpolateBatch(lo->second, localBatch);
    const StepTimeEstimate b = interpolateBatch(hi->second, localBatch);
    const double f = double(replicas - lo->first) / double(hi->first - lo->first);
    return StepTimeEstimate{a.stepSeconds + f * (b.stepSeconds - a.stepSeconds),
                            a.syncSeconds + f * (b.syncSeconds - a.syncSeconds), false};
}

} // namespace cb
