#pragma once
// A small CSV/TSV reader that keeps line numbers: RFC 4180 quoting ("a,b", "say ""hi"""),
// quoted fields spanning lines, LF or CRLF endings, a missing final newline and a UTF-8
// byte-order mark. Blank lines are not rows.

#include "util/result.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cb {

/// Told how many bytes of a text have been read: called at most once per 64 KiB and once at
/// the end with the text's size; the values never decrease.
using ReadProgress = std::function<void(std::size_t bytesRead)>;

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
    /// `file` and the line where it opened. `progress`, if set, follows the bytes read.
    Result<std::vector<CsvRow>> read(const std::string &text, const std::string &file,
                                     const ReadProgress &progress = {}) const;

    /// Bytes between two progress calls.
    static constexpr std::size_t kProgressStep = 64 * 1024;

private:
    char m_delimiter;
    bool m_quoting;
};

} // namespace cb
