#include "io/import/csv_table.h"

#include "io/import/text_fields.h"

#include <cmath>

namespace cb {

using namespace importtext;

CsvColumns::CsvColumns(std::string file, std::vector<std::string> columns)
    : m_file(std::move(file)), m_columns(std::move(columns))
{
    for (std::size_t i = 0; i < m_columns.size(); ++i)
        m_index.emplace(m_columns[i], i);
}

std::string CsvColumns::field(const CsvRow &row, const std::string &name) const
{
    auto it = m_index.find(name);
    if (it == m_index.end() || it->second >= row.fields.size())
        return {};
    return trim(row.fields[it->second]);
}

Status CsvColumns::require(const std::vector<std::string> &required, int line) const
{
    std::vector<std::string> missing;
    for (const std::string &r : required)
        if (!hasColumn(r))
            missing.push_back(r);
    if (missing.empty())
        return Ok{};
    std::string names, have;
    for (const std::string &m : missing)
        names += (names.empty() ? "" : ", ") + shown(m);
    for (const std::string &c : m_columns) {
        const std::string s = shown(c);
        have += (have.empty() ? "" : ", ") + s.substr(1, s.size() - 2);
        if (have.size() > 300) {
            have += ", ...";
            break;
        }
    }
    return Status::failure(
        m_file + ":" + std::to_string(line),
        std::string(missing.size() == 1 ? "missing column " : "missing columns ") + names +
            " in the header (found: " + have + ")");
}

Result<CsvTable> CsvTable::withHeader(const std::string &text, const std::string &file,
                                      const std::vector<std::string> &required, char delimiter,
                                      const ReadProgress &progress)
{
    auto rows = CsvReader(delimiter).read(text, file, progress);
    if (!rows)
        return rows.problems();
    if (rows->empty())
        return Result<CsvTable>::failure(file, "the file is empty (expected a header row)");
    const CsvRow &header = rows->front();
    std::vector<std::string> names;
    for (const std::string &f : header.fields)
        names.push_back(trim(f));
    CsvTable t(file, std::move(names));
    if (auto ok = t.require(required, header.line); !ok)
        return ok.problems();
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
    CsvTable t(file, columns);
    t.setRows(std::move(rows.value()), 0);
    return t;
}

void CsvTable::setRows(std::vector<CsvRow> rows, std::size_t first)
{
    for (std::size_t i = first; i < rows.size(); ++i) {
        if (rows[i].fields.size() == columns().size())
            m_rows.push_back(std::move(rows[i]));
        else
            m_bad.emplace_back(rows[i].line, "expected " + std::to_string(columns().size()) +
                                                 " fields, found " +
                                                 std::to_string(rows[i].fields.size()));
    }
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
        fail("column " + column + ": expected a number, found \"" + t + "\"",
             "column " + column + ": expected a number");
        return lo;
    }
    if (*v < lo || *v > hi) {
        const std::string range = "[" + formatNumber(lo) + ", " + formatNumber(hi) + "]";
        fail("column " + column + ": " + t + " is out of range " + range,
             "column " + column + ": out of range " + range);
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
        if (d && *d == std::floor(*d) && *d >= -9.2e18 && *d <= 9.2e18)
            v = static_cast<long long>(*d);
    }
    if (!v) {
        fail("column " + column + ": expected an integer, found \"" + t + "\"",
             "column " + column + ": expected an integer");
        return lo;
    }
    if (*v < lo || *v > hi) {
        const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
        fail("column " + column + ": " + t + " is out of range " + range,
             "column " + column + ": out of range " + range);
        return lo;
    }
    return *v;
}

} // namespace cb
