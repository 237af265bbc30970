#include "runs/run_service.h"

#include "io/export/placed_job.h"
#include "io/policy_json.h"
#include "io/run_json.h"
#include "io/scenario_json.h"
#include "io/sts_data.h"
#include "net/topology.h"
#include "runs/sts_experiment.h"
#include "sched/placer.h"
#include "sim/simulator.h"
#include "sim/stochastic_jobs.h"
#include "store/stored_run.h"
#include "util/sha256.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace cb {

namespace {

const std::vector<std::pair<std::string, std::string>> &stochasticNames()
{
    static const std::vector<std::pair<std::string, std::string>> names = {
        {"sts", "STS"},        {"sts-net", "STS-net"}, {"sts-fifo", "FIFO"}, {"sts-edf", "EDF"},
        {"sts-ps", "PS"},      {"sts-g", "G"},         {"sts-rg", "RG"},     {"sts-ls", "LS"}};
    return names;
}

Result<Run> cancelledRun() { return Result<Run>::failure({}, "cancelled"); }

/// Simulates into run.result; a failure after the caller cancelled says "cancelled".
Status simulateInto(Run &run, const Scenario &scenario, SimOptions options,
                    const RunRequest &request)
{
    auto simulated = simulate(scenario, std::move(options));
    if (!simulated) {
        if (request.progress && !request.progress(1))
            return Status::failure({}, "cancelled");
        return simulated.problems();
    }
    run.result = std::move(simulated.value());
    return Ok{};
}

/// The authors' data built into the program, parsed once.
const Result<StsAuthorsData> &builtinData()
{
    static const Result<StsAuthorsData> data = builtinStsAuthorsData();
    return data;
}

void fillIdentity(Run &run, const Scenario &scenario, const RunRequest &request)
{
    run.policy = request.policy;
    run.seed = request.seed;
    run.programVersion = CB_VERSION;
    run.scenarioName = scenario.name;
    run.scenarioDigest = Sha256::hex(scenarioToText(scenario));
}

Result<Run> placementRun(const Scenario &scenario, const RunRequest &request)
{
    Policy policy;
    if (request.resolvedPolicy) {
        policy = *request.resolvedPolicy;
    } else {
        auto presets = userPresets(scenario, request.policyFile);
        if (!presets)
            return presets.problems();
        auto resolved = resolvePolicy(request.policy, presets.value());
        if (!resolved)
            return Result<Run>::failure("policy", resolved.error());
        policy = std::move(resolved.value());
    }
    if (request.progress && !request.progress(0))
        return cancelledRun();

    Run run;
    fillIdentity(run, scenario, request);
    run.family = SchedulerFamily::Placement;
    run.kind = request.simulate ? "simulate" : "place";
    run.parameters = {{"policy", policyToJson(policy)}};
    const Topology topology(scenario.cluster);
    run.decisions.detail = request.logDetail;
    if (!request.pins.empty()) {
        if (Status checked = checkTaskPins(scenario, request.pins); !checked)
            return checked.problems();
        nlohmann::json pins = nlohmann::json::array();
        for (const TaskPin &pin : request.pins)
            pins.push_back(toString(pin));
        run.parameters["pins"] = pins;
    }
    Placer placer(scenario.cluster, topology, policy, request.seed);
    applyTaskPins(placer, scenario.cluster, request.pins);
    run.placement = placer.place(scenario.jobs, request.decisionLog ? &run.decisions : nullptr);
    run.traffic = computeTraffic(scenario.jobs, scenario.cluster, topology, run.placement,
                                 scenario.settings.allreduce);
    if (request.simulate) {
        if (request.progress && !request.progress(0))
            return cancelledRun();
        SimOptions options;
        options.policy = policy;
        options.seed = request.seed;
        options.failures = request.failures;
        options.pins = request.pins;
        options.costModel = request.costModel;
        if (request.costModel == CostModel::Catalogue) {
            // The STS authors' price list (or the scenario's list prices): the same
            // charges a stochastic run pays, so the two compare on one cost.
            const Result<StsAuthorsData> &data = builtinData();
            if (!data)
                return data.problems();
            const StsPrices prices = stsCloudPrices(data.value(), scenario);
            options.catalogue = std::make_shared<PriceCatalogue>(prices.catalogue);
            run.pricesFrom = prices.from;
            run.parameters["prices"] = prices.from;
        }
        options.powerDownIdleNodes = request.powerDownIdleNodes;
        options.progress = request.progress;
        if (Status simulated = simulateInto(run, scenario, options, request); !simulated)
            return simulated.problems();
        run.parameters["cost"] = toString(request.costModel);
        if (!request.failures.empty()) {
            std::string fail;
            for (const NodeFailure &f : request.failures) {
                fail += (fail.empty() ? "" : ",") + f.node + "@" + numberText(f.atSeconds, 15);
                if (f.repairAfterSeconds)
                    fail += "+" + numberText(*f.repairAfterSeconds, 15);
            }
            run.parameters["fail"] = fail;
        }
        if (request.powerDownIdleNodes)
            run.parameters["power_down_idle"] = true;
    }
    run.placedScenario = scenario;
    run.metrics = runMetrics(run);
    return run;
}

Result<Run> stochasticRun(const Scenario &scenario, const RunRequest &request)
{
    const std::string method = stochasticMethod(request.policy);
    if (const std::string why = stochasticUnavailableReason(scenario); !why.empty())
        return Result<Run>::failure("policy", request.policy + ": " + why);
    if (!request.failures.empty())
        return Result<Run>::failure("--fail",
                                    "node failures are not modelled for stochastic schedulers");
    if (!request.pins.empty())
        return Result<Run>::failure("--pin", request.policy +
                                                 " plans whole jobs over time: a task can be "
                                                 "pinned for placement policies only");
    const Result<StsAuthorsData> &data = builtinData();
    if (!data)
        return data.problems();
    if (request.sharing && !data->slices)
        return Result<Run>::failure("sharing", "no GPU-sharing slices in " + data->source);
    std::shared_ptr<StsScheduler> scheduler =
        makeStsScheduler(method, request.randomIterations, request.saturationGuard);
    auto jobs = stsJobsFromScenario(scenario, data.value(),
                                    request.sharing ? &*data->slices : nullptr, request.seed);
    if (!jobs)
        return jobs.problems();
    const bool multiNode = request.multiNode || method == "STS-net";
    GpuPool pool = stsPoolFromScenario(scenario);
    pool.setSplit(multiNode ? StsSplit::BestFit : StsSplit::None);
    if (std::string why = unplaceableJobsText(jobs.value(), pool); !why.empty())
        return Result<Run>::failure("policy",
                                    request.policy + ": " + why +
                                        (multiNode ? ""
                                                   : "; sts-net, or simulate --multi-node, lets a "
                                                     "configuration span nodes"));
    const StsPrices prices = stsCloudPrices(data.value(), scenario);

    Run run;
    fillIdentity(run, scenario, request);
    run.family = SchedulerFamily::Stochastic;
    run.kind = "simulate";
    run.pricesFrom = prices.from;
    run.parameters = {{"method", method},
                      {"multi_node", multiNode},
                      {"saturation_guard", request.saturationGuard},
                      {"random_iterations", request.randomIterations},
                      {"sharing", request.sharing},
                      {"prices", prices.from},
                      {"cost", toString(CostModel::Catalogue)}};

    auto stochastic = std::make_shared<StochasticRun>();
    stochastic->scheduler = std::move(scheduler);
    stochastic->jobs = std::move(jobs.value());
    stochastic->pool = std::move(pool);
    stochastic->prices = prices.catalogue;
    stochastic->log = &run.stsLog;
    SimOptions options;
    options.policy.name = request.policy;
    options.seed = request.seed;
    options.costModel = CostModel::Catalogue;
    options.progress = request.progress;
    options.stochastic = std::move(stochastic);
    if (Status simulated = simulateInto(run, scenario, options, request); !simulated)
        return simulated.problems();
    auto [placed, placement] = stochasticScheduleAt(scenario, *run.result, std::nullopt);
    run.placedScenario = std::move(placed);
    run.placement = std::move(placement);
    const Topology topology(scenario.cluster);
    run.traffic = computeTraffic(run.placedScenario.jobs, scenario.cluster, topology,
                                 run.placement, scenario.settings.allreduce);
    run.metrics = runMetrics(run);
    return run;
}

/// The job as it ran in `segment` (its configuration's shape, or the job itself).
Job segmentJob(const Job &job, const JobSegment &segment)
{
    return segment.config ? configurationJob(job, *segment.config) : job;
}

} // namespace

const std::vector<std::string> &stochasticPolicyNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto &[policy, method] : stochasticNames())
            out.push_back(policy);
        return out;
    }();
    return names;
}

std::string stochasticMethod(const std::string &policy)
{
    for (const auto &[p, method] : stochasticNames())
        if (p == policy)
            return method;
    return {};
}

std::string stochasticPolicyName(const std::string &method)
{
    for (const auto &[policy, m] : stochasticNames())
        if (m == method)
            return policy;
    return {};
}

StochasticUnavailable stochasticUnavailable(const Scenario &scenario)
{
    if (scenario.jobs.empty())
        return {"needs jobs", "the scenario has no jobs"};
    bool gpus = false;
    for (const Node &n : scenario.cluster.nodes)
        gpus = gpus || n.gpus > 0;
    if (!gpus)
        return {"needs GPUs",
                "no node has GPUs (the stochastic schedulers place GPU configurations)"};
    int undated = 0;
    const Job *first = nullptr;
    for (const Job &j : scenario.jobs)
        if (!j.dueSeconds) {
            ++undated;
            first = first ? first : &j;
        }
    if (undated > 0)
        return {"needs due dates",
                "STS and its baselines plan every job against its due date, and " +
                    std::to_string(undated) + " of " + std::to_string(scenario.jobs.size()) +
                    " jobs have none (the first: \"" + first->id +
                    "\"); give them due dates (due_s) or use a placement policy"};
    for (const Job &j : scenario.jobs) {
        if (j.sts && !j.sts->executionTimes.empty())
            continue;
        if (!(j.model.computeSecondsPerIteration > 0) && j.model.computeSecondsByGpuType.empty())
            return {"needs job times", "job \"" + j.id +
                                           "\" has no execution-time table (sts.execution_times) "
                                           "and no compute time per iteration to derive one from"};
    }
    return {};
}

std::string stochasticUnavailableReason(const Scenario &scenario)
{
    return stochasticUnavailable(scenario).why;
}

std::string Run::label() const
{
    const std::string method = stochasticMethod(policy);
    std::string out = (method.empty() ? policy : method) + " seed " + std::to_string(seed);
    if (result && family == SchedulerFamily::Placement)
        out += " (simulated)";
    return out;
}

Result<Run> executeRun(const Scenario &scenario, const RunRequest &request)
{
    if (!stochasticMethod(request.policy).empty() && !request.resolvedPolicy)
        return stochasticRun(scenario, request);
    return placementRun(scenario, request);
}

bool simulatedMetrics(const std::map<std::string, double> &metrics)
{
    return metrics.count("iteration_cross_node_bytes") > 0;
}

std::map<std::string, double> perIterationNamed(std::map<std::string, double> metrics)
{
    if (simulatedMetrics(metrics))
        return metrics;
    for (const char *name : {"cross_node_bytes", "total_bytes", "intra_node_bytes",
                             "max_link_bytes", "max_link_seconds"})
        if (const auto it = metrics.find(name); it != metrics.end()) {
            metrics["iteration_" + std::string(name)] = it->second;
            metrics.erase(it);
        }
    return metrics;
}

std::map<std::string, double> runMetrics(const Run &run)
{
    std::map<std::string, double> metrics = placementMetrics(run.placement, run.traffic);
    if (run.result) {
        // The placement's traffic is per iteration; beside the whole run's figures, each
        // says so in its name.
        metrics = perIterationNamed(std::move(metrics));
        for (const auto &[name, value] : simulationMetrics(*run.result))
            metrics[name] = value;
    }
    return metrics;
}

RunRecord runRecord(const Run &run, const Scenario &scenario)
{
    RunRecord record;
    record.kind = run.kind;
    record.policy = run.policy;
    record.seed = run.seed;
    record.parameters = run.parameters;
    record.programVersion = run.programVersion;
    record.scenarioDigest = run.scenarioDigest;
    record.scenarioName = run.scenarioName;
    record.metrics = run.metrics;
    const Topology topology(scenario.cluster);
    if (run.family == SchedulerFamily::Stochastic)
        record.decisionLog = {{"kind", "stochastic"}, {"log", run.stsLog.toJson()}};
    else
        record.decisionLog = storedDecisionLog(run.decisions);
    // Where the prices came from is the "prices" parameter (once: `show` printed it twice
    // when it was stored again as "prices_from").
    if (!run.pricesFrom.empty() &&
        !(record.parameters.is_object() && record.parameters.contains("prices")))
        record.parameters["prices"] = run.pricesFrom;
    record.timeline = storedTimeline(run.placedScenario, topology, run.placement, run.traffic,
                                     run.result ? &*run.result : nullptr);
    return record;
}

Result<Run> runFromRecord(const RunRecord &record, const Scenario &scenario)
{
    using R = Result<Run>;
    const std::string where = "run " + std::to_string(record.id);
    Run run;
    run.kind = record.kind;
    run.policy = record.policy;
    run.seed = record.seed;
    run.programVersion = record.programVersion;
    run.scenarioName = record.scenarioName;
    run.scenarioDigest = record.scenarioDigest;
    run.parameters = record.parameters;
    run.metrics = record.metrics;
    const bool stochastic = record.decisionLog.is_object() &&
                            record.decisionLog.value("kind", "") == "stochastic";
    run.family = stochastic ? SchedulerFamily::Stochastic : SchedulerFamily::Placement;
    RunRecord placementRecord = record;
    if (stochastic) {
        auto log = StsDecisionLog::fromJson(record.decisionLog.value("log", nlohmann::json()));
        if (!log)
            return R(prefixed(log.problems(), where + ": decision_log/log"));
        run.stsLog = std::move(log.value());
        placementRecord.decisionLog = nullptr;
    }
    // ("prices_from": the name a workspace written before held it under, beside "prices")
    for (const char *key : {"prices", "prices_from"})
        if (record.parameters.is_object() && record.parameters.contains(key) &&
            record.parameters[key].is_string())
            run.pricesFrom = record.parameters[key].get<std::string>();
    // A stochastic run's placement refers to the jobs as they first ran: decode against
    // those shapes (the simulation says which they were).
    Scenario placed = scenario;
    if (stochastic && record.timeline.is_object() && record.timeline.contains("run") &&
        !record.timeline["run"].is_null()) {
        auto result = runFromJson(record.timeline["run"], scenario.cluster);
        if (!result)
            return R(prefixed(result.problems(), where + ": timeline/run"));
        placed = stochasticScheduleAt(scenario, result.value(), std::nullopt).first;
    }
    auto detail = decodeStoredRun(placementRecord, scenarioToText(placed));
    if (!detail)
        return R(detail.problems());
    run.placedScenario = std::move(placed);
    run.placement = std::move(detail->placement);
    if (detail->log)
        run.decisions = std::move(*detail->log);
    run.result = std::move(detail->result);
    const Topology topology(scenario.cluster);
    run.traffic = computeTraffic(run.placedScenario.jobs, scenario.cluster, topology,
                                 run.placement, scenario.settings.allreduce);
    return run;
}

namespace {

/// Run `id`'s record, its scenario and the run decoded from them.
struct ReadRecord
{
    RunRecord record;
    Scenario scenario;
    Run run;
};

Result<ReadRecord> readRecord(const Workspace &workspace, std::int64_t id)
{
    using R = Result<ReadRecord>;
    auto record = workspace.run(id);
    if (!record)
        return R(record.problems());
    auto text = workspace.scenarioText(record->scenarioDigest);
    if (!text)
        return R(text.problems());
    auto scenario = scenarioFromText(text.value());
    if (!scenario)
        return R(prefixed(scenario.problems(), "run " + std::to_string(id) + ": scenario "));
    auto run = runFromRecord(record.value(), scenario.value());
    if (!run)
        return R(run.problems());
    return ReadRecord{std::move(record.value()), std::move(scenario.value()),
                      std::move(run.value())};
}

} // namespace

Result<StoredRunDetail> readRunDetail(const Workspace &workspace, std::int64_t id)
{
    auto read = readRecord(workspace, id);
    if (!read)
        return Result<StoredRunDetail>(read.problems());
    StoredRunDetail detail;
    detail.record = std::move(read->record);
    detail.scenario = std::move(read->scenario);
    detail.placement = std::move(read->run.placement);
    if (read->run.family == SchedulerFamily::Placement && !detail.record.decisionLog.is_null())
        detail.log = std::move(read->run.decisions);
    detail.result = std::move(read->run.result);
    return detail;
}

Result<std::pair<Run, Scenario>> readRun(const Workspace &workspace, std::int64_t id)
{
    auto read = readRecord(workspace, id);
    if (!read)
        return Result<std::pair<Run, Scenario>>(read.problems());
    return std::pair{std::move(read->run), std::move(read->scenario)};
}

std::pair<Scenario, Placement> stochasticScheduleAt(const Scenario &scenario,
                                                    const RunResult &result,
                                                    std::optional<double> atSeconds)
{
    Scenario placed = scenario;
    Placement placement;
    for (std::size_t i = 0; i < scenario.jobs.size() && i < result.jobs.size(); ++i) {
        const JobRun &jr = result.jobs[i];
        const JobSegment *segment = atSeconds            ? jr.segmentAt(*atSeconds)
                                    : jr.segments.empty() ? nullptr
                                                          : &jr.segments.front();
        if (!segment) {
            placement.waiting.push_back(scenario.jobs[i].id);
            continue;
        }
        placed.jobs[i] = segmentJob(scenario.jobs[i], *segment);
        JobPlacement jp = segment->placement;
        jp.jobId = scenario.jobs[i].id;
        placement.jobs.push_back(std::move(jp));
    }
    return {std::move(placed), std::move(placement)};
}

std::string firstRunsOverloadNote(const Scenario &shaped, const Placement &placement)
{
    const Problems over = nodeOverloads(shaped, placement);
    if (over.empty())
        return {};
    const auto [first, last] =
        std::minmax_element(placement.jobs.begin(), placement.jobs.end(),
                            [](const JobPlacement &a, const JobPlacement &b) {
                                return a.startSeconds < b.startSeconds;
                            });
    return "the jobs are exported as each first runs, from " + clockText(first->startSeconds) +
           " to " + clockText(last->startSeconds) + "; applied at once they do not fit (" +
           over.front().message +
           (over.size() > 1 ? "; " + std::to_string(over.size() - 1) + " more such problems"
                            : std::string()) +
           ")";
}

std::string firstRunsOverloadWarning(const std::string &format, const Scenario &shaped,
                                     const Placement &placement, const std::string &oneMoment)
{
    const std::string note = firstRunsOverloadNote(shaped, placement);
    if (note.empty())
        return {};
    if (format.rfind("slurm", 0) == 0)
        return note + ": Slurm holds each script until its nodes have room, so every job runs, "
                      "though not necessarily when or in the order simulated (submit each job "
                      "at its start to keep it)";
    return note + ": apply each job at its start, or " + oneMoment;
}

std::vector<std::string> reconfigurationNotes(const RunResult &result)
{
    const auto configText = [](const StsConfig &c) {
        return c.gpuType + " x" + std::to_string(c.gpus) +
               (c.shared() ? " (" + formatFixed(c.fraction, 2) + " of a GPU each)" : std::string());
    };
    constexpr std::size_t kNamed = 4; // configurations named, the rest counted
    // One warning for the jobs reconfigured, each named with its changes (sts-datacenter
    // gave 60 warnings of 4 lines each); one job alone has its configurations in time.
    SharedWarnings notes;
    for (const JobRun &jr : result.jobs) {
        // Its configurations in time, each from when it took it (a segment on the same
        // configuration, on other nodes or after a pause, is not a change).
        std::vector<std::pair<StsConfig, double>> configs;
        for (const JobSegment &seg : jr.segments)
            if (seg.config && (configs.empty() || configs.back().first != *seg.config))
                configs.emplace_back(*seg.config, seg.startSeconds);
        if (configs.size() < 2)
            continue;
        std::string phases;
        for (std::size_t k = 0; k < configs.size() && k < kNamed; ++k)
            phases += (k ? ", then " : "") + configText(configs[k].first) + " from " +
                      clockText(configs[k].second);
        if (configs.size() > kNamed)
            phases +=
                ", and " + counted(static_cast<long long>(configs.size() - kNamed), "more change");
        const std::string changes = counted(static_cast<long long>(configs.size() - 1), "change");
        notes.add("the run reconfigures {n} jobs; a file deploys one configuration for the "
                  "whole job: resubmit each at its changes to run it as the run costed it (the "
                  "run's timeline shows them)",
                  jr.id + ": the run reconfigures it (" + phases +
                      "); a file deploys one configuration for the whole job: resubmit it at "
                      "each change to run it as the run costed it",
                  jr.id + " (" +
                      (configs.size() == 2 ? "a change at " : changes + ", the first at ") +
                      clockText(configs[1].second) + ")");
    }
    return notes.said();
}

TrafficReport stochasticTrafficAt(const Scenario &scenario, const RunResult &result,
                                  double atSeconds)
{
    auto [shaped, placement] = stochasticScheduleAt(scenario, result, atSeconds);
    const Topology topology(scenario.cluster);
    return computeTraffic(shaped.jobs, scenario.cluster, topology, placement);
}

void oneTaskPerNode(Scenario &scenario, Placement &placement)
{
    for (JobPlacement &jp : placement.jobs) {
        auto job = std::find_if(scenario.jobs.begin(), scenario.jobs.end(),
                                [&](const Job &j) { return j.id == jp.jobId; });
        if (job == scenario.jobs.end() || job->tasks.size() != 1 || jp.tasks.size() < 2)
            continue;
        const TaskGroup one = job->tasks.front();
        // Nodes in ring order with their GPU slots.
        std::vector<std::pair<std::string, std::vector<int>>> nodes;
        for (const TaskAssignment &a : jp.tasks) {
            auto it = std::find_if(nodes.begin(), nodes.end(),
                                   [&](const auto &n) { return n.first == a.node; });
            if (it == nodes.end()) {
                nodes.push_back({a.node, {}});
                it = std::prev(nodes.end());
            }
            it->second.insert(it->second.end(), a.gpuIndices.begin(), a.gpuIndices.end());
        }
        if (nodes.size() == jp.tasks.size())
            continue; // one task per node already
        // One group per run of nodes with the same GPU count.
        std::vector<TaskGroup> groups;
        std::vector<TaskAssignment> tasks;
        int lastCount = -1;
        for (std::size_t k = 0; k < nodes.size(); ++k) {
            const int count = int(std::count_if(jp.tasks.begin(), jp.tasks.end(),
                                                [&](const TaskAssignment &a) {
                                                    return a.node == nodes[k].first;
                                                }));
            if (count != lastCount) {
                TaskGroup g = one;
                g.role = nodes.size() > 1 ? TaskRole::Worker : TaskRole::Single;
                g.replicas = 0;
                g.gpus = count * one.gpus;
                g.cpus = one.cpus * count;
                g.memoryGiB = one.memoryGiB * count;
                groups.push_back(g);
                lastCount = count;
            }
            ++groups.back().replicas;
            TaskAssignment a;
            a.role = groups.back().role;
            a.group = int(groups.size()) - 1;
            a.indexInRole = int(k);
            a.node = nodes[k].first;
            a.gpuIndices = nodes[k].second;
            tasks.push_back(std::move(a));
        }
        job->tasks = std::move(groups);
        job->kind = nodes.size() > 1 ? JobKind::AllReduce : JobKind::Single;
        jp.tasks = std::move(tasks);
    }
}

} // namespace cb
