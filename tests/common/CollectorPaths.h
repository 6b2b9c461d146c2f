#pragma once
// The collector, its fake-CUPTI harness and the fake CUPTI library the launcher tests run, as paths the
// build defines. Without CUPTI headers none of them is built (collectors/cupti/extra.cmake): the paths are
// empty and kCollectorBuilt is false, so every test that needs them skips.
#include "TestPaths.h"

#ifdef CNP_COLLECTOR_HARNESS_BUILT
constexpr bool kCollectorBuilt = true;
#else
constexpr bool kCollectorBuilt = false;
#endif
