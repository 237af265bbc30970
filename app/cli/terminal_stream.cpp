#include "cli/terminal_stream.h"

namespace cb::cli {

TerminalSafeBuffer::~TerminalSafeBuffer()
{
    const std::string rest = m_escaper.finish();
    m_target.write(rest.data(), std::streamsize(rest.size()));
    m_target.flush();
}

TerminalSafeBuffer::int_type TerminalSafeBuffer::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return m_target ? c : traits_type::eof();
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

} // namespace cb::cli
