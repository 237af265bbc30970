#include "sim/simulator.h"

#include "net/maxmin_network.h"
#include "net/topology.h"
#include "sim/event_queue.h"
#include "sim/job_flows.h"
#include "sim/price_schedule.h"
#include "sim/time_buckets.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace cb {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

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
        std::optional<double> measured; ///< step time from the model's measured table
        double iterT = kInf;
        double remaining = 0; ///< iterations
        double lastUpdate = 0;
        std::uint64_t version = 0;
        double perIterTotal = 0, perIterCross = 0;
        std::vector<std::pair<int, double>> linkPerIter;
        std::vector<std::pair<std::pair<int, int>, double>> pairPerIter;
        double gpuShare = 0;   ///< whole-GPU equivalents allocated
        double busyWatts = 0;  ///< of the allocated shares, before PUE
        double idleWatts = 0;  ///< what the same shares draw idle
        double pricePerHour = 0;
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
    std::vector<int> waiting;     ///< job indices waiting to be placed
    std::vector<int> newArrivals; ///< arrived since the last pass
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
    TimeBuckets buckets;

    Impl(Simulator *s, const Scenario &scenario, SimOptions options)
        : self(s), sc(scenario), opt(std::move(options)), topo(scenario.cluster),
          nodeIdx(nodeIndexMap(scenario.cluster)),
          placer(scenario.cluster, topo, opt.policy, opt.seed),
          net(linkCapacities(topo)), price(scenario.settings),
          buckets(result.series, opt.initialBucketSeconds, opt.maxBuckets, opt.pairBuckets)
    {
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

    void log(const std::string &kind, const std::string &job, const std::string &detail)
    {
        if (opt.keepEventLog)
            result.log.push_back({now, kind, job, detail});
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

    double commSeconds(const JobState &js) const
    {
        double comm = 0;
        for (std::size_t i = 0; i < js.flows.size(); ++i) {
            const double r = net.rate(js.flowIds[i]);
            double t = js.flows[i].latencySeconds;
            if (r <= 0)
                t = kInf;
            else if (!std::isinf(r))
                t += js.flows[i].bytes * 8.0 / (r * 1e9);
            comm = std::max(comm, t);
        }
        return comm;
    }

    void account(JobState &js, JobRun &jr, double a, double b, double iters)
    {
        jr.totalBytes += iters * js.perIterTotal;
        jr.crossNodeBytes += iters * js.perIterCross;
        for (const auto &[l, v] : js.linkPerIter)
            result.linkBytes[std::size_t(l)] += iters * v;
        for (const auto &[p, v] : js.pairPerIter)
            result.pairBytes[p] += iters * v;
        buckets.addLinkBytes(a, b, js.linkPerIter, iters);
        buckets.addPairBytes(a, b, js.pairPerIter, iters);
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
        jr.cost += opt.costModel == CostModel::Energy ? price.cost(jobWatts, a, b) : gpuHourCost;
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
        account(js, result.jobs[std::size_t(i)], a, now, iters);
        js.lastUpdate = now;
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
        countTasks(js.placement, +1);

        js.flows = jobFlows(job, js.placement, sc.cluster, topo, nodeIdx);
        js.flowIds.clear();
        js.perIterTotal = js.perIterCross = 0;
        std::map<int, double> links;
        std::map<std::pair<int, int>, double> pairs;
        for (const SimFlow &f : js.flows) {
            const int id = net.addFlow(f.route, f.capGbps);
            if (std::size_t(id) >= flowOwner.size())
                flowOwner.resize(std::size_t(id) + 1, -1);
            flowOwner[std::size_t(id)] = i;
            js.flowIds.push_back(id);
            js.perIterTotal += f.bytes;
            if (f.src != f.dst)
                js.perIterCross += f.bytes;
            for (int l : f.route)
                links[l] += f.bytes;
            pairs[{f.src, f.dst}] += f.bytes;
        }
        js.linkPerIter.assign(links.begin(), links.end());
        js.pairPerIter.assign(pairs.begin(), pairs.end());
        js.compute = jobComputeSeconds(job, js.placement, sc.cluster, nodeIdx);
        js.measured.reset();
        if (auto m = measuredStepTime(job, js.placement, sc.stepTimeModels))
            js.measured = m->stepSeconds;

        js.gpuShare = js.busyWatts = js.idleWatts = js.pricePerHour = 0;
        std::string nodes;
        for (const TaskAssignment &a : js.placement.tasks) {
            const TaskGroup &g = job.tasks[std::size_t(a.group)];
            nodes += (nodes.empty() ? "" : " ") + std::string(toString(a.role)) + "-" +
                     std::to_string(a.indexInRole) + "@" + a.node;
            if (g.gpus <= 0)
                continue;
            const double share = g.gpus * std::min(1.0, g.gpuFraction);
            js.gpuShare += share;
            auto n = nodeIdx.find(a.node);
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
        log("start", job.id, nodes);
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
    void updateRates(const std::vector<int> &started)
    {
        net.solve();
        ++result.networkSolves;
        std::vector<int> affected = started;
        for (int f : net.changedFlows())
            if (flowOwner[std::size_t(f)] >= 0)
                affected.push_back(flowOwner[std::size_t(f)]);
        std::sort(affected.begin(), affected.end());
        affected.erase(std::unique(affected.begin(), affected.end()), affected.end());
        for (int i : affected) {
            JobState &js = jobs[std::size_t(i)];
            if (js.state != State::Running)
                continue;
            const bool fresh = std::binary_search(started.begin(), started.end(), i);
            const double t = js.measured ? *js.measured
                                         : iterationSeconds(js.compute, commSeconds(js),
                                                            sc.settings.overlap);
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

    void pass()
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
        std::sort(candidates.begin(), candidates.end()); // file order breaks queue-order ties
        std::vector<Job> offered;
        offered.reserve(candidates.size());
        for (int i : candidates)
            offered.push_back(*jobs[std::size_t(i)].job);
        const Placement placement = placer.place(offered);
        std::vector<int> started;
        for (const JobPlacement &jp : placement.jobs) {
            const int i = jobIdx.at(jp.jobId);
            if (jp.pendingTasks > 0) {
                // Only whole jobs run: a partial placement (gang mode off) is given back.
                placer.release(*jobs[std::size_t(i)].job, jp);
                continue;
            }
            start(i, jp);
            started.push_back(i);
        }
        if (started.empty())
            return;
        std::sort(started.begin(), started.end());
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
        stopFlows(js);
        placer.release(*js.job, js.placement);
        countTasks(js.placement, -1);
        js.state = State::Done;
        jr.finishSeconds = now;
        ++finished;
        log("finish", js.job->id, "after " + std::to_string(jr.attempts) + " attempt(s)");
        updateRates({});
        schedulePass(true);
        reportProgress();
    }

    void kill(int i, bool keepProgress, const std::string &why)
    {
        JobState &js = jobs[std::size_t(i)];
        advance(i);
        stopFlows(js);
        placer.release(*js.job, js.placement);
        countTasks(js.placement, -1);
        ++js.version; // its planned completion is stale now
        if (!keepProgress)
            js.remaining = double(js.job->model.iterations);
        js.state = State::Waiting;
        waiting.push_back(i);
        log(keepProgress ? "requeue" : "kill", js.job->id, why);
    }

    void fail(int k)
    {
        const NodeFailure &f = opt.failures[std::size_t(k)];
        const int n = nodeIdx.at(f.node);
        if (down[std::size_t(n)]) {
            log("node-down", "", f.node + " fails again while down (ignored)");
            return;
        }
        ++result.failures;
        log("node-down", "", f.node);
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
        down[std::size_t(n)].reset();
        if (opt.powerDownIdleNodes)
            refreshBaseline();
        else
            setBaseline(baselineWatts + nodeIdleWatts(n));
        log("node-up", "", f.node);
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

    void isolatedTimes()
    {
        Placer iso(sc.cluster, topo, opt.policy, opt.seed);
        MaxMinNetwork isoNet(linkCapacities(topo));
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const Job &job = *jobs[i].job;
            const Placement p = iso.place({job});
            if (p.jobs.empty())
                continue;
            const JobPlacement &jp = p.jobs.front();
            if (jp.pendingTasks == 0) {
                const std::vector<SimFlow> flows = jobFlows(job, jp, sc.cluster, topo, nodeIdx);
                std::vector<int> ids;
                for (const SimFlow &f : flows)
                    ids.push_back(isoNet.addFlow(f.route, f.capGbps));
                isoNet.solve();
                double comm = 0;
                for (std::size_t k = 0; k < flows.size(); ++k) {
                    const double r = isoNet.rate(ids[k]);
                    double t = flows[k].latencySeconds;
                    if (r <= 0)
                        t = kInf;
                    else if (!std::isinf(r))
                        t += flows[k].bytes * 8.0 / (r * 1e9);
                    comm = std::max(comm, t);
                }
                for (int id : ids)
                    isoNet.removeFlow(id);
                const auto measured = measuredStepTime(job, jp, sc.stepTimeModels);
                const double it =
                    measured ? measured->stepSeconds
                             : iterationSeconds(jobComputeSeconds(job, jp, sc.cluster, nodeIdx),
                                                comm, sc.settings.overlap);
                if (!std::isinf(it))
                    result.jobs[i].isolatedSeconds = double(job.model.iterations) * it;
            }
            iso.release(job, jp);
        }
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
        result.cost = opt.costModel == CostModel::Energy ? result.energyCost : result.gpuHourCost;
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
            queue.push(std::max(0.0, job.submitSeconds), SimEventKind::Arrival, int(i));
        }
        for (std::size_t k = 0; k < opt.failures.size(); ++k)
            queue.push(opt.failures[k].atSeconds, SimEventKind::NodeFailure, int(k));
        double watts = 0;
        tasksOn.assign(sc.cluster.nodes.size(), 0);
        if (!opt.powerDownIdleNodes)
            for (std::size_t n = 0; n < sc.cluster.nodes.size(); ++n)
                watts += nodeIdleWatts(int(n));
        setBaseline(watts);

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
                waiting.push_back(e.subject);
                newArrivals.push_back(e.subject);
                log("arrival", js.job->id, {});
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
                log("hook", {}, hooks[std::size_t(e.subject)].first);
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
        result.makespanSeconds = makespan;
        buckets.extendTo(makespan);
        for (const JobRun &jr : result.jobs)
            if (jr.finishSeconds && jr.dueSeconds)
                result.tardinessCost += std::max(0.0, *jr.finishSeconds - *jr.dueSeconds) *
                                        sc.jobs[std::size_t(jobIdx.at(jr.id))].tardinessWeight;
        isolatedTimes();
        finishEnergy();
        return std::move(result);
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
Result<RunResult> Simulator::run() { return d->run(); }

Result<RunResult> simulate(const Scenario &scenario, SimOptions options)
{
    Simulator sim(scenario, std::move(options));
    return sim.run();
}

} // namespace cb
