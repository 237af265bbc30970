#pragma once
// The width a command's text is laid out for (help, paragraphs, tables).

#include <cstddef>

namespace cb::cli {

/// Columns the output is laid out for: $COLUMNS when it is a number (as most tools read
/// it), else the terminal's width when standard output is one, else 80 (so piped output is
/// the same on every machine). Never below 40.
std::size_t outputColumns();

} // namespace cb::cli
