#pragma once
// Text from files (job, node and model names, file names, messages quoting them) made safe
// for a terminal: every control character is shown as an escape instead of acting on the
// terminal. One rule for every command's output:
//   \n kept (between lines) or shown as \n (inside one name), \t \r as \t \r,
//   other C0 controls, DEL and the C1 controls U+0080..U+009F as \u00XX (ESC: \u001b),
//   line and paragraph separators and bidirectional overrides (U+2028, U+2029, U+202A..U+202E,
//   U+2066..U+2069) as \uXXXX, and bytes that are not UTF-8 as \xHH.
// The \uXXXX forms are JSON's, so a JSON document passed through stays the same JSON.

#include <string>
#include <string_view>

namespace cb {

/// Escapes text that arrives in pieces (a stream): a UTF-8 sequence split between two
/// pieces is held back until it is complete.
class TerminalEscaper
{
public:
    explicit TerminalEscaper(bool keepNewlines) : m_keepNewlines(keepNewlines) {}

    /// The escaped form of `bytes` (less an incomplete sequence at its end, held back).
    std::string feed(std::string_view bytes);
    /// What is held back, escaped as bytes that are not UTF-8.
    std::string finish();

private:
    void escapeUnit(std::string_view unit, std::string &out) const;

    bool m_keepNewlines = true;
    std::string m_pending;
};

/// One name or value for a line of terminal output: newlines shown as \n too.
std::string terminalText(std::string_view text);

} // namespace cb
