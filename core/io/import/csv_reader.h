#pragma once
// A small CSV/TSV reader that keeps line numbers: RFC 4180 quoting ("a,b", "say ""hi"""),
// quoted fields spanning lines, LF or CRLF endings, a missing final newline and a UTF-8
// byte-order mark. Blank lines are not rows. CsvStream reads an input row by row in blocks,
// so a file of any size is read in constant memory; CsvReader reads a whole text at once.

#include "io/import/import_input.h"
#include "util/result.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace cb {

struct CsvRow
{
    int line = 0; ///< 1-based line where the row starts
    std::vector<std::string> fields;
};

class CsvStream
{
public:
    /// Opens `in` (its file, or its text). `progress`, if set, follows the bytes read.
    static Result<std::unique_ptr<CsvStream>> open(const ImportInput &in, char delimiter = ',',
                                                   bool quoting = true);

    /// The next row into `row` (its buffers are reused); false at the end of the input or on
    /// an error (then failed(), and problems() names the file and line).
    bool next(CsvRow &row);
    bool failed() const { return !m_problems.empty(); }
    const Problems &problems() const { return m_problems; }
    const std::string &file() const { return m_file; }

    /// Bytes between two progress calls.
    static constexpr std::size_t kProgressStep = 64 * 1024;

private:
    CsvStream() = default;
    int get();
    int peek();
    bool fill();

    std::unique_ptr<InputBytes> m_bytes;
    std::string m_file;
    char m_delimiter = ',';
    bool m_quoting = true;
    ReadProgress m_progress;
    std::size_t m_total = 0;
    std::size_t m_nextReport = 0;
    std::vector<char> m_buffer;
    std::size_t m_pos = 0, m_end = 0;
    std::size_t m_consumed = 0; ///< bytes before m_buffer[m_pos]
    int m_line = 1;
    bool m_started = false, m_eof = false;
    Problems m_problems;
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

    static constexpr std::size_t kProgressStep = CsvStream::kProgressStep;

private:
    char m_delimiter;
    bool m_quoting;
};

} // namespace cb
