#include "cli/progress.h"
#include "util/terminal_text.h"

#include <algorithm>
#include <ostream>

namespace cb::cli {

std::string ProgressBar::text(const std::string &label, long long done, long long total, int width)
{
    total = std::max(total, 1LL);
    done = std::clamp(done, 0LL, total);
    const int filled = int(done * width / total);
    return label + " [" + std::string(std::size_t(filled), '#') +
           std::string(std::size_t(width - filled), '-') + "] " + std::to_string(done) + "/" +
           std::to_string(total) + " " + std::to_string(done * 100 / total) + "%";
}

std::string ProgressBar::fractionText(const std::string &label, double fraction,
                                      const std::string &phase, int width)
{
    fraction = std::clamp(fraction, 0.0, 1.0);
    const int filled = int(fraction * width);
    const int percent = int(fraction * 100);
    return label + " [" + std::string(std::size_t(filled), '#') +
           std::string(std::size_t(width - filled), '-') + "] " +
           (percent < 10    ? "  "
            : percent < 100 ? " "
                            : "") +
           std::to_string(percent) + "% " + phase;
}

void ProgressBar::updateFraction(double fraction, const std::string &phase)
{
    if (!m_io.errIsTerminal)
        return;
    draw(fractionText(m_label, fraction, phase));
}

void ProgressBar::update(long long done, long long total)
{
    if (!m_io.errIsTerminal)
        return;
    draw(text(m_label, done, total));
}

void ProgressBar::draw(const std::string &t)
{
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
    // The bar is erased: what follows (the summary) says how it ended.
    if (m_drawn)
        m_io.terminalErr() << "\r\x1b[K" << std::flush;
    m_drawn = false;
}

} // namespace cb::cli
