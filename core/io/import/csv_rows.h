#pragma once
// The preamble every CSV importer shares, once: open an input as a stream of rows (after a
// header row, or with named columns), fail naming the file and line when a required column is
// missing, skip rows with a wrong field count or text that is not UTF-8 (with file and line),
// then hand each other row to the importer and skip it when the importer's reader found a
// problem in it. Rows are read one at a time, so memory does not grow with the file.

#include "io/import/csv_table.h"
#include "io/import/import_report.h"
#include "io/import/importer.h"

#include <memory>
#include <string>
#include <vector>

namespace cb {

/// A CSV input being read: its columns, and the rows after the header.
struct CsvInput
{
    CsvColumns columns;
    std::unique_ptr<CsvStream> stream;
    /// A row read ahead (the first data row of a header-less file, read to count its
    /// fields); handed out first.
    std::optional<CsvRow> pending{};
    /// Line of the header row (0 without a header).
    int headerLine = 0;
};

/// `in` with a header row that has every `required` column (else a failure naming the file
/// and the header's line). An empty file is a failure too.
Result<CsvInput> openCsvInput(const ImportInput &in, const std::vector<std::string> &required,
                              char delimiter = ',');
/// `in` without a header; `columns` names the fields. `columns` empty: named "0", "1", ...
/// after the first row's field count.
Result<CsvInput> openCsvInputWithColumns(const ImportInput &in, std::vector<std::string> columns,
                                         char delimiter = ',', bool quoting = true);

/// Why `row` is not usable before any field is read (wrong field count, not UTF-8); empty
/// when it is. `reason` gets the kind of problem.
std::string csvRowProblem(const CsvInput &in, const CsvRow &row, std::string &reason);

/// Calls `fn(reader)` for each row of `in` in file order; a row with a wrong field count or
/// text that is not UTF-8, and a row whose reader has a problem afterwards, is skipped with
/// that problem. Counts every data row in report.rowsRead. Fails when the file cannot be read
/// to its end (an unclosed quote, a read error).
template<typename RowFn> Status forEachCsvRow(CsvInput &in, ImportReport &report, RowFn &&fn)
{
    CsvRow row;
    auto handle = [&](const CsvRow &r) {
        ++report.rowsRead;
        std::string reason;
        const std::string problem = csvRowProblem(in, r, reason);
        if (!problem.empty()) {
            report.skip(in.columns.file(), r.line, problem, reason);
            return;
        }
        CsvRowReader reader(in.columns, r);
        fn(reader);
        if (!reader.ok())
            report.skip(in.columns.file(), r.line, reader.error(), reader.reason());
    };
    if (in.pending) {
        handle(*in.pending);
        in.pending.reset();
    }
    while (in.stream->next(row))
        handle(row);
    if (in.stream->failed())
        return in.stream->problems();
    return Ok{};
}

/// openCsvInput, then forEachCsvRow: the whole read of one header-row CSV input.
template<typename RowFn>
Status readCsvInput(const ImportInput &in, const std::vector<std::string> &required,
                    ImportReport &report, RowFn &&fn)
{
    auto csv = openCsvInput(in, required);
    if (!csv)
        return csv.problems();
    return forEachCsvRow(csv.value(), report, fn);
}

} // namespace cb
