#include "stochastic/sharing_slices.h"

#include "io/import/csv_table.h"

#include <algorithm>

namespace cb {

Result<SharingSlices> SharingSlices::parseCsv(const std::string &text, const std::string &file)
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
            out.m_slices.push_back(s);
    }
    if (!p.empty())
        return p;
    return out;
}

std::vector<SharingSlice> SharingSlices::fitting(const std::string &gpuType,
                                                 double memoryGB) const
{
    std::vector<SharingSlice> out;
    for (const SharingSlice &s : m_slices)
        if (s.gpuType == gpuType && s.memoryGB >= memoryGB)
            out.push_back(s);
    std::stable_sort(out.begin(), out.end(), [](const SharingSlice &a, const SharingSlice &b) {
        return a.fraction < b.fraction;
    });
    return out;
}

} // namespace cb
