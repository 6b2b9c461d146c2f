#pragma once
// Where the tests find the source tree, their data and the programs the build made. Defined in the source
// the build generates from tests/common/TestPaths.cpp.in: the one test object that names this checkout's
// folders, so every other test object is the same in any clone of the tree and a fresh clone (CI's) hits
// the compiler cache (docs/testing.md "Cost in CI").
#include <QString>

namespace testpaths {
QString sourceDir(); // the checkout's root
QString dataDir();   // tests/data
QString cliPath();   // the built `cnp`
QString buildDir();  // the build folder (CPackConfig.cmake: tests/package)
// The built `cnp-workbench`; empty without the GUI (CNP_BUILD_GUI=OFF).
QString workbenchPath();
// The collector, its fake-CUPTI harness and the fake libcupti: empty where they are not built (no CUPTI
// headers; CNP_COLLECTOR_HARNESS_BUILT is then undefined for every test).
QString collectorPath();
QString harnessPath();
QString fakeCuptiPath();
} // namespace testpaths
