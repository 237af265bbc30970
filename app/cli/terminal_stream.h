#pragma once
// The boundary between the commands and the terminal: every byte a command writes to
// Io::out and Io::err passes through a TerminalEscaper (util/terminal_text.h), so a name
// holding escape sequences or carriage returns is shown, never obeyed. Writes go through at
// once (nothing is buffered here), so text on the raw stream beneath (progress bars, the
// stepper's frames) stays in order with it.

#include "util/terminal_text.h"

#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>

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

/// Breaks each complete line written through it at spaces to at most `width` columns before
/// passing it on (wrapText), the lines after the first indented two spaces deeper than it
/// (text on stderr at a terminal: an error naming a long path read as one run-on line at 80
/// columns). A line not yet ended waits here until its newline, a flush or the end.
class LineWrapBuffer : public std::streambuf
{
public:
    LineWrapBuffer(std::ostream &target, std::size_t width) : m_target(target), m_width(width) {}
    ~LineWrapBuffer() override;

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char *s, std::streamsize n) override;
    int sync() override;

private:
    void emitPending();

    std::ostream &m_target;
    std::size_t m_width;
    std::string m_line; ///< the line begun and not yet ended
};

/// An ostream over LineWrapBuffer.
class LineWrapStream : public std::ostream
{
public:
    LineWrapStream(std::ostream &target, std::size_t width)
        : std::ostream(nullptr), m_buffer(target, width)
    {
        rdbuf(&m_buffer);
    }

private:
    LineWrapBuffer m_buffer;
};

} // namespace cb::cli
