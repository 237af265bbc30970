#pragma once
// A table of text cells laid out for a terminal of a given width: each column as wide as
// its widest cell, and blocks of columns under each other, rather than lines past the right
// edge, when the whole is wider.

#include <cstddef>
#include <string>
#include <vector>

namespace cb {

/// Each column is as wide as its widest cell or header, two spaces apart. When the whole is
/// wider than `width`, the columns after the first `keyColumns` are printed in blocks that
/// fit, one under the other, each block repeating the key columns; a single column wider
/// than the room is printed whole. Rows may have fewer cells than headers (blank).
struct TextTable
{
    std::vector<std::string> headers;
    std::vector<bool> rightAligned; ///< per column; missing entries are left-aligned
    std::vector<std::vector<std::string>> rows;
    std::size_t keyColumns = 1;
    std::size_t indent = 0; ///< spaces before every line, counted in the width

    std::string render(std::size_t width) const;
};

} // namespace cb
