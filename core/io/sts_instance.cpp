#include "io/sts_instance.h"

#include "io/file_io.h"
#include "io/import/csv_table.h"
#include "io/sts_tables.h"
#include "model/gen_host.h"
#include "model/gpu_catalog.h"
#include "util/text.h"

#include <cmath>
#include <filesystem>
#include <map>

namespace cb {

namespace {

std::string lineOf(const std::string &file, int line)
{
    return file + ":" + std::to_string(line);
}

void badRows(const CsvTable &t, Problems &p)
{
    for (const auto &[line, reason] : t.badRows())
        p.push_back({lineOf(t.file(), line), reason});
}

struct JobRow
{
    std::string id;
    double submit = 0, due = 0, weight = 0, epochs = 0;
    std::string distribution;
    int line = 0;
};

Result<std::vector<JobRow>> parseJobList(const std::string &text, const std::string &file)
{
    auto table = CsvTable::withHeader(
        text, file, {"ID", "SubmissionTime", "Deadline", "TardinessWeight", "Epochs",
                     "Distribution"});
    if (!table)
        return table.problems();
    Problems p;
    badRows(table.value(), p);
    std::vector<JobRow> rows;
    std::map<std::string, int> seen;
    for (const CsvRow &row : table->rows()) {
        CsvRowReader r(table.value(), row);
        JobRow j;
        j.id = r.text("ID");
        if (j.id.empty())
            r.fail("column ID is empty (expected a job id such as JJ1)");
        j.submit = r.number("SubmissionTime", 0, 1e12);
        j.due = r.number("Deadline", 0, 1e12);
        j.weight = r.number("TardinessWeight", 0, 1e9);
        j.epochs = r.number("Epochs", 1, 1e9);
        j.distribution = r.text("Distribution");
        j.line = row.line;
        if (r.ok() && !seen.emplace(j.id, row.line).second)
            r.fail("job " + j.id + " is listed twice (first on line " +
                   std::to_string(seen[j.id]) + ")");
        if (r.ok())
            rows.push_back(j);
        else
            p.push_back({lineOf(file, row.line), r.error()});
    }
    if (!p.empty())
        return p;
    if (rows.empty())
        return Result<std::vector<JobRow>>::failure(file, "no jobs (expected one row per job)");
    return rows;
}

struct TimeRow
{
    ExecutionTime time;
    double real = 0;
    int line = 0;
};

Result<std::map<std::string, std::vector<TimeRow>>> parseTimes(const std::string &text,
                                                               const std::string &file)
{
    auto table = CsvTable::withHeader(
        text, file, {"ID", "GPUtype", "nGPUs", "GPUf", "ExecutionTime", "RealExecutionTime"});
    if (!table)
        return table.problems();
    Problems p;
    badRows(table.value(), p);
    std::map<std::string, std::vector<TimeRow>> byJob;
    for (const CsvRow &row : table->rows()) {
        CsvRowReader r(table.value(), row);
        TimeRow t;
        const std::string id = r.text("ID");
        t.time.gpuType = withoutSpaces(r.text("GPUtype"));
        if (t.time.gpuType.empty())
            r.fail("column GPUtype is empty (expected a GPU type such as K80)");
        t.time.gpus = int(r.integer("nGPUs", 1, 4096));
        t.time.fraction = r.number("GPUf", 1e-6, 1);
        t.time.seconds = r.number("ExecutionTime", 1e-9, 1e12);
        t.real = r.number("RealExecutionTime", 0, 1e12);
        t.line = row.line;
        if (r.ok() && t.real > t.time.seconds * (1 + 1e-9))
            r.fail("RealExecutionTime " + numberText(t.real) + " exceeds ExecutionTime " +
                   numberText(t.time.seconds) + " (a job stops at or before its last epoch)");
        if (r.ok())
            byJob[id].push_back(t);
        else
            p.push_back({lineOf(file, row.line), r.error()});
    }
    if (!p.empty())
        return p;
    return byJob;
}

struct NodeRow
{
    std::string id, gpuType;
    int gpus = 0;
};

Result<std::vector<NodeRow>> parseNodes(const std::string &text, const std::string &file)
{
    auto table = CsvTable::withHeader(text, file, {"ID", "GPUtype", "nGPUs"});
    if (!table)
        return table.problems();
    Problems p;
    badRows(table.value(), p);
    std::vector<NodeRow> nodes;
    for (const CsvRow &row : table->rows()) {
        CsvRowReader r(table.value(), row);
        NodeRow n;
        n.id = r.text("ID");
        if (n.id.empty())
            r.fail("column ID is empty (expected a node id such as n1)");
        n.gpuType = withoutSpaces(r.text("GPUtype"));
        if (r.ok() && !findGpuCatalogEntry(n.gpuType))
            r.fail("unknown GPU type \"" + n.gpuType + "\"; expected one of " +
                   gpuCatalogNames());
        n.gpus = int(r.integer("nGPUs", 1, 64));
        if (r.ok())
            nodes.push_back(n);
        else
            p.push_back({lineOf(file, row.line), r.error()});
    }
    if (!p.empty())
        return p;
    if (nodes.empty())
        return Result<std::vector<NodeRow>>::failure(file, "no nodes (expected one row per node)");
    return nodes;
}

} // namespace

Result<std::vector<StsAuthorsResult>> parseStsAuthorsResults(const std::string &text,
                                                             const std::string &file)
{
    auto table = CsvTable::withColumns(text, file,
                                       {"method", "seed", "tardiness", "tardiness_cost",
                                        "node_cost", "gpu_cost", "energy_cost", "total_cost"});
    if (!table)
        return table.problems();
    Problems p;
    badRows(table.value(), p);
    std::vector<StsAuthorsResult> out;
    for (const CsvRow &row : table->rows()) {
        CsvRowReader r(table.value(), row);
        StsAuthorsResult res;
        res.method = r.text("method");
        if (res.method.empty())
            r.fail("the method (first field) is empty");
        res.seed = std::uint64_t(r.integer("seed", 0, 1LL << 62));
        res.tardinessSeconds = r.number("tardiness", 0, 1e15);
        res.tardinessCost = r.number("tardiness_cost", 0, 1e15);
        res.nodeCost = r.number("node_cost", 0, 1e15);
        res.gpuCost = r.number("gpu_cost", 0, 1e15);
        res.energyCost = r.number("energy_cost", 0, 1e15);
        res.totalCost = r.number("total_cost", 0, 1e15);
        res.file = file;
        res.line = row.line;
        if (r.ok())
            out.push_back(res);
        else
            p.push_back({lineOf(file, row.line), r.error()});
    }
    if (!p.empty())
        return p;
    return out;
}

Result<StsAuthorsInstance> loadStsAuthorsInstance(const std::string &dir,
                                                  const StsAuthorsData &data)
{
    namespace fs = std::filesystem;
    Problems p;
    auto read = [&](const char *name) -> std::pair<std::string, std::string> {
        const std::string path = (fs::path(dir) / name).string();
        auto text = readTextFile(path);
        if (!text) {
            p.insert(p.end(), text.problems().begin(), text.problems().end());
            return {path, {}};
        }
        return {path, text.value()};
    };
    const auto jobsFile = read("Lof_Selectjobs.csv");
    const auto timesFile = read("SelectJobs_times.csv");
    const auto nodesFile = read("tNodes.csv");
    const auto pricesFile = read("GPU-costs.csv");
    if (!p.empty())
        return p;

    StsAuthorsInstance inst;
    inst.dir = dir;
    auto jobs = parseJobList(jobsFile.second, jobsFile.first);
    auto times = parseTimes(timesFile.second, timesFile.first);
    auto nodes = parseNodes(nodesFile.second, nodesFile.first);
    auto prices = parseCloudPriceCsv(pricesFile.second, pricesFile.first);
    for (const Problems *q : {jobs ? nullptr : &jobs.problems(),
                              times ? nullptr : &times.problems(),
                              nodes ? nullptr : &nodes.problems(),
                              prices ? nullptr : &prices.problems()})
        if (q)
            p.insert(p.end(), q->begin(), q->end());
    for (const char *name : {"authors_results_baselines.csv", "authors_results_sts.csv"}) {
        const std::string path = (fs::path(dir) / name).string();
        std::error_code ec;
        if (!fs::exists(path, ec))
            continue;
        auto text = readTextFile(path);
        auto rows = text ? parseStsAuthorsResults(text.value(), path)
                         : Result<std::vector<StsAuthorsResult>>(text.problems());
        if (rows)
            inst.results.insert(inst.results.end(), rows->begin(), rows->end());
        else
            p.insert(p.end(), rows.problems().begin(), rows.problems().end());
    }
    if (!p.empty())
        return p;
    inst.prices = prices.value();

    Scenario &s = inst.scenario;
    s.name = fs::path(dir).filename().string();
    s.description = "An instance of the STS authors' data-centre experiment as their "
                    "generate_data.py wrote it (ai-sprint-eu-project/GPUScheduler), read from " +
                    dir + ".";
    s.settings.energyPricePerKWh = data.energy.pricePerKWh;
    s.settings.pue = data.energy.pue;
    s.settings.currency = "EUR";
    s.distributions = data.distributions;
    s.cluster.switches.push_back({"tor", "tor"});
    for (const NodeRow &n : nodes.value()) {
        if (!s.cluster.gpuType(n.gpuType)) {
            GpuType gpu = findGpuCatalogEntry(n.gpuType)->type;
            if (const double price = stsPricePerGpu(data.prices, n.gpuType); price > 0)
                gpu.pricePerHour = price;
            s.cluster.gpuTypes.push_back(gpu);
        }
        HostParams host;
        host.gpus = n.gpus;
        host.gpuType = n.gpuType;
        host.cpus = 6.0 * n.gpus;
        host.memoryGiB = 56.0 * n.gpus;
        host.baseWatts = 0;
        host.partition = "gpu";
        Node node = gen::makeHost(host, n.id, "tor");
        s.cluster.links.push_back(gen::makeLink(node.id, "tor", 10, 1.0));
        s.cluster.nodes.push_back(std::move(node));
    }

    for (const JobRow &row : jobs.value()) {
        const std::string where = lineOf(jobsFile.first, row.line);
        if (!data.distributions.count(row.distribution)) {
            p.push_back({where, "unknown termination distribution \"" + row.distribution +
                                    "\" (not a column of the authors' distributions.csv)"});
            continue;
        }
        auto it = times.value().find(row.id);
        if (it == times.value().end()) {
            p.push_back({where, "job " + row.id + " has no row in " + timesFile.first});
            continue;
        }
        Job job;
        job.id = row.id;
        job.name = row.id;
        job.kind = JobKind::Single;
        job.submitSeconds = row.submit;
        job.dueSeconds = row.due;
        job.tardinessWeight = row.weight;
        TaskGroup task;
        task.role = TaskRole::Single;
        task.gpus = 1;
        task.cpus = 6;
        task.memoryGiB = 56;
        job.tasks.push_back(task);
        job.model.name = row.distribution;
        StsData sts;
        sts.maxEpochs = row.epochs;
        sts.termination = row.distribution;
        // The stop point: the same share of the run on every configuration.
        std::optional<int> percent;
        for (const TimeRow &t : it->second) {
            sts.executionTimes.push_back(t.time);
            const double share = 100.0 * t.real / t.time.seconds;
            const int rounded = int(std::lround(share));
            if (std::abs(share - rounded) > 1e-4 || rounded < 1) {
                p.push_back({lineOf(timesFile.first, t.line),
                             "RealExecutionTime / ExecutionTime is " + numberText(share) +
                                 " % (expected a whole percentage of the epochs, 1..100)"});
                break;
            }
            if (percent && *percent != rounded) {
                p.push_back({lineOf(timesFile.first, t.line),
                             "job " + row.id + " stops at " + std::to_string(rounded) +
                                 " % here but at " + std::to_string(*percent) +
                                 " % on its first configuration"});
                break;
            }
            percent = rounded;
        }
        job.sts = sts;
        s.jobs.push_back(std::move(job));
        inst.stopPercent.push_back(percent.value_or(100));
    }
    if (!p.empty())
        return p;
    return inst;
}

} // namespace cb
