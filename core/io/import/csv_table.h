#pragma once
// CSV columns addressed by name: either the file's first row is the header, or the caller
// names the columns (for header-less formats such as Alibaba PAI 2020 and Gavel). CsvTable
// holds a whole (small) text's rows; rows whose field count differs from the header's are set
// aside with their line number. CsvRowReader reads typed fields of one row.

#include "io/import/csv_reader.h"
#include "util/result.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cb {

/// Column names of a CSV input and where each one is.
class CsvColumns
{
public:
    CsvColumns() = default;
    CsvColumns(std::string file, std::vector<std::string> columns);

    const std::string &file() const { return m_file; }
    const std::vector<std::string> &columns() const { return m_columns; }
    bool hasColumn(const std::string &name) const { return m_index.count(name) > 0; }
    /// The trimmed field of `row` in column `name` (empty if there is no such column).
    std::string field(const CsvRow &row, const std::string &name) const;
    /// Fails naming `file:line` when a `required` column is missing (all of them in one
    /// message, with the header once).
    Status require(const std::vector<std::string> &required, int line) const;

private:
    std::string m_file;
    std::vector<std::string> m_columns;
    std::unordered_map<std::string, std::size_t> m_index;
};

class CsvTable : public CsvColumns
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

    /// Rows with the right number of fields, in file order.
    const std::vector<CsvRow> &rows() const { return m_rows; }
    /// Rows with the wrong number of fields: (line, reason).
    const std::vector<std::pair<int, std::string>> &badRows() const { return m_bad; }

private:
    using CsvColumns::CsvColumns;
    void setRows(std::vector<CsvRow> rows, std::size_t first);

    std::vector<CsvRow> m_rows;
    std::vector<std::pair<int, std::string>> m_bad;
};

/// Reads typed fields of one row, remembering the first problem ("column gpu_num: expected
/// an integer, found \"x\"") and its kind ("column gpu_num: expected an integer", what
/// reports group skipped rows by) so the importer can skip the row with that reason.
class CsvRowReader
{
public:
    CsvRowReader(const CsvColumns &columns, const CsvRow &row) : m_columns(columns), m_row(row) {}

    std::string text(const std::string &column) const { return m_columns.field(m_row, column); }
    /// A number in [lo, hi]. Empty: `fallback` if given, else a problem.
    double number(const std::string &column, double lo, double hi,
                  std::optional<double> fallback = std::nullopt);
    /// An integer in [lo, hi] ("2.5" is a problem). Empty: `fallback` if given, else a problem.
    long long integer(const std::string &column, long long lo, long long hi,
                      std::optional<long long> fallback = std::nullopt);
    bool hasColumn(const std::string &column) const { return m_columns.hasColumn(column); }
    bool ok() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }
    /// What kind of problem it was (the message without the row's own values).
    const std::string &reason() const { return m_reason.empty() ? m_error : m_reason; }
    int line() const { return m_row.line; }
    const CsvRow &row() const { return m_row; }
    /// Records a problem (only the first one counts); `reason` groups it in reports.
    void fail(std::string message, std::string reason = {})
    {
        if (m_error.empty()) {
            m_error = std::move(message);
            m_reason = std::move(reason);
        }
    }
    /// Set when the row is left out on purpose (a pending job, say): the reason is reported
    /// like a problem, but it is not one.
    void leaveOut(std::string message, std::string reason = {}) { fail(message, reason); }

private:
    const CsvColumns &m_columns;
    const CsvRow &m_row;
    std::string m_error;
    std::string m_reason;
};

} // namespace cb
