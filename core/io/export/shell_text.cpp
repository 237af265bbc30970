#include "io/export/shell_text.h"

namespace cb {

std::string ShellText::quote(const std::string &text)
{
    std::string out = "'";
    for (char c : text) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    out += "'";
    return out;
}

std::string ShellText::quoteAll(const std::vector<std::string> &args)
{
    std::string out;
    for (const std::string &a : args)
        out += (out.empty() ? "" : " ") + quote(a);
    return out;
}

std::string ShellText::comment(const std::string &text)
{
    std::string out;
    for (char c : text)
        out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    return out;
}

} // namespace cb
