#pragma once
// Helpers shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp). Each harness defines
// LLVMFuzzerTestOneInput; it is linked either with libFuzzer (scripts/fuzz, CNP_FUZZ=ON) or with
// ReplayMain.cpp, which runs it on every file of the seed corpus and of tests/data/fuzz-regressions
// (ctest fuzz/<target>).
// A harness returns normally for input the code refuses the documented way (InputError, Cancelled);
// anything else - a crash, a sanitizer report, any other exception - is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cnp::fuzz {

// Writes `data` to this process's scratch file for `name` (under $TMPDIR or /tmp, rewritten on every
// call) and returns its path: the importers and the workspace read paths.
const std::string& writeScratch(const std::string& name, const std::uint8_t* data, std::size_t size);

// Runs `f`; returns false when it threw InputError or Cancelled (refused input), true when it returned.
template <class F> bool refusesCleanly(F&& f);

// The scratch folder: one per process, removed at exit.
const std::string& scratchDir();

} // namespace cnp::fuzz

#include "core/InputError.h"

template <class F> bool cnp::fuzz::refusesCleanly(F&& f) {
    try {
        f();
        return true;
    } catch (const cnp::InputError&) {
        return false;
    } catch (const cnp::Cancelled&) {
        return false;
    }
}
