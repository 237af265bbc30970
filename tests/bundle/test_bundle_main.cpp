// The main() of a test bundle (see test_bundle.h): `cb_core_tests TEST [Qt Test options]`.
#include "test_bundle.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace cbtest {
namespace {

std::map<std::string, TestMain> &registry()
{
    static std::map<std::string, TestMain> tests;
    return tests;
}

} // namespace

bool registerTest(const char *sourceFile, TestMain main)
{
    std::string name = sourceFile;
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos)
        name.erase(dot);
    if (!registry().emplace(name, main).second) {
        std::fprintf(stderr, "test bundle: two tests named %s\n", name.c_str());
        std::abort();
    }
    return true;
}

} // namespace cbtest

int main(int argc, char *argv[])
{
    const auto &tests = cbtest::registry();
    const auto test = argc > 1 ? tests.find(argv[1]) : tests.end();
    if (test == tests.end()) {
        std::fprintf(stderr, "usage: %s TEST [Qt Test options]\n", argv[0]);
        if (argc > 1)
            std::fprintf(stderr, "%s: no such test in this program\n", argv[1]);
        std::fprintf(stderr, "tests:");
        for (const auto &entry : tests)
            std::fprintf(stderr, " %s", entry.first.c_str());
        std::fprintf(stderr, "\n");
        return 2;
    }
    // Terminal output is laid out for $COLUMNS (cli/output_columns.h): the tests read it at
    // the width a pipe gets, whatever the shell that runs them exports.
    setenv("COLUMNS", "80", 1);
    // The test sees the command line it had as a program of its own, and its own
    // application name (QSettings and the test-mode QStandardPaths are keyed by it).
    QCoreApplication::setApplicationName(QString::fromStdString(test->first));
    argv[1] = argv[0];
    return test->second(argc - 1, argv + 1);
}
