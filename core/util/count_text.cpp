#include "util/count_text.h"

#include "util/text.h"

#include <cmath>

namespace cb {

std::string groupedCount(long long v)
{
    const std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return v < 0 ? "-" + out : out;
}

std::string groupedNumber(double v)
{
    return v == std::round(v) && std::abs(v) < 1e15 ? groupedCount(std::llround(v)) : numberText(v);
}

std::string groupedFixed(double v, int digits)
{
    const std::string text = formatFixed(v, digits);
    // The digits of the whole part: after a sign, up to the point (or the end); anything
    // else formatFixed may write (inf, nan) stays as it is.
    const std::size_t first = text.find_first_of("0123456789");
    if (first == std::string::npos)
        return text;
    std::size_t end = text.find('.', first);
    if (end == std::string::npos)
        end = text.size();
    std::string out = text.substr(0, first);
    for (std::size_t i = first; i < end; ++i) {
        if (i > first && (end - i) % 3 == 0)
            out += ',';
        out += text[i];
    }
    return out + text.substr(end);
}

std::string memoryText(double gib)
{
    static const char *const units[] = {"GiB", "MiB", "KiB"};
    double v = gib;
    for (const char *unit : units) {
        // Rounded as it will be printed, so 0.99999 GiB reads "1 GiB", not "1,024.0 MiB".
        if (v == 0 || std::abs(std::round(v * 10)) >= 10 || !std::isfinite(v)) {
            std::string text = groupedFixed(v, 1);
            if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0)
                text.resize(text.size() - 2);
            return text + " " + unit;
        }
        v *= 1024;
    }
    return groupedFixed(v, 0) + (std::round(v) == 1 ? " byte" : " bytes");
}

} // namespace cb
