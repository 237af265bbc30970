#include "io/import/csv_reader.h"

namespace cb {

Result<std::vector<CsvRow>> CsvReader::read(const std::string &input, const std::string &file,
                                            const ReadProgress &progress) const
{
    std::size_t nextReport = progress ? kProgressStep : std::string::npos;
    std::vector<CsvRow> rows;
    std::size_t i = 0;
    if (input.compare(0, 3, "\xEF\xBB\xBF") == 0)
        i = 3;
    int line = 1;
    CsvRow row;
    row.line = 1;
    std::string field;
    bool rowHasContent = false;
    auto endField = [&] {
        row.fields.push_back(std::move(field));
        field.clear();
    };
    auto endRow = [&] {
        endField();
        if (rowHasContent)
            rows.push_back(std::move(row));
        row = CsvRow();
        rowHasContent = false;
        if (i >= nextReport) {
            progress(i);
            nextReport = (i / kProgressStep + 1) * kProgressStep;
        }
    };
    const std::size_t n = input.size();
    while (i < n) {
        const char c = input[i];
        if (m_quoting && c == '"' && field.empty()) {
            // A quoted field: runs to the closing quote, which may be lines later.
            const int opened = line;
            rowHasContent = true;
            ++i;
            bool closed = false;
            while (i < n) {
                if (input[i] == '"') {
                    if (i + 1 < n && input[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    closed = true;
                    break;
                }
                if (input[i] == '\n')
                    ++line;
                field += input[i++];
            }
            if (!closed)
                return Result<std::vector<CsvRow>>::failure(
                    file + ":" + std::to_string(opened),
                    "quoted field opened here is never closed");
            continue;
        }
        if (c == m_delimiter) {
            rowHasContent = true;
            endField();
            ++i;
        } else if (c == '\r' && i + 1 < n && input[i + 1] == '\n') {
            endRow();
            i += 2;
            row.line = ++line;
        } else if (c == '\n') {
            endRow();
            ++i;
            row.line = ++line;
        } else {
            if (c != ' ' && c != '\t' && c != '\r')
                rowHasContent = true;
            field += c;
            ++i;
        }
    }
    if (rowHasContent || !field.empty())
        endRow();
    if (progress)
        progress(n);
    return rows;
}

} // namespace cb
