#include "io/run_json.h"

#include "io/file_io.h"
#include "io/json_reader.h"
#include "io/scenario_json.h"
#include "sched/traffic.h"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cb {

using nlohmann::ordered_json;

namespace {

ordered_json finiteOrNull(double v)
{
    if (!std::isfinite(v))
        return ordered_json();
    return jsonNumber(v);
}

ordered_json opt(const std::optional<double> &v)
{
    return v ? finiteOrNull(*v) : ordered_json();
}

/// A JSON array of the numbers, null where one is not finite.
ordered_json finiteArray(const std::vector<double> &values)
{
    ordered_json a = ordered_json::array();
    for (double v : values)
        a.push_back(finiteOrNull(v));
    return a;
}

/// The per-bucket GPU busy seconds and, when priced, the cost: the same in both layouts.
void busyAndCostJson(const RunSeries &s, ordered_json &series)
{
    series["gpu_busy_s"] = finiteArray(s.gpuBusySeconds);
    if (!s.cost.empty())
        series["cost"] = finiteArray(s.cost);
    if (!s.strandedGpuSeconds.empty())
        series["stranded_gpu_s"] = finiteArray(s.strandedGpuSeconds);
}

ordered_json placedTasksJson(const JobPlacement &p)
{
    ordered_json placed = ordered_json::array();
    for (const TaskAssignment &a : p.tasks)
        placed.push_back({{"role", toString(a.role)},
                          {"index", a.indexInRole},
                          {"group", a.group},
                          {"node", a.node},
                          {"gpus", a.gpuIndices}});
    return placed;
}

/// One node-pair row of a run file: {"bucket"?, "from", "to", "bytes"}.
ordered_json pairRowJson(const std::pair<int, int> &p, double bytes, const Cluster &cluster,
                         std::optional<int> bucket)
{
    ordered_json o;
    if (bucket)
        o["bucket"] = *bucket;
    o["from"] = cluster.nodes[std::size_t(p.first)].id;
    o["to"] = cluster.nodes[std::size_t(p.second)].id;
    o["bytes"] = finiteOrNull(bytes);
    return o;
}

/// The cumulative node pairs as columns: {"from": [...], "to": [...], "bytes": [...]}, node
/// numbers in cluster order.
ordered_json pairColumns(const std::map<std::pair<int, int>, double> &m)
{
    ordered_json from = ordered_json::array(), to = ordered_json::array(),
                 bytes = ordered_json::array();
    for (const auto &[p, v] : m) {
        from.push_back(p.first);
        to.push_back(p.second);
        bytes.push_back(finiteOrNull(v));
    }
    return {{"from", std::move(from)}, {"to", std::move(to)}, {"bytes", std::move(bytes)}};
}

/// The series of RunJsonLayout::Stored: what the run file's series holds without what is
/// derived from it (utilisation), as columns of numbers with link and node numbers (the
/// cluster's order) instead of one object with names per entry.
ordered_json storedSeriesJson(const RunResult &run)
{
    const RunSeries &s = run.series;
    ordered_json series;
    series["layout"] = "columns";
    series["bucket_s"] = finiteOrNull(s.bucketSeconds);
    busyAndCostJson(s, series);
    ordered_json totalLinks = ordered_json::array(), totalBytes = ordered_json::array();
    for (std::size_t l = 0; l < run.linkBytes.size(); ++l)
        if (run.linkBytes[l] != 0) {
            totalLinks.push_back(l);
            totalBytes.push_back(finiteOrNull(run.linkBytes[l]));
        }
    series["link_totals"] = {{"link", std::move(totalLinks)}, {"bytes", std::move(totalBytes)}};
    ordered_json counts = ordered_json::array(), links = ordered_json::array(),
                 bytes = ordered_json::array();
    for (const auto &bucket : s.linkBytes) {
        counts.push_back(bucket.size());
        for (const auto &[l, v] : bucket) {
            links.push_back(l);
            bytes.push_back(finiteOrNull(v));
        }
    }
    series["link_bytes"] = {
        {"count", std::move(counts)}, {"link", std::move(links)}, {"bytes", std::move(bytes)}};
    ordered_json pairCounts = ordered_json::array(), from = ordered_json::array(),
                 to = ordered_json::array(), pairBytes = ordered_json::array();
    for (const auto &bucket : s.pairBytes) {
        pairCounts.push_back(bucket.size());
        for (const auto &[p, v] : bucket) {
            from.push_back(p.first);
            to.push_back(p.second);
            pairBytes.push_back(finiteOrNull(v));
        }
    }
    series["node_pairs"] = {{"count", std::move(pairCounts)},
                            {"from", std::move(from)},
                            {"to", std::move(to)},
                            {"bytes", std::move(pairBytes)}};
    return series;
}

} // namespace

ordered_json runSummaryJson(const RunResult &run)
{
    double slowdownSum = 0, delaySum = 0;
    int slowdowns = 0, delays = 0;
    for (const JobRun &j : run.jobs) {
        if (auto s = j.slowdown()) {
            slowdownSum += *s;
            ++slowdowns;
        }
        if (auto q = j.queueDelaySeconds()) {
            delaySum += *q;
            ++delays;
        }
    }
    double busy = 0;
    for (double b : run.series.gpuBusySeconds)
        busy += b;
    const double capacity = double(run.totalGpus) * run.makespanSeconds;
    ordered_json s;
    s["jobs"] = run.jobs.size();
    s["finished"] = run.finishedJobs();
    s["unfinished"] = int(run.jobs.size()) - run.finishedJobs();
    s["makespan_s"] = finiteOrNull(run.makespanSeconds);
    s["mean_jct_s"] = finiteOrNull(run.meanJctSeconds());
    s["mean_queue_delay_s"] = finiteOrNull(delays > 0 ? delaySum / delays : 0.0);
    s["mean_slowdown"] = finiteOrNull(slowdowns > 0 ? slowdownSum / slowdowns : 0.0);
    s["cross_node_bytes"] = finiteOrNull(run.crossNodeBytes());
    // Only where multi-node NVLink domains made it differ: other runs keep their bytes.
    if (run.crossDomainBytes() != run.crossNodeBytes())
        s["cross_domain_bytes"] = finiteOrNull(run.crossDomainBytes());
    s["total_bytes"] = finiteOrNull(run.totalBytes());
    s["energy_kwh"] = finiteOrNull(run.energyKWh);
    s["cost"] = finiteOrNull(run.cost);
    s["cost_model"] = toString(run.costModel);
    s["energy_cost"] = finiteOrNull(run.energyCost);
    s["gpu_hour_cost"] = finiteOrNull(run.gpuHourCost);
    s["tardiness_s"] = finiteOrNull(run.totalTardinessSeconds());
    s["tardiness_cost"] = finiteOrNull(run.tardinessCost);
    s["total_cost"] = finiteOrNull(run.totalCost());
    s["violations"] = run.violations();
    s["reconfigurations"] = run.reconfigurations;
    s["multi_node_placements"] = run.multiNodePlacements;
    s["gpu_utilisation"] = finiteOrNull(capacity > 0 ? busy / capacity : 0.0);
    s["node_failures"] = run.failures;
    s["events"] = run.events;
    s["network_solves"] = run.networkSolves;
    // Only runs in which GPUs sat stranded: the others keep their summary.
    if (run.strandedGpuSeconds > 0)
        s["stranded_gpu_s"] = finiteOrNull(run.strandedGpuSeconds);
    return s;
}

namespace {

/// Where a run's JSON goes, member by member and item by item: a document (DomSink), or a
/// file written piece by piece (StreamSink), which never holds the whole text or document:
/// a replay of 100,000 jobs writes hundreds of MB, and its document took gigabytes. The
/// file's text is the document's dump(1) to the byte (a test compares them).
class DomSink
{
public:
    DomSink() { m_stack.emplace_back(std::string(), ordered_json::object()); }
    void member(const char *key, ordered_json v) { m_stack.back().second[key] = std::move(v); }
    void item(ordered_json v) { m_stack.back().second.push_back(std::move(v)); }
    void beginObject(const char *key) { m_stack.emplace_back(key, ordered_json::object()); }
    void beginArray(const char *key) { m_stack.emplace_back(key, ordered_json::array()); }
    void end()
    {
        auto [key, value] = std::move(m_stack.back());
        m_stack.pop_back();
        m_stack.back().second[key] = std::move(value);
    }
    ordered_json take() { return std::move(m_stack.front().second); }

private:
    /// Open containers (key in the parent object, value), the document first. (Containers
    /// open only as members of objects; arrays are given whole items.)
    std::vector<std::pair<std::string, ordered_json>> m_stack;
};

class StreamSink
{
public:
    explicit StreamSink(AtomicFileWriter &out) : m_out(out)
    {
        put("{");
        m_open.push_back({'}', false});
    }
    void member(const char *key, const ordered_json &v)
    {
        next(key);
        // A value nested n deep: its dump(1) with every line after the first indented n.
        const std::string text = v.dump(1);
        std::size_t from = 0;
        for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
            put(std::string_view(text).substr(from, nl + 1 - from));
            indent();
        }
        put(std::string_view(text).substr(from));
    }
    void item(const ordered_json &v) { member(nullptr, v); }
    void beginObject(const char *key) { begin(key, '{', '}'); }
    void beginArray(const char *key) { begin(key, '[', ']'); }
    void end()
    {
        const Open o = m_open.back();
        m_open.pop_back();
        if (o.any) { // (an empty container is "{}" or "[]")
            put("\n");
            indent();
        }
        put(std::string_view(&o.close, 1));
    }
    /// Closes the document (a failed write is reported by the file's commit()).
    void finish()
    {
        end();
        put("\n");
    }

private:
    struct Open
    {
        char close;
        bool any;
    };
    void put(std::string_view text) { m_out.write(text); }
    /// One space per open container (the document's dump(1) indentation).
    void indent()
    {
        if (m_spaces.size() < m_open.size())
            m_spaces.resize(m_open.size(), ' ');
        put(std::string_view(m_spaces).substr(0, m_open.size()));
    }
    /// Starts the next member (with its key) or item of the innermost container.
    void next(const char *key)
    {
        Open &o = m_open.back();
        put(o.any ? ",\n" : "\n");
        o.any = true;
        indent();
        if (key) {
            put(ordered_json(key).dump());
            put(": ");
        }
    }
    void begin(const char *key, char open, char close)
    {
        next(key);
        put(std::string_view(&open, 1));
        m_open.push_back({close, false});
    }

    AtomicFileWriter &m_out;
    std::vector<Open> m_open;
    std::string m_spaces;
};

ordered_json jobJson(const JobRun &r)
{
    ordered_json o;
    o["id"] = r.id;
    o["submit_s"] = finiteOrNull(r.submitSeconds);
    o["first_start_s"] = opt(r.firstStartSeconds);
    o["start_s"] = opt(r.startSeconds);
    o["finish_s"] = opt(r.finishSeconds);
    o["due_s"] = opt(r.dueSeconds);
    o["queue_delay_s"] = opt(r.queueDelaySeconds());
    o["jct_s"] = opt(r.jctSeconds());
    o["isolated_s"] = opt(r.isolatedSeconds);
    o["slowdown"] = opt(r.slowdown());
    o["tardiness_s"] = opt(r.tardinessSeconds());
    o["attempts"] = r.attempts;
    o["iteration_s"] = finiteOrNull(r.iterationSeconds);
    o["total_bytes"] = finiteOrNull(r.totalBytes);
    o["cross_node_bytes"] = finiteOrNull(r.crossNodeBytes);
    if (r.crossDomainBytes != r.crossNodeBytes)
        o["cross_domain_bytes"] = finiteOrNull(r.crossDomainBytes);
    o["energy_kwh"] = finiteOrNull(r.energyKWh);
    o["cost"] = finiteOrNull(r.cost);
    o["gpus"] = r.gpus;
    ordered_json tasks = ordered_json::array();
    for (const TaskAssignment &a : r.placement.tasks)
        tasks.push_back(std::string(toString(a.role)) + "-" + std::to_string(a.indexInRole) +
                        "@" + a.node);
    o["tasks"] = tasks;
    o["placement"] = {{"start_s", finiteOrNull(r.placement.startSeconds)},
                      {"pending_tasks", r.placement.pendingTasks},
                      {"tasks", placedTasksJson(r.placement)}};
    o["reconfigurations"] = r.reconfigurations;
    o["violated"] = r.violated;
    ordered_json segments = ordered_json::array();
    for (const JobSegment &seg : r.segments) {
        ordered_json so;
        so["start_s"] = finiteOrNull(seg.startSeconds);
        so["end_s"] = opt(seg.endSeconds);
        if (seg.config)
            so["config"] = {{"gpu_type", seg.config->gpuType},
                            {"gpus", seg.config->gpus},
                            {"fraction", jsonNumber(seg.config->fraction)}};
        so["iterations"] = finiteOrNull(seg.iterations);
        // The last attempt's placement is the job's own: not written twice.
        if (!(seg.placement == r.placement))
            so["placement"] = {{"start_s", finiteOrNull(seg.placement.startSeconds)},
                               {"pending_tasks", seg.placement.pendingTasks},
                               {"tasks", placedTasksJson(seg.placement)}};
        segments.push_back(std::move(so));
    }
    o["segments"] = segments;
    return o;
}

/// The node-pair rows of `m` (pairRowJson), one item at a time.
template<typename Sink, typename PairMap>
void pairItems(Sink &out, const PairMap &m, const Cluster &cluster,
               std::optional<int> bucket = std::nullopt)
{
    for (const auto &[p, bytes] : m)
        out.item(pairRowJson(p, bytes, cluster, bucket));
}

/// The run's JSON (see RunJsonLayout), written to `out` member by member.
template<typename Sink>
void emitRun(Sink &out, const RunResult &run, const Cluster &cluster, const Topology &topology,
             RunJsonLayout layout)
{
    out.member("format", "clusterbench-run");
    out.member("version", 1);
    out.member("scenario", run.scenario);
    out.member("policy", run.policy);
    out.member("seed", run.seed);
    out.member("total_gpus", run.totalGpus);
    out.member("summary", runSummaryJson(run));

    out.beginArray("jobs");
    for (const JobRun &r : run.jobs)
        out.item(jobJson(r));
    out.end();

    if (layout == RunJsonLayout::Stored) {
        out.member("series", storedSeriesJson(run));
        out.member("node_pairs", pairColumns(run.pairBytes));
    } else {
        const RunSeries &s = run.series;
        const double w = s.bucketSeconds;
        out.beginObject("series");
        out.member("bucket_s", finiteOrNull(w));
        ordered_json util = ordered_json::array();
        for (double b : s.gpuBusySeconds)
            util.push_back(finiteOrNull(run.totalGpus > 0 ? b / (run.totalGpus * w) : 0.0));
        out.member("gpu_utilisation", util);
        ordered_json busyAndCost;
        busyAndCostJson(s, busyAndCost);
        for (auto &[key, value] : busyAndCost.items())
            out.member(key.c_str(), std::move(value));
        out.beginArray("links");
        for (int l = 0; l < topology.directedLinkCount(); ++l) {
            if (run.linkBytes[std::size_t(l)] <= 0)
                continue;
            const double cap = topology.capacityGbps(l);
            ordered_json u = ordered_json::array();
            for (const auto &bucket : s.linkBytes) {
                auto it = bucket.find(l);
                const double bytes = it == bucket.end() ? 0.0 : it->second;
                u.push_back(finiteOrNull(cap > 0 ? bytes * 8.0 / (cap * 1e9 * w) : 0.0));
            }
            out.item({{"link", directedLinkName(cluster, l)},
                      {"capacity_gbps", finiteOrNull(cap)},
                      {"bytes", finiteOrNull(run.linkBytes[std::size_t(l)])},
                      {"utilisation", std::move(u)}});
        }
        out.end();
        out.member("link_buckets", s.linkBytes.size());
        out.beginArray("link_bytes");
        for (std::size_t b = 0; b < s.linkBytes.size(); ++b)
            for (const auto &[l, bytes] : s.linkBytes[b])
                out.item({{"bucket", b},
                          {"link", directedLinkName(cluster, l)},
                          {"bytes", finiteOrNull(bytes)}});
        out.end();
        out.member("pair_buckets", s.pairBytes.size());
        out.beginArray("node_pairs");
        for (std::size_t b = 0; b < s.pairBytes.size(); ++b)
            pairItems(out, s.pairBytes[b], cluster, int(b));
        out.end();
        out.end(); // series
        out.beginArray("node_pairs");
        pairItems(out, run.pairBytes, cluster);
        out.end();
    }

    out.beginArray("events");
    for (const SimLogEntry &e : run.log)
        out.item({{"t", finiteOrNull(e.time)},
                  {"kind", toString(e.kind)},
                  {"job", e.job.empty() ? ordered_json() : ordered_json(e.job)},
                  {"detail", e.detail}});
    out.end();
}

} // namespace

ordered_json runToJson(const RunResult &run, const Cluster &cluster, const Topology &topology,
                       RunJsonLayout layout)
{
    DomSink dom;
    emitRun(dom, run, cluster, topology, layout);
    return dom.take();
}

Status saveRunFile(const std::string &path, const RunResult &run, const Cluster &cluster,
                   const Topology &topology)
{
    AtomicFileWriter file(path);
    if (Status opened = file.open(); !opened)
        return opened;
    StreamSink out(file);
    emitRun(out, run, cluster, topology, RunJsonLayout::File);
    out.finish();
    return file.commit(); // (reports a write that failed, and then removes the temporary)
}

} // namespace cb

namespace cb {

namespace {

struct RunReader
{
    Problems problems;

    const nlohmann::json *at(const nlohmann::json &o, const std::string &where, const char *key,
                             bool (nlohmann::json::*is)() const noexcept, const char *what)
    {
        auto it = o.is_object() ? o.find(key) : o.end();
        if (!o.is_object() || it == o.end()) {
            problems.push_back({where + "/" + key, std::string("missing ") + what});
            return nullptr;
        }
        if (!((*it).*is)()) {
            problems.push_back({where + "/" + key, std::string("expected ") + what + ", found " +
                                                       it->type_name()});
            return nullptr;
        }
        return &*it;
    }
    /// A number; null (a non-finite value when written) reads as NaN.
    double number(const nlohmann::json &o, const std::string &where, const char *key)
    {
        if (o.is_object() && o.contains(key) && o[key].is_null())
            return std::numeric_limits<double>::quiet_NaN();
        auto *v = at(o, where, key, &nlohmann::json::is_number, "a number");
        return v ? v->get<double>() : 0.0;
    }
    std::optional<double> optional(const nlohmann::json &o, const std::string &where,
                                   const char *key)
    {
        if (o.is_object() && o.contains(key) && o[key].is_null())
            return std::nullopt;
        return number(o, where, key);
    }
    std::int64_t integer(const nlohmann::json &o, const std::string &where, const char *key)
    {
        auto *v = at(o, where, key, &nlohmann::json::is_number_integer, "an integer");
        return v ? v->get<std::int64_t>() : 0;
    }
    std::string text(const nlohmann::json &o, const std::string &where, const char *key)
    {
        auto *v = at(o, where, key, &nlohmann::json::is_string, "a string");
        return v ? v->get<std::string>() : std::string();
    }
    const nlohmann::json &array(const nlohmann::json &o, const std::string &where,
                                const char *key)
    {
        static const nlohmann::json empty = nlohmann::json::array();
        auto *v = at(o, where, key, &nlohmann::json::is_array, "an array");
        return v ? *v : empty;
    }
    /// Equal-length arrays of numbers under `keys` of `o` (RunJsonLayout::Stored).
    struct Columns
    {
        std::string where;
        std::vector<const nlohmann::json *> arrays;
        std::vector<std::string> keys;
        std::size_t size = 0;
    };
    std::optional<Columns> columns(const nlohmann::json &o, const std::string &where,
                                   std::initializer_list<const char *> keys)
    {
        Columns c;
        c.where = where;
        bool first = true;
        for (const char *key : keys) {
            const nlohmann::json *a = at(o, where, key, &nlohmann::json::is_array, "an array");
            if (!a)
                return std::nullopt;
            if (first)
                c.size = a->size();
            else if (a->size() != c.size) {
                problems.push_back({where + "/" + key, "expected " + std::to_string(c.size) +
                                                           " values like " + c.keys.front() +
                                                           ", found " + std::to_string(a->size())});
                return std::nullopt;
            }
            first = false;
            c.arrays.push_back(a);
            c.keys.push_back(key);
        }
        return c;
    }
    /// Column `k`, row `i`: a number (null, a non-finite value when written, reads as NaN).
    double value(const Columns &c, std::size_t k, std::size_t i)
    {
        const nlohmann::json &v = (*c.arrays[k])[i];
        if (v.is_null())
            return std::numeric_limits<double>::quiet_NaN();
        if (!v.is_number()) {
            problems.push_back({c.where + "/" + c.keys[k] + "/" + std::to_string(i),
                                std::string("expected a number, found ") + v.type_name()});
            return 0;
        }
        return v.get<double>();
    }
    /// Column `k`, row `i`: an integer in [0, limit), or -1 (with a problem).
    int index(const Columns &c, std::size_t k, std::size_t i, int limit)
    {
        const nlohmann::json &v = (*c.arrays[k])[i];
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 ||
            v.get<std::int64_t>() >= limit) {
            problems.push_back({c.where + "/" + c.keys[k] + "/" + std::to_string(i),
                                "expected an integer from 0 to " + std::to_string(limit - 1) +
                                    ", found " + v.dump()});
            return -1;
        }
        return int(v.get<std::int64_t>());
    }
    /// {start_s, pending_tasks, tasks: [{role, index, group, node, gpus}]} into `out`.
    void placement(const nlohmann::json &p, const std::string &where, JobPlacement &out)
    {
        out.startSeconds = number(p, where, "start_s");
        out.pendingTasks = int(integer(p, where, "pending_tasks"));
        const nlohmann::json &tasks = array(p, where, "tasks");
        for (std::size_t t = 0; t < tasks.size(); ++t) {
            const std::string tw = where + "/tasks/" + std::to_string(t);
            TaskAssignment a;
            const std::string role = text(tasks[t], tw, "role");
            if (auto parsed = taskRoleFromString(role))
                a.role = *parsed;
            else
                problems.push_back({tw + "/role", "unknown role \"" + role + "\""});
            a.indexInRole = int(integer(tasks[t], tw, "index"));
            a.group = int(integer(tasks[t], tw, "group"));
            a.node = text(tasks[t], tw, "node");
            for (const auto &g : array(tasks[t], tw, "gpus"))
                a.gpuIndices.push_back(g.is_number_integer() ? g.get<int>() : -1);
            out.tasks.push_back(std::move(a));
        }
    }
};

/// The series of RunJsonLayout::Stored (after bucket_s, gpu_busy_s and cost, which both
/// layouts share) into `run`.
void readStoredSeries(RunReader &r, const nlohmann::json &s, RunResult &run, int directedLinks,
                      int nodes)
{
    RunSeries &series = run.series;
    run.linkBytes.assign(std::size_t(directedLinks), 0.0);
    if (auto *t = r.at(s, "/series", "link_totals", &nlohmann::json::is_object, "an object"))
        if (auto c = r.columns(*t, "/series/link_totals", {"link", "bytes"}))
            for (std::size_t i = 0; i < c->size; ++i)
                if (const int l = r.index(*c, 0, i, directedLinks); l >= 0)
                    run.linkBytes[std::size_t(l)] = r.value(*c, 1, i);
    // Entries bucket by bucket: "count" holds how many each bucket has.
    auto buckets = [&](const char *key, std::initializer_list<const char *> keys, auto &out,
                       auto &&add) {
        const std::string where = std::string("/series/") + key;
        auto *o = r.at(s, "/series", key, &nlohmann::json::is_object, "an object");
        if (!o)
            return;
        auto *counts = r.at(*o, where, "count", &nlohmann::json::is_array, "an array");
        auto c = r.columns(*o, where, keys);
        if (!counts || !c)
            return;
        out.resize(counts->size());
        std::size_t row = 0;
        for (std::size_t b = 0; b < counts->size(); ++b) {
            const nlohmann::json &n = (*counts)[b];
            if (!n.is_number_unsigned() || n.get<std::uint64_t>() > c->size - row) {
                r.problems.push_back({where + "/count/" + std::to_string(b),
                                      "expected at most " + std::to_string(c->size - row) +
                                          " entries (the rows left), found " + n.dump()});
                return;
            }
            for (std::uint64_t k = 0; k < n.get<std::uint64_t>(); ++k, ++row)
                add(out[b], *c, row);
        }
        if (row != c->size)
            r.problems.push_back({where + "/count", std::to_string(c->size - row) +
                                                        " rows belong to no bucket"});
    };
    buckets("link_bytes", {"link", "bytes"}, series.linkBytes,
            [&](SparseSums<int> &bucket, const RunReader::Columns &c, std::size_t i) {
                if (const int l = r.index(c, 0, i, directedLinks); l >= 0)
                    bucket[l] = r.value(c, 1, i);
            });
    buckets("node_pairs", {"from", "to", "bytes"}, series.pairBytes,
            [&](SparseSums<std::pair<int, int>> &bucket, const RunReader::Columns &c,
                std::size_t i) {
                const int from = r.index(c, 0, i, nodes), to = r.index(c, 1, i, nodes);
                if (from >= 0 && to >= 0)
                    bucket[{from, to}] = r.value(c, 2, i);
            });
}

} // namespace

Result<RunResult> runFromJson(const nlohmann::json &j, const Cluster &cluster)
{
    if (stringField(j, "format") != "clusterbench-run")
        return Result<RunResult>::failure("/format", "expected \"clusterbench-run\"");
    if (!j.contains("version") || !j["version"].is_number_integer() ||
        j["version"].get<int>() != 1)
        return Result<RunResult>::failure("/version", "expected run file version 1");
    RunReader r;
    RunResult run;
    run.scenario = r.text(j, "", "scenario");
    run.policy = r.text(j, "", "policy");
    run.seed = std::uint64_t(r.integer(j, "", "seed"));
    run.totalGpus = int(r.integer(j, "", "total_gpus"));

    std::map<std::string, int> nodeIndex, linkIndex;
    for (std::size_t i = 0; i < cluster.nodes.size(); ++i)
        nodeIndex.emplace(cluster.nodes[i].id, int(i));
    const int directedLinks = int(cluster.links.size() * 2);
    for (int l = 0; l < directedLinks; ++l)
        linkIndex.emplace(directedLinkName(cluster, l), l);
    auto lookup = [&](const std::map<std::string, int> &index, const std::string &name,
                      const std::string &where, const char *what) {
        auto it = index.find(name);
        if (it == index.end()) {
            r.problems.push_back({where, std::string("unknown ") + what + " \"" + name +
                                             "\" (not in the scenario's cluster)"});
            return -1;
        }
        return it->second;
    };

    if (auto *s = r.at(j, "", "summary", &nlohmann::json::is_object, "an object")) {
        run.makespanSeconds = r.number(*s, "/summary", "makespan_s");
        run.energyKWh = r.number(*s, "/summary", "energy_kwh");
        run.cost = r.number(*s, "/summary", "cost");
        run.energyCost = r.number(*s, "/summary", "energy_cost");
        run.gpuHourCost = r.number(*s, "/summary", "gpu_hour_cost");
        run.tardinessCost = r.number(*s, "/summary", "tardiness_cost");
        run.failures = int(r.integer(*s, "/summary", "node_failures"));
        run.events = r.integer(*s, "/summary", "events");
        run.networkSolves = r.integer(*s, "/summary", "network_solves");
        if (s->contains("reconfigurations"))
            run.reconfigurations = int(r.integer(*s, "/summary", "reconfigurations"));
        if (s->contains("stranded_gpu_s"))
            run.strandedGpuSeconds = r.number(*s, "/summary", "stranded_gpu_s");
        if (s->contains("multi_node_placements"))
            run.multiNodePlacements = int(r.integer(*s, "/summary", "multi_node_placements"));
        const std::string model = r.text(*s, "/summary", "cost_model");
        if (auto m = costModelFromString(model))
            run.costModel = *m;
        else
            r.problems.push_back(
                {"/summary/cost_model", "expected energy, gpu-hours or catalogue"});
    }

    const nlohmann::json &jobs = r.array(j, "", "jobs");
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const nlohmann::json &o = jobs[i];
        const std::string w = "/jobs/" + std::to_string(i);
        JobRun jr;
        jr.id = r.text(o, w, "id");
        jr.submitSeconds = r.number(o, w, "submit_s");
        jr.firstStartSeconds = r.optional(o, w, "first_start_s");
        jr.startSeconds = r.optional(o, w, "start_s");
        jr.finishSeconds = r.optional(o, w, "finish_s");
        jr.dueSeconds = r.optional(o, w, "due_s");
        jr.isolatedSeconds = r.optional(o, w, "isolated_s");
        jr.attempts = int(r.integer(o, w, "attempts"));
        jr.iterationSeconds = r.number(o, w, "iteration_s");
        jr.totalBytes = r.number(o, w, "total_bytes");
        jr.crossNodeBytes = r.number(o, w, "cross_node_bytes");
        jr.crossDomainBytes = o.contains("cross_domain_bytes")
                                  ? r.number(o, w, "cross_domain_bytes")
                                  : jr.crossNodeBytes;
        jr.energyKWh = r.number(o, w, "energy_kwh");
        jr.cost = r.number(o, w, "cost");
        jr.gpus = int(r.integer(o, w, "gpus"));
        jr.placement.jobId = jr.id;
        if (auto *p = r.at(o, w, "placement", &nlohmann::json::is_object, "an object"))
            r.placement(*p, w + "/placement", jr.placement);
        if (o.is_object() && o.contains("reconfigurations"))
            jr.reconfigurations = int(r.integer(o, w, "reconfigurations"));
        if (o.is_object() && o.contains("violated")) {
            if (o["violated"].is_boolean())
                jr.violated = o["violated"].get<bool>();
            else
                r.problems.push_back({w + "/violated", "expected true or false"});
        } else if (auto late = jr.tardinessSeconds()) {
            jr.violated = *late > 1e-6; // files written before the field
        }
        if (o.is_object() && o.contains("segments")) {
            const nlohmann::json &segments = r.array(o, w, "segments");
            for (std::size_t k = 0; k < segments.size(); ++k) {
                const std::string sw = w + "/segments/" + std::to_string(k);
                JobSegment seg;
                seg.startSeconds = r.number(segments[k], sw, "start_s");
                seg.endSeconds = r.optional(segments[k], sw, "end_s");
                if (segments[k].is_object() && segments[k].contains("config")) {
                    const std::string cw = sw + "/config";
                    if (auto *c = r.at(segments[k], sw, "config", &nlohmann::json::is_object,
                                       "an object")) {
                        StsConfig config;
                        config.gpuType = r.text(*c, cw, "gpu_type");
                        config.gpus = int(r.integer(*c, cw, "gpus"));
                        config.fraction = r.number(*c, cw, "fraction");
                        seg.config = std::move(config);
                    }
                }
                seg.iterations = r.number(segments[k], sw, "iterations");
                if (segments[k].is_object() && segments[k].contains("placement")) {
                    seg.placement.jobId = jr.id;
                    if (auto *p = r.at(segments[k], sw, "placement",
                                       &nlohmann::json::is_object, "an object"))
                        r.placement(*p, sw + "/placement", seg.placement);
                } else {
                    seg.placement = jr.placement;
                }
                jr.segments.push_back(std::move(seg));
            }
        } else if (jr.startSeconds) {
            // Files written before segments: the last attempt.
            jr.segments.push_back(
                {*jr.startSeconds, jr.finishSeconds, std::nullopt, 0, jr.placement});
        }
        run.jobs.push_back(std::move(jr));
    }

    if (auto *s = r.at(j, "", "series", &nlohmann::json::is_object, "an object")) {
        RunSeries &series = run.series;
        series.bucketSeconds = r.number(*s, "/series", "bucket_s");
        for (const auto &b : r.array(*s, "/series", "gpu_busy_s"))
            series.gpuBusySeconds.push_back(b.is_number() ? b.get<double>() : 0.0);
        if (s->contains("cost")) {
            for (const auto &c : r.array(*s, "/series", "cost"))
                series.cost.push_back(c.is_number() ? c.get<double>() : 0.0);
            if (series.cost.size() != series.gpuBusySeconds.size())
                r.problems.push_back({"/series/cost", "expected one value per bucket (" +
                                                          std::to_string(series.gpuBusySeconds.size()) +
                                                          ")"});
        }
        if (s->contains("stranded_gpu_s")) {
            for (const auto &c : r.array(*s, "/series", "stranded_gpu_s"))
                series.strandedGpuSeconds.push_back(c.is_number() ? c.get<double>() : 0.0);
            if (series.strandedGpuSeconds.size() != series.gpuBusySeconds.size())
                r.problems.push_back({"/series/stranded_gpu_s",
                                      "expected one value per bucket (" +
                                          std::to_string(series.gpuBusySeconds.size()) + ")"});
        }
        if (s->contains("layout") && (*s)["layout"] == "columns") {
            readStoredSeries(r, *s, run, directedLinks, int(cluster.nodes.size()));
        } else {
            series.linkBytes.resize(std::size_t(r.integer(*s, "/series", "link_buckets")));
            const nlohmann::json &lb = r.array(*s, "/series", "link_bytes");
            for (std::size_t i = 0; i < lb.size(); ++i) {
                const std::string w = "/series/link_bytes/" + std::to_string(i);
                const auto b = std::size_t(r.integer(lb[i], w, "bucket"));
                const int l = lookup(linkIndex, r.text(lb[i], w, "link"), w + "/link", "link");
                const double bytes = r.number(lb[i], w, "bytes");
                if (b >= series.linkBytes.size())
                    r.problems.push_back({w + "/bucket", "beyond link_buckets"});
                else if (l >= 0)
                    series.linkBytes[b][l] = bytes;
            }
            series.pairBytes.resize(std::size_t(r.integer(*s, "/series", "pair_buckets")));
            const nlohmann::json &pb = r.array(*s, "/series", "node_pairs");
            for (std::size_t i = 0; i < pb.size(); ++i) {
                const std::string w = "/series/node_pairs/" + std::to_string(i);
                const auto b = std::size_t(r.integer(pb[i], w, "bucket"));
                const int from = lookup(nodeIndex, r.text(pb[i], w, "from"), w + "/from", "node");
                const int to = lookup(nodeIndex, r.text(pb[i], w, "to"), w + "/to", "node");
                const double bytes = r.number(pb[i], w, "bytes");
                if (b >= series.pairBytes.size())
                    r.problems.push_back({w + "/bucket", "beyond pair_buckets"});
                else if (from >= 0 && to >= 0)
                    series.pairBytes[b][{from, to}] = bytes;
            }
            run.linkBytes.assign(std::size_t(directedLinks), 0.0);
            const nlohmann::json &links = r.array(*s, "/series", "links");
            for (std::size_t i = 0; i < links.size(); ++i) {
                const std::string w = "/series/links/" + std::to_string(i);
                const int l = lookup(linkIndex, r.text(links[i], w, "link"), w + "/link", "link");
                const double bytes = r.number(links[i], w, "bytes");
                if (l >= 0)
                    run.linkBytes[std::size_t(l)] = bytes;
            }
        
        }
    }

    if (j.contains("node_pairs") && j["node_pairs"].is_object()) {
        auto columns = r.columns(j["node_pairs"], "/node_pairs", {"from", "to", "bytes"});
        for (std::size_t i = 0; columns && i < columns->size; ++i) {
            const int from = r.index(*columns, 0, i, int(cluster.nodes.size()));
            const int to = r.index(*columns, 1, i, int(cluster.nodes.size()));
            if (from >= 0 && to >= 0)
                run.pairBytes[{from, to}] = r.value(*columns, 2, i);
        }
    }
    const nlohmann::json &pairs =
        j.contains("node_pairs") && j["node_pairs"].is_object() ? nlohmann::json::array()
                                                                : r.array(j, "", "node_pairs");
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const std::string w = "/node_pairs/" + std::to_string(i);
        const int from = lookup(nodeIndex, r.text(pairs[i], w, "from"), w + "/from", "node");
        const int to = lookup(nodeIndex, r.text(pairs[i], w, "to"), w + "/to", "node");
        const double bytes = r.number(pairs[i], w, "bytes");
        if (from >= 0 && to >= 0)
            run.pairBytes[{from, to}] = bytes;
    }

    const nlohmann::json &events = r.array(j, "", "events");
    for (std::size_t i = 0; i < events.size(); ++i) {
        const std::string w = "/events/" + std::to_string(i);
        SimLogEntry e;
        e.time = r.number(events[i], w, "t");
        const std::string kind = r.text(events[i], w, "kind");
        if (auto k = runEventKindFromString(kind))
            e.kind = *k;
        else if (!kind.empty())
            r.problems.push_back({w + "/kind", "unknown event kind \"" + kind + "\""});
        if (events[i].is_object() && events[i].contains("job") && !events[i]["job"].is_null())
            e.job = r.text(events[i], w, "job");
        e.detail = r.text(events[i], w, "detail");
        run.log.push_back(std::move(e));
    }
    if (!r.problems.empty())
        return Result<RunResult>(std::move(r.problems));
    return run;
}

} // namespace cb
