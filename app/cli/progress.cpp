#include "cli/progress.h"
#include "util/terminal_text.h"

#include <algorithm>
#include <ostream>

namespace cb::cli {

std::string ProgressBar::text(const std::string &label, long long done, long long total,
                              int width)
{
    total = std::max(total, 1LL);
    done = std::clamp(done, 0LL, total);
    const int filled = int(done * width / total);
    return label + " [" + std::string(std::size_t(filled), '#') +
           std::string(std::size_t(width - filled), '-') + "] " + std::to_string(done) + "/" +
           std::to_string(total) + " " + std::to_string(done * 100 / total) + "%";
}

void ProgressBar::update(long long done, long long total)
{
    if (!m_io.errIsTerminal)
        return;
    const std::string t = text(m_label, done, total);
    if (t == m_last)
        return;
    // \r and erase-to-end-of-line: a shorter line leaves nothing behind.
    m_io.err << std::flush;
    m_io.terminalErr() << "\r" << terminalText(t) << "\x1b[K" << std::flush;
    m_last = t;
    m_drawn = true;
}

void ProgressBar::finish()
{
    if (m_drawn)
        m_io.terminalErr() << "\n" << std::flush;
    m_drawn = false;
}

} // namespace cb::cli
