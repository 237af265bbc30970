#include "sim/reoffer_index.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace cb {

namespace {

constexpr double kReofferEps = 1e-9; // the placer's score and filter epsilon

bool reofferIntegral(double x) { return x == std::floor(x) && std::fabs(x) < 1e15; }

} // namespace

ReofferIndex::ReofferIndex(const Cluster &cluster, const ClusterState &state,
                           const Policy &policy)
    : m_cluster(cluster), m_state(state), m_policy(policy)
{}

int ReofferIndex::shapeOf(const TaskGroup &g)
{
    ShapeKey key{g.cpus, g.memoryGiB, g.gpuFraction, g.gpus, g.gpuType, g.nodeSelector};
    auto it = m_shapeIds.find(key);
    if (it != m_shapeIds.end())
        return it->second;
    const int id = int(m_shapes.size());
    m_shapeIds.emplace(std::move(key), id);
    Shape s;
    s.cpus = g.cpus;
    s.mem = g.memoryGiB;
    s.gpus = g.gpus;
    s.fraction = g.gpuFraction;
    // The placer's gang count is exact only for these (Placer: tasksThatFit).
    s.integralShape = !(g.gpus > 0 && g.gpuFraction < 1.0) && reofferIntegral(g.cpus) &&
                      reofferIntegral(g.memoryGiB);
    // The placer's static filter.
    const int n = m_state.nodeCount();
    const bool typed = g.gpus > 0 && !g.gpuType.empty();
    s.eligible.assign(std::size_t(n), 1);
    if (typed || !g.nodeSelector.empty() || g.gpus != 0) {
        const int typeId = typed ? m_state.gpuTypeIndex(g.gpuType) : -1;
        for (int i = 0; i < n; ++i) {
            bool ok = m_state.gpuCap()[i] >= g.gpus;
            if (typed)
                ok = ok && m_state.gpuTypeId()[i] == typeId;
            for (const auto &[k, v] : g.nodeSelector) {
                if (!ok)
                    break;
                const auto &labels = m_cluster.nodes[std::size_t(i)].labels;
                auto l = labels.find(k);
                ok = l != labels.end() && l->second == v;
            }
            s.eligible[std::size_t(i)] = ok ? 1 : 0;
        }
    }
    m_shapes.push_back(std::move(s));
    return id;
}

int ReofferIndex::comboOf(int prefix, int tail, int m)
{
    for (std::size_t k = 0; k < m_combos.size(); ++k)
        if (m_combos[k].prefix == prefix && m_combos[k].tail == tail && m_combos[k].m == m)
            return int(k);
    Combo c;
    c.prefix = prefix;
    c.tail = tail;
    c.m = m;
    m_combos.push_back(std::move(c));
    return int(m_combos.size()) - 1;
}

/// The task groups of the job's tasks in the order the placer offers them (Placer: taskOrder).
std::vector<int> ReofferIndex::taskGroupsInOrder(const Job &job) const
{
    struct Ref
    {
        int group;
        TaskRole role;
    };
    std::vector<Ref> all;
    for (std::size_t gi = 0; gi < job.tasks.size(); ++gi)
        for (int r = 0; r < job.tasks[gi].replicas; ++r)
            all.push_back({int(gi), job.tasks[gi].role});
    if (m_policy.taskOrder != TaskOrder::AsWritten) {
        const auto rank = [](TaskRole r) {
            return r == TaskRole::Ps ? 0 : r == TaskRole::Chief ? 1 : 2;
        };
        std::stable_sort(all.begin(), all.end(),
                         [&](const Ref &a, const Ref &b) { return rank(a.role) < rank(b.role); });
        if (m_policy.taskOrder == TaskOrder::Interleaved) {
            std::vector<Ref> ps, rest, out;
            for (const Ref &t : all)
                (t.role == TaskRole::Ps ? ps : rest).push_back(t);
            std::size_t pi = 0, ri = 0;
            while (pi < ps.size()) {
                out.push_back(ps[pi++]);
                const std::size_t psLeft = ps.size() - pi + 1;
                const std::size_t take = (rest.size() - ri + psLeft - 1) / psLeft;
                for (std::size_t k = 0; k < take; ++k)
                    out.push_back(rest[ri++]);
            }
            while (ri < rest.size())
                out.push_back(rest[ri++]);
            all = std::move(out);
        }
    }
    std::vector<int> groups;
    groups.reserve(all.size());
    for (const Ref &t : all)
        groups.push_back(t.group);
    return groups;
}

void ReofferIndex::build(const std::vector<Job> &jobs)
{
    std::map<std::tuple<int, int, int, int, int, bool>, int> classIds;
    m_jobClass.assign(jobs.size(), -1);
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const Job &job = jobs[j];
        const std::vector<int> groups = taskGroupsInOrder(job);
        JobClass c;
        if (!groups.empty()) {
            // Runs of equal shapes in task order.
            std::vector<std::pair<int, int>> runs; // (shape, length)
            for (int g : groups) {
                const int s = shapeOf(job.tasks[std::size_t(g)]);
                if (!runs.empty() && runs.back().first == s)
                    ++runs.back().second;
                else
                    runs.push_back({s, 1});
            }
            c.first = runs.front().first;
            c.single = groups.size() == 1;
            if (runs.size() == 1) {
                c.tail = runs[0].first;
                c.r = runs[0].second;
            } else if (runs.size() == 2) {
                c.prefix = runs[0].first;
                c.m = runs[0].second;
                c.tail = runs[1].first;
                c.r = runs[1].second;
            }
        }
        const auto key = std::make_tuple(c.first, c.prefix, c.m, c.tail, c.r, c.single);
        auto it = classIds.find(key);
        if (it == classIds.end()) {
            if (c.prefix >= 0)
                c.combo = comboOf(c.prefix, c.tail, c.m);
            it = classIds.emplace(key, int(m_classes.size())).first;
            m_classes.push_back(c);
        }
        m_jobClass[j] = it->second;
    }
    // Counts are capped at the largest number of tasks of the shape any job asks for.
    for (const JobClass &c : m_classes) {
        if (c.tail >= 0)
            m_shapes[std::size_t(c.tail)].cap = std::max(m_shapes[std::size_t(c.tail)].cap, c.r);
        if (c.prefix >= 0)
            m_shapes[std::size_t(c.prefix)].cap =
                std::max(m_shapes[std::size_t(c.prefix)].cap, c.m);
    }
    const int n = m_state.nodeCount();
    for (Shape &s : m_shapes) {
        if (!s.integralShape)
            s.cap = 1; // only whether one task fits is used
        s.count.assign(std::size_t(n), 0);
        s.bad.assign(std::size_t(n), 0);
    }
    for (Combo &c : m_combos)
        c.lowers.assign(std::size_t(n), 0);
    m_seenCpu.assign(std::size_t(n), 0);
    m_seenMem.assign(std::size_t(n), 0);
    m_seenGpu.assign(std::size_t(n), 0);
    m_seenMaxFree.assign(std::size_t(n), 0);
    for (int i = 0; i < n; ++i)
        refreshNode(i);
}

/// Tasks of shape `s` that fit on node `n` one after another from the given use, capped at
/// the shape's cap: the comparisons of the placer's filter (one task) and gang count.
int ReofferIndex::countOn(const Shape &s, int n, double cpuUsed, double memUsed,
                          double gpuFree) const
{
    if (!s.eligible[std::size_t(n)])
        return 0;
    const double cpuCap = m_state.cpuCap()[n] + kReofferEps;
    const double memCap = m_state.memCap()[n] + kReofferEps;
    if (!s.integralShape) {
        const bool shared = s.gpus > 0 && s.fraction < 1.0;
        const double needWhole = shared ? 0.0 : double(s.gpus);
        const double needShare = shared ? s.fraction - kReofferEps : -1.0;
        const bool ok = cpuUsed + s.cpus <= cpuCap && memUsed + s.mem <= memCap &&
                        gpuFree >= needWhole && m_state.gpuMaxFree()[n] >= needShare;
        return ok ? 1 : 0;
    }
    const double need = double(std::max(0, s.gpus));
    int k = 0;
    while (k < s.cap && cpuUsed + s.cpus <= cpuCap && memUsed + s.mem <= memCap &&
           gpuFree >= need) {
        cpuUsed += s.cpus;
        memUsed += s.mem;
        gpuFree -= need;
        ++k;
    }
    return k;
}

/// A node where the placer's gang count would give up (not exact): non-integral use.
bool ReofferIndex::badOn(const Shape &s, int n) const
{
    if (!reofferIntegral(m_state.cpuUsed()[n]) || !reofferIntegral(m_state.memUsed()[n]))
        return true;
    if (s.gpus > 0)
        for (int g = 0; g < int(m_state.gpuCap()[n]); ++g)
            if (!reofferIntegral(m_state.gpuSlotUsed(n, g)))
                return true;
    return false;
}

void ReofferIndex::refreshShape(Shape &s, int n)
{
    const auto i = std::size_t(n);
    const int c = countOn(s, n, m_state.cpuUsed()[n], m_state.memUsed()[n],
                          m_state.gpuFreeWhole()[n]);
    s.total += c - s.count[i];
    s.count[i] = c;
    const std::uint8_t b = s.integralShape && c > 0 && badOn(s, n) ? 1 : 0;
    s.badNodes += int(b) - int(s.bad[i]);
    s.bad[i] = b;
}

void ReofferIndex::refreshCombo(Combo &c, int n)
{
    const auto i = std::size_t(n);
    const Shape &p = m_shapes[std::size_t(c.prefix)];
    const Shape &w = m_shapes[std::size_t(c.tail)];
    std::uint8_t lowers = 0;
    const int k = std::min(c.m, p.count[i]);
    if (k > 0 && p.integralShape && w.integralShape) {
        double cpu = m_state.cpuUsed()[n], mem = m_state.memUsed()[n];
        double free = m_state.gpuFreeWhole()[n];
        for (int t = 0; t < k; ++t) {
            cpu += p.cpus;
            mem += p.mem;
            free -= double(std::max(0, p.gpus));
        }
        lowers = countOn(w, n, cpu, mem, free) != w.count[i] ? 1 : 0;
    }
    c.lowering += int(lowers) - int(c.lowers[i]);
    c.lowers[i] = lowers;
}

void ReofferIndex::refreshNode(int n)
{
    const auto i = std::size_t(n);
    m_seenCpu[i] = m_state.cpuUsed()[n];
    m_seenMem[i] = m_state.memUsed()[n];
    m_seenGpu[i] = m_state.gpuUsed()[n];
    m_seenMaxFree[i] = m_state.gpuMaxFree()[n];
    for (Shape &s : m_shapes)
        refreshShape(s, n);
    for (Combo &c : m_combos)
        refreshCombo(c, n);
}

void ReofferIndex::refreshChanged()
{
    for (int n = 0; n < m_state.nodeCount(); ++n) {
        const auto i = std::size_t(n);
        if (m_seenCpu[i] != m_state.cpuUsed()[n] || m_seenMem[i] != m_state.memUsed()[n] ||
            m_seenGpu[i] != m_state.gpuUsed()[n] || m_seenMaxFree[i] != m_state.gpuMaxFree()[n])
            refreshNode(n);
    }
}

std::optional<ReofferIndex::Skip> ReofferIndex::blocked(int job) const
{
    const JobClass &c = m_classes[std::size_t(m_jobClass[std::size_t(job)])];
    if (c.first < 0)
        return std::nullopt;
    const bool gang = m_policy.gang;
    if (m_shapes[std::size_t(c.first)].total == 0 && (gang || c.single)) {
        // The first task fits nowhere: one failed decision (the gang count's, for a job of
        // two or more tasks alike whose count is exact).
        Skip s;
        s.decisions = 1;
        s.fastRejection = gang && c.prefix < 0 && c.r >= 2 &&
                          m_shapes[std::size_t(c.tail)].integralShape;
        return s;
    }
    if (!gang || c.tail < 0)
        return std::nullopt;
    const Shape &w = m_shapes[std::size_t(c.tail)];
    if (!w.integralShape || w.badNodes > 0)
        return std::nullopt;
    if (c.prefix < 0) {
        if (c.r >= 2 && w.total < c.r)
            return Skip{w.total + 1, true};
        return std::nullopt;
    }
    const Shape &p = m_shapes[std::size_t(c.prefix)];
    if (!p.integralShape || p.badNodes > 0)
        return std::nullopt;
    if (p.total < c.m)
        return Skip{p.total + 1, false}; // the prefix runs out after p.total tasks
    if (m_combos[std::size_t(c.combo)].lowering > 0)
        return std::nullopt; // where the prefix lands would matter
    if (w.total < c.r)
        return Skip{c.m + w.total + 1, c.r >= 2};
    return std::nullopt;
}

} // namespace cb
