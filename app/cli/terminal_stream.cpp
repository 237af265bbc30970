#include "cli/terminal_stream.h"

#include "util/text.h"

#include <algorithm>

namespace cb::cli {

PassThroughBuffer::int_type PassThroughBuffer::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return m_target ? c : traits_type::eof();
}

TerminalSafeBuffer::~TerminalSafeBuffer()
{
    const std::string rest = m_escaper.finish();
    m_target.write(rest.data(), std::streamsize(rest.size()));
    m_target.flush();
}

std::streamsize TerminalSafeBuffer::xsputn(const char *s, std::streamsize n)
{
    const std::string escaped = m_escaper.feed(std::string_view(s, std::size_t(n)));
    m_target.write(escaped.data(), std::streamsize(escaped.size()));
    return m_target ? n : 0;
}

int TerminalSafeBuffer::sync()
{
    m_target.flush();
    return m_target ? 0 : -1;
}

LineWrapBuffer::~LineWrapBuffer()
{
    emitPending();
    m_target.flush();
}

void LineWrapBuffer::emitPending()
{
    m_target.write(m_line.data(), std::streamsize(m_line.size()));
    m_line.clear();
}

std::streamsize LineWrapBuffer::xsputn(const char *s, std::streamsize n)
{
    for (const char *p = s, *end = s + n; p != end;) {
        const char *newline = std::find(p, end, '\n');
        m_line.append(p, newline);
        if (newline == end)
            break;
        // (a line's own indent is kept, and its continuation lines go 2 deeper)
        const std::string wrapped = wrapText(m_line, m_width, 2);
        m_target.write(wrapped.data(), std::streamsize(wrapped.size()));
        m_target.put('\n');
        m_line.clear();
        p = newline + 1;
    }
    return m_target ? n : 0;
}

int LineWrapBuffer::sync()
{
    emitPending();
    m_target.flush();
    return m_target ? 0 : -1;
}

} // namespace cb::cli
