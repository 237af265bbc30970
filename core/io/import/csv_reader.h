#pragma once
// A small CSV/TSV reader that keeps line numbers: RFC 4180 quoting ("a,b", "say ""hi"""),
// quoted fields spanning lines, LF or CRLF endings, a missing final newline and a UTF-8
// byte-order mark. Blank lines are not rows.

#include "util/result.h"

#include <string>
#include <vector>

namespace cb {

struct CsvRow
{
    int line = 0; ///< 1-based line where the row starts
    std::vector<std::string> fields;
};

class CsvReader
{
public:
    explicit CsvReader(char delimiter = ',', bool quoting = true)
        : m_delimiter(delimiter), m_quoting(quoting)
    {}

    /// Splits `text` into rows. Fails only on a quoted field that never closes, naming
    /// `file` and the line where it opened.
    Result<std::vector<CsvRow>> read(const std::string &text, const std::string &file) const;

private:
    char m_delimiter;
    bool m_quoting;
};

} // namespace cb
