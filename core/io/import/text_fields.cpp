#include "io/import/text_fields.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
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

namespace {

// Offset in seconds of a zone written after a date-time, or nullopt when `z` is not one.
std::optional<int> zoneOffset(std::string_view z)
{
    if (z.empty())
        return 0;
    if (z == "Z" || z == "z" || z == "UTC" || z == "GMT")
        return 0;
    struct Named
    {
        const char *name;
        int hours;
    };
    static constexpr Named kZones[] = {{"PST", -8}, {"PDT", -7}, {"MST", -7}, {"MDT", -6},
                                       {"CST", -6}, {"CDT", -5}, {"EST", -5}, {"EDT", -4}};
    for (const Named &n : kZones)
        if (z == n.name)
            return n.hours * 3600;
    // +HH:MM, +HHMM, +HH
    if (z[0] != '+' && z[0] != '-')
        return std::nullopt;
    const int sign = z[0] == '-' ? -1 : 1;
    std::string digits;
    for (char c : z.substr(1))
        if (c != ':')
            digits += c;
    if (digits.size() != 2 && digits.size() != 4)
        return std::nullopt;
    for (char c : digits)
        if (c < '0' || c > '9')
            return std::nullopt;
    const int h = std::stoi(digits.substr(0, 2));
    const int m = digits.size() == 4 ? std::stoi(digits.substr(2, 2)) : 0;
    if (h > 23 || m > 59)
        return std::nullopt;
    return sign * (h * 3600 + m * 60);
}

struct DateTimeParts
{
    double seconds = 0;
    bool zone = false;
};

std::optional<DateTimeParts> parseDateTimeParts(std::string_view in)
{
    const std::string s = trim(in);
    // YYYY-MM-DD (or YYYY/MM/DD), then optionally [ T]HH:MM[:SS[.fff]], then a zone.
    if (s.size() < 10 || s[4] != s[7] || (s[4] != '-' && s[4] != '/'))
        return std::nullopt;
    auto y = parseInteger(s.substr(0, 4));
    auto mo = parseInteger(s.substr(5, 2));
    auto d = parseInteger(s.substr(8, 2));
    if (!y || !mo || !d || *y < 1 || *mo < 1 || *mo > 12 || *d < 1 || *d > 31)
        return std::nullopt;
    long long h = 0, mi = 0;
    double sec = 0;
    std::size_t i = 10;
    if (i < s.size() && (s[i] == ' ' || s[i] == 'T') && i + 5 < s.size() + 0 && s.size() >= i + 6 &&
        s[i + 3] == ':') {
        auto hh = parseInteger(s.substr(i + 1, 2));
        auto mm = parseInteger(s.substr(i + 4, 2));
        if (!hh || !mm || *hh < 0 || *hh > 23 || *mm < 0 || *mm > 59)
            return std::nullopt;
        h = *hh;
        mi = *mm;
        i += 6;
        if (i < s.size() && s[i] == ':') {
            std::size_t j = i + 1;
            while (j < s.size() && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.'))
                ++j;
            auto ss = parseNumber(s.substr(i + 1, j - i - 1));
            if (!ss || *ss < 0 || *ss >= 61 || j - i - 1 < 2)
                return std::nullopt;
            sec = *ss;
            i = j;
        }
    }
    std::string_view rest = std::string_view(s).substr(i);
    while (!rest.empty() && rest.front() == ' ')
        rest.remove_prefix(1);
    auto offset = zoneOffset(rest);
    if (!offset)
        return std::nullopt;
    const long long days = daysFromCivil(*y, unsigned(*mo), unsigned(*d));
    return DateTimeParts{double(days) * 86400.0 + double(h * 3600 + mi * 60) + sec - *offset,
                         !rest.empty()};
}

} // namespace

std::optional<double> parseDateTime(std::string_view in)
{
    auto p = parseDateTimeParts(in);
    if (!p)
        return std::nullopt;
    return p->seconds;
}

bool dateTimeHasZone(std::string_view s)
{
    auto p = parseDateTimeParts(s);
    return p && p->zone;
}

std::string formatDateTime(double epochSeconds)
{
    // Howard Hinnant's civil_from_days.
    const long long total = static_cast<long long>(std::floor(epochSeconds));
    long long z = (total >= 0 ? total : total - 86399) / 86400;
    const long long secs = total - z * 86400;
    z += 719468;
    const long long era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = unsigned(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const long long y = (long long)yoe + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u %02lld:%02lld:%02lld", y + (m <= 2), m, d,
                  secs / 3600, secs / 60 % 60, secs % 60);
    return buf;
}

std::string toUtf8Advice(std::string_view start)
{
    const auto startsWith = [start](std::string_view bom) {
        return start.substr(0, bom.size()) == bom;
    };
    std::string encoding, why;
    if (startsWith(std::string_view("\xFF\xFE\0\0", 4)) ||
        startsWith(std::string_view("\0\0\xFE\xFF", 4))) {
        encoding = "utf-32";
        why = "a UTF-32 byte-order mark";
    } else if (startsWith("\xFF\xFE") || startsWith("\xFE\xFF")) {
        encoding = "utf-16";
        why = "a UTF-16 byte-order mark";
    } else {
        // UTF-16 without a mark: ASCII text with a NUL beside every character.
        const std::size_t n = std::min<std::size_t>(start.size(), 64) & ~std::size_t(1);
        std::size_t even = 0, odd = 0;
        for (std::size_t i = 0; i < n; ++i)
            (i % 2 ? odd : even) += start[i] == '\0' ? 1 : 0;
        if (n >= 8 && (odd == n / 2 || even == n / 2)) {
            encoding = odd == n / 2 ? "utf-16le" : "utf-16be";
            why = "a NUL byte beside every character";
        }
    }
    if (encoding.empty())
        return "convert the file to UTF-8, e.g. iconv -f latin1 -t utf-8";
    return "convert the file to UTF-8: it is " +
           std::string(encoding.rfind("utf-32", 0) == 0 ? "UTF-32" : "UTF-16") + " (" + why +
           "), e.g. iconv -f " + encoding + " -t utf-8";
}

std::optional<std::size_t> nonTextAt(std::string_view s)
{
    std::optional<std::size_t> at = invalidUtf8At(s);
    if (const auto nul = s.find('\0'); nul != std::string_view::npos && (!at || nul < *at))
        at = nul;
    return at;
}

std::optional<std::size_t> invalidUtf8At(std::string_view s)
{
    const auto *b = reinterpret_cast<const unsigned char *>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char c = b[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len = 0;
        unsigned cp = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + len > n)
            return i;
        for (std::size_t k = 1; k < len; ++k) {
            if ((b[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (b[i + k] & 0x3F);
        }
        // Overlong forms, surrogates and code points beyond U+10FFFF are not UTF-8.
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += len;
    }
    return std::nullopt;
}

std::string shown(std::string_view s)
{
    std::string out = "\"";
    std::size_t chars = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        if (++chars > 60) {
            out += "...";
            break;
        }
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            // Copy a valid UTF-8 sequence whole; escape a stray byte.
            const auto bad = invalidUtf8At(s.substr(i, std::min<std::size_t>(4, s.size() - i)));
            std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            if (bad && *bad == 0) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02X", c);
                out += buf;
                ++i;
                continue;
            }
            out.append(s.substr(i, len));
            i += len;
            continue;
        }
        if (c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        } else if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else {
            out += char(c);
        }
        ++i;
    }
    return out + "\"";
}

} // namespace cb::importtext
