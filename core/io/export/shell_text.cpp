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

std::string ShellText::word(const std::string &text)
{
    bool plain = !text.empty();
    for (char c : text)
        plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '/' ||
                          c == ':' || c == '=' || c == '@' || c == '%' || c == '+' ||
                          c == ',' || c == '-');
    // A leading '=' (zsh) or '-' (an option) would not be read as a plain word.
    plain = plain && text[0] != '=' && text[0] != '-';
    return plain ? text : quote(text);
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
