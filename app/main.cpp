// clusterbench: the workbench window, or a terminal subcommand when the first argument names
// one. Only wiring lives here.

#include "cli/command.h"

#ifdef CB_HAVE_GUI
#include "workbench.h"
#endif

#include <cstring>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv)
{
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--help" || first == "-h" || first == "help") {
        std::cout << cb::cli::mainHelp();
        return 0;
    }
    if (first == "--version") {
        std::cout << "clusterbench " << CB_VERSION << "\n";
        return 0;
    }
    if (cb::cli::findCommand(first)) {
        cb::cli::Io io{std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1};
        return cb::cli::runCommand(std::vector<std::string>(argv + 1, argv + argc), io);
    }
    if (!first.empty() && first[0] == '-' && first.rfind("-platform", 0) != 0 &&
        first.rfind("--platform", 0) != 0) {
        std::cerr << "clusterbench: unknown option " << first << "\n\n" << cb::cli::mainHelp();
        return 2;
    }
#ifdef CB_HAVE_GUI
    return cb::views::runWorkbench(argc, argv);
#else
    std::cerr << "clusterbench was built without the GUI; use a terminal command.\n\n"
              << cb::cli::mainHelp();
    return 2;
#endif
}
