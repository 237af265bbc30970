#include "io/sts_tables.h"

#include "io/import/csv_table.h"
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

Result<PriceCatalogue> parseCloudPriceCsv(const std::string &text, const std::string &file)
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

Result<PriceCatalogue> parseEnergyPriceCsv(const std::string &text, const std::string &file)
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

Result<SharingSlices> parseSharingSlicesCsv(const std::string &text, const std::string &file)
{
    auto table = CsvTable::withHeader(text, file, {"GPUtype", "Memory", "GPUf", "inflate_max"});
    if (!table)
        return table.problems();
    Problems p;
    for (const auto &[line, reason] : table->badRows())
        p.push_back({file + ":" + std::to_string(line), reason});
    SharingSlices out;
    for (const CsvRow &row : table->rows()) {
        CsvRowReader r(table.value(), row);
        SharingSlice s;
        s.gpuType = r.text("GPUtype");
        s.gpuType.erase(std::remove(s.gpuType.begin(), s.gpuType.end(), ' '), s.gpuType.end());
        s.memoryGB = r.number("Memory", 0, 1e6);
        s.fraction = r.number("GPUf", 1e-3, 1);
        s.inflateMax = r.number("inflate_max", 1, 100);
        if (s.gpuType.empty())
            r.fail("column GPUtype is empty (expected a GPU type such as K80)");
        if (r.ok() && !(s.fraction < 1))
            r.fail("column GPUf: expected a fraction below 1");
        if (!r.ok())
            p.push_back({file + ":" + std::to_string(r.line()), r.error()});
        else
            out.add(s);
    }
    if (!p.empty())
        return p;
    return out;
}

} // namespace cb
