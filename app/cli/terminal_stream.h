#pragma once
// The boundary between the commands and the terminal: every byte a command writes to
// Io::out and Io::err passes through a TerminalEscaper (util/terminal_text.h), so a name
// holding escape sequences or carriage returns is shown, never obeyed. Writes go through at
// once (nothing is buffered here), so text on the raw stream beneath (progress bars, the
// stepper's frames) stays in order with it.

#include "util/terminal_text.h"

#include <ostream>
#include <streambuf>

namespace cb::cli {

class TerminalSafeBuffer : public std::streambuf
{
public:
    explicit TerminalSafeBuffer(std::ostream &target) : m_target(target) {}
    ~TerminalSafeBuffer() override;

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char *s, std::streamsize n) override;
    int sync() override;

private:
    std::ostream &m_target;
    TerminalEscaper m_escaper{true};
};

/// An ostream over TerminalSafeBuffer.
class TerminalSafeStream : public std::ostream
{
public:
    explicit TerminalSafeStream(std::ostream &target) : std::ostream(nullptr), m_buffer(target)
    {
        rdbuf(&m_buffer);
    }

private:
    TerminalSafeBuffer m_buffer;
};

} // namespace cb::cli
