#include "io/import/csv_rows.h"

#include "io/import/text_fields.h"

#include <cstdio>

namespace cb {

namespace {

std::string hexByte(char c)
{
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(c));
    return byte;
}

} // namespace

Result<CsvInput> openCsvInput(const ImportInput &in, const std::vector<std::string> &required,
                              char delimiter)
{
    auto stream = CsvStream::open(in, delimiter);
    if (!stream)
        return stream.problems();
    CsvRow header;
    if (!stream.value()->next(header)) {
        if (stream.value()->failed())
            return stream.value()->problems();
        return Result<CsvInput>::failure(in.name, "the file is empty (expected a header row)");
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        // Column names end up in messages and, for some formats, in the scenario's names.
        if (const auto at = importtext::nonTextAt(header.fields[i]))
            return Result<CsvInput>::failure(
                in.name + ":" + std::to_string(header.line),
                "header field " + std::to_string(i + 1) + " (" +
                    importtext::shown(header.fields[i]) + ") is not UTF-8 text (byte " +
                    hexByte(header.fields[i][*at]) + " at character " + std::to_string(*at + 1) +
                    "): " + importtext::toUtf8Advice(header.fields.front()));
        names.push_back(importtext::trim(header.fields[i]));
    }
    CsvInput csv{CsvColumns(in.name, std::move(names)), std::move(stream.value()), {}, header.line};
    if (auto ok = csv.columns.require(required, header.line); !ok)
        return ok.problems();
    return csv;
}

Result<CsvInput> openCsvInputWithColumns(const ImportInput &in, std::vector<std::string> columns,
                                         char delimiter, bool quoting)
{
    auto stream = CsvStream::open(in, delimiter, quoting);
    if (!stream)
        return stream.problems();
    CsvInput csv{{}, std::move(stream.value()), {}, 0};
    CsvRow first;
    if (csv.stream->next(first))
        csv.pending = std::move(first);
    else if (csv.stream->failed())
        return csv.stream->problems();
    if (columns.empty() && csv.pending)
        for (std::size_t i = 0; i < csv.pending->fields.size(); ++i)
            columns.push_back(std::to_string(i));
    csv.columns = CsvColumns(in.name, std::move(columns));
    return csv;
}

std::string csvRowProblem(const CsvInput &in, const CsvRow &row, std::string &reason)
{
    const std::size_t want = in.columns.columns().size();
    if (row.fields.size() != want) {
        reason = "wrong number of fields (expected " + std::to_string(want) + ")";
        return "expected " + std::to_string(want) + " fields, found " +
               std::to_string(row.fields.size());
    }
    for (std::size_t i = 0; i < row.fields.size(); ++i)
        if (auto at = importtext::invalidUtf8At(row.fields[i])) {
            const std::string &name = in.columns.columns()[i];
            reason = "text that is not UTF-8 (convert the file, e.g. iconv -f latin1 -t utf-8)";
            return "column " + name + " is not UTF-8 text (byte " + hexByte(row.fields[i][*at]) +
                   " at character " + std::to_string(*at + 1) + " of " +
                   importtext::shown(row.fields[i]) +
                   "): convert the file to UTF-8, e.g. iconv -f latin1 -t utf-8";
        }
    return {};
}

} // namespace cb
