#include "stochastic/price_catalogue.h"

#include "io/import/csv_table.h"
#include "model/scenario.h"
#include "util/text.h"

#include <algorithm>

namespace cb {

namespace {

std::string findColumn(const CsvTable &t, const std::string &prefix)
{
    for (const std::string &c : t.columns())
        if (c.rfind(prefix, 0) == 0)
            return c;
    return {};
}

} // namespace

double PriceCatalogue::ratePerHour(const std::string &gpuType, int gpus) const
{
    auto it = m_rates.find(gpuType);
    if (it == m_rates.end() || it->second.empty() || gpus <= 0)
        return 0.0;
    const auto &byCount = it->second;
    if (auto e = byCount.find(gpus); e != byCount.end())
        return e->second;
    auto above = byCount.upper_bound(gpus);
    const auto &ref = above == byCount.begin() ? *above : *std::prev(above);
    return ref.second / ref.first * gpus;
}

void PriceCatalogue::set(const std::string &gpuType, int gpus, double perHour)
{
    m_rates[gpuType][gpus] = perHour;
}

Result<PriceCatalogue> PriceCatalogue::parseCloudCsv(const std::string &text,
                                                     const std::string &file)
{
    auto table = CsvTable::withHeader(text, file, {"GPUtype", "nGPUs", "cost"});
    if (!table)
        return table.problems();
    Problems p;
    for (const auto &[line, reason] : table->badRows())
        p.push_back({file + ":" + std::to_string(line), reason});
    PriceCatalogue c;
    for (const CsvRow &row : table->rows()) {
        CsvRowReader r(table.value(), row);
        const std::string type = withoutSpaces(r.text("GPUtype"));
        const long long n = r.integer("nGPUs", 1, 1024);
        const double cost = r.number("cost", 0, 1e9);
        if (type.empty())
            r.fail("column GPUtype is empty (expected a GPU type such as K80)");
        if (!r.ok())
            p.push_back({file + ":" + std::to_string(r.line()), r.error()});
        else
            c.set(type, int(n), cost);
    }
    if (!p.empty())
        return p;
    if (c.empty())
        return Result<PriceCatalogue>::failure(file, "expected at least one price row");
    return c;
}

Result<PriceCatalogue> PriceCatalogue::parseEnergyCsv(const std::string &text,
                                                      const std::string &file)
{
    auto table = CsvTable::withHeader(text, file, {"GPUtype", "nGPUs", "PUE"});
    if (!table)
        return table.problems();
    const std::string watts = findColumn(table.value(), "PowerConsumption");
    const std::string price = findColumn(table.value(), "EnergyCost");
    if (watts.empty() || price.empty())
        return Result<PriceCatalogue>::failure(
            file + ":1", "expected columns PowerConsumption[W] and EnergyCost[...]");
    Problems p;
    for (const auto &[line, reason] : table->badRows())
        p.push_back({file + ":" + std::to_string(line), reason});
    PriceCatalogue c;
    for (const CsvRow &row : table->rows()) {
        CsvRowReader r(table.value(), row);
        const std::string type = withoutSpaces(r.text("GPUtype"));
        const long long n = r.integer("nGPUs", 1, 1024);
        const double w = r.number(watts, 0, 1e7);
        const double kwh = r.number(price, 0, 1e6);
        const double pue = r.number("PUE", 1, 10);
        if (type.empty())
            r.fail("column GPUtype is empty (expected a GPU type)");
        if (!r.ok())
            p.push_back({file + ":" + std::to_string(r.line()), r.error()});
        else
            c.set(type, int(n), w / 1000.0 * kwh * pue);
    }
    if (!p.empty())
        return p;
    if (c.empty())
        return Result<PriceCatalogue>::failure(file, "expected at least one price row");
    return c;
}

PriceCatalogue PriceCatalogue::cloudFromScenario(const Scenario &s)
{
    PriceCatalogue c;
    for (const GpuType &g : s.cluster.gpuTypes)
        c.set(g.name, 1, g.pricePerHour);
    return c;
}

PriceCatalogue PriceCatalogue::energyFromScenario(const Scenario &s)
{
    PriceCatalogue c;
    for (const GpuType &g : s.cluster.gpuTypes)
        c.set(g.name, 1, g.busyWatts / 1000.0 * s.settings.energyPricePerKWh * s.settings.pue);
    return c;
}

} // namespace cb
