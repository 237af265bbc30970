#include "sim/simulator.h"

#include "model/validation.h"

#include "net/job_flows.h"
#include "net/maxmin_network.h"
#include "net/topology.h"
#include "sched/queue_order.h"
#include "sim/bucket_stream.h"
#include "sim/event_queue.h"
#include "sim/price_schedule.h"
#include "sim/reoffer_index.h"
#include "sim/stochastic_jobs.h"
#include "util/rng.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stop_token>
#include <thread>
#include <unordered_map>

namespace cb {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A node pair as one key of Simulator::Impl::pairTotals, and back.
std::uint64_t pairKey(const std::pair<int, int> &p)
{
    return std::uint64_t(std::uint32_t(p.first)) << 32 | std::uint32_t(p.second);
}
std::pair<int, int> pairOfKey(std::uint64_t key)
{
    return {int(std::uint32_t(key >> 32)), int(std::uint32_t(key))};
}

} // namespace

struct Simulator::Impl
{
    enum class State { NotArrived, Waiting, Running, Done };

    struct JobState
    {
        const Job *job = nullptr;
        State state = State::NotArrived;
        JobPlacement placement;
        std::vector<SimFlow> flows;
        std::vector<int> flowIds;
        double compute = 0;
        double straggle = 0; ///< straggler wait per iteration (synchronous workers)
        std::optional<double> measured; ///< step time from the model's measured table
        double iterT = kInf;
        double remaining = 0; ///< iterations (of the running placement, see workScale)
        /// Workers of the job / workers running (> 1 for a job admitted without some of its
        /// workers, gang min-available): each iteration covers that much less of the
        /// training, so `remaining` is kept scaled by it while the job runs.
        double workScale = 1;
        double lastUpdate = 0;
        std::uint64_t version = 0;
        double perIterTotal = 0, perIterCross = 0, perIterCrossDomain = 0;
        /// Bytes per iteration per link and node pair (shared with the time buckets' adds
        /// still queued, see BucketStream).
        std::shared_ptr<const BucketStream::Traffic> traffic;
        /// Where traffic->pairs' sums are in pairTotals (filled at the first account).
        std::vector<double *> pairSums;
        double gpuShare = 0;   ///< whole-GPU equivalents allocated
        double busyWatts = 0;  ///< of the allocated shares, before PUE
        double idleWatts = 0;  ///< what the same shares draw idle
        double pricePerHour = 0;
        /// Catalogue cost model: (node, GPU share there) of the job's GPU tasks.
        std::vector<std::pair<int, double>> nodeShares;
    };

    struct Down
    {
        Job phantom;
        JobPlacement placement;
    };

    Simulator *self;
    const Scenario &sc;
    SimOptions opt;
    Topology topo;
    std::unordered_map<std::string, int> nodeIdx;
    std::unordered_map<std::string, int> jobIdx;
    Placer placer;
    MaxMinNetwork net;
    PriceSchedule price;
    EventQueue queue;
    double now = 0;
    bool ran = false;
    bool cancelled = false;

    std::vector<JobState> jobs;
    std::vector<int> flowOwner;
    std::vector<int> waiting;     ///< job indices waiting to be placed, in queue order
    std::vector<int> queueRank;   ///< per job: its place in the policy's queue order
    /// Skips offers of waiting jobs that provably cannot be placed (not in exhaustive mode).
    std::optional<ReofferIndex> reoffer;
    std::int64_t skippedOffers = 0;
    std::vector<int> newArrivals; ///< arrived since the last pass
    /// Per job: it may start without some workers (gang min-available), so the re-offer
    /// index, which counts all-or-nothing offers, cannot skip it.
    std::vector<char> startsShort;
    /// Fragmentation (RunResult::strandedGpuSeconds): per job its smallest GPU task (GPU
    /// type, whole GPUs; 0: none), the waiting jobs counted by it, each node's GPU type as an
    /// index into gpuTypes, and the stranded GPUs since `strandedSince`.
    std::vector<std::pair<int, int>> smallestGpuTask;
    std::map<std::pair<int, int>, int> waitingByNeed;
    std::vector<std::string> gpuTypes; ///< "" first: any type
    std::vector<int> nodeGpuType;
    std::vector<int> neededGpus; ///< strandedGpus' scratch: per GPU type, the fewest asked
    double strandedNow = 0, strandedSince = 0;
    bool needFullPass = false;
    bool passScheduled = false;
    int finished = 0;
    int lastProgressPercent = -1;

    std::vector<std::optional<Down>> down; ///< per node
    std::vector<int> tasksOn;              ///< running tasks per node (power-down only)
    std::vector<std::pair<double, double>> baselineSteps; ///< (from t, watts incl. PUE)
    double baselineWatts = 0;
    std::vector<std::pair<std::string, Hook>> hooks;

    RunResult result;
    /// Cumulative bytes per node pair while the run goes on, moved to result.pairBytes at its
    /// end (finishPairBytes): a hash map's values stay where they are, as the ordered map's
    /// do, and finding a job's pairs costs a probe or two instead of a walk down a tree of
    /// every pair the run has used (4 % of the sample mix x 40,000, 1 % at x 2,000).
    std::unordered_map<std::uint64_t, double> pairTotals;
    BucketStream buckets;
    /// Catalogue cost model of a placement policy's run: tasks per GPU slot and the jobs
    /// running on every node (a job's rate changes whenever its node's busy count does).
    std::vector<std::vector<int>> slotUse;
    std::vector<int> busyOnNode;
    std::vector<std::vector<int>> jobsOnNode;

    Impl(Simulator *s, const Scenario &scenario, SimOptions options)
        : self(s), sc(scenario), opt(std::move(options)), topo(scenario.cluster),
          nodeIdx(nodeIndexMap(scenario.cluster)),
          placer(scenario.cluster, topo, opt.policy, opt.seed),
          net(linkCapacities(topo)), price(scenario.settings),
          buckets(result.series, opt.initialBucketSeconds, opt.maxBuckets, opt.pairBuckets,
                  topo.directedLinkCount())
    {
        placer.setExhaustive(opt.exhaustive);
        applyTaskPins(placer, sc.cluster, opt.pins);
        jobs.resize(sc.jobs.size());
        for (std::size_t i = 0; i < sc.jobs.size(); ++i) {
            jobs[i].job = &sc.jobs[i];
            jobIdx.emplace(sc.jobs[i].id, int(i));
        }
        down.resize(sc.cluster.nodes.size());
        result.linkBytes.assign(std::size_t(topo.directedLinkCount()), 0.0);
    }

    static std::vector<double> linkCapacities(const Topology &t)
    {
        std::vector<double> c(std::size_t(t.directedLinkCount()));
        for (int l = 0; l < t.directedLinkCount(); ++l)
            c[std::size_t(l)] = t.capacityGbps(l);
        return c;
    }

    double pue() const { return std::max(1.0, sc.settings.pue); }

    void log(RunEventKind kind, const std::string &job, const std::string &detail)
    {
        if (opt.keepEventLog)
            result.log.push_back({now, kind, job, detail});
    }

    /// Closes the job's open segment at `now` (if any).
    void closeSegment(int i)
    {
        JobRun &jr = result.jobs[std::size_t(i)];
        if (!jr.segments.empty() && !jr.segments.back().endSeconds)
            jr.segments.back().endSeconds = now;
    }

    // ---- energy baseline ---------------------------------------------------------------

    double nodeIdleWatts(int n) const
    {
        const Node &node = sc.cluster.nodes[std::size_t(n)];
        const GpuType *t = node.gpuType.empty() ? nullptr : sc.cluster.gpuType(node.gpuType);
        return node.baseWatts + (t ? node.gpus * t->idleWatts : 0.0);
    }

    /// With powerDownIdleNodes: the baseline of the nodes that are up and run a task.
    void refreshBaseline()
    {
        double watts = 0;
        for (std::size_t n = 0; n < sc.cluster.nodes.size(); ++n)
            if (!down[n] && (!opt.powerDownIdleNodes || tasksOn[n] > 0))
                watts += nodeIdleWatts(int(n));
        if (watts != baselineWatts)
            setBaseline(watts);
    }

    /// Counts a job's tasks on their nodes (+1 when it starts, -1 when it stops).
    void countTasks(const JobPlacement &p, int delta)
    {
        if (!opt.powerDownIdleNodes)
            return;
        for (const TaskAssignment &a : p.tasks)
            if (auto it = nodeIdx.find(a.node); it != nodeIdx.end())
                tasksOn[std::size_t(it->second)] += delta;
        refreshBaseline();
    }

    void setBaseline(double watts)
    {
        baselineWatts = watts;
        if (!baselineSteps.empty() && baselineSteps.back().first == now)
            baselineSteps.back().second = watts * pue();
        else
            baselineSteps.push_back({now, watts * pue()});
    }

    // ---- jobs --------------------------------------------------------------------------

    double commSeconds(const JobState &js, bool crossNodeOnly = false) const
    {
        std::vector<double> &rates = rateScratch; // (reused: called at every solve)
        rates.resize(js.flows.size());
        for (std::size_t i = 0; i < js.flows.size(); ++i)
            rates[i] = net.rate(js.flowIds[i]);
        return cb::commSeconds(js.flows, rates, crossNodeOnly);
    }
    /// commSeconds()'s rates (the run's own thread only).
    mutable std::vector<double> rateScratch;
    /// updateRates()'s jobs, and which are in (marked with the epoch of the call).
    std::vector<int> affectedScratch;
    std::vector<std::uint64_t> affectedMark;
    std::uint64_t affectedEpoch = 0;

    /// Seconds per iteration of a job from its compute, straggler wait and communication.
    double modelledIteration(const Job &job, double compute, double straggle, double comm) const
    {
        return iterationSeconds(compute, comm, modelOverlap(job.model, sc.settings.overlap),
                                job.model.exposedCommFraction) +
               straggle;
    }

    void account(JobState &js, JobRun &jr, double a, double b, double iters)
    {
        jr.totalBytes += iters * js.perIterTotal;
        jr.crossNodeBytes += iters * js.perIterCross;
        jr.crossDomainBytes += iters * js.perIterCrossDomain;
        if (js.traffic) {
            const BucketStream::Traffic &t = *js.traffic;
            for (const auto &[l, v] : t.links)
                result.linkBytes[std::size_t(l)] += iters * v;
            if (js.pairSums.size() != t.pairs.size()) {
                js.pairSums.clear(); // (a hash map's values stay where they are)
                for (const auto &[p, v] : t.pairs)
                    js.pairSums.push_back(&pairTotals[pairKey(p)]);
            }
            for (std::size_t k = 0; k < t.pairs.size(); ++k)
                *js.pairSums[k] += iters * t.pairs[k].second;
            if (iters != 0 && (!t.links.empty() || !t.pairs.empty()))
                buckets.addTraffic(a, b, js.traffic, iters); // (else it adds nothing)
        }
        const double dt = b - a;
        if (dt <= 0)
            return;
        buckets.addGpuBusy(a, b, js.gpuShare * dt);
        const double jobWatts = js.busyWatts * pue();
        const double extraWatts = (js.busyWatts - js.idleWatts) * pue();
        jr.energyKWh += jobWatts * dt / 3.6e6;
        result.energyKWh += extraWatts * dt / 3.6e6;
        result.energyCost += price.cost(extraWatts, a, b);
        const double gpuHourCost = js.pricePerHour * dt / 3600.0;
        result.gpuHourCost += gpuHourCost;
        if (result.costModel == CostModel::Energy)
            jr.cost += price.cost(jobWatts, a, b);
        else if (result.costModel == CostModel::GpuHours)
            jr.cost += gpuHourCost;
        else if (!opt.stochastic && opt.catalogue) {
            // Constant over [a, b]: every job on a node is advanced when its busy count
            // changes (catalogueChange).
            double amount = 0;
            for (const auto &[n, share] : js.nodeShares) {
                const Node &node = sc.cluster.nodes[std::size_t(n)];
                const int busy = std::max(1, busyOnNode[std::size_t(n)]);
                amount += dt / 3600 * opt.catalogue->ratePerHour(node.gpuType, busy) * share / busy;
            }
            jr.cost += amount;
            buckets.addCost(a, b, amount);
        }
    }

    /// Catalogue cost model: job i takes (delta +1) or gives back (-1) its GPU slots. Every
    /// other job on those nodes is advanced first, at the busy count that held until now.
    void catalogueChange(int i, int delta)
    {
        if (opt.stochastic || !opt.catalogue || result.costModel != CostModel::Catalogue)
            return;
        JobState &js = jobs[std::size_t(i)];
        std::vector<int> nodes;
        for (const TaskAssignment &a : js.placement.tasks)
            if (auto it = nodeIdx.find(a.node); it != nodeIdx.end())
                nodes.push_back(it->second);
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
        for (int n : nodes)
            for (int j : jobsOnNode[std::size_t(n)])
                if (j != i)
                    advance(j);
        for (const TaskAssignment &a : js.placement.tasks) {
            auto it = nodeIdx.find(a.node);
            if (it == nodeIdx.end())
                continue;
            std::vector<int> &use = slotUse[std::size_t(it->second)];
            for (int g : a.gpuIndices)
                if (g >= 0 && std::size_t(g) < use.size())
                    use[std::size_t(g)] += delta;
        }
        for (int n : nodes) {
            const std::vector<int> &use = slotUse[std::size_t(n)];
            busyOnNode[std::size_t(n)] = int(std::count_if(use.begin(), use.end(),
                                                           [](int u) { return u > 0; }));
            std::vector<int> &on = jobsOnNode[std::size_t(n)];
            if (delta > 0)
                on.push_back(i);
            else
                on.erase(std::remove(on.begin(), on.end(), i), on.end());
        }
    }

    void advance(int i)
    {
        JobState &js = jobs[std::size_t(i)];
        if (js.state != State::Running || now <= js.lastUpdate)
            return;
        const double a = js.lastUpdate;
        double iters = 0;
        if (js.iterT <= 0)
            iters = js.remaining;
        else if (!std::isinf(js.iterT))
            iters = std::min(js.remaining, (now - a) / js.iterT);
        js.remaining -= iters;
        JobRun &jr = result.jobs[std::size_t(i)];
        if (!jr.segments.empty())
            jr.segments.back().iterations += iters;
        account(js, jr, a, now, iters);
        js.lastUpdate = now;
    }

    /// Sorts (key, value) entries by key and sums each key's values in the order they came,
    /// from 0 (the sums a map's `m[key] += value` makes, to the bit, without a node per key).
    template<typename K> static void sumByKey(std::vector<std::pair<K, double>> &entries)
    {
        std::stable_sort(entries.begin(), entries.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        std::size_t out = 0;
        for (std::size_t k = 0; k < entries.size();) {
            const K key = entries[k].first;
            double sum = 0.0;
            for (; k < entries.size() && !(key < entries[k].first); ++k)
                sum += entries[k].second;
            entries[out++] = {key, sum};
        }
        entries.resize(out);
    }

    /// Adds the flows of `job` placed as `placement` to the network and records its bytes
    /// per iteration (total, cross-node, per link, per node pair).
    void attachFlows(int i, const Job &job, const JobPlacement &placement)
    {
        JobState &js = jobs[std::size_t(i)];
        js.flows = jobFlows(job, placement, sc.cluster, topo, nodeIdx, sc.settings.allreduce);
        js.flowIds.clear();
        js.perIterTotal = js.perIterCross = js.perIterCrossDomain = 0;
        auto traffic = std::make_shared<BucketStream::Traffic>();
        std::vector<std::pair<int, double>> &links = traffic->links;
        std::vector<std::pair<std::pair<int, int>, double>> &pairs = traffic->pairs;
        for (const SimFlow &f : js.flows) {
            const int id = net.addFlow(f.route, f.capGbps);
            if (std::size_t(id) >= flowOwner.size())
                flowOwner.resize(std::size_t(id) + 1, -1);
            flowOwner[std::size_t(id)] = i;
            js.flowIds.push_back(id);
            const double bytes = f.totalBytes();
            js.perIterTotal += bytes;
            if (f.src != f.dst)
                js.perIterCross += bytes;
            if (f.crossesDomains())
                js.perIterCrossDomain += bytes;
            for (int l : f.route)
                links.emplace_back(l, bytes);
            pairs.push_back({{f.src, f.dst}, bytes});
        }
        sumByKey(links);
        sumByKey(pairs);
        js.traffic = std::move(traffic);
        js.pairSums.clear();
    }

    /// The GPU shares `placement` allocates and what they draw and cost per hour.
    void attachPower(JobState &js, const Job &job, const JobPlacement &placement) const
    {
        js.gpuShare = js.busyWatts = js.idleWatts = js.pricePerHour = 0;
        js.nodeShares.clear();
        for (const TaskAssignment &a : placement.tasks) {
            const TaskGroup &g = job.tasks[std::size_t(a.group)];
            if (g.gpus <= 0)
                continue;
            const double share = g.gpus * std::min(1.0, g.gpuFraction);
            js.gpuShare += share;
            auto n = nodeIdx.find(a.node);
            if (n != nodeIdx.end())
                js.nodeShares.emplace_back(n->second, share);
            const GpuType *t = n == nodeIdx.end()
                                   ? nullptr
                                   : sc.cluster.gpuType(sc.cluster.nodes[std::size_t(n->second)]
                                                            .gpuType);
            if (t) {
                js.busyWatts += share * t->busyWatts;
                js.idleWatts += share * t->idleWatts;
                js.pricePerHour += share * t->pricePerHour;
            }
        }
    }

    /// Workers of `job` over the workers `placement` runs (1 when it runs all of them).
    static double workScaleOf(const Job &job, const JobPlacement &placement)
    {
        const int all = job.workerCount(), placed = placement.workerCount();
        return placed > 0 && placed < all ? double(all) / double(placed) : 1.0;
    }

    void start(int i, JobPlacement placement)
    {
        JobState &js = jobs[std::size_t(i)];
        JobRun &jr = result.jobs[std::size_t(i)];
        const Job &job = *js.job;
        placement.startSeconds = now;
        js.placement = std::move(placement);
        js.state = State::Running;
        js.lastUpdate = now;
        js.iterT = kInf;
        ++js.version;
        ++jr.attempts;
        if (!jr.firstStartSeconds)
            jr.firstStartSeconds = now;
        jr.startSeconds = now;
        jr.placement = js.placement;
        if (js.placement.spansNodes())
            ++result.multiNodePlacements;
        countTasks(js.placement, +1);
        catalogueChange(i, +1);
        js.workScale = workScaleOf(job, js.placement);
        js.remaining *= js.workScale;

        attachFlows(i, job, js.placement);
        js.compute = jobComputeSeconds(job, js.placement, sc.cluster, nodeIdx);
        js.straggle = stragglerSeconds(job.model, js.compute, synchronisingRanks(job, js.placement));
        js.measured.reset();
        if (auto m = measuredStepTime(job, js.placement, sc.stepTimeModels))
            js.measured = m->stepSeconds;
        attachPower(js, job, js.placement);
        jr.segments.push_back({now, std::nullopt, std::nullopt, 0, js.placement});
        std::string nodes;
        for (const TaskAssignment &a : js.placement.tasks)
            nodes += (nodes.empty() ? "" : " ") + std::string(toString(a.role)) + "-" +
                     std::to_string(a.indexInRole) + "@" + a.node;
        if (js.workScale > 1) {
            nodes += " (" + std::to_string(js.placement.workerCount()) + " of " +
                     std::to_string(job.workerCount()) +
                     " workers, min-available " +
                     std::to_string(gangWorkersNeeded(job, opt.policy)) + ")";
        }
        log(RunEventKind::Start, job.id, nodes);
    }

    /// A job that finished: what only a running job needs goes (its traffic is kept by the
    /// time buckets' adds still queued). A long replay would otherwise hold every finished
    /// job's flows and traffic sums to its end: about 3 KB per job on fat-tree-1024.
    static void releaseFinished(JobState &js)
    {
        js.state = State::Done;
        js.traffic.reset();
        js.pairSums = {};
        js.flows = {};
        js.flowIds = {};
        js.nodeShares = {};
        js.placement = {};
    }

    void stopFlows(JobState &js)
    {
        for (int id : js.flowIds) {
            net.removeFlow(id);
            flowOwner[std::size_t(id)] = -1;
        }
        js.flowIds.clear();
        js.flows.clear();
    }

    /// Re-solves the network; every running job whose rates changed (and every job in
    /// `started`) gets its iteration time recomputed and its completion re-planned.
    void solveNetwork()
    {
        if (opt.exhaustive)
            net.solveAll();
        else
            net.solve();
    }

    void updateRates(const std::vector<int> &started)
    {
        solveNetwork();
        ++result.networkSolves;
        // The jobs of the changed flows, each once (a job has many flows), in index order.
        std::vector<int> &affected = affectedScratch;
        affected.clear();
        if (affectedMark.size() < jobs.size())
            affectedMark.resize(jobs.size(), 0);
        ++affectedEpoch;
        auto note = [&](int i) {
            if (affectedMark[std::size_t(i)] != affectedEpoch) {
                affectedMark[std::size_t(i)] = affectedEpoch;
                affected.push_back(i);
            }
        };
        for (int i : started)
            note(i);
        for (int f : net.changedFlows())
            if (flowOwner[std::size_t(f)] >= 0)
                note(flowOwner[std::size_t(f)]);
        std::sort(affected.begin(), affected.end());
        for (int i : affected) {
            JobState &js = jobs[std::size_t(i)];
            if (js.state != State::Running)
                continue;
            const bool fresh = std::binary_search(started.begin(), started.end(), i);
            const double t = js.measured ? *js.measured
                                         : modelledIteration(*js.job, js.compute, js.straggle,
                                                             commSeconds(js));
            if (!fresh && t == js.iterT)
                continue;
            advance(i);
            js.iterT = t;
            result.jobs[std::size_t(i)].iterationSeconds = t;
            ++js.version;
            if (!std::isinf(t))
                queue.push(now + js.remaining * t, SimEventKind::Completion, i, js.version);
        }
    }

    void schedulePass(bool full)
    {
        needFullPass = needFullPass || full;
        if (!passScheduled) {
            queue.push(now, SimEventKind::SchedulingPass, -1);
            passScheduled = true;
        }
    }

    void countWaiting(int i, int delta)
    {
        const auto &need = smallestGpuTask[std::size_t(i)];
        if (need.second <= 0)
            return;
        if ((waitingByNeed[need] += delta) <= 0)
            waitingByNeed.erase(need);
    }

    int gpuTypeIndex(const std::string &type)
    {
        const auto it = std::find(gpuTypes.begin(), gpuTypes.end(), type);
        if (it != gpuTypes.end())
            return int(it - gpuTypes.begin());
        gpuTypes.push_back(type);
        return int(gpuTypes.size()) - 1;
    }

    void initFragmentation()
    {
        gpuTypes = {""};
        smallestGpuTask.assign(jobs.size(), {0, 0});
        // A job that can never start (a task no node holds, more GPUs than the cluster has)
        // waits for ever; the GPUs left free beside it are not stranded by fragmentation.
        const NeverStartCheck neverStarts(sc.cluster);
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            if (!neverStarts(*jobs[i].job, {}).empty())
                continue;
            for (const TaskGroup &g : jobs[i].job->tasks) {
                auto &smallest = smallestGpuTask[i];
                if (g.gpus > 0 && (smallest.second == 0 || g.gpus < smallest.second))
                    smallest = {gpuTypeIndex(g.gpuType), g.gpus};
            }
        }
        nodeGpuType.clear();
        for (const Node &n : sc.cluster.nodes)
            nodeGpuType.push_back(gpuTypeIndex(n.gpuType));
    }

    /// Whole GPUs free now on nodes where the smallest GPU task of some waiting job (of a type
    /// the node has) would fit by GPU count: usable by a task, not taken by its job.
    double strandedGpus()
    {
        if (waitingByNeed.empty())
            return 0;
        constexpr int kNone = std::numeric_limits<int>::max();
        std::vector<int> &need = neededGpus;
        need.assign(gpuTypes.size(), kNone);
        for (const auto &[k, count] : waitingByNeed)
            need[std::size_t(k.first)] = std::min(need[std::size_t(k.first)], k.second);
        const double *free = placer.state().gpuFreeWhole();
        double stranded = 0;
        for (std::size_t n = 0; n < nodeGpuType.size(); ++n) {
            const int m = std::min(need[0], need[std::size_t(nodeGpuType[n])]);
            if (m != kNone && free[n] >= double(m))
                stranded += free[n];
        }
        return stranded;
    }

    /// Closes the stranded interval up to now and starts the next from the current state.
    void noteStranded()
    {
        const double dt = now - strandedSince;
        if (strandedNow > 0 && dt > 0) {
            buckets.addStranded(strandedSince, now, strandedNow * dt);
            result.strandedGpuSeconds += strandedNow * dt;
        }
        strandedSince = now;
        strandedNow = strandedGpus();
    }

    void addWaiting(int i)
    {
        countWaiting(i, +1);
        const auto at = std::upper_bound(waiting.begin(), waiting.end(), i, [&](int a, int b) {
            return queueRank[std::size_t(a)] < queueRank[std::size_t(b)];
        });
        waiting.insert(at, i);
    }

    /// The nodes of a placement changed load: the re-offer index recounts them.
    void noteNodes(const JobPlacement &p)
    {
        if (!reoffer)
            return;
        for (const TaskAssignment &a : p.tasks)
            if (auto it = nodeIdx.find(a.node); it != nodeIdx.end())
                reoffer->refreshNode(it->second);
    }

    void pass()
    {
        offerWaiting();
        noteStranded();
    }

    void offerWaiting()
    {
        passScheduled = false;
        std::vector<int> candidates;
        if (needFullPass || (!opt.policy.backfill && waiting.size() > newArrivals.size()))
            candidates = waiting;
        else
            candidates = newArrivals;
        needFullPass = false;
        newArrivals.clear();
        if (candidates.empty())
            return;
        Placement placement;
        if (!reoffer) {
            // The reference: every candidate offered in one call.
            std::sort(candidates.begin(), candidates.end()); // file order breaks queue-order ties
            std::vector<const Job *> offered;
            offered.reserve(candidates.size());
            for (int i : candidates)
                offered.push_back(jobs[std::size_t(i)].job);
            placement = placer.place(offered);
        } else {
            // The same offers one job at a time in the placer's queue order (its sort key
            // with file order breaking ties is queueRank), skipping the jobs that cannot be
            // placed now; their decisions are counted as their offer would have made them.
            std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
                return queueRank[std::size_t(a)] < queueRank[std::size_t(b)];
            });
            std::vector<const Job *> one(1);
            for (int i : candidates) {
                if (const auto skip =
                        startsShort[std::size_t(i)] ? std::nullopt : reoffer->blocked(i)) {
                    placer.skipOffer(skip->decisions, skip->fastRejection);
                    ++skippedOffers;
                    if (!opt.policy.backfill)
                        break;
                    continue;
                }
                one[0] = jobs[std::size_t(i)].job;
                Placement p = placer.place(one);
                const bool placedWhole = p.waiting.empty();
                for (JobPlacement &jp : p.jobs) {
                    noteNodes(jp);
                    placement.jobs.push_back(std::move(jp));
                }
                if (!placedWhole) {
                    if (p.jobs.empty())
                        reoffer->refreshChanged(); // rolled back: the binds may not cancel
                    if (!opt.policy.backfill)
                        break;
                }
            }
        }
        std::vector<int> started;
        for (const JobPlacement &jp : placement.jobs) {
            const int i = jobIdx.at(jp.jobId);
            if (jp.pendingTasks > 0) {
                // Only whole jobs run: a partial placement (gang mode off) is given back.
                placer.release(*jobs[std::size_t(i)].job, jp);
                noteNodes(jp);
                continue;
            }
            start(i, jp);
            started.push_back(i);
        }
        if (started.empty())
            return;
        std::sort(started.begin(), started.end());
        for (int i : started)
            countWaiting(i, -1);
        waiting.erase(std::remove_if(waiting.begin(), waiting.end(),
                                     [&](int i) {
                                         return std::binary_search(started.begin(),
                                                                   started.end(), i);
                                     }),
                      waiting.end());
        updateRates(started);
    }

    void complete(int i)
    {
        JobState &js = jobs[std::size_t(i)];
        JobRun &jr = result.jobs[std::size_t(i)];
        advance(i);
        js.remaining = 0;
        closeSegment(i);
        catalogueChange(i, -1);
        stopFlows(js);
        placer.release(*js.job, js.placement);
        noteNodes(js.placement);
        countTasks(js.placement, -1);
        releaseFinished(js);
        jr.finishSeconds = now;
        ++finished;
        log(RunEventKind::Completion, js.job->id, "after " + std::to_string(jr.attempts) + " attempt(s)");
        updateRates({});
        schedulePass(true);
        reportProgress();
    }

    void kill(int i, bool keepProgress, const std::string &why)
    {
        JobState &js = jobs[std::size_t(i)];
        advance(i);
        closeSegment(i);
        catalogueChange(i, -1);
        stopFlows(js);
        placer.release(*js.job, js.placement);
        noteNodes(js.placement);
        countTasks(js.placement, -1);
        ++js.version; // its planned completion is stale now
        js.remaining /= js.workScale; // back to iterations of the whole job
        js.workScale = 1;
        if (!keepProgress)
            js.remaining = double(js.job->model.iterations);
        js.state = State::Waiting;
        addWaiting(i);
        log(keepProgress ? RunEventKind::Requeue : RunEventKind::Kill, js.job->id, why);
    }

    void fail(int k)
    {
        const NodeFailure &f = opt.failures[std::size_t(k)];
        const int n = nodeIdx.at(f.node);
        if (down[std::size_t(n)]) {
            log(RunEventKind::NodeDown, "", f.node + " fails again while down (ignored)");
            return;
        }
        ++result.failures;
        log(RunEventKind::NodeDown, "", f.node);
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const JobState &js = jobs[i];
            if (js.state != State::Running)
                continue;
            const bool onNode =
                std::any_of(js.placement.tasks.begin(), js.placement.tasks.end(),
                            [&](const TaskAssignment &a) { return a.node == f.node; });
            if (onNode)
                kill(int(i), false,
                     "node " + f.node + " failed; progress lost, job requeued");
        }
        // Occupy the whole node so that the placer sends nothing there.
        const Node &node = sc.cluster.nodes[std::size_t(n)];
        Down d;
        d.phantom.id = "(down)" + node.id;
        TaskGroup g;
        g.replicas = 1;
        g.cpus = node.cpus;
        g.memoryGiB = node.memoryGiB;
        g.gpus = node.gpus;
        d.phantom.tasks.push_back(g);
        TaskAssignment a;
        a.node = node.id;
        for (int gi = 0; gi < node.gpus; ++gi)
            a.gpuIndices.push_back(gi);
        d.placement.jobId = d.phantom.id;
        d.placement.tasks.push_back(a);
        placer.bindPlacement(d.phantom, d.placement);
        noteNodes(d.placement);
        down[std::size_t(n)] = std::move(d);
        if (opt.powerDownIdleNodes)
            refreshBaseline();
        else
            setBaseline(baselineWatts - nodeIdleWatts(n));
        updateRates({});
        schedulePass(true);
        if (f.repairAfterSeconds)
            queue.push(now + *f.repairAfterSeconds, SimEventKind::NodeRepair, k);
    }

    void repair(int k)
    {
        const NodeFailure &f = opt.failures[std::size_t(k)];
        const int n = nodeIdx.at(f.node);
        if (!down[std::size_t(n)])
            return;
        placer.release(down[std::size_t(n)]->phantom, down[std::size_t(n)]->placement);
        noteNodes(down[std::size_t(n)]->placement);
        down[std::size_t(n)].reset();
        if (opt.powerDownIdleNodes)
            refreshBaseline();
        else
            setBaseline(baselineWatts + nodeIdleWatts(n));
        log(RunEventKind::NodeUp, "", f.node);
        schedulePass(true);
    }

    void reportProgress()
    {
        if (!opt.progress || jobs.empty())
            return;
        const int pct = int(100.0 * finished / double(jobs.size()));
        if (pct == lastProgressPercent)
            return;
        lastProgressPercent = pct;
        if (!opt.progress(double(finished) / double(jobs.size())))
            cancelled = true;
    }

    // ---- the run -----------------------------------------------------------------------

    /// Each job's time alone on the empty cluster, placed by the same policy: on a cluster of
    /// several GPU types at its fastest, a job that names no type tried on each type the
    /// cluster has (the policy alone may pick a slow type the busy run did not: its slowdown,
    /// JCT over this time, would fall below 1). Reads only what the run does not change (the
    /// scenario, the options, the node index), with a topology, a placer and a network of
    /// its own, so it runs on a thread beside the run (see run()); it stops early when asked.
    std::vector<std::optional<double>> isolatedTimes(const std::vector<const Job *> &list,
                                                     std::stop_token stop) const
    {
        std::vector<std::optional<double>> out(list.size());
        // A topology of its own: routes fill a cache of distances as they are asked for.
        const Topology isoTopo(sc.cluster);
        Placer iso(sc.cluster, isoTopo, opt.policy, opt.seed);
        applyTaskPins(iso, sc.cluster, opt.pins);
        iso.setExhaustive(opt.exhaustive);
        MaxMinNetwork isoNet(linkCapacities(isoTopo));
        std::set<std::string> types;
        for (const Node &node : sc.cluster.nodes)
            if (node.gpus > 0 && !node.gpuType.empty())
                types.insert(node.gpuType);
        auto timeAlone = [&](const Job &job) -> std::optional<double> {
            const Placement p = iso.place(std::vector<const Job *>{&job});
            if (p.jobs.empty())
                return std::nullopt;
            const JobPlacement &jp = p.jobs.front();
            std::optional<double> seconds;
            if (jp.pendingTasks == 0) {
                const std::vector<SimFlow> flows =
                    jobFlows(job, jp, sc.cluster, isoTopo, nodeIdx, sc.settings.allreduce);
                std::vector<int> ids;
                for (const SimFlow &f : flows)
                    ids.push_back(isoNet.addFlow(f.route, f.capGbps));
                if (opt.exhaustive)
                    isoNet.solveAll();
                else
                    isoNet.solve();
                std::vector<double> rates;
                for (int id : ids)
                    rates.push_back(isoNet.rate(id));
                const double comm = cb::commSeconds(flows, rates);
                for (int id : ids)
                    isoNet.removeFlow(id);
                const auto measured = measuredStepTime(job, jp, sc.stepTimeModels);
                const double compute = jobComputeSeconds(job, jp, sc.cluster, nodeIdx);
                const double it =
                    measured ? measured->stepSeconds
                             : modelledIteration(job, compute,
                                                 stragglerSeconds(job.model, compute,
                                                                  synchronisingRanks(job, jp)),
                                                 comm);
                if (!std::isinf(it))
                    seconds = double(job.model.iterations) * workScaleOf(job, jp) * it;
            }
            iso.release(job, jp);
            return seconds;
        };
        for (std::size_t i = 0; i < list.size() && !stop.stop_requested(); ++i) {
            const Job &job = *list[i];
            std::optional<double> best = timeAlone(job);
            const bool anyType =
                std::any_of(job.tasks.begin(), job.tasks.end(),
                            [](const TaskGroup &g) { return g.gpus > 0 && g.gpuType.empty(); });
            if (types.size() > 1 && anyType)
                for (const std::string &type : types) {
                    Job typed = job;
                    for (TaskGroup &g : typed.tasks)
                        if (g.gpus > 0 && g.gpuType.empty())
                            g.gpuType = type;
                    if (const auto t = timeAlone(typed); t && (!best || *t < *best))
                        best = t;
                }
            out[i] = best;
        }
        return out;
    }

    void finishPairBytes()
    {
        std::vector<std::pair<std::pair<int, int>, double>> sorted;
        sorted.reserve(pairTotals.size());
        for (const auto &[key, bytes] : pairTotals)
            sorted.push_back({pairOfKey(key), bytes});
        std::unordered_map<std::uint64_t, double>().swap(pairTotals); // (its memory back first)
        std::sort(sorted.begin(), sorted.end());
        for (const auto &entry : sorted)
            result.pairBytes.emplace_hint(result.pairBytes.end(), entry);
    }

    void finishEnergy()
    {
        // Baseline (node base + idle GPUs) over [0, makespan], piecewise constant.
        const double end = result.makespanSeconds;
        for (std::size_t k = 0; k < baselineSteps.size(); ++k) {
            const double a = baselineSteps[k].first;
            const double b = k + 1 < baselineSteps.size() ? baselineSteps[k + 1].first : end;
            const double lo = std::min(a, end), hi = std::min(b, end);
            if (hi <= lo)
                continue;
            result.energyKWh += baselineSteps[k].second * (hi - lo) / 3.6e6;
            result.energyCost += price.cost(baselineSteps[k].second, lo, hi);
        }
        switch (result.costModel) {
        case CostModel::Energy:
            result.cost = result.energyCost;
            break;
        case CostModel::GpuHours:
            result.cost = result.gpuHourCost;
            break;
        case CostModel::Catalogue:
            result.cost = 0;
            for (const JobRun &jr : result.jobs)
                result.cost += jr.cost;
            break;
        }
    }

    Result<RunResult> run()
    {
        if (ran)
            return Result<RunResult>::failure("simulate", "a simulator runs only once");
        ran = true;
        Problems problems;
        for (const NodeFailure &f : opt.failures)
            if (!nodeIdx.count(f.node))
                problems.push_back({"--fail " + f.node, "no node with this id in the cluster"});
        if (!problems.empty())
            return problems;

        result.scenario = sc.name;
        result.policy = opt.policy.name;
        result.seed = opt.seed;
        result.costModel = opt.costModel;
        result.totalGpus = sc.cluster.totalGpus();
        result.jobs.resize(jobs.size());
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const Job &job = *jobs[i].job;
            JobRun &jr = result.jobs[i];
            jr.id = job.id;
            jr.submitSeconds = job.submitSeconds;
            jr.dueSeconds = job.dueSeconds;
            jr.gpus = job.gpuCount();
            jobs[i].remaining = double(job.model.iterations);
            if (!opt.stochastic)
                queue.pushKnown(std::max(0.0, job.submitSeconds), SimEventKind::Arrival, int(i));
        }
        // The jobs' times alone depend on nothing the run changes: they are worked out on a
        // thread of their own meanwhile (on one thread, 7 % of the replay of the sample mix
        // and 28 % of 1,000 Philly-shaped jobs, measured), and taken at the end. The thread
        // is asked to stop and joined on every way out.
        std::vector<const Job *> jobList;
        jobList.reserve(jobs.size());
        for (const JobState &js : jobs)
            jobList.push_back(js.job);
        std::vector<std::optional<double>> isolated;
        std::exception_ptr isolatedError;
        std::jthread isolatedWorker([&](std::stop_token stop) {
            try {
                isolated = isolatedTimes(jobList, stop);
            } catch (...) {
                isolatedError = std::current_exception();
            }
        });
        double watts = 0;
        tasksOn.assign(sc.cluster.nodes.size(), 0);
        slotUse.resize(sc.cluster.nodes.size());
        for (std::size_t n = 0; n < sc.cluster.nodes.size(); ++n)
            slotUse[n].assign(std::size_t(std::max(0, sc.cluster.nodes[n].gpus)), 0);
        busyOnNode.assign(sc.cluster.nodes.size(), 0);
        jobsOnNode.assign(sc.cluster.nodes.size(), {});
        if (opt.costModel == CostModel::Catalogue && !opt.stochastic && !opt.catalogue)
            return Result<RunResult>::failure(
                "--cost", "the catalogue cost model needs a price catalogue");
        if (!opt.powerDownIdleNodes)
            for (std::size_t n = 0; n < sc.cluster.nodes.size(); ++n)
                watts += nodeIdleWatts(int(n));
        setBaseline(watts);
        if (opt.stochastic) {
            if (!opt.failures.empty())
                return Result<RunResult>::failure(
                    "--fail", "node failures are not modelled for stochastic schedulers");
            result.costModel = CostModel::Catalogue;
            return runStochastic();
        }
        for (std::size_t k = 0; k < opt.failures.size(); ++k)
            queue.push(opt.failures[k].atSeconds, SimEventKind::NodeFailure, int(k));
        initFragmentation();
        {
            // The placer's queue order of all jobs (its key, then file order): the order of
            // any subset of them offered together.
            std::vector<const Job *> all;
            all.reserve(jobs.size());
            for (const JobState &js : jobs)
                all.push_back(js.job);
            queueRank.assign(jobs.size(), 0);
            const std::vector<std::size_t> order = queueOrder(all, opt.policy.queue);
            for (std::size_t k = 0; k < order.size(); ++k)
                queueRank[order[k]] = int(k);
        }
        // Pinned tasks see other nodes than their shape's (and no gang fast path): the index
        // cannot predict their decisions, so a run with pins offers every waiting job.
        if (!opt.exhaustive && opt.pins.empty()) {
            reoffer.emplace(sc.cluster, placer.state(), opt.policy);
            reoffer->build(sc.jobs);
            // Such a job keeps trying its other workers after one fails: the index cannot
            // count that offer's decisions.
            startsShort.assign(jobs.size(), 0);
            for (std::size_t i = 0; i < jobs.size(); ++i)
                startsShort[i] =
                    gangWorkersNeeded(*jobs[i].job, opt.policy) < jobs[i].job->workerCount();
        }

        double lastTime = 0;
        while (!queue.empty() && !cancelled) {
            const QueuedEvent e = queue.pop();
            now = e.time;
            lastTime = now;
            ++result.events;
            switch (e.kind) {
            case SimEventKind::Arrival: {
                JobState &js = jobs[std::size_t(e.subject)];
                js.state = State::Waiting;
                addWaiting(e.subject);
                newArrivals.push_back(e.subject);
                log(RunEventKind::Arrival, js.job->id, {});
                schedulePass(false);
                break;
            }
            case SimEventKind::SchedulingPass:
                pass();
                break;
            case SimEventKind::Completion: {
                const JobState &js = jobs[std::size_t(e.subject)];
                if (js.state == State::Running && js.version == e.version)
                    complete(e.subject);
                break;
            }
            case SimEventKind::NodeFailure:
                fail(e.subject);
                break;
            case SimEventKind::NodeRepair:
                repair(e.subject);
                break;
            case SimEventKind::Callback: {
                log(RunEventKind::Hook, {}, hooks[std::size_t(e.subject)].first);
                Hook h = hooks[std::size_t(e.subject)].second;
                if (h)
                    h(*self);
                break;
            }
            }
        }
        if (cancelled)
            return Result<RunResult>::failure("simulate", "cancelled");

        double makespan = 0;
        bool unfinished = false;
        for (const JobRun &jr : result.jobs) {
            if (jr.finishSeconds)
                makespan = std::max(makespan, *jr.finishSeconds);
            else
                unfinished = true;
        }
        if (unfinished) {
            makespan = std::max(makespan, lastTime);
            for (std::size_t i = 0; i < jobs.size(); ++i)
                if (jobs[i].state == State::Running) {
                    now = makespan;
                    advance(int(i));
                }
        }
        now = makespan;
        noteStranded();
        result.makespanSeconds = makespan;
        buckets.finish(makespan);
        finishPairBytes();
        finishTardiness();
        isolatedWorker.join();
        if (isolatedError)
            std::rethrow_exception(isolatedError);
        for (std::size_t i = 0; i < isolated.size(); ++i)
            result.jobs[i].isolatedSeconds = isolated[i];
        finishEnergy();
        return std::move(result);
    }

    /// Tardiness cost w x max(0, finish - due) per job (summed in job order) and the jobs
    /// that missed their due date by more than a microsecond.
    void finishTardiness()
    {
        for (std::size_t i = 0; i < result.jobs.size(); ++i) {
            JobRun &jr = result.jobs[i];
            if (!jr.finishSeconds || !jr.dueSeconds)
                continue;
            const double late = std::max(0.0, *jr.finishSeconds - *jr.dueSeconds);
            result.tardinessCost += sc.jobs[i].tardinessWeight * late;
            jr.violated = late > 1e-6;
        }
    }

    // ---- stochastic schedulers (STS and its baselines) ---------------------------------

    struct StsRunning
    {
        StsConfig config;
        StsPlacement at;
        double tableSpeed = 0;    ///< epochs per second from the time table
        double speed = 0;         ///< with cross-node communication (multi-node)
        double phaseEnd = kInf;   ///< planned reconfiguration time
        std::shared_ptr<Job> job; ///< the job as it runs on this configuration
        JobPlacement placement;
    };

    /// Where a configuration's GPUs are: cluster node index and GPU slots per pool node,
    /// slots kept for jobs that continue unchanged, the lowest free ones otherwise.
    struct SlotMap
    {
        std::vector<std::vector<int>> owner;                 ///< per cluster node, per GPU
        std::map<std::pair<std::size_t, int>, int> sharedSlot; ///< (pool node, shared GPU)
    };

    static bool sameRun(const StsRunning &a, const StsRunning &b)
    {
        return a.config == b.config && a.at == b.at;
    }

    int clusterNode(const GpuPool &pool, std::size_t poolNode) const
    {
        return nodeIdx.at(pool.nodes()[poolNode].id);
    }

    /// GPU slots of `r` (the ring order: node by node), taken from `slots`.
    JobPlacement configurationPlacement(int i, const StsRunning &r, const GpuPool &pool,
                                        SlotMap &slots) const
    {
        JobPlacement jp;
        jp.jobId = jobs[std::size_t(i)].job->id;
        jp.startSeconds = now;
        std::vector<std::pair<std::size_t, int>> parts = r.at.parts;
        if (parts.empty())
            parts = {{r.at.node, r.config.shared() ? 1 : r.config.gpus}};
        const TaskRole role = r.config.gpus > 1 ? TaskRole::Worker : TaskRole::Single;
        int rank = 0;
        for (const auto &[poolNode, count] : parts) {
            const int n = clusterNode(pool, poolNode);
            std::vector<int> &owner = slots.owner[std::size_t(n)];
            for (int k = 0; k < count; ++k) {
                int slot = -1;
                if (r.config.shared()) {
                    auto it = slots.sharedSlot.find({poolNode, r.at.sharedGpu});
                    if (it != slots.sharedSlot.end())
                        slot = it->second;
                }
                for (std::size_t q = 0; slot < 0 && q < owner.size(); ++q)
                    if (owner[q] < 0)
                        slot = int(q);
                if (slot >= 0) {
                    owner[std::size_t(slot)] = i;
                    if (r.config.shared())
                        slots.sharedSlot[{poolNode, r.at.sharedGpu}] = slot;
                }
                TaskAssignment a;
                a.role = role;
                a.group = 0;
                a.indexInRole = rank++;
                a.node = sc.cluster.nodes[std::size_t(n)].id;
                if (slot >= 0)
                    a.gpuIndices = {slot};
                jp.tasks.push_back(std::move(a));
            }
        }
        return jp;
    }

    /// Epochs per second of `r` at the network's current rates: the time table's speed,
    /// slowed for a split configuration by its slowest cross-node flow per iteration (the
    /// table was profiled on one node and knows nothing of the network).
    double stochasticSpeed(const JobState &js, const StsRunning &r, const StsJob &job) const
    {
        if (r.at.nodeCount() <= 1 || !(job.iterationsPerEpoch > 0) || !(job.parameterBytes > 0))
            return r.tableSpeed;
        const double comm = commSeconds(js, true);
        const double computeIter = 1.0 / (r.tableSpeed * job.iterationsPerEpoch);
        const ModelProfile &model = js.job->model;
        return 1.0 / (iterationSeconds(computeIter, comm, modelOverlap(model, sc.settings.overlap),
                                       model.exposedCommFraction) *
                      job.iterationsPerEpoch);
    }

    static std::string joinTriggers(bool arrival, bool completion, bool reconfiguration)
    {
        std::string s;
        const auto add = [&](bool on, const char *name) {
            if (on)
                s += (s.empty() ? "" : ",") + std::string(name);
        };
        add(arrival, "arrival");
        add(completion, "completion");
        add(reconfiguration, "reconfiguration");
        return s.empty() ? "start" : s;
    }

    /// The stochastic loop: at every event (arrivals, true completions at each job's
    /// sampled stop point, planned reconfigurations; events closer than the tolerances below
    /// count as one) the scheduler plans every job present (or only the waiting ones when it
    /// keeps running jobs in place); the plan is enacted (starts, reconfigurations, pauses),
    /// the network re-solved, and every running job advanced to the next event, paying the
    /// catalogue's rate for its GPUs: dt / 3600 x rate(type, GPUs busy on the node) x its
    /// GPUs there / busy GPUs x its fraction. Tolerances: an arrival within 1e-9 s, a phase
    /// end within 1e-6 s, a stop point within 1e-9 x max(1, E) epochs.
    Result<RunResult> runStochastic()
    {
        const StochasticRun &sr = *opt.stochastic;
        const std::vector<StsJob> &sj = sr.jobs;
        const std::size_t n = jobs.size();
        if (!sr.scheduler || sj.size() != n)
            return Result<RunResult>::failure(
                "simulate", "a stochastic run needs its scheduler and one STS job per job");
        StsScheduler &scheduler = *sr.scheduler;

        std::vector<std::size_t> arrivals(n);
        for (std::size_t i = 0; i < n; ++i)
            arrivals[i] = i;
        std::stable_sort(arrivals.begin(), arrivals.end(), [&](std::size_t a, std::size_t b) {
            return sj[a].submitSeconds < sj[b].submitSeconds;
        });

        std::vector<double> done(n, 0.0);
        std::vector<std::optional<StsConfig>> lastConfig(n);
        std::vector<bool> active(n, false);
        std::map<std::size_t, StsRunning> running;
        GpuPool pool = sr.pool;
        Rng rng(Rng::mix(opt.seed, 0x5354535f52554eULL));
        SlotMap slots;
        slots.owner.resize(sc.cluster.nodes.size());
        for (std::size_t k = 0; k < sc.cluster.nodes.size(); ++k)
            slots.owner[k].assign(std::size_t(std::max(0, sc.cluster.nodes[k].gpus)), -1);

        std::size_t nextArrival = 0;
        std::size_t finishedCount = 0;
        bool arrived = false, completed = false, reconfigured = false;
        const std::int64_t maxEvents = 100 * std::int64_t(n) + 1000;

        while (finishedCount < n) {
            if (cancelled)
                return Result<RunResult>::failure("simulate", "cancelled");
            while (nextArrival < n && sj[arrivals[nextArrival]].submitSeconds <= now + 1e-9) {
                const std::size_t i = arrivals[nextArrival++];
                active[i] = true;
                arrived = true;
                jobs[i].state = State::Waiting;
                log(RunEventKind::Arrival, jobs[i].job->id, {});
            }
            bool anyActive = false;
            for (std::size_t i = 0; i < n; ++i)
                anyActive = anyActive || active[i];
            if (!anyActive) {
                if (nextArrival >= n)
                    break;
                now = sj[arrivals[nextArrival]].submitSeconds;
                continue;
            }
            if (++result.events > maxEvents)
                return Result<RunResult>::failure(scheduler.name(),
                                                  "too many scheduling events (no progress)");

            // The scheduling pass.
            StsPass pass;
            pass.now = now;
            pass.jobs = &sj;
            pass.prices = &sr.prices;
            pass.pool = &pool;
            pass.rng = &rng;
            StsEventRecord record;
            record.time = now;
            record.trigger = joinTriggers(arrived, completed, reconfigured);
            pass.log = sr.log ? &record : nullptr;
            pool.clear();
            std::map<std::size_t, StsRunning> kept;
            if (!scheduler.replansRunningJobs()) {
                for (const auto &[i, r] : running)
                    if (pool.reserve(r.config, r.at))
                        kept.emplace(i, r);
            }
            for (std::size_t i = 0; i < n; ++i) {
                if (!active[i] || kept.count(i))
                    continue;
                StsJobState st;
                st.job = i;
                st.doneEpochs = done[i];
                st.lastConfig = lastConfig[i];
                auto r = running.find(i);
                st.running = r != running.end();
                st.phaseEnded = st.running && r->second.phaseEnd <= now + 1e-6;
                pass.states.push_back(st);
            }
            const std::vector<StsAssignment> assigned = scheduler.schedule(pass);
            std::map<std::size_t, StsRunning> next = kept;
            for (const StsAssignment &a : assigned) {
                const StsConfigTime *t = sj[a.job].find(a.config);
                if (!t)
                    return Result<RunResult>::failure(
                        sj[a.job].id, "scheduler chose a configuration outside its time table");
                StsRunning r;
                r.config = a.config;
                r.at = a.at;
                r.tableSpeed = t->speed(sj[a.job].maxEpochs);
                r.speed = r.tableSpeed;
                if (a.at.nodeCount() > 1)
                    ++result.multiNodePlacements;
                r.phaseEnd = std::isfinite(a.phaseSeconds) ? now + a.phaseSeconds : kInf;
                auto before = running.find(a.job);
                if (before != running.end() && !(before->second.config == a.config))
                    result.jobs[a.job].reconfigurations += 1;
                lastConfig[a.job] = a.config;
                next[a.job] = r;
            }
            enact(running, next, pool, slots);
            running = std::move(next);
            if (sr.log)
                sr.log->add(std::move(record));

            // The next event.
            double t = nextArrival < n ? sj[arrivals[nextArrival]].submitSeconds : kInf;
            for (const auto &[i, r] : running) {
                t = std::min(t, now + (sj[i].trueStopEpochs() - done[i]) / r.speed);
                t = std::min(t, r.phaseEnd);
            }
            if (!std::isfinite(t)) {
                std::string waiting;
                for (std::size_t i = 0; i < n; ++i)
                    if (active[i] && !running.count(i))
                        waiting = sj[i].id;
                return Result<RunResult>::failure(
                    waiting, "fits no node of the cluster (no configuration can be placed)");
            }
            t = std::max(t, now);

            // Advance: pay for the GPUs, make progress.
            const double dt = t - now;
            for (const auto &entry : running) {
                // Not a structured binding: clang 14 (the sanitize preset) cannot capture one.
                const std::size_t i = entry.first;
                const auto &r = entry.second;
                JobRun &jr = result.jobs[i];
                const auto charge = [&](std::size_t node, double gpus) {
                    const int busy = std::max(1, pool.busyGpus(node));
                    jr.cost += dt / 3600 * sr.prices.ratePerHour(r.config.gpuType, busy) * gpus /
                               busy * r.config.fraction;
                };
                const double before = jr.cost;
                if (r.at.parts.empty())
                    charge(r.at.node, r.config.shared() ? 1.0 : double(r.config.gpus));
                else
                    for (const auto &[node, count] : r.at.parts)
                        charge(node, double(count));
                buckets.addCost(now, t, jr.cost - before);
                const double epochs = dt * r.speed;
                done[i] += epochs;
                const double iterations = epochs * sj[i].iterationsPerEpoch;
                JobState &js = jobs[i];
                if (!jr.segments.empty())
                    jr.segments.back().iterations += iterations;
                account(js, jr, now, t, iterations);
            }
            now = t;
            arrived = completed = reconfigured = false;
            for (auto it = running.begin(); it != running.end();) {
                const std::size_t i = it->first;
                const double stop = sj[i].trueStopEpochs();
                if (done[i] >= stop - 1e-9 * std::max(1.0, sj[i].maxEpochs)) {
                    done[i] = stop;
                    JobState &js = jobs[i];
                    JobRun &jr = result.jobs[i];
                    closeSegment(int(i));
                    stopFlows(js);
                    releaseSlots(int(i), slots);
                    releaseFinished(js);
                    jr.finishSeconds = now;
                    active[i] = false;
                    ++finishedCount;
                    ++finished;
                    completed = true;
                    log(RunEventKind::Completion, js.job->id,
                        "after " + std::to_string(jr.reconfigurations) + " reconfiguration(s)");
                    it = running.erase(it);
                    reportProgress();
                    continue;
                }
                if (it->second.phaseEnd <= now + 1e-6)
                    reconfigured = true;
                ++it;
            }
        }
        if (cancelled)
            return Result<RunResult>::failure("simulate", "cancelled");

        double makespan = 0;
        for (const JobRun &jr : result.jobs)
            if (jr.finishSeconds)
                makespan = std::max(makespan, *jr.finishSeconds);
        result.makespanSeconds = makespan;
        buckets.finish(makespan);
        finishPairBytes();
        for (std::size_t i = 0; i < n; ++i) {
            // Alone on the empty cluster at its fastest configuration, to its stop point.
            double fastest = 0;
            for (const StsConfigTime &ct : sj[i].times)
                fastest = std::max(fastest, ct.speed(sj[i].maxEpochs));
            if (fastest > 0)
                result.jobs[i].isolatedSeconds = sj[i].trueStopEpochs() / fastest;
            result.reconfigurations += result.jobs[i].reconfigurations;
        }
        finishTardiness();
        finishEnergy();
        return std::move(result);
    }

    void releaseSlots(int i, SlotMap &slots) const
    {
        for (std::vector<int> &owner : slots.owner)
            for (int &o : owner)
                if (o == i)
                    o = -1;
    }

    /// Moves from the running set `before` to `after`: jobs that keep their configuration
    /// and place run on; the others stop (paused, progress kept) or start on their new
    /// configuration (a reconfiguration when they ran before). Then the network is
    /// re-solved and every running job's speed follows its flows' rates.
    void enact(const std::map<std::size_t, StsRunning> &before,
               std::map<std::size_t, StsRunning> &after, const GpuPool &pool, SlotMap &slots)
    {
        const StochasticRun &sr = *opt.stochastic;
        slots.sharedSlot.clear();
        // Continuing jobs keep their slots; every other job gives its slots back.
        for (const auto &[i, r] : before) {
            auto it = after.find(i);
            if (it != after.end() && sameRun(r, it->second)) {
                it->second.job = r.job;
                it->second.placement = r.placement;
                if (r.config.shared())
                    for (const TaskAssignment &a : r.placement.tasks)
                        if (!a.gpuIndices.empty())
                            slots.sharedSlot[{r.at.node, r.at.sharedGpu}] = a.gpuIndices.front();
                continue;
            }
            releaseSlots(int(i), slots);
            if (it == after.end()) {
                JobState &js = jobs[i];
                closeSegment(int(i));
                stopFlows(js);
                js.state = State::Waiting;
                log(RunEventKind::Preemption, js.job->id,
                    "paused by " + sr.scheduler->name() + " (progress kept)");
            }
        }
        for (auto &[i, r] : after) {
            auto was = before.find(i);
            if (was != before.end() && sameRun(was->second, r))
                continue;
            JobState &js = jobs[i];
            JobRun &jr = result.jobs[i];
            const Job &job = *js.job;
            const bool reconfiguring = was != before.end();
            if (reconfiguring) {
                closeSegment(int(i));
                stopFlows(js);
            } else {
                ++jr.attempts;
                if (!jr.firstStartSeconds)
                    jr.firstStartSeconds = now;
            }
            r.job = std::make_shared<Job>(configurationJob(job, r.config));
            r.placement = configurationPlacement(int(i), r, pool, slots);
            js.state = State::Running;
            js.placement = r.placement;
            jr.startSeconds = now;
            jr.placement = r.placement;
            jr.gpus = r.job->gpuCount(); // what this configuration runs on, not what was asked
            attachFlows(int(i), *r.job, r.placement);
            attachPower(js, *r.job, r.placement);
            const std::string label = r.config.toString();
            jr.segments.push_back({now, std::nullopt, r.config, 0, r.placement});
            const std::string where = label + " on " + pool.describe(r.at);
            log(reconfiguring ? RunEventKind::Reconfiguration : RunEventKind::Start, job.id,
                where);
        }
        solveNetwork();
        ++result.networkSolves;
        for (auto &[i, r] : after) {
            r.speed = stochasticSpeed(jobs[i], r, sr.jobs[i]);
            result.jobs[i].iterationSeconds =
                sr.jobs[i].iterationsPerEpoch > 0 ? 1.0 / (r.speed * sr.jobs[i].iterationsPerEpoch)
                                                  : 0.0;
        }
    }
};

Simulator::Simulator(const Scenario &scenario, SimOptions options)
    : d(std::make_unique<Impl>(this, scenario, std::move(options)))
{}

Simulator::~Simulator() = default;

void Simulator::scheduleAt(double t, std::string what, Hook hook)
{
    d->hooks.emplace_back(std::move(what), std::move(hook));
    d->queue.push(std::max(t, d->now), SimEventKind::Callback, int(d->hooks.size()) - 1);
}

bool Simulator::requeue(const std::string &jobId, bool keepProgress, const std::string &reason)
{
    auto it = d->jobIdx.find(jobId);
    if (it == d->jobIdx.end() || d->jobs[std::size_t(it->second)].state != Impl::State::Running)
        return false;
    d->kill(it->second, keepProgress, reason);
    d->updateRates({});
    d->schedulePass(true);
    return true;
}

double Simulator::now() const { return d->now; }
const Placer &Simulator::placer() const { return d->placer; }
std::int64_t Simulator::skippedOffers() const { return d->skippedOffers; }
Result<RunResult> Simulator::run() { return d->run(); }

Result<RunResult> simulate(const Scenario &scenario, SimOptions options)
{
    Simulator sim(scenario, std::move(options));
    return sim.run();
}

Result<RunResult> simulateStochastic(const Scenario &scenario, std::vector<StsJob> jobs,
                                     GpuPool pool, PriceCatalogue prices,
                                     std::shared_ptr<StsScheduler> scheduler, std::uint64_t seed,
                                     StsDecisionLog *log, bool detail)
{
    auto run = std::make_shared<StochasticRun>();
    SimOptions options;
    options.policy.name = scheduler ? scheduler->name() : std::string();
    options.seed = seed;
    options.costModel = CostModel::Catalogue;
    options.keepEventLog = detail;
    options.pairBuckets = detail;
    run->scheduler = std::move(scheduler);
    run->jobs = std::move(jobs);
    run->pool = std::move(pool);
    run->prices = std::move(prices);
    run->log = log;
    options.stochastic = std::move(run);
    return simulate(scenario, std::move(options));
}

} // namespace cb
