#include "io/import/text_fields.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace cb::importtext {

std::string trim(std::string_view s)
{
    const char *ws = " \t\r\n";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string_view::npos)
        return {};
    const auto e = s.find_last_not_of(ws);
    return std::string(s.substr(b, e - b + 1));
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return out;
}

std::vector<std::string> splitWhitespace(std::string_view s)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
            ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' && s[j] != '\n')
            ++j;
        if (j > i)
            out.emplace_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

std::vector<std::string> split(std::string_view s, char sep)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            out.emplace_back(s.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

std::optional<double> parseNumber(std::string_view s)
{
    const std::string t = trim(s);
    if (t.empty())
        return std::nullopt;
    const char *b = t.data();
    if (*b == '+')
        ++b;
    double v = 0;
    const auto [end, ec] = std::from_chars(b, t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<long long> parseInteger(std::string_view s)
{
    const std::string t = trim(s);
    if (t.empty())
        return std::nullopt;
    const char *b = t.data();
    if (*b == '+')
        ++b;
    long long v = 0;
    const auto [end, ec] = std::from_chars(b, t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size())
        return std::nullopt;
    return v;
}

std::string formatNumber(double v)
{
    std::ostringstream s;
    s.precision(15);
    s << v;
    return s.str();
}

bool stripBom(std::string &text)
{
    if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) {
        text.erase(0, 3);
        return true;
    }
    return false;
}

} // namespace cb::importtext

namespace cb::importtext {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's civil algorithm).
long long daysFromCivil(long long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long long>(doe) - 719468;
}

} // namespace

std::optional<double> parseDateTime(std::string_view in)
{
    const std::string s = trim(in);
    // YYYY-MM-DD[ T]HH:MM:SS[.fff]
    if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') ||
        s[13] != ':' || s[16] != ':')
        return std::nullopt;
    auto y = parseInteger(s.substr(0, 4));
    auto mo = parseInteger(s.substr(5, 2));
    auto d = parseInteger(s.substr(8, 2));
    auto h = parseInteger(s.substr(11, 2));
    auto mi = parseInteger(s.substr(14, 2));
    auto sec = parseNumber(s.substr(17));
    if (!y || !mo || !d || !h || !mi || !sec || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 ||
        *h > 23 || *mi > 59 || *sec < 0 || *sec >= 61)
        return std::nullopt;
    const long long days = daysFromCivil(*y, unsigned(*mo), unsigned(*d));
    return double(days) * 86400.0 + double(*h * 3600 + *mi * 60) + *sec;
}

} // namespace cb::importtext
