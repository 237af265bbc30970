#include "io/import/csv_reader.h"

namespace cb {

namespace {
constexpr std::size_t kBlock = 1 << 20;
}

Result<std::unique_ptr<CsvStream>> CsvStream::open(const ImportInput &in, char delimiter,
                                                   bool quoting)
{
    auto bytes = InputBytes::open(in);
    if (!bytes)
        return bytes.problems();
    std::unique_ptr<CsvStream> s(new CsvStream);
    s->m_bytes = std::move(bytes.value());
    s->m_file = in.name;
    s->m_delimiter = delimiter;
    s->m_quoting = quoting;
    s->m_progress = in.progress;
    s->m_total = in.size();
    s->m_nextReport = kProgressStep;
    s->m_buffer.resize(kBlock);
    return s;
}

bool CsvStream::fill()
{
    if (m_eof)
        return false;
    m_consumed += m_end;
    m_pos = 0;
    m_end = m_bytes->read(m_buffer.data(), m_buffer.size());
    if (m_end == 0) {
        m_eof = true;
        if (m_bytes->failed())
            m_problems.push_back(
                {m_file, "read error after " + std::to_string(m_consumed) + " bytes"});
        return false;
    }
    return true;
}

int CsvStream::get()
{
    if (m_pos == m_end && !fill())
        return -1;
    return static_cast<unsigned char>(m_buffer[m_pos++]);
}

int CsvStream::peek()
{
    if (m_pos == m_end && !fill())
        return -1;
    return static_cast<unsigned char>(m_buffer[m_pos]);
}

bool CsvStream::next(CsvRow &row)
{
    if (!m_problems.empty())
        return false;
    if (!m_started) {
        m_started = true;
        // A UTF-8 byte-order mark is not content.
        if (peek() == 0xEF) {
            const std::size_t save = m_pos;
            if (m_end - m_pos >= 3 && m_buffer[m_pos + 1] == char(0xBB) &&
                m_buffer[m_pos + 2] == char(0xBF))
                m_pos += 3;
            else
                m_pos = save;
        }
    }
    while (true) {
        row.line = m_line;
        std::size_t k = 0; // index of the field being read
        if (row.fields.empty())
            row.fields.emplace_back();
        row.fields[0].clear();
        bool rowHasContent = false;
        bool endOfInput = false;
        auto field = [&]() -> std::string & { return row.fields[k]; };
        auto endField = [&] {
            ++k;
            if (k == row.fields.size())
                row.fields.emplace_back();
            else
                row.fields[k].clear();
        };
        while (true) {
            const int c = get();
            if (c < 0) {
                endOfInput = true;
                break;
            }
            if (m_quoting && c == '"' && field().empty()) {
                // A quoted field: runs to the closing quote, which may be lines later.
                const int opened = m_line;
                rowHasContent = true;
                bool closed = false;
                while (true) {
                    const int q = get();
                    if (q < 0)
                        break;
                    if (q == '"') {
                        if (peek() == '"') {
                            get();
                            field() += '"';
                            continue;
                        }
                        closed = true;
                        break;
                    }
                    if (q == '\n')
                        ++m_line;
                    field() += char(q);
                }
                if (!closed) {
                    if (m_problems.empty())
                        m_problems.push_back({m_file + ":" + std::to_string(opened),
                                              "quoted field opened here is never closed"});
                    return false;
                }
                continue;
            }
            if (c == m_delimiter) {
                rowHasContent = true;
                endField();
            } else if (c == '\n') {
                ++m_line;
                break;
            } else if (c == '\r' && peek() == '\n') {
                get();
                ++m_line;
                break;
            } else {
                if (c != ' ' && c != '\t' && c != '\r')
                    rowHasContent = true;
                field() += char(c);
            }
        }
        if (!m_problems.empty())
            return false;
        if (m_progress) {
            const std::size_t at = m_consumed + m_pos;
            if (endOfInput) {
                m_progress(m_total > at ? m_total : at);
            } else if (at >= m_nextReport) {
                m_progress(at);
                m_nextReport = (at / kProgressStep + 1) * kProgressStep;
            }
        }
        if (rowHasContent) {
            row.fields.resize(k + 1);
            return true;
        }
        if (endOfInput)
            return false;
    }
}

Result<std::vector<CsvRow>> CsvReader::read(const std::string &text, const std::string &file,
                                            const ReadProgress &progress) const
{
    ImportInput in{file, text, progress};
    auto stream = CsvStream::open(in, m_delimiter, m_quoting);
    if (!stream)
        return stream.problems();
    std::vector<CsvRow> rows;
    CsvRow row;
    while (stream.value()->next(row))
        rows.push_back(row);
    if (stream.value()->failed())
        return stream.value()->problems();
    return rows;
}

} // namespace cb
