#include "io/scenario_json.h"

#include "io/file_io.h"
#include "io/json_reader.h"
#include "io/scenario_limits.h"
#include "model/validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

namespace cb {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr auto Req = ObjectReader::Required;
constexpr auto Opt = ObjectReader::Optional;

// The value ranges are in scenario_limits.h (the importers check against them too).
using namespace limits;

std::string at(const std::string &base, std::size_t i)
{
    return base + "/" + std::to_string(i);
}

template<typename Fn> void forEachIn(const json *array, const std::string &pointer, Fn fn)
{
    if (!array)
        return;
    for (std::size_t i = 0; i < array->size(); ++i)
        fn((*array)[i], at(pointer, i));
}

GpuType readGpuType(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    GpuType t;
    t.name = r.string("name", Req);
    t.memoryGiB = r.number("memory_gib", Req, t.memoryGiB, 0, kMaxMemoryGiB);
    t.relativeSpeed = r.number("relative_speed", Opt, t.relativeSpeed, 1e-6, 1e6);
    t.idleWatts = r.number("idle_watts", Opt, t.idleWatts, 0, kMaxWatts);
    t.busyWatts = r.number("busy_watts", Opt, t.busyWatts, 0, kMaxWatts);
    t.pricePerHour = r.number("price_per_hour", Opt, t.pricePerHour, 0, kMaxPrice);
    r.finish();
    return t;
}

GpuInterconnect readInterconnect(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    GpuInterconnect ic;
    const std::string kind = r.string("kind", Opt, "pcie");
    if (kind == "nvlink")
        ic.kind = GpuInterconnect::Kind::Nvlink;
    else if (kind != "pcie")
        r.problem("kind", "expected \"pcie\" or \"nvlink\", found \"" + kind + "\"");
    ic.bandwidthGbps = r.number("bandwidth_gbps", Opt, ic.bandwidthGbps, 0, kMaxGbps);
    ic.latencyUs = r.number("latency_us", Opt, ic.latencyUs, 0, kMaxLatencyUs);
    forEachIn(r.array("nvlink_domains", Opt), r.pointer("nvlink_domains"),
              [&](const json &d, const std::string &dptr) {
                  std::vector<int> domain;
                  if (!d.is_array()) {
                      p.push_back({dptr, "expected an array of GPU indices"});
                      return;
                  }
                  for (std::size_t i = 0; i < d.size(); ++i) {
                      if (d[i].is_number_integer() && d[i].get<std::int64_t>() >= 0 &&
                          d[i].get<std::int64_t>() < kMaxGpusPerNode)
                          domain.push_back(d[i].get<int>());
                      else
                          p.push_back({at(dptr, i), "expected a GPU index (an integer >= 0)"});
                  }
                  ic.nvlinkDomains.push_back(std::move(domain));
              });
    r.finish();
    return ic;
}

Node readNode(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    Node n;
    n.id = r.string("id", Req);
    n.cpus = r.number("cpus", Req, n.cpus, 0, kMaxCpus);
    n.memoryGiB = r.number("memory_gib", Req, n.memoryGiB, 0, kMaxMemoryGiB);
    n.gpus = int(r.integer("gpus", Opt, 0, 0, kMaxGpusPerNode));
    n.gpuType = r.string("gpu_type", Opt);
    n.labels = r.stringMap("labels");
    n.partition = r.string("partition", Opt);
    n.rack = r.string("rack", Opt);
    n.baseWatts = r.number("base_watts", Opt, n.baseWatts, 0, kMaxWatts);
    if (const json *ic = r.object("interconnect", Opt))
        n.interconnect = readInterconnect(*ic, r.pointer("interconnect"), p);
    r.finish();
    return n;
}

Switch readSwitch(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    Switch s;
    s.id = r.string("id", Req);
    s.tier = r.string("tier", Opt);
    r.finish();
    return s;
}

Link readLink(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    Link l;
    l.a = r.string("a", Req);
    l.b = r.string("b", Req);
    l.capacityGbps = r.number("capacity_gbps", Req, l.capacityGbps, -kMaxGbps, kMaxGbps);
    l.latencyUs = r.number("latency_us", Opt, l.latencyUs, 0, kMaxLatencyUs);
    l.flowCapGbps = r.number("flow_cap_gbps", Opt, l.flowCapGbps, 0, kMaxGbps);
    r.finish();
    return l;
}

NvlinkDomain readNvlinkDomain(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    NvlinkDomain d;
    d.id = r.string("id", Req);
    d.nodes = r.stringList("nodes");
    if (!r.has("nodes"))
        r.problem("", "missing required field \"nodes\" (the member node ids)");
    d.bandwidthGbps = r.number("bandwidth_gbps", Req, d.bandwidthGbps, 0, kMaxGbps);
    d.latencyUs = r.number("latency_us", Opt, d.latencyUs, 0, kMaxLatencyUs);
    r.finish();
    return d;
}

Partition readPartition(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    Partition part;
    part.name = r.string("name", Req);
    if (r.has("max_time_s"))
        part.maxTimeSeconds = r.number("max_time_s", Req, 0, 1, kMaxSeconds);
    part.isDefault = r.boolean("default", Opt, false);
    r.finish();
    return part;
}

TaskGroup readTaskGroup(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    TaskGroup g;
    const std::string role = r.string("role", Req);
    if (auto parsed = taskRoleFromString(role))
        g.role = *parsed;
    else if (r.has("role"))
        r.problem("role",
                  "expected one of ps, worker, chief, evaluator, single; found \"" + role + "\"");
    g.replicas = int(r.integer("replicas", Opt, 1, 1, kMaxReplicas));
    g.cpus = r.number("cpus", Opt, g.cpus, 0, kMaxCpus);
    g.memoryGiB = r.number("memory_gib", Opt, g.memoryGiB, 0, kMaxMemoryGiB);
    g.gpus = int(r.integer("gpus", Opt, 0, 0, kMaxGpusPerNode));
    g.gpuFraction = r.number("gpu_fraction", Opt, 1.0, 0.01, 1.0);
    g.gpuType = r.string("gpu_type", Opt);
    g.nodeSelector = r.stringMap("node_selector");
    r.finish();
    return g;
}

ModelProfile readModel(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    ModelProfile m;
    m.name = r.string("name", Opt);
    m.parameterBytes = r.integer("parameter_bytes", Req, 0, 0, kMaxBytes);
    m.iterations = r.integer("iterations", Opt, 1, 1, kMaxIterations);
    m.computeSecondsPerIteration =
        r.number("compute_s_per_iteration", Opt, m.computeSecondsPerIteration, 0, kMaxSeconds);
    if (const json *by = r.object("compute_s_by_gpu_type", Opt)) {
        ObjectReader byReader(*by, r.pointer("compute_s_by_gpu_type"), p);
        for (auto it = by->begin(); it != by->end(); ++it)
            m.computeSecondsByGpuType[it.key()] = byReader.number(it.key(), Req, 0, 0, kMaxSeconds);
    }
    m.localBatch = int(r.integer("local_batch", Opt, 0, 1, kMaxLocalBatch));
    if (r.has("overlap"))
        m.overlap = r.number("overlap", Opt, 0.0, 0.0, 1.0);
    m.exposedCommFraction = r.number("exposed_comm_fraction", Opt, 0.0, 0.0, 1.0);
    m.colocationSlowdown = r.number("colocation_slowdown", Opt, 0.0, -0.5, 10.0);
    m.computeCv = r.number("compute_cv", Opt, 0.0, 0.0, 10.0);
    r.finish();
    return m;
}

StepTimeTable readStepTimeTable(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    StepTimeTable t;
    t.source = r.string("source", Opt);
    forEachIn(r.array("points", Req), r.pointer("points"),
              [&](const json &e, const std::string &eptr) {
                  ObjectReader er(e, eptr, p);
                  StepTimePoint pt;
                  if (const json *pl = er.array("placement", Opt)) {
                      for (std::size_t i = 0; i < pl->size(); ++i) {
                          const json &c = (*pl)[i];
                          if (!c.is_number_integer() || c.get<std::int64_t>() < 1 ||
                              c.get<std::int64_t>() > kMaxGpusPerNode)
                              p.push_back({at(er.pointer("placement"), i),
                                           "expected a GPU count (an integer from 1 to " +
                                               std::to_string(kMaxGpusPerNode) + ")"});
                          else
                              pt.placement.push_back(int(c.get<std::int64_t>()));
                      }
                      if (pl->empty())
                          er.problem("placement", "expected at least one node's GPU count");
                      if (er.has("nodes") || er.has("replicas"))
                          er.problem("placement", "give either placement or nodes and "
                                                  "replicas, not both");
                      er.skip("nodes");
                      er.skip("replicas");
                      pt.nodes = int(pt.placement.size());
                      for (int c : pt.placement)
                          pt.replicas += c;
                  } else {
                      pt.nodes = int(er.integer("nodes", Req, 1, 1, kMaxReplicas));
                      pt.replicas = int(er.integer("replicas", Req, 1, 1, kMaxReplicas));
                  }
                  pt.localBatch = int(er.integer("local_batch", Req, 1, 1, kMaxLocalBatch));
                  pt.stepSeconds = er.number("step_s", Req, 0, 0, kMaxSeconds);
                  pt.syncSeconds = er.number("sync_s", Opt, 0, 0, kMaxSeconds);
                  er.finish();
                  t.points.push_back(std::move(pt));
              });
    r.finish();
    return t;
}

StsData readSts(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    StsData s;
    s.maxEpochs = int(r.integer("max_epochs", Req, 100, 1, 1000000));
    s.termination = r.string("termination", Opt);
    forEachIn(r.array("execution_times", Req), r.pointer("execution_times"),
              [&](const json &e, const std::string &eptr) {
                  ObjectReader er(e, eptr, p);
                  ExecutionTime t;
                  t.gpuType = er.string("gpu_type", Req);
                  t.gpus = int(er.integer("gpus", Req, 1, 1, kMaxGpusPerNode));
                  t.fraction = er.number("fraction", Opt, 1.0, 0.01, 1.0);
                  t.seconds = er.number("seconds", Req, 0, 0, kMaxSeconds);
                  er.finish();
                  s.executionTimes.push_back(t);
              });
    r.finish();
    return s;
}

Job readJob(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    Job j;
    j.id = r.string("id", Req);
    j.name = r.string("name", Opt);
    const std::string kind = r.string("kind", Req);
    if (auto parsed = jobKindFromString(kind))
        j.kind = *parsed;
    else if (r.has("kind"))
        r.problem("kind", "expected one of ps, allreduce, single; found \"" + kind + "\"");
    j.submitSeconds = r.number("submit_s", Opt, 0, 0, kMaxSeconds);
    if (r.has("due_s"))
        j.dueSeconds = r.number("due_s", Req, 0, 0, kMaxSeconds);
    j.tardinessWeight = r.number("tardiness_weight", Opt, 0, 0, 1e9);
    j.priority = int(r.integer("priority", Opt, 0, -1000000, 1000000));
    forEachIn(r.array("tasks", Req), r.pointer("tasks"),
              [&](const json &t, const std::string &tptr) {
                  j.tasks.push_back(readTaskGroup(t, tptr, p));
              });
    if (const json *m = r.object("model", Req))
        j.model = readModel(*m, r.pointer("model"), p);
    j.image = r.string("image", Opt);
    j.command = r.stringList("command");
    if (r.has("time_limit_s"))
        j.timeLimitSeconds = r.number("time_limit_s", Req, 0, 1, kMaxSeconds);
    j.account = r.string("account", Opt);
    if (r.has("min_available"))
        j.minAvailable = int(r.integer("min_available", Req, 1, 1, 1000000));
    if (!j.account.empty() && j.account.find_first_of(" \t\n\"'#") != std::string::npos)
        r.problem("account", "expected an account name without spaces, quotes or '#', found \"" +
                                 j.account + "\"");
    if (const json *s = r.object("sts", Opt))
        j.sts = readSts(*s, r.pointer("sts"), p);
    r.finish();
    return j;
}

Settings readSettings(const json &v, const std::string &ptr, Problems &p)
{
    ObjectReader r(v, ptr, p);
    Settings s;
    s.energyPricePerKWh = r.number("energy_price_per_kwh", Opt, s.energyPricePerKWh, 0, kMaxPrice);
    forEachIn(r.array("price_schedule", Opt), r.pointer("price_schedule"),
              [&](const json &e, const std::string &eptr) {
                  ObjectReader er(e, eptr, p);
                  PricePeriod period;
                  period.fromHour = er.number("from_hour", Req, 0, 0, 23.999999);
                  period.pricePerKWh = er.number("price_per_kwh", Req, 0, 0, kMaxPrice);
                  er.finish();
                  s.priceSchedule.push_back(period);
              });
    s.pue = r.number("pue", Opt, s.pue, 1.0, 10.0);
    s.seed = std::uint64_t(r.integer("seed", Opt, 1, 0, std::numeric_limits<std::int64_t>::max()));
    s.overlap = r.number("overlap", Opt, s.overlap, 0.0, 1.0);
    if (const json *limits = r.object("limits", Opt)) {
        ObjectReader lr(*limits, r.pointer("limits"), p);
        ScenarioLimits &l = s.limits;
        l.maxTasks = lr.integer("max_tasks", Opt, l.maxTasks, 1, ScenarioLimits::kMostTasks);
        l.maxTasksPerJob = lr.integer("max_tasks_per_job", Opt, l.maxTasksPerJob, 1,
                                      ScenarioLimits::kMostTasks);
        l.minLinkGbps = lr.number("min_link_gbps", Opt, l.minLinkGbps,
                                  ScenarioLimits::kLeastLinkGbps, kMaxGbps);
        lr.finish();
    }
    if (r.has("currency")) {
        s.currency = r.string("currency", Req);
        const bool code = s.currency.size() == 3 &&
                          std::all_of(s.currency.begin(), s.currency.end(),
                                      [](char c) { return c >= 'A' && c <= 'Z'; });
        if (!code)
            r.problem("currency", "expected a three-letter ISO 4217 code such as EUR or USD, "
                                  "found \"" + s.currency + "\"");
    }
    const std::string allreduce = r.string("allreduce", Opt, "ring");
    if (auto a = allReduceAlgorithmFromString(allreduce))
        s.allreduce = *a;
    else
        r.problem("allreduce",
                  "expected \"ring\", \"tree\" or \"hierarchical\", found \"" + allreduce + "\"");
    r.finish();
    return s;
}

/// What a problem at a JSON pointer is about, for telling which checks can be trusted: the
/// top-level member ("cluster" for /cluster/nodes/3/gpus, "" for the document itself), or
/// for a job the job ("jobs/4"): jobs are checked one by one, each against the cluster.
std::string partOf(const std::string &pointer)
{
    if (pointer.size() < 2 || pointer[0] != '/')
        return {};
    const std::size_t end = pointer.find('/', 1);
    std::string part = pointer.substr(1, end - 1);
    if (part == "jobs" && end != std::string::npos)
        part += pointer.substr(end, pointer.find('/', end + 1) - end);
    return part;
}

/// Whether validateScenario's problem at `pointer` can be trusted when the parts in `broken`
/// had problems as they were read: its part and every part its checks compare with must have
/// read cleanly (the cluster's links are checked against the settings' limits; a job against
/// the cluster's GPU types, the limits and the distributions).
bool checkTrusted(const std::string &pointer, const std::set<std::string> &broken)
{
    const std::string part = partOf(pointer);
    if (part.empty() || broken.count(part) || broken.count(""))
        return false;
    std::vector<std::string> comparedWith;
    if (part == "cluster")
        comparedWith = {"settings"};
    else if (part.rfind("jobs", 0) == 0)
        comparedWith = {"jobs", "cluster", "settings", "distributions"};
    return std::none_of(comparedWith.begin(), comparedWith.end(),
                        [&](const std::string &other) { return broken.count(other) > 0; });
}

/// For a check of ids alone ("duplicate job id" at /jobs/2/id, a node's at /cluster/nodes/3/id),
/// whether it can be trusted whatever else failed to read: it compares only the ids of its
/// array (the cluster's nodes and switches share one set of ids), so it stands when each of
/// them read (a job's bad GPU count does not hide two jobs of one id). Empty for other checks.
std::optional<bool> idCheckTrusted(const std::string &pointer, const Problems &read)
{
    const std::size_t idAt = pointer.rfind("/id");
    if (idAt == std::string::npos || idAt + 3 != pointer.size() || idAt == 0)
        return std::nullopt;
    const std::size_t indexAt = pointer.rfind('/', idAt - 1);
    if (indexAt == std::string::npos)
        return std::nullopt;
    const std::string array = pointer.substr(0, indexAt);
    std::vector<std::string> arrays = {array};
    if (array == "/cluster/nodes" || array == "/cluster/switches")
        arrays = {"/cluster/nodes", "/cluster/switches"};
    else if (array != "/jobs")
        return std::nullopt;
    for (const Problem &q : read) {
        if (q.where.empty() || q.where == "/" || (arrays.size() > 1 && q.where == "/cluster"))
            return false;
        for (const std::string &a : arrays) {
            if (q.where.rfind(a, 0) != 0)
                continue;
            // the array itself, one of its elements, or an element's id
            const std::string rest = q.where.substr(a.size());
            const std::size_t slash = rest.find('/', 1);
            if (rest.empty() || slash == std::string::npos || rest.substr(slash) == "/id")
                return false;
        }
    }
    return true;
}

} // namespace

Result<Scenario> scenarioFromJson(const json &doc)
{
    Problems p;
    ObjectReader r(doc, "", p);
    if (!r.isObject())
        return Result<Scenario>(p);
    // Check the format and version first: a newer file is refused before anything else.
    const std::string format = r.string("format", Req);
    if (r.has("format") && format != Scenario::kFormatName)
        return Result<Scenario>::failure(
            "/format", "expected \"" + std::string(Scenario::kFormatName) + "\", found \"" +
                           format + "\": this is not a ClusterBench scenario");
    if (!r.has("format") && !r.has("version"))
        return Result<Scenario>::failure(
            "/", "this is not a ClusterBench scenario: it has neither \"format\": \"" +
                     std::string(Scenario::kFormatName) +
                     "\" nor \"version\" (`clusterbench import` reads clusters and traces "
                     "in other formats)");
    if (!r.has("version"))
        return Result<Scenario>::failure("/", "missing required field \"version\"");
    const std::int64_t version =
        r.integer("version", Req, -1, 1, std::numeric_limits<std::int64_t>::max());
    if (!p.empty())
        return Result<Scenario>(p);
    if (version != Scenario::kFormatVersion)
        return Result<Scenario>::failure("/version",
                                         "format version " + std::to_string(version) +
                                             " is newer than this ClusterBench understands (" +
                                             std::to_string(Scenario::kFormatVersion) +
                                             "); open it with a newer ClusterBench");

    Scenario s;
    s.name = r.string("name", Opt);
    s.description = r.string("description", Opt);
    if (const json *settings = r.object("settings", Opt))
        s.settings = readSettings(*settings, "/settings", p);
    if (const json *c = r.object("cluster", Req)) {
        ObjectReader cr(*c, "/cluster", p);
        forEachIn(cr.array("gpu_types", Opt), "/cluster/gpu_types",
                  [&](const json &v, const std::string &ptr) {
                      s.cluster.gpuTypes.push_back(readGpuType(v, ptr, p));
                  });
        forEachIn(cr.array("nodes", Req), "/cluster/nodes",
                  [&](const json &v, const std::string &ptr) {
                      s.cluster.nodes.push_back(readNode(v, ptr, p));
                  });
        forEachIn(cr.array("switches", Opt), "/cluster/switches",
                  [&](const json &v, const std::string &ptr) {
                      s.cluster.switches.push_back(readSwitch(v, ptr, p));
                  });
        forEachIn(cr.array("links", Opt), "/cluster/links",
                  [&](const json &v, const std::string &ptr) {
                      s.cluster.links.push_back(readLink(v, ptr, p));
                  });
        forEachIn(cr.array("nvlink_domains", Opt), "/cluster/nvlink_domains",
                  [&](const json &v, const std::string &ptr) {
                      s.cluster.nvlinkDomains.push_back(readNvlinkDomain(v, ptr, p));
                  });
        forEachIn(cr.array("partitions", Opt), "/cluster/partitions",
                  [&](const json &v, const std::string &ptr) {
                      s.cluster.partitions.push_back(readPartition(v, ptr, p));
                  });
        cr.finish();
    }
    if (const json *d = r.object("distributions", Opt)) {
        for (auto it = d->begin(); it != d->end(); ++it) {
            const std::string ptr = "/distributions/" + jsonPointerToken(it.key());
            std::vector<double> pmf;
            if (!it.value().is_array()) {
                p.push_back({ptr, "expected an array of probabilities"});
                continue;
            }
            for (std::size_t i = 0; i < it.value().size(); ++i) {
                const json &x = it.value()[i];
                if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() < 0)
                    p.push_back({at(ptr, i), "expected a probability (a number >= 0)"});
                else
                    pmf.push_back(x.get<double>());
            }
            s.distributions[it.key()] = std::move(pmf);
        }
    }
    forEachIn(r.array("jobs", Opt), "/jobs",
              [&](const json &v, const std::string &ptr) { s.jobs.push_back(readJob(v, ptr, p)); });
    if (const json *m = r.object("step_time_models", Opt))
        for (auto it = m->begin(); it != m->end(); ++it)
            s.stepTimeModels[it.key()] =
                readStepTimeTable(it.value(), "/step_time_models/" + jsonPointerToken(it.key()), p);
    forEachIn(r.array("policies", Opt), "/policies", [&](const json &v, const std::string &ptr) {
        if (!v.is_object() || !v.contains("name") || !v["name"].is_string())
            p.push_back({ptr, "expected a policy object with a \"name\" string"});
        else
            s.policies.push_back(v);
    });
    r.finish();
    if (p.empty()) {
        Problems semantic = validateScenario(s);
        if (!semantic.empty())
            return Result<Scenario>(semantic);
        return s;
    }
    // The checks across fields run too, so that one reading lists every problem, except where
    // a part they compare did not read: a value that failed to read holds a default, which
    // would make problems of its own (a link to a node whose id did not read).
    std::set<std::string> broken;
    for (const Problem &q : p)
        broken.insert(partOf(q.where));
    const Problems read = p;
    for (Problem &q : validateScenario(s))
        if (idCheckTrusted(q.where, read).value_or(checkTrusted(q.where, broken)))
            p.push_back(std::move(q));
    return Result<Scenario>(p);
}

Result<Scenario> scenarioFromText(const std::string &text)
{
    auto doc = parseJsonText(text);
    if (!doc)
        return Result<Scenario>(doc.problems());
    return scenarioFromJson(doc.value());
}

Result<Scenario> loadScenarioFile(const std::string &path)
{
    auto text = readTextFile(path);
    if (!text)
        return Result<Scenario>(text.problems());
    return scenarioFromText(text.value());
}

namespace {

ordered_json toJson(const GpuType &t)
{
    ordered_json j;
    j["name"] = t.name;
    j["memory_gib"] = jsonNumber(t.memoryGiB);
    j["relative_speed"] = jsonNumber(t.relativeSpeed);
    j["idle_watts"] = jsonNumber(t.idleWatts);
    j["busy_watts"] = jsonNumber(t.busyWatts);
    j["price_per_hour"] = jsonNumber(t.pricePerHour);
    return j;
}

ordered_json toJson(const Node &n)
{
    ordered_json j;
    j["id"] = n.id;
    j["cpus"] = jsonNumber(n.cpus);
    j["memory_gib"] = jsonNumber(n.memoryGiB);
    j["gpus"] = n.gpus;
    if (!n.gpuType.empty())
        j["gpu_type"] = n.gpuType;
    if (!n.partition.empty())
        j["partition"] = n.partition;
    if (!n.rack.empty())
        j["rack"] = n.rack;
    j["base_watts"] = jsonNumber(n.baseWatts);
    if (!n.labels.empty())
        j["labels"] = n.labels;
    ordered_json ic;
    ic["kind"] = n.interconnect.kind == GpuInterconnect::Kind::Nvlink ? "nvlink" : "pcie";
    ic["bandwidth_gbps"] = jsonNumber(n.interconnect.bandwidthGbps);
    if (n.interconnect.latencyUs != 0)
        ic["latency_us"] = jsonNumber(n.interconnect.latencyUs);
    if (!n.interconnect.nvlinkDomains.empty())
        ic["nvlink_domains"] = n.interconnect.nvlinkDomains;
    j["interconnect"] = ic;
    return j;
}

ordered_json toJson(const Link &l)
{
    ordered_json j;
    j["a"] = l.a;
    j["b"] = l.b;
    j["capacity_gbps"] = jsonNumber(l.capacityGbps);
    j["latency_us"] = jsonNumber(l.latencyUs);
    if (l.flowCapGbps > 0)
        j["flow_cap_gbps"] = jsonNumber(l.flowCapGbps);
    return j;
}

ordered_json toJson(const TaskGroup &g)
{
    ordered_json j;
    j["role"] = toString(g.role);
    j["replicas"] = g.replicas;
    j["cpus"] = jsonNumber(g.cpus);
    j["memory_gib"] = jsonNumber(g.memoryGiB);
    j["gpus"] = g.gpus;
    if (g.gpuFraction != 1.0)
        j["gpu_fraction"] = jsonNumber(g.gpuFraction);
    if (!g.gpuType.empty())
        j["gpu_type"] = g.gpuType;
    if (!g.nodeSelector.empty())
        j["node_selector"] = g.nodeSelector;
    return j;
}

ordered_json toJson(const Job &job)
{
    ordered_json j;
    j["id"] = job.id;
    if (!job.name.empty())
        j["name"] = job.name;
    j["kind"] = toString(job.kind);
    j["submit_s"] = jsonNumber(job.submitSeconds);
    if (job.dueSeconds)
        j["due_s"] = jsonNumber(*job.dueSeconds);
    j["tardiness_weight"] = jsonNumber(job.tardinessWeight);
    j["priority"] = job.priority;
    ordered_json tasks = ordered_json::array();
    for (const TaskGroup &g : job.tasks)
        tasks.push_back(toJson(g));
    j["tasks"] = tasks;
    ordered_json m;
    if (!job.model.name.empty())
        m["name"] = job.model.name;
    m["parameter_bytes"] = job.model.parameterBytes;
    m["iterations"] = job.model.iterations;
    m["compute_s_per_iteration"] = jsonNumber(job.model.computeSecondsPerIteration);
    if (!job.model.computeSecondsByGpuType.empty()) {
        ordered_json by;
        for (const auto &[type, s] : job.model.computeSecondsByGpuType)
            by[type] = jsonNumber(s);
        m["compute_s_by_gpu_type"] = by;
    }
    if (job.model.localBatch > 0)
        m["local_batch"] = job.model.localBatch;
    if (job.model.overlap)
        m["overlap"] = jsonNumber(*job.model.overlap);
    if (job.model.exposedCommFraction != 0)
        m["exposed_comm_fraction"] = jsonNumber(job.model.exposedCommFraction);
    if (job.model.colocationSlowdown != 0)
        m["colocation_slowdown"] = jsonNumber(job.model.colocationSlowdown);
    if (job.model.computeCv != 0)
        m["compute_cv"] = jsonNumber(job.model.computeCv);
    j["model"] = m;
    if (!job.image.empty())
        j["image"] = job.image;
    if (!job.command.empty())
        j["command"] = job.command;
    if (job.timeLimitSeconds)
        j["time_limit_s"] = jsonNumber(*job.timeLimitSeconds);
    if (!job.account.empty())
        j["account"] = job.account;
    if (job.minAvailable)
        j["min_available"] = *job.minAvailable;
    if (job.sts) {
        ordered_json s;
        s["max_epochs"] = job.sts->maxEpochs;
        if (!job.sts->termination.empty())
            s["termination"] = job.sts->termination;
        ordered_json times = ordered_json::array();
        for (const ExecutionTime &t : job.sts->executionTimes) {
            ordered_json e;
            e["gpu_type"] = t.gpuType;
            e["gpus"] = t.gpus;
            if (t.fraction != 1.0)
                e["fraction"] = jsonNumber(t.fraction);
            e["seconds"] = jsonNumber(t.seconds);
            times.push_back(e);
        }
        s["execution_times"] = times;
        j["sts"] = s;
    }
    return j;
}

} // namespace

namespace {

ordered_json scenarioToJson(const Scenario &s, bool withJobs);

} // namespace

ordered_json scenarioToJson(const Scenario &s)
{
    return scenarioToJson(s, true);
}

namespace {

ordered_json scenarioToJson(const Scenario &s, bool withJobs)
{
    ordered_json doc;
    doc["format"] = Scenario::kFormatName;
    doc["version"] = Scenario::kFormatVersion;
    if (!s.name.empty())
        doc["name"] = s.name;
    if (!s.description.empty())
        doc["description"] = s.description;

    ordered_json settings;
    settings["energy_price_per_kwh"] = jsonNumber(s.settings.energyPricePerKWh);
    if (!s.settings.priceSchedule.empty()) {
        ordered_json schedule = ordered_json::array();
        for (const PricePeriod &period : s.settings.priceSchedule)
            schedule.push_back({{"from_hour", jsonNumber(period.fromHour)},
                                {"price_per_kwh", jsonNumber(period.pricePerKWh)}});
        settings["price_schedule"] = schedule;
    }
    settings["pue"] = jsonNumber(s.settings.pue);
    settings["seed"] = s.settings.seed;
    settings["overlap"] = jsonNumber(s.settings.overlap);
    if (s.settings.limits != ScenarioLimits{}) {
        // Written only when changed, so files that keep the defaults stay as they were.
        const ScenarioLimits &l = s.settings.limits;
        settings["limits"] = {{"max_tasks", l.maxTasks},
                              {"max_tasks_per_job", l.maxTasksPerJob},
                              {"min_link_gbps", jsonNumber(l.minLinkGbps)}};
    }
    if (s.settings.currency != Settings{}.currency) // the default stays implicit
        settings["currency"] = s.settings.currency;
    if (s.settings.allreduce != AllReduceAlgorithm::Ring)
        settings["allreduce"] = toString(s.settings.allreduce);
    doc["settings"] = settings;

    ordered_json cluster;
    cluster["gpu_types"] = ordered_json::array();
    for (const GpuType &t : s.cluster.gpuTypes)
        cluster["gpu_types"].push_back(toJson(t));
    cluster["nodes"] = ordered_json::array();
    for (const Node &n : s.cluster.nodes)
        cluster["nodes"].push_back(toJson(n));
    cluster["switches"] = ordered_json::array();
    for (const Switch &sw : s.cluster.switches) {
        ordered_json j;
        j["id"] = sw.id;
        if (!sw.tier.empty())
            j["tier"] = sw.tier;
        cluster["switches"].push_back(j);
    }
    cluster["links"] = ordered_json::array();
    for (const Link &l : s.cluster.links)
        cluster["links"].push_back(toJson(l));
    if (!s.cluster.nvlinkDomains.empty()) { // absent when empty: older files stay as they were
        cluster["nvlink_domains"] = ordered_json::array();
        for (const NvlinkDomain &d : s.cluster.nvlinkDomains) {
            ordered_json j;
            j["id"] = d.id;
            j["nodes"] = d.nodes;
            j["bandwidth_gbps"] = jsonNumber(d.bandwidthGbps);
            if (d.latencyUs != 0)
                j["latency_us"] = jsonNumber(d.latencyUs);
            cluster["nvlink_domains"].push_back(j);
        }
    }
    if (!s.cluster.partitions.empty()) { // (absent when empty, as nvlink_domains)
        cluster["partitions"] = ordered_json::array();
        for (const Partition &part : s.cluster.partitions) {
            ordered_json j;
            j["name"] = part.name;
            if (part.maxTimeSeconds)
                j["max_time_s"] = jsonNumber(*part.maxTimeSeconds);
            if (part.isDefault)
                j["default"] = true;
            cluster["partitions"].push_back(j);
        }
    }
    doc["cluster"] = cluster;

    if (!s.distributions.empty()) {
        ordered_json d;
        for (const auto &[name, pmf] : s.distributions) {
            ordered_json values = ordered_json::array();
            for (double x : pmf)
                values.push_back(jsonNumber(x));
            d[name] = values;
        }
        doc["distributions"] = d;
    }
    doc["jobs"] = ordered_json::array();
    if (withJobs)
        for (const Job &job : s.jobs)
            doc["jobs"].push_back(toJson(job));
    if (!s.stepTimeModels.empty()) {
        ordered_json models;
        for (const auto &[name, table] : s.stepTimeModels) {
            ordered_json t;
            if (!table.source.empty())
                t["source"] = table.source;
            ordered_json points = ordered_json::array();
            for (const StepTimePoint &pt : table.points) {
                ordered_json e;
                if (!pt.placement.empty()) {
                    e["placement"] = pt.placement;
                } else {
                    e["nodes"] = pt.nodes;
                    e["replicas"] = pt.replicas;
                }
                e["local_batch"] = pt.localBatch;
                e["step_s"] = jsonNumber(pt.stepSeconds);
                e["sync_s"] = jsonNumber(pt.syncSeconds);
                points.push_back(e);
            }
            t["points"] = points;
            models[name] = t;
        }
        doc["step_time_models"] = models;
    }
    if (!s.policies.empty()) {
        doc["policies"] = ordered_json::array();
        for (const json &policy : s.policies)
            doc["policies"].push_back(ordered_json::parse(policy.dump()));
    }
    return doc;
}

} // namespace

std::string scenarioToText(const Scenario &scenario)
{
    return scenarioToJson(scenario).dump(2) + "\n";
}

Status saveScenarioFile(const std::string &path, const Scenario &scenario)
{
    return writeFileAtomically(path, scenarioToText(scenario));
}

Status writeScenarioFile(const std::string &path, const Scenario &scenario,
                         const std::function<bool(std::size_t)> &progress)
{
    // The text without jobs, then the jobs spliced in one by one where dump(2) puts them:
    // "  \"jobs\": [\n    {...},\n    {...}\n  ]" (each job indented four spaces).
    std::string text;
    try {
        text = scenarioToJson(scenario, false).dump(2) + "\n";
    } catch (const nlohmann::json::exception &e) {
        return Status::failure(path, std::string("cannot write the scenario: ") + e.what());
    }
    const std::string marker = "\n  \"jobs\": []";
    const std::size_t at = text.find(marker);
    if (at == std::string::npos)
        return Status::failure(path, "internal error: no jobs array in the scenario text");
    AtomicFileWriter out(path);
    if (auto opened = out.open(); !opened)
        return opened;
    const std::size_t open = at + marker.size() - 1; // the ']'
    out.write(std::string_view(text).substr(0, open));
    std::string piece;
    for (std::size_t i = 0; i < scenario.jobs.size(); ++i) {
        std::string job;
        try {
            job = toJson(scenario.jobs[i]).dump(2);
        } catch (const nlohmann::json::exception &e) {
            return Status::failure(path, "cannot write job " + std::to_string(i) + " (\"" +
                                             scenario.jobs[i].id + "\"): " + e.what());
        }
        piece.assign(i == 0 ? "\n    " : ",\n    ");
        for (char c : job) {
            piece += c;
            if (c == '\n')
                piece += "    ";
        }
        if (!out.write(piece))
            break;
        if (progress && (i % 4096 == 4095) && !progress(i + 1))
            return Status::failure(path, "cancelled; nothing written");
    }
    if (!scenario.jobs.empty())
        out.write("\n  ");
    out.write(std::string_view(text).substr(open));
    return out.commit();
}

} // namespace cb
