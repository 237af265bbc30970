// Every Qt Test program of one kind (tests/core, tests/views) is linked into one executable,
// its sources compiled in batches (tests/CMakeLists.txt): the template-heavy headers (Qt
// Test, nlohmann/json, the core) are instantiated once per batch instead of once per test,
// and the kind links once. This header is included first in every batch: it turns Qt Test's
// main() into a registered entry point, so that `cb_core_tests tst_sim -v2` runs what
// `tst_sim -v2` ran. Each test keeps its own namespace in the batch (see the generated
// batch files), so file-local helpers of different tests never meet.
#pragma once

#include <QtTest>

namespace cbtest {

using TestMain = int (*)(int argc, char *argv[]);

/// Registers the test whose QTEST_*MAIN is in `sourceFile`, under the file's base name
/// (tst_sim for .../tst_sim.cpp). Called during static initialisation; returns true.
bool registerTest(const char *sourceFile, TestMain main);

} // namespace cbtest

// Qt Test's QTEST_MAIN, QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN all expand this macro to
// define main(); here it defines the same body under a file-local name and registers it.
#undef QTEST_MAIN_WRAPPER
#define QTEST_MAIN_WRAPPER(TestObject, ...)                                                    \
    static int cbTestMain(int argc, char *argv[])                                              \
    {                                                                                          \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                     \
        __VA_ARGS__                                                                            \
        TestObject tc;                                                                         \
        QTEST_SET_MAIN_SOURCE_PATH                                                             \
        return QTest::qExec(&tc, argc, argv);                                                  \
    }                                                                                          \
    [[maybe_unused]] static const bool cbTestRegistered =                                      \
        ::cbtest::registerTest(__FILE__, &cbTestMain);
