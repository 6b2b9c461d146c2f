// Fuzz target: plan YAML. The plan parser (analysis/plan/PlanParser, cnp::plan) is not on main yet, so
// this harness loads the text with yaml-cpp, as the parser will, and walks every node through
// loadPlanText(): retarget that one function to the parser's entry point when it lands. yaml-cpp
// refuses bad YAML with YAML::Exception (the parser turns it into InputError).
#include "FuzzSupport.h"

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

namespace {

// Nesting deeper than this is refused: an alias inside its own anchor (`a: &x {b: *x}`) makes yaml-cpp
// build a cyclic node graph, on which an unbounded walk overflows the stack (found by this harness; the
// plan parser needs the same bound).
constexpr int kMaxDepth = 64;

// Visits every node, converting scalars as the plan model reads them. Recursion depth <= kMaxDepth.
void walk(const YAML::Node& n, int depth = 0) {
    if (depth > kMaxDepth)
        return;
    switch (n.Type()) {
    case YAML::NodeType::Scalar:
        (void)n.as<std::string>();
        try {
            (void)n.as<double>();
        } catch (const YAML::BadConversion&) {
        }
        return;
    case YAML::NodeType::Sequence:
        for (const auto& child : n)
            walk(child, depth + 1);
        return;
    case YAML::NodeType::Map:
        for (const auto& kv : n) {
            walk(kv.first, depth + 1);
            walk(kv.second, depth + 1);
        }
        return;
    default:
        return;
    }
}

// A plan is one YAML document: YAML::Load. (YAML::LoadAll of yaml-cpp 0.7.0 never returns on input as
// small as ",": it keeps yielding empty documents; found by this harness, kept in
// tests/data/fuzz-regressions/plan/.)
void loadPlanText(std::string_view text) {
    walk(YAML::Load(std::string(text)));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        loadPlanText(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const YAML::Exception&) {
    }
    return 0;
}
