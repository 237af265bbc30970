#include "store/stored_run.h"

#include "io/export/placement_json.h"
#include "io/json_reader.h"
#include "io/scenario_json.h"
#include "io/run_json.h"
#include "util/result.h"

namespace cb {

std::map<std::string, double> placementMetrics(const Placement &placement,
                                               const TrafficReport &traffic)
{
    std::size_t tasks = 0;
    for (const JobPlacement &jp : placement.jobs)
        tasks += jp.tasks.size();
    return {{"placed_jobs", double(placement.jobs.size())},
            {"placed_tasks", double(tasks)},
            {"waiting_jobs", double(placement.waiting.size())},
            {"cross_node_bytes", traffic.crossNodeBytes},
            {"total_bytes", traffic.totalBytes},
            {"intra_node_bytes", traffic.intraNodeBytes},
            {"max_link_bytes", traffic.maxLinkBytes},
            {"max_link_seconds", traffic.maxLinkSeconds},
            {"mean_hops", traffic.meanHops()}};
}

std::map<std::string, double> simulationMetrics(const RunResult &run)
{
    std::map<std::string, double> out;
    const nlohmann::ordered_json summary = runSummaryJson(run);
    for (auto it = summary.begin(); it != summary.end(); ++it)
        if (it->is_number())
            out[it.key()] = it->get<double>();
    // In every simulated run (the run file writes stranded_gpu_s only where GPUs were
    // stranded), so that means over seeds count the runs without any; one unit, not two.
    out.erase("stranded_gpu_s");
    out["stranded_gpu_h"] = run.strandedGpuSeconds / 3600;
    return out;
}

MetricUnit metricUnit(std::string_view name)
{
    const auto has = [&](std::string_view suffix) {
        return name.size() > suffix.size() && name.ends_with(suffix);
    };
    if (has("_bytes"))
        return MetricUnit::Bytes;
    if (has("_s") || has("_seconds"))
        return MetricUnit::Seconds;
    if (has("_kwh"))
        return MetricUnit::KWh;
    if (has("_gpu_h"))
        return MetricUnit::GpuHours;
    if (name == "cost" || has("_cost"))
        return MetricUnit::Money;
    return MetricUnit::Plain;
}

nlohmann::json storedTimeline(const Scenario &scenario, const Topology &topology,
                              const Placement &placement, const TrafficReport &traffic,
                              const RunResult *result)
{
    nlohmann::ordered_json j;
    j["format"] = "clusterbench-stored-run";
    j["version"] = 2;
    j["placement"] = PlacementJson::toJson(placement);
    j["traffic"] = traffic.toJson(scenario.cluster, topology);
    j["run"] = result ? runToJson(*result, scenario.cluster, topology, RunJsonLayout::Stored)
                      : nlohmann::ordered_json();
    return nlohmann::json(j);
}

nlohmann::json storedDecisionLog(const DecisionLog &log)
{
    if (log.rowCount() > kMaxStoredLogRows)
        return nullptr;
    return nlohmann::json(log.toJson());
}

namespace {

} // namespace

Result<StoredRunDetail> decodeStoredRun(const RunRecord &record, const std::string &scenarioText)
{
    using R = Result<StoredRunDetail>;
    const std::string run = "run " + std::to_string(record.id);
    StoredRunDetail detail;
    detail.record = record;
    auto scenario = scenarioFromText(scenarioText);
    if (!scenario)
        return R(prefixed(scenario.problems(), run + ": scenario "));
    detail.scenario = std::move(scenario.value());
    const nlohmann::json &t = record.timeline;
    if (stringField(t, "format") != "clusterbench-stored-run")
        return R::failure(run + ": timeline", "no stored placement (written by an older "
                                              "ClusterBench, or not a placement run)");
    const nlohmann::json *stored = childField(t, "placement");
    if (!stored)
        return R::failure(run + ": timeline/placement", "missing");
    auto placement = PlacementJson::fromJson(*stored, detail.scenario);
    if (!placement)
        return R(prefixed(placement.problems(), run + ": timeline/placement"));
    detail.placement = std::move(placement.value());
    if (t.contains("run") && !t["run"].is_null()) {
        auto result = runFromJson(t["run"], detail.scenario.cluster);
        if (!result)
            return R(prefixed(result.problems(), run + ": timeline/run"));
        detail.result = std::move(result.value());
    }
    if (!record.decisionLog.is_null()) {
        auto log = DecisionLog::fromJson(record.decisionLog);
        if (!log)
            return R(prefixed(log.problems(), run + ": decision_log"));
        detail.log = std::move(log.value());
    }
    return detail;
}

Result<StoredRunDetail> readStoredRun(const Workspace &workspace, std::int64_t id)
{
    auto record = workspace.run(id);
    if (!record)
        return Result<StoredRunDetail>(record.problems());
    auto text = workspace.scenarioText(record->scenarioDigest);
    if (!text)
        return Result<StoredRunDetail>(text.problems());
    return decodeStoredRun(record.value(), text.value());
}

} // namespace cb
