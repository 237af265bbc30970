#include "io/export/placement_json.h"

#include "io/file_io.h"
#include "io/json_reader.h"
#include "io/scenario_json.h"

#include <limits>

namespace cb {

namespace {

/// The group of `job` whose tasks of `role` include role index `index`, or -1.
int groupOf(const Job &job, TaskRole role, int index)
{
    int next = 0;
    for (std::size_t g = 0; g < job.tasks.size(); ++g) {
        if (job.tasks[g].role != role)
            continue;
        if (index >= next && index < next + job.tasks[g].replicas)
            return int(g);
        next += job.tasks[g].replicas;
    }
    return -1;
}

} // namespace

Result<Placement> PlacementJson::fromJson(const nlohmann::json &doc, const Scenario &scenario)
{
    Problems problems;
    Placement placement;
    ObjectReader root(doc, "", problems);
    if (!root.isObject())
        return problems;
    const std::string format = root.string("format", ObjectReader::Required);
    if (root.has("format") && format != kFormatName)
        root.problem("format",
                     std::string("expected \"") + kFormatName + "\", found \"" + format + "\"");
    root.integer("version", ObjectReader::Required, kFormatVersion, kFormatVersion, kFormatVersion);
    constexpr int kMaxInt = std::numeric_limits<int>::max();
    if (const nlohmann::json *jobs = root.array("jobs", ObjectReader::Required)) {
        for (std::size_t j = 0; j < jobs->size(); ++j) {
            ObjectReader jr((*jobs)[j], root.pointer("jobs") + "/" + std::to_string(j), problems);
            if (!jr.isObject())
                continue;
            JobPlacement jp;
            jp.jobId = jr.string("job", ObjectReader::Required);
            jp.startSeconds = jr.number("start", ObjectReader::Optional, 0, 0,
                                        std::numeric_limits<double>::max());
            const Job *job = scenario.job(jp.jobId);
            if (jr.has("job") && !job)
                jr.problem("job", "job \"" + jp.jobId + "\" is not in the scenario");
            if (const nlohmann::json *tasks = jr.array("tasks", ObjectReader::Required)) {
                for (std::size_t t = 0; t < tasks->size(); ++t) {
                    ObjectReader tr((*tasks)[t], jr.pointer("tasks") + "/" + std::to_string(t),
                                    problems);
                    if (!tr.isObject())
                        continue;
                    TaskAssignment a;
                    const std::string role = tr.string("role", ObjectReader::Required);
                    if (auto r = taskRoleFromString(role))
                        a.role = *r;
                    else if (tr.has("role"))
                        tr.problem("role", "expected ps, worker, chief, evaluator or single, "
                                           "found \"" +
                                               role + "\"");
                    a.indexInRole = int(tr.integer("index", ObjectReader::Required, 0, 0, kMaxInt));
                    a.node = tr.string("node", ObjectReader::Required);
                    if (tr.has("group"))
                        a.group = int(tr.integer("group", ObjectReader::Optional, 0, 0, kMaxInt));
                    else if (job) {
                        a.group = groupOf(*job, a.role, a.indexInRole);
                        if (a.group < 0 && tr.has("role") && tr.has("index"))
                            tr.problem("index", "job \"" + jp.jobId + "\" has no " + role +
                                                    " task with index " +
                                                    std::to_string(a.indexInRole));
                    }
                    if (const nlohmann::json *gpus = tr.array("gpus", ObjectReader::Optional))
                        for (std::size_t g = 0; g < gpus->size(); ++g) {
                            const nlohmann::json &v = (*gpus)[g];
                            if (v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
                                v.get<std::int64_t>() < kMaxInt)
                                a.gpuIndices.push_back(v.get<int>());
                            else
                                problems.push_back({tr.pointer("gpus") + "/" + std::to_string(g),
                                                    "expected a GPU index (integer >= 0), "
                                                    "found " +
                                                        jsonTypeName(v)});
                        }
                    tr.finish();
                    jp.tasks.push_back(std::move(a));
                }
            }
            jr.finish();
            placement.jobs.push_back(std::move(jp));
        }
    }
    placement.waiting = root.stringList("waiting");
    root.finish();
    if (!problems.empty())
        return problems;
    return placement;
}

Result<Placement> PlacementJson::fromText(const std::string &text, const Scenario &scenario)
{
    auto doc = parseJsonText(text);
    if (!doc)
        return doc.problems();
    return fromJson(doc.value(), scenario);
}

Result<Placement> PlacementJson::loadFile(const std::string &path, const Scenario &scenario)
{
    auto text = readTextFile(path);
    if (!text)
        return text.problems();
    return fromText(text.value(), scenario);
}

nlohmann::ordered_json PlacementJson::toJson(const Placement &placement)
{
    nlohmann::ordered_json doc = nlohmann::ordered_json::object();
    doc["format"] = kFormatName;
    doc["version"] = kFormatVersion;
    nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
    for (const JobPlacement &jp : placement.jobs) {
        nlohmann::ordered_json j = nlohmann::ordered_json::object();
        j["job"] = jp.jobId;
        j["start"] = jsonNumber(jp.startSeconds);
        nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
        for (const TaskAssignment &a : jp.tasks) {
            nlohmann::ordered_json t = nlohmann::ordered_json::object();
            t["role"] = toString(a.role);
            t["index"] = a.indexInRole;
            t["group"] = a.group;
            t["node"] = a.node;
            t["gpus"] = a.gpuIndices;
            tasks.push_back(t);
        }
        j["tasks"] = tasks;
        jobs.push_back(j);
    }
    doc["jobs"] = jobs;
    doc["waiting"] = placement.waiting;
    return doc;
}

} // namespace cb
