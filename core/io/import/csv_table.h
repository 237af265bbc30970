#pragma once
// A CSV table addressed by column name: either the file's first row is the header, or the
// caller names the columns (for header-less formats such as Alibaba PAI 2020 and Gavel).
// Rows whose field count differs from the header's are set aside with their line number.

#include "io/import/csv_reader.h"
#include "util/result.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb {

class CsvTable
{
public:
    /// Reads `text` with a header row; fails (naming file and line 1) when a `required`
    /// column is missing. Column names are matched after trimming blanks.
    /// `progress`, if set, follows the bytes read (CsvReader::read).
    static Result<CsvTable> withHeader(const std::string &text, const std::string &file,
                                       const std::vector<std::string> &required,
                                       char delimiter = ',', const ReadProgress &progress = {});
    /// Reads `text` without a header; `columns` names the fields in order.
    static Result<CsvTable> withColumns(const std::string &text, const std::string &file,
                                        const std::vector<std::string> &columns,
                                        char delimiter = ',', bool quoting = true,
                                        const ReadProgress &progress = {});

    const std::string &file() const { return m_file; }
    const std::vector<std::string> &columns() const { return m_columns; }
    bool hasColumn(const std::string &name) const { return m_index.count(name) > 0; }
    /// Rows with the right number of fields, in file order.
    const std::vector<CsvRow> &rows() const { return m_rows; }
    /// Rows with the wrong number of fields: (line, reason).
    const std::vector<std::pair<int, std::string>> &badRows() const { return m_bad; }

    /// The trimmed field of `row` in column `name` (empty if there is no such column).
    std::string field(const CsvRow &row, const std::string &name) const;

private:
    void setRows(std::vector<CsvRow> rows, std::size_t first);

    std::string m_file;
    std::vector<std::string> m_columns;
    std::map<std::string, std::size_t> m_index;
    std::vector<CsvRow> m_rows;
    std::vector<std::pair<int, std::string>> m_bad;
};

/// Reads typed fields of one row, remembering the first problem ("column gpu_num: expected
/// a number, found \"x\"") so the importer can skip the row with that reason.
class CsvRowReader
{
public:
    CsvRowReader(const CsvTable &table, const CsvRow &row) : m_table(table), m_row(row) {}

    std::string text(const std::string &column) const { return m_table.field(m_row, column); }
    /// A number in [lo, hi]. Empty: `fallback` if given, else a problem.
    double number(const std::string &column, double lo, double hi,
                  std::optional<double> fallback = std::nullopt);
    /// An integer in [lo, hi] ("2.5" is a problem). Empty: `fallback` if given, else a problem.
    long long integer(const std::string &column, long long lo, long long hi,
                      std::optional<long long> fallback = std::nullopt);
    bool hasColumn(const std::string &column) const { return m_table.hasColumn(column); }
    bool ok() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }
    int line() const { return m_row.line; }
    void fail(std::string message)
    {
        if (m_error.empty())
            m_error = std::move(message);
    }

private:
    const CsvTable &m_table;
    const CsvRow &m_row;
    std::string m_error;
};

} // namespace cb
