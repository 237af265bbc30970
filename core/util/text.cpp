#include "util/text.h"

#include "util/count_text.h"

#include <cctype>

#include <set>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace cb {

std::string counted(long long n, std::string_view singular, std::string_view plural)
{
    std::string out = groupedCount(n) + " "; // ("1,024 nodes", as every count reads)
    if (n == 1)
        out += singular;
    else if (!plural.empty())
        out += plural;
    else
        out += std::string(singular) + "s";
    return out;
}

std::string numberText(double v, int precision)
{
    std::ostringstream s;
    s << std::setprecision(precision) << v;
    return s.str();
}

std::string wholeOrNumberText(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(std::int64_t(v));
    return numberText(v);
}

std::string formatFixed(double v, int digits)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

std::string formatAmount(double v, int digits)
{
    const std::string text = formatFixed(v, digits);
    if (v > 0 && text.find_first_not_of("0.") == std::string::npos)
        return "<" + formatFixed(std::pow(10.0, -digits), digits);
    return text;
}

std::string clockText(double seconds, bool hundredths)
{
    if (!std::isfinite(seconds))
        return "-";
    double a = std::abs(seconds);
    if (std::ceil(a) - a < 1e-9 * std::max(1.0, a))
        a = std::ceil(a);
    auto total = static_cast<long long>(std::floor(a));
    const long long days = total / 86400;
    total %= 86400;
    char clock[48];
    std::snprintf(clock, sizeof clock, "%lld:%02lld:%02lld", total / 3600, (total % 3600) / 60,
                  total % 60);
    std::string text = clock;
    if (hundredths && a < 10) {
        const auto h = static_cast<long long>(std::llround((a - std::floor(a)) * 100));
        if (h > 0 && h < 100) {
            std::snprintf(clock, sizeof clock, ".%02lld", h);
            text += clock;
        }
    }
    if (days > 0)
        text = std::to_string(days) + "d " + text;
    return seconds < 0 && a > 0 ? "-" + text : text;
}

std::string padRight(std::string s, std::size_t width)
{
    if (s.size() < width)
        s.resize(width, ' ');
    return s;
}

std::size_t displayWidth(std::string_view s)
{
    std::size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

namespace {

/// Whether `word` (its trailing punctuation aside) is a unit a number may stand before.
bool isUnitWord(std::string_view word)
{
    while (!word.empty() && std::string_view(",;:.)").find(word.back()) != std::string_view::npos)
        word.remove_suffix(1);
    static const std::set<std::string_view> units = {
        "s",      "ms", "us", "µs",  "min", "h",   "d",   "B",   "bytes", "KB",
        "MB",     "GB", "TB", "PB",  "KiB", "MiB", "GiB", "TiB", "bit/s", "Gbit/s",
        "Tbit/s", "W",  "kW", "kWh", "MWh", "USD", "EUR", "%",   "GPU",   "GPUs"};
    return units.count(word) > 0;
}

} // namespace

std::string wrapText(std::string_view text, std::size_t width, std::size_t indent,
                     std::size_t firstColumn)
{
    std::string out;
    std::size_t column = firstColumn;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t newline = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, newline - at);
        // A line's own leading spaces (an indented example, a list item) are kept; an item
        // laid out in two columns ("  name    what it is") continues under its second column.
        std::size_t lead = 0;
        while (lead < line.size() && line[lead] == ' ')
            ++lead;
        out.append(lead, ' ');
        const std::size_t lineStart = column;
        column += lead;
        std::size_t hanging = indent + lead;
        if (lead > 0)
            if (const std::size_t gap = line.find("  ", lead); gap != std::string_view::npos) {
                std::size_t second = gap;
                while (second < line.size() && line[second] == ' ')
                    ++second;
                if (second < line.size() && lineStart + second <= width / 2 + indent)
                    hanging = indent + second;
            }
        bool lineHasWord = false;
        std::size_t w = lead;
        while (w < line.size()) {
            std::size_t spaces = 0;
            while (w + spaces < line.size() && line[w + spaces] == ' ')
                ++spaces;
            w += spaces;
            if (w >= line.size())
                break;
            std::size_t end = line.find(' ', w);
            if (end == std::string_view::npos)
                end = line.size();
            // A number and its unit after one space stay on one line ("5592.1 s", not "5592.1"
            // ending a line and "s" starting the next).
            if (end < line.size() && end > w &&
                std::isdigit(static_cast<unsigned char>(line[end - 1])) && end + 1 < line.size() &&
                line[end + 1] != ' ') {
                std::size_t unitEnd = line.find(' ', end + 1);
                if (unitEnd == std::string_view::npos)
                    unitEnd = line.size();
                const std::string_view unit = line.substr(end + 1, unitEnd - end - 1);
                if (isUnitWord(unit))
                    end = unitEnd;
                // A count of things stays whole too ("16 x V100", "4096 × V100").
                else if ((unit == "x" || unit == "×") && unitEnd + 1 < line.size() &&
                         line[unitEnd] == ' ' && line[unitEnd + 1] != ' ')
                    end = std::min(line.find(' ', unitEnd + 1), line.size());
            }
            const std::string_view word = line.substr(w, end - w);
            const std::size_t wordWidth = displayWidth(word);
            if (lineHasWord && column + spaces + wordWidth > width) {
                out += '\n';
                out.append(hanging, ' ');
                column = hanging;
                lineHasWord = false;
            }
            if (lineHasWord) {
                out.append(spaces, ' '); // the text's own spacing, kept within a line
                column += spaces;
            }
            out += word;
            column += wordWidth;
            lineHasWord = true;
            w = end;
        }
        if (newline >= text.size())
            break;
        out += '\n';
        out.append(indent, ' ');
        column = indent;
        at = newline + 1;
    }
    // A blank line gets no indent.
    std::string trimmed;
    trimmed.reserve(out.size());
    for (char c : out) {
        if (c == '\n')
            while (!trimmed.empty() && trimmed.back() == ' ')
                trimmed.pop_back();
        trimmed += c;
    }
    return trimmed;
}

std::string withoutSpaces(std::string s)
{
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
}

double roundTo(double v, double perUnit)
{
    return std::round(v * perUnit) / perUnit;
}

std::uint64_t fnv1a(std::string_view s)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::vector<std::string> commaList(std::string_view text, bool keepEmpty)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view item = text.substr(start, end - start);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t'))
            item.remove_suffix(1);
        if (!item.empty() || keepEmpty)
            out.emplace_back(item);
        start = end + 1;
    }
    return out;
}

std::string nearestName(std::string_view word, const std::vector<std::string> &names)
{
    // Levenshtein distance, one row at a time.
    auto distance = [](std::string_view a, std::string_view b) {
        std::vector<std::size_t> row(b.size() + 1);
        for (std::size_t j = 0; j <= b.size(); ++j)
            row[j] = j;
        for (std::size_t i = 1; i <= a.size(); ++i) {
            std::size_t diagonal = row[0];
            row[0] = i;
            for (std::size_t j = 1; j <= b.size(); ++j) {
                const std::size_t above = row[j];
                row[j] = std::min(
                    {row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
                diagonal = above;
            }
        }
        return row[b.size()];
    };
    std::string best;
    std::size_t bestDistance = 3;
    for (const std::string &name : names)
        if (const std::size_t d = distance(word, name); d < bestDistance) {
            best = name;
            bestDistance = d;
        }
    return best;
}

} // namespace cb
