#include "io/import/csv_rows.h"

namespace cb {

void reportBadRows(const CsvTable &table, ImportReport &report)
{
    for (const auto &[line, reason] : table.badRows())
        report.skip(table.file(), line, reason);
}

} // namespace cb
