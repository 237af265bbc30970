#include "util/text_table.h"

#include "util/text.h"

#include <algorithm>

namespace cb {

std::string TextTable::render(std::size_t width) const
{
    const std::size_t columns = headers.size();
    std::vector<std::size_t> w(columns, 0);
    for (std::size_t c = 0; c < columns; ++c)
        w[c] = displayWidth(headers[c]);
    for (const auto &row : rows)
        for (std::size_t c = 0; c < columns && c < row.size(); ++c)
            w[c] = std::max(w[c], displayWidth(row[c]));
    const std::size_t keys = std::min(keyColumns, columns);
    std::size_t keyWidth = indent;
    for (std::size_t c = 0; c < keys; ++c)
        keyWidth += w[c] + (c ? 2 : 0);

    // Blocks of the other columns that fit beside the key columns.
    std::vector<std::pair<std::size_t, std::size_t>> blocks; // [first, last)
    for (std::size_t c = keys; c < columns;) {
        std::size_t used = keyWidth, last = c;
        while (last < columns && (last == c || used + 2 + w[last] <= width))
            used += 2 + w[last++];
        blocks.emplace_back(c, last);
        c = last;
    }
    if (blocks.empty())
        blocks.emplace_back(keys, keys);

    const auto cell = [&](std::string &line, const std::string &text, std::size_t c, bool end) {
        const std::size_t pad = w[c] - std::min(w[c], displayWidth(text));
        const bool right = c < rightAligned.size() && rightAligned[c];
        if (right)
            line.append(pad, ' ');
        line += text;
        if (!right && !end)
            line.append(pad, ' ');
    };
    std::string out;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        if (b > 0)
            out += '\n';
        const std::size_t first = blocks[b].first, last = blocks[b].second;
        const auto line = [&](const std::vector<std::string> &cells) {
            std::string l(indent, ' ');
            const auto at = [&](std::size_t c) -> const std::string & {
                static const std::string none;
                return c < cells.size() ? cells[c] : none;
            };
            std::vector<std::size_t> shown;
            for (std::size_t c = 0; c < keys; ++c)
                shown.push_back(c);
            for (std::size_t c = first; c < last; ++c)
                shown.push_back(c);
            for (std::size_t i = 0; i < shown.size(); ++i) {
                if (i > 0)
                    l += "  ";
                cell(l, at(shown[i]), shown[i], i + 1 == shown.size());
            }
            while (l.size() > indent && l.back() == ' ')
                l.pop_back();
            out += l + '\n';
        };
        line(headers);
        for (const auto &row : rows)
            line(row);
    }
    return out;
}

} // namespace cb
