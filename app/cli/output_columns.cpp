#include "cli/output_columns.h"

#include "util/text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace cb::cli {

std::size_t outputColumns()
{
    constexpr std::size_t kLeast = 40;
    if (const char *env = std::getenv("COLUMNS")) {
        char *end = nullptr;
        const long n = std::strtol(env, &end, 10);
        if (end != env && *end == '\0' && n > 0)
            return std::max<std::size_t>(kLeast, std::size_t(n));
    }
    winsize ws{};
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return std::max<std::size_t>(kLeast, ws.ws_col);
    return 80;
}

std::string wrappedLines(const std::string &text)
{
    std::istringstream lines(text);
    std::string out;
    for (std::string line; std::getline(lines, line);)
        out += wrapText(line, outputColumns(), 2) + "\n";
    return out;
}

std::string forStderr(const std::string &text, bool errIsTerminal)
{
    if (errIsTerminal)
        return wrappedLines(text);
    return text.ends_with('\n') ? text : text + "\n";
}

} // namespace cb::cli
