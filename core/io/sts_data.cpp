#include "io/sts_data.h"

#include "io/sts_builtin.h"
#include "io/sts_tables.h"

#include "io/file_io.h"
#include "io/import/csv_table.h"
#include "util/text.h"

#include <algorithm>
#include <filesystem>
#include <functional>

namespace cb {

namespace {

std::string lineOf(const CsvTable &t, int line)
{
    return t.file() + ":" + std::to_string(line);
}

/// Rows with a wrong field count become problems: these files are small and exact, so a
/// broken row is an error, not something to skip.
void badRowsToProblems(const CsvTable &t, Problems &p)
{
    for (const auto &[line, reason] : t.badRows())
        p.push_back({lineOf(t, line), reason});
}

} // namespace

Result<std::vector<StsJobTemplate>> parseStsJobTemplates(const std::string &text,
                                                         const std::string &file)
{
    auto table = CsvTable::withHeader(text, file,
                                      {"Application", "Images", "Epochs", "Batchsize", "Jobs",
                                       "GpuType", "GpuNumber", "ExecutionTime", "Memory"});
    if (!table)
        return table.problems();
    const CsvTable &t = table.value();
    Problems p;
    badRowsToProblems(t, p);
    std::vector<StsJobTemplate> templates;
    std::map<std::string, std::size_t> byId;
    for (const CsvRow &row : t.rows()) {
        CsvRowReader r(t, row);
        StsJobTemplate fields;
        fields.id = r.text("Jobs");
        if (fields.id.empty())
            r.fail("column Jobs is empty (expected a job template id such as J1)");
        fields.application = r.text("Application");
        fields.images = r.integer("Images", 1, 1000000000000LL);
        fields.epochs = int(r.integer("Epochs", 1, 1000000));
        fields.batchSize = int(r.integer("Batchsize", 1, 1000000));
        fields.memoryGB = r.number("Memory", 0, 1e6);
        ExecutionTime time;
        time.gpuType = withoutSpaces(r.text("GpuType"));
        if (time.gpuType.empty())
            r.fail("column GpuType is empty (expected a GPU type such as K80)");
        time.gpus = int(r.integer("GpuNumber", 1, 4096));
        time.seconds = r.number("ExecutionTime", 1e-9, 1e12);
        if (!r.ok()) {
            p.push_back({lineOf(t, row.line), r.error()});
            continue;
        }
        auto [it, fresh] = byId.emplace(fields.id, templates.size());
        if (fresh) {
            fields.line = row.line;
            templates.push_back(fields);
        }
        StsJobTemplate &tpl = templates[it->second];
        if (tpl.epochs != fields.epochs || tpl.batchSize != fields.batchSize ||
            tpl.images != fields.images || tpl.application != fields.application) {
            p.push_back({lineOf(t, row.line), "job template " + fields.id +
                                                  " changes its application, images, "
                                                  "epochs or batch size (first given on line " +
                                                  std::to_string(tpl.line) + ")"});
            continue;
        }
        for (const ExecutionTime &e : tpl.times)
            if (e.gpuType == time.gpuType && e.gpus == time.gpus)
                p.push_back({lineOf(t, row.line),
                             "job template " + fields.id + " has a second execution time for " +
                                 std::to_string(time.gpus) + " x " + time.gpuType});
        tpl.times.push_back(time);
    }
    if (p.empty() && templates.empty())
        p.push_back({file, "no job templates (expected rows after the header)"});
    if (!p.empty())
        return p;
    return templates;
}

Result<std::map<std::string, std::vector<double>>>
parseStsDistributions(const std::string &text, const std::string &file)
{
    using Distributions = std::map<std::string, std::vector<double>>;
    auto table = CsvTable::withHeader(text, file, {});
    if (!table)
        return table.problems();
    const CsvTable &t = table.value();
    Problems p;
    for (const std::string &name : t.columns())
        if (name.empty())
            p.push_back({file + ":1", "a distribution column has no name"});
    badRowsToProblems(t, p);
    const std::size_t rowCount = t.rows().size() + t.badRows().size();
    if (rowCount != 100)
        p.push_back({file, "expected 100 rows (the pmf over 1..100 % of the max epochs), found " +
                               std::to_string(rowCount)});
    Distributions d;
    for (const CsvRow &row : t.rows()) {
        CsvRowReader r(t, row);
        for (const std::string &name : t.columns())
            d[name].push_back(r.number(name, 0, 1));
        if (!r.ok())
            p.push_back({lineOf(t, row.line), r.error()});
    }
    if (!p.empty())
        return p;
    return d;
}

Result<std::vector<StsGpuPrice>> parseStsGpuPrices(const std::string &text,
                                                    const std::string &file)
{
    auto table = CsvTable::withHeader(text, file, {"VMtype", "GPUtype", "nGPUs", "cost"});
    if (!table)
        return table.problems();
    const CsvTable &t = table.value();
    Problems p;
    badRowsToProblems(t, p);
    std::vector<StsGpuPrice> prices;
    for (const CsvRow &row : t.rows()) {
        CsvRowReader r(t, row);
        StsGpuPrice price;
        price.vmType = r.text("VMtype");
        price.gpuType = withoutSpaces(r.text("GPUtype"));
        if (price.gpuType.empty())
            r.fail("column GPUtype is empty (expected a GPU type such as K80)");
        price.gpus = int(r.integer("nGPUs", 1, 4096));
        price.costPerHour = r.number("cost", 0, 1e9);
        price.line = row.line;
        if (r.ok())
            prices.push_back(price);
        else
            p.push_back({lineOf(t, row.line), r.error()});
    }
    if (!p.empty())
        return p;
    return prices;
}

Result<StsEnergyCost> parseStsEnergyCost(const std::string &text, const std::string &file)
{
    auto table = CsvTable::withHeader(text, file, {"PUE"});
    if (!table)
        return table.problems();
    const CsvTable &t = table.value();
    std::string priceColumn;
    for (const std::string &c : t.columns())
        if (c.rfind("EnergyCost", 0) == 0)
            priceColumn = c;
    if (priceColumn.empty())
        return Result<StsEnergyCost>::failure(file + ":1",
                                              "missing column \"EnergyCost[...]\" in the header");
    Problems p;
    badRowsToProblems(t, p);
    StsEnergyCost cost;
    bool first = true;
    for (const CsvRow &row : t.rows()) {
        CsvRowReader r(t, row);
        const double price = r.number(priceColumn, 0, 1e6);
        const double pue = r.number("PUE", 1, 10);
        if (!r.ok()) {
            p.push_back({lineOf(t, row.line), r.error()});
            continue;
        }
        if (first) {
            cost = {price, pue};
            first = false;
        } else if (price != cost.pricePerKWh || pue != cost.pue) {
            p.push_back(
                {lineOf(t, row.line), "expected the same energy price and PUE on every row"});
        }
    }
    if (p.empty() && first)
        p.push_back({file, "no rows (expected an energy price and PUE after the header)"});
    if (!p.empty())
        return p;
    return cost;
}

namespace {

/// Reads the data from `read(name)`, which gives (path for messages, text) or nothing when
/// the source has no such file.
using StsFileSource =
    std::function<std::optional<Result<std::pair<std::string, std::string>>>(const char *)>;

Result<StsAuthorsData> loadStsData(const StsFileSource &source, std::string where)
{
    Problems p;
    auto read = [&](const char *name, bool required) -> std::pair<std::string, std::string> {
        auto got = source(name);
        if (!got) {
            if (required)
                p.push_back({where + "/" + name,
                             "cannot open: no such file (one of the STS authors' data files)"});
            return {};
        }
        if (!*got) {
            for (const Problem &problem : got->problems())
                p.push_back(problem);
            return {};
        }
        return got->value();
    };
    StsAuthorsData data;
    data.source = where;
    const auto templates = read("data_2d10d_filtered.csv", true);
    const auto distributions = read("distributions.csv", true);
    const auto prices = read("GPU-cost.csv", true);
    const auto energy = read("GPU-cost_server_4-2.csv", true);
    const auto server = read("GPU-cost_server.csv", false);
    const auto fractions = read("fractions.csv", false);
    if (!p.empty())
        return p;
    auto collect = [&](const auto &result, auto &into) {
        if (result)
            into = result.value();
        else
            p.insert(p.end(), result.problems().begin(), result.problems().end());
    };
    collect(parseStsJobTemplates(templates.second, templates.first), data.templates);
    collect(parseStsDistributions(distributions.second, distributions.first),
            data.distributions);
    collect(parseStsGpuPrices(prices.second, prices.first), data.prices);
    collect(parseStsEnergyCost(energy.second, energy.first), data.energy);
    if (!server.first.empty()) {
        PriceCatalogue c;
        collect(parseCloudPriceCsv(server.second, server.first), c);
        data.serverPrices = std::move(c);
    }
    if (!fractions.first.empty()) {
        SharingSlices slices;
        collect(parseSharingSlicesCsv(fractions.second, fractions.first), slices);
        data.slices = std::move(slices);
    }
    if (!p.empty())
        return p;
    return data;
}

} // namespace

std::string StsAuthorsData::cloudPricesFile() const
{
    const std::string file = serverPrices ? "GPU-cost_server.csv" : "GPU-cost.csv";
    // (a folder's file, or the built-in copy's name with where it came from)
    return builtin ? file + ", " + source : source + "/" + file;
}

Result<StsAuthorsData> loadStsAuthorsData(const std::string &dir)
{
    return loadStsData(
        [&dir](const char *name) -> std::optional<Result<std::pair<std::string, std::string>>> {
            const std::string path = dir + "/" + name;
            std::error_code ec;
            if (!std::filesystem::exists(path, ec))
                return std::nullopt;
            auto text = readTextFile(path);
            if (!text)
                return Result<std::pair<std::string, std::string>>(text.problems());
            return Result<std::pair<std::string, std::string>>(
                std::pair{path, std::move(text.value())});
        },
        dir);
}

Result<StsAuthorsData> builtinStsAuthorsData()
{
    // (the STS authors' data files, built into the program: named as their repository does)
    const std::string where = "built in (the STS authors' data, GPUScheduler@0f0ccf6)";
    auto data = loadStsData(
        [&where](const char *name) -> std::optional<Result<std::pair<std::string, std::string>>> {
            for (const auto &[file, text] : stsBuiltinFiles())
                if (file == name)
                    return Result<std::pair<std::string, std::string>>(
                        std::pair{std::string(name) + ", " + where, std::string(text)});
            return std::nullopt;
        },
        where);
    if (data)
        data->builtin = true;
    return data;
}

double stsPricePerGpu(const std::vector<StsGpuPrice> &prices, const std::string &gpuType)
{
    const StsGpuPrice *best = nullptr;
    for (const StsGpuPrice &price : prices)
        if (price.gpuType == gpuType && (!best || price.gpus < best->gpus))
            best = &price;
    return best ? best->costPerHour / best->gpus : 0.0;
}

} // namespace cb
