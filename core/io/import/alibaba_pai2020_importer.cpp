#include "io/import/alibaba_pai2020_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/text_fields.h"
#include "io/import/trace_builder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace cb {

namespace {

const std::vector<std::string> kMachine = {"machine", "gpu_type", "cap_cpu", "cap_mem", "cap_gpu"};
const std::vector<std::string> kJob = {"job_name", "inst_id",    "user",
                                       "status",   "start_time", "end_time"};
const std::vector<std::string> kTask = {"job_name",   "task_name", "inst_num", "status",
                                        "start_time", "end_time",  "plan_cpu", "plan_mem",
                                        "plan_gpu",   "gpu_type"};

struct PaiJob
{
    std::string file;
    int line = 0;
    double start = -1, end = -1;
    bool pending = false; ///< a task never started (kept under --pending wait)
    std::vector<TaskGroup> groups;
};

TaskRole roleOf(const std::string &taskName)
{
    const std::string t = importtext::lower(taskName);
    if (t == "ps")
        return TaskRole::Ps;
    if (t == "chief")
        return TaskRole::Chief;
    if (t == "evaluator")
        return TaskRole::Evaluator;
    return TaskRole::Worker;
}

} // namespace

FormatMatch AlibabaPai2020Importer::detect(const ImportSample &sample) const
{
    const auto row = detection::firstRow(sample.head);
    const auto num = [&](std::size_t i) { return i < row.size() && detection::isNumber(row[i]); };
    const auto status = [&](std::size_t i) {
        return i < row.size() && (row[i] == "Terminated" || row[i] == "Running" ||
                                  row[i] == "Failed" || row[i] == "Waiting");
    };
    if (row.size() == 5 && !num(0) && num(2) && num(3) && num(4))
        return {2, "5 fields without a header, as PAI's machine_spec"};
    if (row.size() == 6 && status(3))
        return {2, "6 fields without a header with a status, as PAI's job table"};
    if (row.size() == 10 && status(3) && (row[6].empty() || num(6)))
        return {2, "10 fields without a header with a status, as PAI's task table"};
    return {};
}

Result<ImportReport> AlibabaPai2020Importer::read(const std::vector<ImportInput> &inputs,
                                                  const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder0(name(), options);  // notes the time columns
    std::map<std::string, PaiJob> jobs;      // from the task table
    std::map<std::string, double> jobSubmit; // from the job table
    bool haveTasks = false, haveJobs = false, haveMachines = false;
    std::size_t roundedGpus = 0, shared = 0, otherRoles = 0;
    Cluster cluster;
    for (const ImportInput &in : inputs) {
        auto table = openCsvInputWithColumns(in, {});
        if (!table)
            return table.problems();
        if (!table->pending)
            return Result<ImportReport>::failure(in.name, "the file has no rows");
        const std::size_t width = table->pending->fields.size();
        const std::vector<std::string> *cols = width == 5    ? &kMachine
                                               : width == 6  ? &kJob
                                               : width == 10 ? &kTask
                                                             : nullptr;
        if (!cols)
            return Result<ImportReport>::failure(
                in.name + ":" + std::to_string(table->pending->line),
                "expected 5 fields (machine_spec), 6 (job) or 10 (task), found " +
                    std::to_string(width));
        table->columns = CsvColumns(in.name, *cols);
        TimeColumn startTime("start_time", options.timeFormats);
        TimeColumn endTime("end_time", options.timeFormats);
        Status read = Ok{};
        if (cols == &kMachine) {
            haveMachines = true;
            std::set<std::string> ids;
            read = forEachCsvRow(table.value(), report, [&](CsvRowReader &r) {
                Node n;
                n.id = r.text("machine");
                if (n.id.empty() || ids.count(n.id))
                    r.fail(n.id.empty() ? "column machine is empty"
                                        : "duplicate machine " + importtext::shown(n.id),
                           n.id.empty() ? "" : "duplicate machine");
                n.cpus = r.number("cap_cpu", 1, 1e7);
                n.memoryGiB = r.number("cap_mem", 1, 1e9);
                n.gpus = int(r.integer("cap_gpu", 0, 1024));
                if (!r.ok())
                    return;
                n.gpuType = n.gpus > 0 ? r.text("gpu_type") : std::string();
                if (n.gpus > 0 && n.gpuType.empty())
                    n.gpuType = unnamedGpuType(options.gpuType);
                n.labels["kubernetes.io/hostname"] = n.id;
                ids.insert(n.id);
                cluster.nodes.push_back(std::move(n));
            });
        } else if (cols == &kJob) {
            haveJobs = true;
            read = forEachCsvRow(table.value(), report, [&](CsvRowReader &r) {
                const std::string id = r.text("job_name");
                const auto start = startTime.read(r);
                if (id.empty())
                    r.fail("column job_name is empty");
                if (!start && r.ok())
                    r.leaveOut("job never started (start_time empty): no submit time",
                               "job table row with no start_time");
                if (!r.ok())
                    return;
                jobSubmit.emplace(id, *start);
            });
        } else {
            haveTasks = true;
            read = forEachCsvRow(table.value(), report, [&](CsvRowReader &r) {
                const std::string id = r.text("job_name");
                if (id.empty())
                    r.fail("column job_name is empty");
                TaskGroup g;
                g.role = roleOf(r.text("task_name"));
                g.replicas = int(r.integer("inst_num", 1, 1000000));
                g.cpus = r.number("plan_cpu", 0, 1e9, 100.0) / 100.0;
                g.memoryGiB = r.number("plan_mem", 0, 1e9, 2.0);
                const double planGpu = r.number("plan_gpu", 0, 1e8, 0.0);
                const auto startAt = startTime.read(r);
                const auto endAt = endTime.read(r);
                if (!r.ok())
                    return;
                const bool neverStarted = !startAt;
                if (neverStarted &&
                    (options.pending == PendingJobs::Skip || !jobSubmit.count(id))) {
                    r.leaveOut("task never started (start_time empty)" +
                                   std::string(options.pending == PendingJobs::Skip
                                                   ? ": left out (--pending wait keeps it, with "
                                                     "the job table's time)"
                                                   : " and the job table gives no submit time"),
                               options.pending == PendingJobs::Skip
                                   ? "never started (pending): left out, --pending wait keeps "
                                     "them"
                                   : "never started, and no submit time in the job table");
                    return;
                }
                const double start = startAt.value_or(-1);
                const double end = endAt.value_or(-1);
                if (g.cpus <= 0)
                    g.cpus = 0.01;
                if (g.memoryGiB <= 0)
                    g.memoryGiB = 0.01;
                if (planGpu > 0 && planGpu < 100) {
                    g.gpus = 1;
                    g.gpuFraction = std::max(0.01, planGpu / 100.0);
                    ++shared;
                } else if (planGpu >= 100) {
                    g.gpus = int(std::ceil(planGpu / 100.0 - 1e-9));
                    roundedGpus += std::fabs(g.gpus * 100.0 - planGpu) > 1e-9;
                }
                const std::string type = r.text("gpu_type");
                if (g.gpus > 0 && !type.empty() && type != "MISC")
                    g.gpuType = type;
                if (g.role == TaskRole::Worker &&
                    importtext::lower(r.text("task_name")) != "worker")
                    ++otherRoles;
                PaiJob &job = jobs[id];
                if (job.groups.empty()) {
                    job.file = in.name;
                    job.line = r.line();
                }
                if (neverStarted)
                    job.pending = true;
                else
                    job.start = job.start < 0 ? start : std::min(job.start, start);
                job.end = std::max(job.end, end);
                job.groups.push_back(g);
            });
        }
        builder0.noteTimeColumn(startTime);
        builder0.noteTimeColumn(endTime);
        if (!read)
            return read.problems();
    }
    if (haveMachines) {
        if (cluster.nodes.empty())
            return Result<ImportReport>::failure(inputs.front().name,
                                                 "no machine rows could be imported");
        addMissingGpuTypes(cluster, report);
        linkAllNodesToOneSwitch(cluster, report, "machine_spec has no topology");
        report.cluster = std::move(cluster);
    }
    if (haveJobs && !haveTasks)
        report.assume("the job table alone gives no resources: no jobs imported (add the task "
                      "table)");
    if (!haveTasks)
        return report;

    // Jobs in file order of their first task row.
    std::vector<std::pair<std::string, PaiJob>> ordered(jobs.begin(), jobs.end());
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto &a, const auto &b) {
        return a.second.file != b.second.file ? a.second.file < b.second.file
                                              : a.second.line < b.second.line;
    });
    TraceBuilder &builder = builder0;
    std::size_t fromJobTable = 0;
    for (auto &[id, pj] : ordered) {
        TraceRecord rec;
        rec.file = pj.file;
        rec.line = pj.line;
        rec.id = id;
        rec.name = id;
        rec.submitSeconds = pj.start;
        if (auto it = jobSubmit.find(id); it != jobSubmit.end()) {
            rec.submitSeconds = it->second;
            ++fromJobTable;
        }
        if (pj.pending) {
            rec.pending = true; // waits from the job table's time (PendingJobs::Wait)
        } else if (pj.end >= pj.start) {
            rec.durationSeconds = pj.end - pj.start;
        }
        int ps = 0, workers = 0, total = 0;
        for (const TaskGroup &g : pj.groups) {
            ps += g.role == TaskRole::Ps ? g.replicas : 0;
            workers += g.role == TaskRole::Worker ? g.replicas : 0;
            total += g.replicas;
        }
        rec.groups = pj.groups;
        if (ps > 0 && workers > 0) {
            rec.kind = JobKind::ParameterServer;
        } else if (total == 1) {
            rec.kind = JobKind::Single;
            rec.groups.front().role = TaskRole::Single;
        } else {
            rec.kind = JobKind::AllReduce;
            for (TaskGroup &g : rec.groups)
                if (g.role == TaskRole::Ps)
                    g.role = TaskRole::Worker;
            if (workers == 0)
                for (TaskGroup &g : rec.groups)
                    g.role = TaskRole::Worker;
        }
        for (const TaskGroup &g : rec.groups)
            rec.gpus += g.gpus * g.replicas;
        builder.add(std::move(rec), report);
    }
    builder.finish(report);
    report.assume("plan_cpu / 100 = CPUs, plan_mem = GiB, plan_gpu / 100 = GPUs per instance; "
                  "task names other than ps, chief and evaluator are workers");
    if (fromJobTable > 0)
        report.assume(std::to_string(fromJobTable) + " submit times from the job table, the "
                                                     "rest from their earliest task start");
    if (shared > 0)
        report.assume(std::to_string(shared) + " task groups use part of a GPU (plan_gpu < 100)");
    if (roundedGpus > 0)
        report.assume(std::to_string(roundedGpus) + " task groups with a fractional plan_gpu "
                                                    "above 100 rounded up to whole GPUs");
    (void)otherRoles;
    return report;
}

} // namespace cb
