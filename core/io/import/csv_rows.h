#pragma once
// The preamble every CSV importer shares, once: open an input as a table (header row, or
// named columns), fail naming the file and line when a required column is missing, list the
// rows with a wrong field count as skipped, then hand each other row to the importer and
// list it as skipped when the importer's reader found a problem in it. Reading reports its
// progress through the input's hook (ImportInput::progress).

#include "io/import/csv_table.h"
#include "io/import/import_report.h"
#include "io/import/importer.h"

#include <string>
#include <vector>

namespace cb {

/// Rows of `table` with a wrong field count as skipped, with their line.
void reportBadRows(const CsvTable &table, ImportReport &report);

/// Calls `row(reader)` for each well-formed row of `table` in file order; when the reader has
/// a problem afterwards the row is skipped with that problem. Rows with a wrong field count
/// are listed as skipped first.
template<typename RowFn>
void forEachCsvRow(const CsvTable &table, ImportReport &report, RowFn &&row)
{
    reportBadRows(table, report);
    for (const CsvRow &r : table.rows()) {
        CsvRowReader reader(table, r);
        row(reader);
        if (!reader.ok())
            report.skip(table.file(), r.line, reader.error());
    }
}

/// `in` as a table with a header row that has every `required` column (else a failure
/// naming the file and line 1), with progress through in.progress.
inline Result<CsvTable> openCsvInput(const ImportInput &in,
                                     const std::vector<std::string> &required, char delimiter = ',')
{
    return CsvTable::withHeader(in.text, in.name, required, delimiter, in.progress);
}

/// openCsvInput, then forEachCsvRow: the whole read of one header-row CSV input.
template<typename RowFn>
Status readCsvInput(const ImportInput &in, const std::vector<std::string> &required,
                    ImportReport &report, RowFn &&row)
{
    auto table = openCsvInput(in, required);
    if (!table)
        return table.problems();
    forEachCsvRow(table.value(), report, row);
    return Ok{};
}

} // namespace cb
