#pragma once
// Entry point of the desktop workbench, called by app/main.cpp when no subcommand is given.

namespace cb::views {

/// Creates the application and the main window, opens the file named by the first
/// non-option argument (or shows the start page) and runs the event loop.
int runWorkbench(int argc, char **argv);

} // namespace cb::views
