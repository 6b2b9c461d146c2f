// Fuzz target: plan YAML through the real plan parser and linter (analysis/plan): lintPlanText =
// parsePlanText (size and UTF-8 bounds, yaml-cpp load, the typed walk with its node budget, `extends:`
// resolution) + every lint rule (RE2 log regexes, inline DeepSpeed JSON; a DeepSpeed config naming a
// file is looked up next to "fuzz/plan.yaml", a folder that does not exist, so no file is read).
// The parser never throws on bad input (plan/PlanParser.h): every problem is a Finding, so any exception
// here - yaml-cpp's included - is a finding of the fuzzer.
//
// Earlier findings, kept in tests/data/fuzz-regressions/plan/ and replayed by ctest fuzz/plan: yaml-cpp
// 0.7.0's YAML::LoadAll never returns on input as small as "," (a plan is one document: YAML::Load), and
// an alias inside its own anchor makes a cyclic node graph that an unbounded walk overflows the stack on.
#include "FuzzSupport.h"
#include "plan/PlanLint.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const cnp::plan::ParseResult r = cnp::plan::lintPlanText(text, "fuzz/plan.yaml");
    // Every finding names the file and a position (1-based; 0 = the file as a whole), never a negative one.
    for (const auto& f : r.findings)
        if (f.file != "fuzz/plan.yaml" || f.line < 0 || f.column < 0 || f.message.empty())
            __builtin_trap();
    (void)r.ok();
    return 0;
}
