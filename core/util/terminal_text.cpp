#include "util/terminal_text.h"

#include <cstdio>

namespace cb {

namespace {

/// Length of the UTF-8 sequence a lead byte starts (0: not a lead byte).
std::size_t sequenceLength(unsigned char c)
{
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return 2;
    if (c >= 0xe0 && c <= 0xef)
        return 3;
    if (c >= 0xf0 && c <= 0xf4)
        return 4;
    return 0;
}

/// The code point of a complete sequence, or -1 when it is not well-formed UTF-8
/// (overlong, a surrogate, beyond U+10FFFF, a bad continuation byte).
long decode(std::string_view s)
{
    const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    if (s.empty() || sequenceLength(b(0)) != s.size())
        return -1;
    for (std::size_t i = 1; i < s.size(); ++i)
        if ((b(i) & 0xc0) != 0x80)
            return -1;
    long cp = 0;
    switch (s.size()) {
    case 1:
        return b(0);
    case 2:
        return long(b(0) & 0x1f) << 6 | (b(1) & 0x3f);
    case 3:
        cp = long(b(0) & 0x0f) << 12 | long(b(1) & 0x3f) << 6 | (b(2) & 0x3f);
        return cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff) ? -1 : cp;
    case 4:
        cp = long(b(0) & 0x07) << 18 | long(b(1) & 0x3f) << 12 | long(b(2) & 0x3f) << 6 |
             (b(3) & 0x3f);
        return cp < 0x10000 || cp > 0x10ffff ? -1 : cp;
    default:
        return -1;
    }
}

bool isEscapedCodePoint(long cp)
{
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 ||
           cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

void hexEscape(const char *format, unsigned value, std::string &out)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, format, value);
    out += buf;
}

} // namespace

void TerminalEscaper::escapeUnit(std::string_view unit, std::string &out) const
{
    const long cp = decode(unit);
    if (cp < 0) {
        for (unsigned char c : unit)
            hexEscape("\\x%02x", c, out);
        return;
    }
    if (!isEscapedCodePoint(cp)) {
        out += unit;
        return;
    }
    switch (cp) {
    case '\n':
        out += m_keepNewlines ? "\n" : "\\n";
        return;
    case '\t':
        out += "\\t";
        return;
    case '\r':
        out += "\\r";
        return;
    default:
        hexEscape("\\u%04x", unsigned(cp), out);
    }
}

std::string TerminalEscaper::feed(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    std::size_t i = 0;
    // Complete a sequence held back from the last piece first.
    while (!m_pending.empty() && i < bytes.size()) {
        const std::size_t need = sequenceLength(static_cast<unsigned char>(m_pending[0]));
        const unsigned char c = static_cast<unsigned char>(bytes[i]);
        if ((c & 0xc0) != 0x80) { // the sequence ends early: its bytes are not UTF-8
            escapeUnit(m_pending, out);
            m_pending.clear();
            break;
        }
        m_pending += char(c);
        ++i;
        if (m_pending.size() == need) {
            escapeUnit(m_pending, out);
            m_pending.clear();
        }
    }
    while (i < bytes.size()) {
        const unsigned char c = static_cast<unsigned char>(bytes[i]);
        if (c < 0x80) {
            // Plain ASCII runs are the common case: copy them through in one go.
            std::size_t j = i;
            while (j < bytes.size() && static_cast<unsigned char>(bytes[j]) >= 0x20 &&
                   static_cast<unsigned char>(bytes[j]) < 0x7f)
                ++j;
            if (j > i) {
                out.append(bytes.substr(i, j - i));
                i = j;
                continue;
            }
            escapeUnit(bytes.substr(i, 1), out);
            ++i;
            continue;
        }
        const std::size_t n = sequenceLength(c);
        if (n == 0) {
            escapeUnit(bytes.substr(i, 1), out);
            ++i;
            continue;
        }
        // The sequence's bytes that are here: all continuation bytes up to its length.
        std::size_t have = 1;
        while (have < n && i + have < bytes.size() &&
               (static_cast<unsigned char>(bytes[i + have]) & 0xc0) == 0x80)
            ++have;
        if (have < n && i + have == bytes.size()) {
            m_pending.assign(bytes.substr(i));
            break;
        }
        escapeUnit(bytes.substr(i, have), out);
        i += have;
    }
    return out;
}

std::string TerminalEscaper::finish()
{
    std::string out;
    if (!m_pending.empty())
        escapeUnit(m_pending, out);
    m_pending.clear();
    return out;
}

std::string terminalText(std::string_view text)
{
    TerminalEscaper e(false);
    std::string out = e.feed(text);
    out += e.finish();
    return out;
}

} // namespace cb
