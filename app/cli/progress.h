#pragma once
// A progress bar on stderr for long terminal commands: drawn only when stderr is a terminal
// (Io::errIsTerminal), silent otherwise, so pipes, files and tests see nothing.
//   label [##########----------]  12/40  30%

#include "cli/command.h"

#include <string>

namespace cb::cli {

class ProgressBar
{
public:
    ProgressBar(Io &io, std::string label) : m_io(io), m_label(std::move(label)) {}
    ~ProgressBar() { finish(); }
    ProgressBar(const ProgressBar &) = delete;
    ProgressBar &operator=(const ProgressBar &) = delete;

    /// Redraws when the shown figures change.
    void update(long long done, long long total);
    /// The same with a fraction of the work (0 to 1) and what is being done now:
    ///   label [##########----------]  50% checking
    void updateFraction(double fraction, const std::string &phase);
    /// Erases the bar (once; also on destruction): what follows says how it ended.
    void finish();

    /// The bar's text for done of total (no carriage return), `width` columns of bar.
    static std::string text(const std::string &label, long long done, long long total,
                            int width = 30);
    static std::string fractionText(const std::string &label, double fraction,
                                    const std::string &phase, int width = 30);

private:
    void draw(const std::string &text);

    Io &m_io;
    std::string m_label;
    std::string m_last;
    bool m_drawn = false;
};

} // namespace cb::cli
