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
#include <utility>

namespace cb::cli {

/// A buffer that passes what is written to `target` after its own transformation (xsputn):
/// one character goes the same way as many (overflow).
class PassThroughBuffer : public std::streambuf
{
public:
    explicit PassThroughBuffer(std::ostream &target) : m_target(target) {}

protected:
    int_type overflow(int_type c) override;

    std::ostream &m_target;
};

/// An ostream over a buffer of type `Buffer`, made from `Buffer`'s arguments.
template<class Buffer> class StreamOver : public std::ostream
{
public:
    template<class... Args>
    explicit StreamOver(Args &&...args)
        : std::ostream(nullptr), m_buffer(std::forward<Args>(args)...)
    {
        rdbuf(&m_buffer);
    }

private:
    Buffer m_buffer;
};

class TerminalSafeBuffer : public PassThroughBuffer
{
public:
    explicit TerminalSafeBuffer(std::ostream &target) : PassThroughBuffer(target) {}
    ~TerminalSafeBuffer() override;

protected:
    std::streamsize xsputn(const char *s, std::streamsize n) override;
    int sync() override;

private:
    TerminalEscaper m_escaper{true};
};

using TerminalSafeStream = StreamOver<TerminalSafeBuffer>;

/// Breaks each complete line written through it at spaces to at most `width` columns before
/// passing it on (wrapText), the lines after the first indented two spaces deeper than it
/// (text on stderr at a terminal: an error naming a long path read as one run-on line at 80
/// columns). A line not yet ended waits here until its newline, a flush or the end.
class LineWrapBuffer : public PassThroughBuffer
{
public:
    LineWrapBuffer(std::ostream &target, std::size_t width)
        : PassThroughBuffer(target), m_width(width)
    {}
    ~LineWrapBuffer() override;

protected:
    std::streamsize xsputn(const char *s, std::streamsize n) override;
    int sync() override;

private:
    void emitPending();

    std::size_t m_width;
    std::string m_line; ///< the line begun and not yet ended
};

using LineWrapStream = StreamOver<LineWrapBuffer>;

} // namespace cb::cli
