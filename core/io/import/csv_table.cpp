#include "io/import/csv_table.h"

#include "io/import/text_fields.h"

namespace cb {

using namespace importtext;

Result<CsvTable> CsvTable::withHeader(const std::string &text, const std::string &file,
                                      const std::vector<std::string> &required, char delimiter,
                                      const ReadProgress &progress)
{
    auto rows = CsvReader(delimiter).read(text, file, progress);
    if (!rows)
        return rows.problems();
    if (rows->empty())
        return Result<CsvTable>::failure(file, "the file is empty (expected a header row)");
    CsvTable t;
    t.m_file = file;
    const CsvRow &header = rows->front();
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        t.m_columns.push_back(trim(header.fields[i]));
        t.m_index.emplace(t.m_columns.back(), i);
    }
    Problems problems;
    std::string have;
    for (const std::string &c : t.m_columns)
        have += (have.empty() ? "" : ", ") + c;
    for (const std::string &r : required)
        if (!t.hasColumn(r))
            problems.push_back(
                {file + ":" + std::to_string(header.line),
                 "missing column \"" + r + "\" in the header (found: " + have + ")"});
    if (!problems.empty())
        return problems;
    t.setRows(std::move(rows.value()), 1);
    return t;
}

Result<CsvTable> CsvTable::withColumns(const std::string &text, const std::string &file,
                                       const std::vector<std::string> &columns, char delimiter,
                                       bool quoting, const ReadProgress &progress)
{
    auto rows = CsvReader(delimiter, quoting).read(text, file, progress);
    if (!rows)
        return rows.problems();
    CsvTable t;
    t.m_file = file;
    t.m_columns = columns;
    for (std::size_t i = 0; i < columns.size(); ++i)
        t.m_index.emplace(columns[i], i);
    t.setRows(std::move(rows.value()), 0);
    return t;
}

void CsvTable::setRows(std::vector<CsvRow> rows, std::size_t first)
{
    for (std::size_t i = first; i < rows.size(); ++i) {
        if (rows[i].fields.size() == m_columns.size())
            m_rows.push_back(std::move(rows[i]));
        else
            m_bad.emplace_back(rows[i].line, "expected " + std::to_string(m_columns.size()) +
                                                 " fields, found " +
                                                 std::to_string(rows[i].fields.size()));
    }
}

std::string CsvTable::field(const CsvRow &row, const std::string &name) const
{
    auto it = m_index.find(name);
    if (it == m_index.end() || it->second >= row.fields.size())
        return {};
    return trim(row.fields[it->second]);
}

double CsvRowReader::number(const std::string &column, double lo, double hi,
                            std::optional<double> fallback)
{
    const std::string t = text(column);
    if (t.empty()) {
        if (fallback)
            return *fallback;
        fail("column " + column + " is empty (expected a number)");
        return lo;
    }
    auto v = parseNumber(t);
    if (!v) {
        fail("column " + column + ": expected a number, found \"" + t + "\"");
        return lo;
    }
    if (*v < lo || *v > hi) {
        fail("column " + column + ": " + t + " is out of range [" + formatNumber(lo) + ", " +
             formatNumber(hi) + "]");
        return lo;
    }
    return *v;
}

long long CsvRowReader::integer(const std::string &column, long long lo, long long hi,
                                std::optional<long long> fallback)
{
    const std::string t = text(column);
    if (t.empty()) {
        if (fallback)
            return *fallback;
        fail("column " + column + " is empty (expected an integer)");
        return lo;
    }
    auto v = parseInteger(t);
    if (!v) {
        // Accept integral numbers written with a fraction or exponent ("8.0", "1e3").
        auto d = parseNumber(t);
        if (d && *d == double(static_cast<long long>(*d)))
            v = static_cast<long long>(*d);
    }
    if (!v) {
        fail("column " + column + ": expected an integer, found \"" + t + "\"");
        return lo;
    }
    if (*v < lo || *v > hi) {
        fail("column " + column + ": " + t + " is out of range [" + std::to_string(lo) + ", " +
             std::to_string(hi) + "]");
        return lo;
    }
    return *v;
}

} // namespace cb
