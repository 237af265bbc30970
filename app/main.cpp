// clusterbench: the workbench window, or a terminal subcommand when the first argument names
// one. Only wiring lives here.

#include "cli/command.h"
#include "io/file_io.h"
#include "util/terminal_text.h"

#ifdef CB_HAVE_GUI
#include "workbench.h"
#endif

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv)
{
    // Past a file size limit (ulimit -f) a write fails with EFBIG, which every writer reports
    // and rolls back, instead of SIGXFSZ killing the process mid-write with staging files left.
    std::signal(SIGXFSZ, SIG_IGN);
    // Ctrl-C (or a kill) while a file is written removes its hidden temporary file.
    cb::removeTemporaryFilesOnSignals();
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--help" || first == "-h" || first == "help") {
        // `help place` is `place --help`
        if (first == "help" && argc > 2 && cb::cli::findCommand(argv[2])) {
            cb::cli::Io io{std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1};
            return cb::cli::runCommand({argv[2], "--help"}, io);
        }
        std::cout << cb::cli::mainHelp();
        return 0;
    }
    if (first == "--version") {
        std::cout << "clusterbench " << CB_VERSION << "\n";
        return 0;
    }
    // A bare word that names no file is a command, perhaps mistyped: say so rather than open
    // the window on a scenario called "sweeep".
    std::error_code ignored;
    const bool bareWord = !first.empty() && first[0] != '-' &&
                          first.find_first_of("./") == std::string::npos &&
                          !std::filesystem::exists(first, ignored);
    if (cb::cli::findCommand(first) || bareWord) {
        cb::cli::Io io{std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1};
        return cb::cli::runCommand(std::vector<std::string>(argv + 1, argv + argc), io);
    }
    if (!first.empty() && first[0] == '-' && first.rfind("-platform", 0) != 0 &&
        first.rfind("--platform", 0) != 0) {
        std::cerr << "clusterbench: unknown option " << cb::terminalText(first) << "\n\n"
                  << cb::cli::mainHelp();
        return 2;
    }
#ifdef CB_HAVE_GUI
#ifdef __linux__
    // Without a display Qt would abort with a platform-plugin error; explain instead.
    auto isSet = [](const char *name) {
        const char *v = std::getenv(name);
        return v && *v;
    };
    bool platformGiven = false;
    for (int i = 1; i < argc; ++i)
        platformGiven = platformGiven || std::strncmp(argv[i], "-platform", 9) == 0 ||
                        std::strncmp(argv[i], "--platform", 10) == 0;
    if (!platformGiven && !isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY") &&
        !isSet("QT_QPA_PLATFORM")) {
        std::cerr << "clusterbench: no display for the window (neither DISPLAY nor "
                     "WAYLAND_DISPLAY is set).\nRun a terminal command ('clusterbench --help' "
                     "lists them), or the window with -platform offscreen.\n";
        return 2;
    }
#endif
    return cb::views::runWorkbench(argc, argv);
#else
    std::cerr << "clusterbench was built without the GUI; use a terminal command.\n\n"
              << cb::cli::mainHelp();
    return 2;
#endif
}
