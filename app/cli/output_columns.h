#pragma once
// The width a command's text is laid out for (help, paragraphs, tables).

#include <cstddef>
#include <string>

namespace cb::cli {

/// Columns the output is laid out for: $COLUMNS when it is a number (as most tools read
/// it), else the terminal's width when standard output is one, else 80 (so piped output is
/// the same on every machine). Never below 40.
std::size_t outputColumns();

/// Text laid out for the terminal: each line wrapped at outputColumns(), a long line
/// continuing indented by two.
std::string wrappedLines(const std::string &text);

/// `text` (one message or several lines) for standard error: wrapped as wrappedLines() when
/// it is a terminal, else each message on one line, for grep and logs.
std::string forStderr(const std::string &text, bool errIsTerminal);

} // namespace cb::cli
