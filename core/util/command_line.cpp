#include "util/command_line.h"

#include <array>
#include <cstring>

namespace cb {

namespace {

constexpr const char *kShell = "/bin/sh";

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

bool isNameChar(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

/// A line read as a POSIX shell reads words: the words, whether anything outside quotes
/// (or a $ or ` inside double quotes) is syntax only a shell gives a meaning to, and what
/// makes it unreadable (a quote left open, a trailing backslash).
struct Scan
{
    std::vector<std::string> words;
    bool shell = false;
    std::string error;
};

/// `offset`: where `line` starts in what the user typed (for the positions said).
Scan scan(std::string_view line, std::size_t offset = 0)
{
    Scan s;
    std::string word;
    bool inWord = false;
    bool quoted = false; // (the current word has a quoted part: not an assignment)
    auto endWord = [&] {
        if (inWord)
            s.words.push_back(word);
        word.clear();
        inWord = quoted = false;
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (isBlank(c)) {
            endWord();
            continue;
        }
        if (c == '\'') {
            const std::size_t end = line.find('\'', i + 1);
            if (end == std::string_view::npos) {
                s.error = "the ' quote at character " + std::to_string(offset + i + 1) + " is not closed";
                return s;
            }
            word.append(line.substr(i + 1, end - i - 1));
            i = end;
            inWord = quoted = true;
            continue;
        }
        if (c == '"') {
            std::size_t j = i + 1;
            for (; j < line.size() && line[j] != '"'; ++j) {
                const char d = line[j];
                if (d == '\\' && j + 1 < line.size() && line[j + 1] != '\0' &&
                    std::strchr("$`\"\\\n", line[j + 1])) {
                    word += line[++j];
                    continue;
                }
                if (d == '$' || d == '`')
                    s.shell = true; // expanded inside double quotes too
                word += d;
            }
            if (j == line.size()) {
                s.error = "the \" quote at character " + std::to_string(offset + i + 1) + " is not closed";
                return s;
            }
            i = j;
            inWord = quoted = true;
            continue;
        }
        if (c == '\\') {
            if (i + 1 == line.size()) {
                s.error = "the line ends with a backslash";
                return s;
            }
            word += line[++i];
            inWord = quoted = true;
            continue;
        }
        // Operators, redirections, expansions, globs, a new command on a new line; a comment
        // or a home directory at the start of a word; an assignment before the command.
        if ((c != '\0' && std::strchr("|&;<>()$`*?[\n\r", c)) ||
            (!inWord && (c == '#' || c == '~')))
            s.shell = true;
        if (c == '=' && s.words.empty() && !quoted && !word.empty() &&
            isNameChar(word[0], true)) {
            bool name = true;
            for (char w : word)
                name = name && isNameChar(w, false);
            s.shell = s.shell || name;
        }
        word += c;
        inWord = true;
    }
    endWord();
    return s;
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (isBlank(text.front()) || text.front() == '\n' ||
                             text.front() == '\r'))
        text.remove_prefix(1);
    while (!text.empty() && (isBlank(text.back()) || text.back() == '\n' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

/// `text` as one word a shell reads back unchanged: as it is when every character is plain,
/// else in single quotes (each ' written as '\'').
std::string quotedWord(const std::string &text, bool first)
{
    bool plain = !text.empty();
    for (char c : text)
        plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || (c != '\0' && std::strchr("_./:@%+,-", c)) ||
                          (c == '=' && !first));
    if (plain)
        return text;
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

} // namespace

bool needsShell(std::string_view line)
{
    return scan(line).shell;
}

Result<std::vector<std::string>> commandFromLine(std::string_view line)
{
    const std::string_view typed = line;
    line = trimmed(line);
    Scan s = scan(line, std::size_t(line.data() - typed.data()));
    if (!s.error.empty())
        return Result<std::vector<std::string>>::failure("command", s.error);
    if (s.shell)
        return std::vector<std::string>{kShell, "-c", std::string(line)};
    return std::move(s.words);
}

std::string lineFromCommand(const std::vector<std::string> &argv)
{
    if (argv.size() == 3 && argv[0] == kShell && argv[1] == "-c" &&
        trimmed(argv[2]) == argv[2]) {
        const Scan s = scan(argv[2]);
        if (s.shell && s.error.empty())
            return argv[2];
    }
    std::string out;
    for (std::size_t k = 0; k < argv.size(); ++k)
        out += (k == 0 ? "" : " ") + quotedWord(argv[k], k == 0);
    return out;
}

std::string programName(const std::vector<std::string> &argv)
{
    if (argv.empty())
        return {};
    return argv.front().substr(argv.front().find_last_of('/') + 1);
}

std::string shellOperatorArgument(const std::vector<std::string> &argv)
{
    const std::string name = programName(argv);
    if (name.empty())
        return {};
    for (const char *shell : {"sh", "bash", "dash", "zsh", "ksh", "ash"})
        if (name == shell)
            return {}; // (its arguments are its own)
    static constexpr std::array<const char *, 16> kOperators = {
        "&&", "||", "|", ";", "&", ">", ">>", "<", "<<", "2>", "2>>", "2>&1", "1>&2", ">&2",
        "&>", "|&"};
    for (std::size_t k = 1; k < argv.size(); ++k)
        for (const char *op : kOperators)
            if (argv[k] == op)
                return argv[k];
    return {};
}

} // namespace cb
