#pragma once
// Text that reaches a shell script: values quoted so that no character is special, and
// comments that cannot end early.

#include <string>
#include <vector>

namespace cb {

class ShellText
{
public:
    /// 'text' with every ' written as '\'' : bash reads it back as exactly `text`, with no
    /// expansion of $, `, \, ;, newlines or anything else.
    static std::string quote(const std::string &text);
    /// A word for a command line shown to the user (a hint to copy and paste): `text` as it
    /// is when every character is one a shell never treats specially (letters, digits and
    /// _ . / : = @ % + , -, not starting with -... none of ~ * ? [ $ ; & | etc.), else quote().
    static std::string word(const std::string &text);
    /// Each argument quoted, separated by spaces.
    static std::string quoteAll(const std::vector<std::string> &args);
    /// Text safe inside a "# ..." comment line: control characters (newline, CR, tab, ...)
    /// become '?', so user data can never start a new line.
    static std::string comment(const std::string &text);
};

} // namespace cb
