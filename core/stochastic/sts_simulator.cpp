#include "stochastic/sts_simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace cb {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

struct Running
{
    StsConfig config;
    StsPlacement at;
    double speed = 0;          ///< epochs per second
    double phaseEnd = kNever;  ///< planned reconfiguration time
    double crossPerEpoch = 0;  ///< cross-node bytes per epoch
};

std::string joinTriggers(bool arrival, bool completion, bool reconfiguration)
{
    std::string s;
    auto add = [&](bool on, const char *name) {
        if (on)
            s += (s.empty() ? "" : ",") + std::string(name);
    };
    add(arrival, "arrival");
    add(completion, "completion");
    add(reconfiguration, "reconfiguration");
    return s.empty() ? "start" : s;
}

} // namespace

double StsSimulator::crossBytesPerIteration(double parameterBytes, int g, int nodes)
{
    if (nodes < 2 || g < 2)
        return 0;
    return nodes * 2.0 * parameterBytes * (g - 1) / g;
}

double StsSimulator::ringSeconds(double parameterBytes, int g, int nodes, double gbps)
{
    if (nodes < 2 || g < 2 || !(gbps > 0))
        return 0;
    return 2.0 * parameterBytes * (g - 1) / g * 8.0 / (gbps * 1e9);
}

Result<StsRunResult> StsSimulator::run(StsScheduler &scheduler, std::uint64_t seed,
                                       StsDecisionLog *log) const
{
    const std::size_t n = m_jobs.size();
    std::vector<std::size_t> arrivals(n);
    for (std::size_t i = 0; i < n; ++i)
        arrivals[i] = i;
    std::stable_sort(arrivals.begin(), arrivals.end(), [&](std::size_t a, std::size_t b) {
        return m_jobs[a].submitSeconds < m_jobs[b].submitSeconds;
    });

    StsRunResult result;
    result.method = scheduler.name();
    result.jobs.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        result.jobs[i].id = m_jobs[i].id;

    std::vector<double> done(n, 0.0);
    std::vector<std::optional<StsConfig>> lastConfig(n);
    std::vector<bool> active(n, false), finished(n, false);
    std::map<std::size_t, Running> running;
    GpuPool pool = m_pool;
    Rng rng(Rng::mix(seed, 0x5354535f52554eULL));

    std::size_t nextArrival = 0;
    std::size_t finishedCount = 0;
    double now = 0;
    bool arrived = false, completed = false, reconfigured = false;
    const std::size_t maxEvents = 100 * n + 1000;

    while (finishedCount < n) {
        while (nextArrival < n && m_jobs[arrivals[nextArrival]].submitSeconds <= now + 1e-9) {
            active[arrivals[nextArrival++]] = true;
            arrived = true;
        }
        bool anyActive = false;
        for (std::size_t i = 0; i < n; ++i)
            anyActive = anyActive || active[i];
        if (!anyActive) {
            if (nextArrival >= n)
                break;
            now = m_jobs[arrivals[nextArrival]].submitSeconds;
            continue;
        }
        if (++result.events > int(maxEvents))
            return Result<StsRunResult>::failure(scheduler.name(),
                                                 "too many scheduling events (no progress)");

        // Scheduling pass.
        StsPass pass;
        pass.now = now;
        pass.jobs = &m_jobs;
        pass.prices = &m_prices;
        pass.pool = &pool;
        pass.rng = &rng;
        StsEventRecord record;
        record.time = now;
        record.trigger = joinTriggers(arrived, completed, reconfigured);
        pass.log = log ? &record : nullptr;
        pool.clear();
        std::map<std::size_t, Running> kept;
        if (!scheduler.replansRunningJobs()) {
            for (const auto &[i, r] : running)
                if (pool.reserve(r.config, r.at))
                    kept.emplace(i, r);
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (!active[i] || kept.count(i))
                continue;
            StsJobState s;
            s.job = i;
            s.doneEpochs = done[i];
            s.lastConfig = lastConfig[i];
            auto r = running.find(i);
            s.running = r != running.end();
            s.phaseEnded = s.running && r->second.phaseEnd <= now + 1e-6;
            pass.states.push_back(s);
        }
        const std::vector<StsAssignment> assigned = scheduler.schedule(pass);
        std::map<std::size_t, Running> next = kept;
        for (const StsAssignment &a : assigned) {
            const StsConfigTime *t = m_jobs[a.job].find(a.config);
            if (!t)
                return Result<StsRunResult>::failure(
                    m_jobs[a.job].id, "scheduler chose a configuration outside its time table");
            const StsJob &job = m_jobs[a.job];
            Running r;
            r.config = a.config;
            r.at = a.at;
            r.speed = t->speed(job.maxEpochs);
            if (a.at.nodeCount() > 1) {
                ++result.multiNodePlacements;
                if (job.iterationsPerEpoch > 0 && job.parameterBytes > 0) {
                    double gbps = kNever;
                    for (const auto &[node, n] : a.at.parts)
                        gbps = std::min(gbps, pool.nodes()[node].nicGbps);
                    const int k = a.at.nodeCount();
                    const double computeIter = 1.0 / (r.speed * job.iterationsPerEpoch);
                    const double comm =
                        ringSeconds(job.parameterBytes, a.config.gpus, k, gbps);
                    r.speed = 1.0 / ((computeIter + comm) * job.iterationsPerEpoch);
                    r.crossPerEpoch =
                        crossBytesPerIteration(job.parameterBytes, a.config.gpus, k) *
                        job.iterationsPerEpoch;
                }
            }
            r.phaseEnd = std::isfinite(a.phaseSeconds) ? now + a.phaseSeconds : kNever;
            auto before = running.find(a.job);
            if (before != running.end() && !(before->second.config == a.config))
                result.jobs[a.job].reconfigurations += 1;
            lastConfig[a.job] = a.config;
            next[a.job] = r;
        }
        running = std::move(next);
        if (log)
            log->add(std::move(record));

        // Next event.
        double t = nextArrival < n ? m_jobs[arrivals[nextArrival]].submitSeconds : kNever;
        for (const auto &[i, r] : running) {
            t = std::min(t, now + (m_jobs[i].trueStopEpochs() - done[i]) / r.speed);
            t = std::min(t, r.phaseEnd);
        }
        if (!std::isfinite(t)) {
            std::string waiting;
            for (std::size_t i = 0; i < n; ++i)
                if (active[i] && !running.count(i))
                    waiting = m_jobs[i].id;
            return Result<StsRunResult>::failure(
                waiting, "fits no node of the cluster (no configuration can be placed)");
        }
        t = std::max(t, now);

        // Advance: pay for GPUs, make progress.
        const double dt = t - now;
        for (const auto &[i, r] : running) {
            // Per node used: its busy GPUs' rate times this job's share of them.
            const auto charge = [&](std::size_t node, double gpus) {
                const int busy = std::max(1, pool.busyGpus(node));
                result.jobs[i].energyCost += dt / 3600 *
                                             m_prices.ratePerHour(r.config.gpuType, busy) *
                                             gpus / busy * r.config.fraction;
            };
            if (r.at.parts.empty())
                charge(r.at.node, r.config.shared() ? 1.0 : double(r.config.gpus));
            else
                for (const auto &[node, n] : r.at.parts)
                    charge(node, double(n));
            result.jobs[i].gpuSeconds += dt * r.config.gpuShare();
            result.jobs[i].crossNodeBytes += dt * r.speed * r.crossPerEpoch;
            done[i] += dt * r.speed;
        }
        now = t;
        arrived = completed = reconfigured = false;
        for (auto it = running.begin(); it != running.end();) {
            const std::size_t i = it->first;
            const StsJob &job = m_jobs[i];
            const double stop = job.trueStopEpochs();
            if (done[i] >= stop - 1e-9 * std::max(1.0, job.maxEpochs)) {
                done[i] = stop;
                StsJobOutcome &o = result.jobs[i];
                o.finishSeconds = now;
                const double late = std::max(0.0, now - job.dueSeconds);
                o.tardinessCost = job.tardinessWeight * late;
                o.violated = late > 1e-6;
                active[i] = false;
                finished[i] = true;
                ++finishedCount;
                completed = true;
                it = running.erase(it);
                continue;
            }
            if (it->second.phaseEnd <= now + 1e-6)
                reconfigured = true;
            ++it;
        }
    }
    for (const StsJobOutcome &o : result.jobs) {
        result.energyCost += o.energyCost;
        result.tardinessCost += o.tardinessCost;
        result.violations += o.violated ? 1 : 0;
        result.crossNodeBytes += o.crossNodeBytes;
    }
    result.totalCost = result.energyCost + result.tardinessCost;
    return result;
}

} // namespace cb
